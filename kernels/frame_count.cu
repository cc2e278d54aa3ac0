// Counting canonical frames on the GPU, the CPU's subproblems: each frame cut into pieces
// (frame_pieces.hpp; frames with a corner queen one row deeper, frame_cut_depth; the pieces of a
// frame a rotation fixes check their boards), frames biggest first, pulled by one persistent
// launch from an atomic counter. Each thread runs one flat loop (frame_walk.hpp): an iteration
// places one queen of its piece on one branch-free path, taking the next piece first when its
// piece is done, so a lane never waits at the end of a nested search for the warp's largest
// piece, and lanes wait only once the pieces have run out. The node and the tally stay in
// registers; the parents sit in the block's shared memory, one 16-byte entry a level, the
// threads' entries side by side. Each level's step (the next rows' open columns and shifts) is
// built on the host, once a frame, uploaded with the frames and read through the read-only
// cache when a lane changes level. The look-ahead is the kernel's template parameter (3 as the
// CPU's; 1 tries 14% more nodes, each cheaper). A piece's tally is added to its frame's sums;
// the thread that finishes a frame's last piece copies the sums to mapped host memory and raises
// the frame's flag, so the host records whole frames (and checkpoints them) while the launch runs.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <span>
#include <string>
#include <thread>
#include <utility>

#include "kernels/count_common.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/detail/canonical_frames.hpp"
#include "nqueens/error.hpp"
#include "nqueens/frame_pieces.hpp"
#include "nqueens/frame_walk.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned frame_block = 128;

using nq::detail::canonical_frame;

/// What one thread carries from one iteration of its loop to the next.
template <int LookAhead>
struct frame_lane {
  frame_walk<LookAhead> walk;
  static constexpr std::uint32_t none = ~0u;
  std::uint32_t position = none;  // the frame of the piece held (none: no piece to add)
  std::uint32_t until_check = count_stop_interval;
#if !defined(__CUDACC__)
  std::uint64_t piece_steps = 0, longest = 0;   // advances of this piece, of the longest
  std::uint64_t rows_built = 0, row_words = 0;  // what this lane's takes did for frame rows
  std::uint64_t nodes = 0;                      // advances (queens placed)
  bool took = false, plain = false, fixed = false;  // what the last turn ran
#endif
};

/// What a thread did in one iteration: placed a queen or took a piece, waited (only when the
/// host plays the nested loop's schedule), or ended (no piece left, or the stop raised).
enum class lane_turn : int { worked, waited, ended };  // int: no byte to widen a turn

/// The host execution's tally of a lockstep play (gpu::frame_lane_play), over every block.
struct lockstep_tally {
  std::atomic<std::uint64_t> lane_steps{0}, idle_lane_steps{0}, warps{0}, longest{0};
  std::atomic<std::uint64_t> rows_built{0}, row_words{0}, nodes{0};
  std::atomic<std::uint64_t> warp_steps{0}, take_warp_steps{0}, plain_warp_steps{0};
  std::atomic<std::uint64_t> fixed_warp_steps{0};
};

template <int LookAhead>
struct count_frame_pieces {
  /// Blocks of 128 an SM holds at n = 21 (52 words of shared memory a lane): registers are
  /// held to 64 a thread for them.
  static constexpr unsigned resident_blocks = 8;
  struct shared_state {
    unsigned unused;
  };
  int n;
  const std::uint32_t* rows;  // per position, frame_step_layout<LookAhead>::frame_words(n)
  const frame_piece* pieces;      // biggest first
  std::uint32_t count;
  unsigned* next;             // device: the next piece to take
  unsigned long long* sums;   // device: per position, solutions then eighths so far
  unsigned* remaining;        // device: per position, pieces not yet finished
  count_tally* tallies;       // mapped: the tally of position i, once final
  unsigned* finished;         // mapped: raised once tallies[i] is final
  const unsigned* stop;       // mapped: raised by the host
  gpu::frame_lane_play play;  // the host execution's way of playing the lanes
  lockstep_tally* lockstep;   // host: what a lockstep play counted

  template <class Block>
  NQ_HD frame_lane_view lane_entries(Block& block, unsigned t) const {
    return frame_lane_view::of(reinterpret_cast<frame_entry*>(block.shared()) + t,
                               Block::threads);
  }

  template <class Block>
  NQ_HD void operator()(Block& block, shared_state&) const {
#if !defined(__CUDACC__)
    if (play != gpu::frame_lane_play::threads) return play_in_lockstep(block);
#endif
    // One phase: every thread loops until no piece is left (persistent threads).
    block.each([&](unsigned t) {
      const frame_lane_view entries = lane_entries(block, t);
      frame_lane<LookAhead> lane;
      while (turn(lane, entries, true) != lane_turn::ended) {
      }
    });
  }

  /// One iteration of a thread's loop: a queen placed, after taking the next piece when the
  /// last is done. `may_take`: whether a thread with no piece takes one (always, but when the
  /// host plays the nested loop's schedule).
  NQ_HD lane_turn turn(frame_lane<LookAhead>& lane, frame_lane_view entries, bool may_take) const {
    if (--lane.until_check == 0) {
      if (stop_raised(stop)) return lane_turn::ended;  // the piece held stays unfinished
      lane.until_check = count_stop_interval;
      lane.walk.flush_leaves();  // its 32-bit count never overflows between two checks
    }
#if !defined(__CUDACC__)
    lane.took = lane.plain = lane.fixed = false;
#endif
    if (!lane.walk.busy()) {
      const lane_turn took = take(lane, may_take);
      if (took != lane_turn::worked || !lane.walk.busy()) return took;  // a whole piece: done
    }
    if (lane.walk.checks_boards())
      lane.walk.template advance<true>(entries);
    else
      lane.walk.template advance<false>(entries);
#if !defined(__CUDACC__)
    ++lane.piece_steps, ++lane.nodes;
    (lane.walk.checks_boards() ? lane.fixed : lane.plain) = true;
#endif
    return lane_turn::worked;
  }

  /// Adds the finished piece's tally to its frame, then takes the next piece (the rare path
  /// of the loop: once a piece).
  NQ_HD lane_turn take(frame_lane<LookAhead>& lane, bool may_take) const {
    if (lane.position != lane.none) {
      finish(lane.position, lane.walk.tally(), lane.walk.checks_boards());
      lane.position = lane.none;
#if !defined(__CUDACC__)
      lane.longest = std::max(lane.longest, lane.piece_steps);
      lane.piece_steps = 0;
#endif
    }
    if (!may_take) return lane_turn::waited;
#if !defined(__CUDA_ARCH__)
    // Before each take too, in the host execution only: a lane that starts after the stop (it
    // runs its lanes one after another) ends at once, not count_stop_interval turns later. On
    // the device the flag is mapped host memory, a PCIe read on a path each lane runs alone;
    // the check every count_stop_interval turns ends its lanes in time.
    if (stop_raised(stop)) return lane_turn::ended;
#endif
    const unsigned i = atomic_add(next, 1u);
    if (i >= count) return lane_turn::ended;
    const frame_piece piece = pieces[i];
#if !defined(__CUDACC__)
    const std::uint64_t built = nq::detail::frame_rows_built;
    lane.took = true;
#endif
    // The rows of the image its pieces were cut from (cut_frames).
    lane.walk.start(piece, rows + std::size_t{piece.frame} * static_cast<unsigned>(
                                      frame_step_layout<LookAhead>::frame_words(n)));
#if !defined(__CUDACC__)
    lane.rows_built += nq::detail::frame_rows_built - built;  // rows this take built
    lane.row_words += lane.walk.row_words_read;
#endif
    lane.position = piece.frame;
    return lane_turn::worked;
  }

  /// Adds a piece's tally to its frame; the frame's last piece publishes the frame. A frame no
  /// rotation fixes (`checked` false) counts as many eighths as solutions: one sum.
  NQ_HD void finish(std::uint32_t position, const count_tally& tally, bool checked) const {
    unsigned long long* sum = sums + 2 * std::uint64_t{position};
    atomic_add(sum, static_cast<unsigned long long>(tally.solutions));
    if (checked) atomic_add(sum + 1, static_cast<unsigned long long>(tally.unique_eighths));
    // acq_rel: the last one sees every other piece's sums.
    if (device_atomic<unsigned>(remaining[position]).fetch_sub(1u, order::memory_order_acq_rel) !=
        1u)
      return;
    const unsigned long long solutions = load_relaxed(sum);
    tallies[position] = count_tally{solutions, checked ? load_relaxed(sum + 1) : solutions};
    raise_flag(finished + position);
  }

#if !defined(__CUDACC__)
  /// The host execution's model of the lanes on a device: one phase per iteration, every
  /// lane one turn, and per warp of 32 the turns its lanes sat idle while another lane of the
  /// warp worked (a SIMT warp runs an iteration for all its lanes while any needs it), and the
  /// iterations in which any of its lanes took a piece, placed a queen of a plain frame or of
  /// a frame a rotation fixes: what a warp issues (bench/frame_loop_cost.py). With
  /// frame_lane_play::warp_fetch a lane takes a piece only once every lane of its warp has
  /// finished theirs: the schedule of a nested loop (take a piece, search it), whose lanes
  /// wait at the end of the search for the warp's largest piece.
  template <class Block>
  void play_in_lockstep(Block& block) const {
    constexpr unsigned warp_lanes = 32;
    constexpr unsigned warps = Block::threads / warp_lanes;
    static_assert(Block::threads % warp_lanes == 0, "whole warps");
    per_thread<frame_lane<LookAhead>, Block::copies> lanes;
    per_thread<lane_turn, Block::copies> last;
    per_thread<bool, Block::copies> took;
    block.each([&](unsigned t) {
      lanes[t] = frame_lane<LookAhead>{};
      last[t] = lane_turn::worked;
    });
    const bool own = play == gpu::frame_lane_play::lockstep;
    std::uint64_t lane_steps = 0, idle = 0, warp_steps = 0, takes = 0, plains = 0, fixeds = 0;
    bool had_piece[warps] = {};
    for (bool any = true; any;) {
      bool warp_empty[warps];
      for (unsigned w = 0; w < warps; ++w) {
        warp_empty[w] = true;
        for (unsigned t = w * warp_lanes; t < (w + 1) * warp_lanes; ++t)
          warp_empty[w] &= last[t] == lane_turn::ended || !lanes[t].walk.busy();
      }
      block.each([&](unsigned t) {
        took[t] = false;
        if (last[t] == lane_turn::ended) return;
        last[t] = turn(lanes[t], lane_entries(block, t), own || warp_empty[t / warp_lanes]);
        took[t] = last[t] != lane_turn::waited;  // an end is a turn too: the take that failed
      });
      any = false;
      for (unsigned w = 0; w < warps; ++w) {
        std::uint64_t worked = 0;
        bool take = false, plain = false, fixed = false;
        for (unsigned t = w * warp_lanes; t < (w + 1) * warp_lanes; ++t) {
          worked += took[t] ? 1 : 0;
          any |= last[t] != lane_turn::ended;
          had_piece[w] |= last[t] == lane_turn::worked;
          if (!took[t]) continue;
          take |= lanes[t].took || last[t] == lane_turn::ended;
          plain |= lanes[t].plain, fixed |= lanes[t].fixed;
        }
        if (worked == 0) continue;
        lane_steps += worked;
        idle += warp_lanes - worked;
        ++warp_steps;
        takes += take, plains += plain, fixeds += fixed;
      }
    }
    std::uint64_t longest = 0, rows_built = 0, row_words = 0, nodes = 0;
    for (unsigned t = 0; t < Block::threads; ++t) {
      longest = std::max(longest, lanes[t].longest);
      rows_built += lanes[t].rows_built;
      row_words += lanes[t].row_words;
      nodes += lanes[t].nodes;
    }
    lockstep->rows_built += rows_built;
    lockstep->row_words += row_words;
    lockstep->nodes += nodes;
    lockstep->lane_steps += lane_steps;
    lockstep->idle_lane_steps += idle;
    lockstep->warp_steps += warp_steps;
    lockstep->take_warp_steps += takes;
    lockstep->plain_warp_steps += plains;
    lockstep->fixed_warp_steps += fixeds;
    lockstep->warps += static_cast<std::uint64_t>(std::count(had_piece, had_piece + warps, true));
    for (std::uint64_t seen = lockstep->longest.load();
         longest > seen && !lockstep->longest.compare_exchange_weak(seen, longest);) {
    }
  }
#endif
};

/// Where each array of a count sits in its one device allocation, uploaded in one copy: the
/// frames' sums (zeroed), their prepared rows (16-byte aligned: a step is whole 16-byte loads),
/// the pieces, the frames' pieces left, the piece counter.
struct count_image {
  static std::size_t align(std::size_t at) { return (at + 15) / 16 * 16; }
  std::size_t sums = 0, rows, pieces, remaining, next, bytes;
  count_image(std::size_t count, std::size_t row_words, std::size_t piece_count) {
    rows = align(sums + 2 * count * sizeof(unsigned long long));
    pieces = align(rows + count * row_words * sizeof(std::uint32_t));
    remaining = align(pieces + piece_count * sizeof(frame_piece));
    next = align(remaining + count * sizeof(unsigned));
    bytes = align(next + sizeof(unsigned));
  }
};

/// Copies `items` into `image` from byte `at` on.
template <class T>
void place(std::vector<unsigned char>& image, std::size_t at, const std::vector<T>& items) {
  const auto bytes = std::as_bytes(std::span<const T>(items));
  std::transform(bytes.begin(), bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(at),
                 [](std::byte b) { return static_cast<unsigned char>(b); });
}

/// The prepared rows (frame_walk_rows<LookAhead>) of each position's frame, frame_step_layout<
/// LookAhead>::frame_words(n) words a position, of the image its pieces search (`searched`,
/// which cut_frames cuts).
template <int LookAhead>
std::vector<std::uint32_t> frame_rows(int n, const std::vector<canonical_frame>& frames) {
  const auto words = static_cast<std::size_t>(frame_step_layout<LookAhead>::frame_words(n));
  std::vector<std::uint32_t> rows(frames.size() * words, 0);
  for (std::size_t p = 0; p < frames.size(); ++p)
    frame_walk_rows<LookAhead>(n, frames[p].searched, frames[p].stabilizer, rows.data() + p * words);
  return rows;
}

/// The pieces of frames[p] for every position p, frame by frame, biggest frame first: whole
/// frames (searched a node at a time by one thread), then by free rows, then by pieces. A frame's
/// pieces stay together, so frames finish (and reach the checkpoint) steadily rather than all at
/// the end, and the tail is the smallest frames' pieces. `pieces_of[p]` gets each frame's piece
/// count. Each frame is cut at frame_cut_depth(depth): frames with a corner queen, whose
/// pieces are the largest, a row deeper. Checks that each piece's parents fit a walk's
/// `stack_levels`.
std::vector<frame_piece> cut_frames(int n, int depth, int stack_levels,
                                    const std::vector<canonical_frame>& frames,
                                    std::vector<unsigned>& pieces_of) {
  // Each frame's pieces and size key, frames shared out among threads in turn (60 ms at
  // n = 18 on one core of this VM, 160 ms at 21).
  std::vector<std::vector<frame_piece>> cut(frames.size());
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order(frames.size());  // (key, position)
  const auto cut_frame = [&](std::uint32_t p) {  // false: a piece's parents overflow the stack
    const frame_search s = prepare_frame_search(n, frames[p].searched);
    bool whole = false, fits = true;
    split_frame_for_walk(n, depth, s, frames[p].stabilizer, p, [&](const frame_piece& piece) {
      fits &= piece.whole() || s.levels - 2 - piece.level <= stack_levels;
      whole |= piece.whole();
      cut[p].push_back(piece);
    });
    order[p] = {(std::uint64_t{whole} << 63) | (static_cast<std::uint64_t>(s.levels) << 40) |
                    cut[p].size(),
                p};
    return fits;
  };
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  std::atomic<bool> fits{true};
  if (threads == 1 || frames.size() < 256) {
    for (std::uint32_t p = 0; p < frames.size(); ++p) fits = cut_frame(p) && fits;
  } else {
    std::vector<std::exception_ptr> failed(threads);  // bad_alloc: rethrown here, not terminate
    {
      std::vector<std::jthread> workers;
      for (unsigned t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
          try {
            for (std::size_t p = t; p < frames.size(); p += threads)
              if (!cut_frame(static_cast<std::uint32_t>(p))) fits = false;
          } catch (...) {
            failed[t] = std::current_exception();
          }
        });
    }
    for (const std::exception_ptr& e : failed)
      if (e) std::rethrow_exception(e);
  }
  NQ_EXPECTS(fits, "a piece's parents fit its walk's stack");
  pieces_of.assign(frames.size(), 0);
  std::size_t total = 0;
  for (std::uint32_t p = 0; p < frames.size(); ++p) {
    pieces_of[p] = static_cast<unsigned>(cut[p].size());
    total += cut[p].size();
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<frame_piece> pieces;
  pieces.reserve(total);
  for (const auto& [key, p] : order) pieces.insert(pieces.end(), cut[p].begin(), cut[p].end());
  return pieces;
}

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

struct frame_counter::impl {
  int n = 0;
  int device = 0;
  int depth = 0;
  int look_ahead = frame_look_ahead;
  int stack_levels = 0;
  std::vector<nq::detail::canonical_frame> frames;
  unsigned blocks = 0;  // found on the first count, on the counter's device
  std::size_t shared_bytes = 0;
  double kernel_seconds = 0.0;
  frame_count_stats stats;
};

namespace {
std::atomic<frame_lane_play> host_lane_play{frame_lane_play::threads};

/// The look-ahead NQ_GPU_LOOK_AHEAD asks for: 1 or 3, gpu::frame_kernel_look_ahead when unset.
int frame_look_ahead_from(const char* setting) {
  if (setting == nullptr || *setting == '\0') return frame_kernel_look_ahead;
  const std::string text(setting);
  if (text == "1") return 1;
  if (text == "3") return 3;
  throw usage_error("NQ_GPU_LOOK_AHEAD must be 1 or 3, got '" + text + "'");
}
}  // namespace

bool set_host_frame_lanes(frame_lane_play play) {
#if defined(__CUDACC__)
  (void)play;
  return false;
#else
  host_lane_play.store(play);
  return true;
#endif
}

frame_counter::frame_counter(int n, int depth, int device, int look_ahead) {
  NQ_EXPECTS(n >= 4 && n <= max_count_n, "frames need n from 4 to 32");
  NQ_EXPECTS(look_ahead < 0 || look_ahead == 1 || look_ahead == 3, "a look-ahead of 1 or 3 rows");
  if (device < 0 || device >= device_count())
    throw cuda_error("no CUDA device " + std::to_string(device));
  impl_ = std::make_unique<impl>();
  impl_->n = n;
  impl_->device = device;
  impl_->depth = depth < 0 ? frame_piece_depth(n) : depth;
  impl_->look_ahead =
      look_ahead < 0 ? frame_look_ahead_from(std::getenv("NQ_GPU_LOOK_AHEAD")) : look_ahead;
  {
    // The device's context (cudaSetDevice makes it: 0.1 to 0.3 s on a large GPU) is made on a
    // thread of its own while the frames are oriented (0.1 to 0.2 s at n = 18 on 2 cores).
    std::exception_ptr refused;
    std::jthread context([&] {
      try {
        cuda::use_device(device);
      } catch (...) {
        refused = std::current_exception();
      }
    });
    impl_->frames = *nq::detail::oriented_frames(n);  // oriented once for every device
    context.join();
    if (refused) std::rethrow_exception(refused);
  }
  impl_->stack_levels = frame_walk_stack_levels(n, impl_->depth);
  impl_->shared_bytes = std::size_t{cuda::frame_block} * sizeof(std::uint32_t) *
                        static_cast<std::size_t>(frame_lane_words(impl_->stack_levels));
}

frame_counter::~frame_counter() = default;

std::size_t frame_counter::frames() const { return impl_->frames.size(); }

void frame_counter::count(
    const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
    const std::function<void(std::span<const finished_subproblem>)>& finished) {
  if (indices.empty()) return;
  cuda::use_device(impl_->device);
  // The kernel of the counter's look-ahead, given as a type to `run`.
  const auto with_kernel = [&](auto run) {
    if (impl_->look_ahead == 1) return run(cuda::count_frame_pieces<1>{});
    return run(cuda::count_frame_pieces<frame_look_ahead>{});
  };
  if (impl_->blocks == 0)  // every SM as full as its registers and shared memory allow
    impl_->blocks = with_kernel([&](auto kernel) {
      return cuda::multiprocessors(impl_->device) *
             cuda::resident_blocks<cuda::frame_block, decltype(kernel)>(impl_->shared_bytes);
    });
  const auto count = static_cast<std::uint32_t>(indices.size());
  NQ_EXPECTS(indices.size() < UINT32_MAX, "positions fit 32 bits (~0 means none)");
  std::vector<nq::detail::canonical_frame> slice(count);
  for (std::uint32_t p = 0; p < count; ++p) {
    NQ_EXPECTS(indices[p] < impl_->frames.size(), "frame indices in range");
    slice[p] = impl_->frames[indices[p]];
  }
  std::vector<unsigned> pieces_of;
  const std::vector<frame_piece> pieces =
      cuda::cut_frames(impl_->n, impl_->depth, impl_->stack_levels, slice, pieces_of);
  NQ_EXPECTS(pieces.size() <= UINT32_MAX - std::uint64_t{impl_->blocks} * cuda::frame_block,
             "piece numbers fit 32 bits");
  impl_->stats = {};
  impl_->stats.pieces = pieces.size();
  impl_->stats.look_ahead = static_cast<std::uint64_t>(impl_->look_ahead);
  impl_->stats.stack_levels = static_cast<std::uint64_t>(impl_->stack_levels);
  impl_->stats.shared_bytes = impl_->shared_bytes;
  impl_->stats.whole_frames = static_cast<std::uint64_t>(
      std::count_if(pieces.begin(), pieces.end(), [](const frame_piece& p) { return p.whole(); }));
  // Frames with no live node at the piece depth are done before anything runs.
  std::vector<std::uint32_t> waiting;
  std::vector<finished_subproblem> batch;
  for (std::uint32_t p = 0; p < count; ++p) {
    if (pieces_of[p] == 0)
      batch.push_back({p, count_tally{}});
    else
      waiting.push_back(p);
  }
  if (!batch.empty()) finished(batch);
  if (pieces.empty()) return;
  // Everything the launch reads, and its zeroed sums and counter, in one allocation and one copy.
  const std::vector<std::uint32_t> rows =
      impl_->look_ahead == 1 ? cuda::frame_rows<1>(impl_->n, slice)
                             : cuda::frame_rows<frame_look_ahead>(impl_->n, slice);
  const cuda::count_image at(count, rows.size() / count, pieces.size());
  std::vector<unsigned char> image(at.bytes, 0);
  cuda::place(image, at.rows, rows);
  cuda::place(image, at.pieces, pieces);
  cuda::place(image, at.remaining, pieces_of);
  cuda::device_buffer<unsigned char> d_image(at.bytes);
  cuda::copy_to_device(d_image.data(), image.data(), at.bytes);
  unsigned char* const base = d_image.data();
  cuda::mapped_buffer<count_tally> tallies(count);
  cuda::mapped_buffer<unsigned> done(count), stop_flag(1);
  cuda::lockstep_tally lockstep;
  // A lockstep play (host execution, budget tests) in one block: its idle turns then depend on
  // the warps' schedule alone, not on how many blocks the host's threads start before the
  // pieces run out.
  const gpu::frame_lane_play play = host_lane_play.load();
  const unsigned blocks = play == gpu::frame_lane_play::threads ? impl_->blocks : 1;
  impl_->stats.blocks = blocks;
  cuda::cuda_event start, end;
  start.record();
  with_kernel([&](auto kernel) {
    kernel = {impl_->n,
              reinterpret_cast<const std::uint32_t*>(base + at.rows),
              reinterpret_cast<const frame_piece*>(base + at.pieces),
              static_cast<std::uint32_t>(pieces.size()),
              reinterpret_cast<unsigned*>(base + at.next),
              reinterpret_cast<unsigned long long*>(base + at.sums),
              reinterpret_cast<unsigned*>(base + at.remaining),
              tallies.device(),
              done.device(),
              stop_flag.device(),
              play,
              &lockstep};
    cuda::launch_blocks<cuda::frame_block>("count_frame_pieces", blocks, impl_->shared_bytes,
                                           kernel);
    return 0;
  });
  cuda::follow_count(end, std::move(waiting), tallies, done, stop_flag, stop, finished);
  impl_->kernel_seconds += cuda::elapsed_seconds(start, end);
  impl_->stats.lane_steps = lockstep.lane_steps.load();
  impl_->stats.idle_lane_steps = lockstep.idle_lane_steps.load();
  impl_->stats.warps = lockstep.warps.load();
  impl_->stats.longest_piece_steps = lockstep.longest.load();
  impl_->stats.take_rows_built = lockstep.rows_built.load();
  impl_->stats.take_row_words = lockstep.row_words.load();
  impl_->stats.nodes = lockstep.nodes.load();
  impl_->stats.warp_steps = lockstep.warp_steps.load();
  impl_->stats.take_warp_steps = lockstep.take_warp_steps.load();
  impl_->stats.plain_warp_steps = lockstep.plain_warp_steps.load();
  impl_->stats.fixed_warp_steps = lockstep.fixed_warp_steps.load();
}

std::vector<count_tally> frame_counter::count(const std::vector<std::uint32_t>& indices) {
  return cuda::collect_tallies(indices.size(), "the GPU frame counter left a frame unfinished",
                               [&](const auto& finished) { count(indices, nullptr, finished); });
}

double frame_counter::kernel_seconds() const { return impl_->kernel_seconds; }

frame_count_stats frame_counter::stats() const { return impl_->stats; }

}  // namespace nq::gpu
