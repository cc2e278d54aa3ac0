// Counting canonical frames on the GPU, the CPU's subproblems: each frame cut into pieces
// (frame_pieces.hpp; the pieces of a frame a rotation fixes check their boards), frames biggest
// first, pulled by one persistent launch from an atomic counter. Each thread runs one flat loop
// (frame_walk.hpp): an iteration tries one node of its piece, or, once the piece's nodes are
// all tried, adds its tally and takes the next piece, so a lane never waits at the end of a
// nested search for the warp's largest piece; lanes wait only once the pieces have run out.
// The node, its look-ahead step and the tally stay in registers; the parents and the frame's
// open columns per row sit in the block's shared memory, each thread's words interleaved with
// its neighbours'. Those open columns are built on the host, once a frame, and uploaded with
// the frames: a take copies them (n - 1 loads, which the frame's other pieces find in L2)
// rather than building each row while its warp waits. A piece's tally is added to its frame's sums;
// the thread that finishes a frame's last piece copies the sums to mapped host memory and raises
// the frame's flag, so the host records whole frames (and checkpoints them) while the launch runs.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <span>
#include <thread>

#include "cpu/frame_engine.hpp"
#include "kernels/count_common.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/error.hpp"
#include "nqueens/frame_pieces.hpp"
#include "nqueens/frame_walk.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned frame_block = 128;
constexpr auto frame_poll_period = std::chrono::milliseconds(20);

using nq::detail::canonical_frame;

/// What one thread carries from one iteration of its loop to the next.
struct frame_lane {
  frame_walk walk;
  std::uint32_t position = 0;  // the frame of the piece held
  std::uint32_t until_check = count_stop_interval;
  bool holding = false;  // a piece taken and not yet added to its frame
#if !defined(__CUDACC__)
  std::uint64_t piece_steps = 0, longest = 0;   // advances of this piece, of the longest
  std::uint64_t rows_built = 0, row_words = 0;  // what this lane's takes did for frame rows
#endif
};

/// What a thread did in one iteration: tried a node or took a piece, waited (only when the
/// host plays the nested loop's schedule), or ended (no piece left, or the stop raised).
enum class lane_turn : std::uint8_t { worked, waited, ended };

/// The host execution's tally of a lockstep play (gpu::frame_lane_play), over every block.
struct lockstep_tally {
  std::atomic<std::uint64_t> lane_steps{0}, idle_lane_steps{0}, warps{0}, longest{0};
  std::atomic<std::uint64_t> rows_built{0}, row_words{0};
};

struct count_frame_pieces {
  struct shared_state {
    unsigned unused;
  };
  int n;
  const canonical_frame* frames;  // by position in the count
  const std::uint32_t* rows;      // per position, frame_walk_row_words(n) (frame_walk_rows)
  const frame_piece* pieces;      // biggest first
  std::uint32_t count;
  unsigned* next;             // device: the next piece to take
  unsigned long long* sums;   // device: per position, solutions then eighths so far
  unsigned* remaining;        // device: per position, pieces not yet finished
  count_tally* tallies;       // mapped: the tally of position i, once final
  unsigned* finished;         // mapped: raised once tallies[i] is final
  const unsigned* stop;       // mapped: raised by the host
  int stack_levels;           // frame_walk_stack_levels(n, depth)
  gpu::frame_lane_play play;  // the host execution's way of playing the lanes
  lockstep_tally* lockstep;   // host: what a lockstep play counted

  template <class Block>
  NQ_HD frame_lane_view lane_words(Block& block, unsigned t) const {
    return {reinterpret_cast<std::uint32_t*>(block.shared()) + t, Block::threads, stack_levels};
  }

  template <class Block>
  NQ_HD void operator()(Block& block, shared_state&) const {
#if !defined(__CUDACC__)
    if (play != gpu::frame_lane_play::threads) return play_in_lockstep(block);
#endif
    // One phase: every thread loops until no piece is left (persistent threads).
    block.each([&](unsigned t) {
      const frame_lane_view words = lane_words(block, t);
      frame_lane lane;
      while (turn(lane, words, true) != lane_turn::ended) {
      }
    });
  }

  /// One iteration of a thread's loop. `may_take`: whether a thread with no piece takes one
  /// (always, but when the host plays the nested loop's schedule).
  NQ_HD lane_turn turn(frame_lane& lane, frame_lane_view words, bool may_take) const {
    if (--lane.until_check == 0) {
      if (stop_raised(stop)) return lane_turn::ended;  // the piece held stays unfinished
      lane.until_check = count_stop_interval;
    }
    if (lane.walk.busy()) {
      lane.walk.advance(words);
#if !defined(__CUDACC__)
      ++lane.piece_steps;
#endif
      return lane_turn::worked;
    }
    if (lane.holding) {
      finish(lane.position, lane.walk.tally());
      lane.holding = false;
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
    const canonical_frame& f = frames[piece.frame];
#if !defined(__CUDACC__)
    const std::uint64_t built = nq::detail::frame_rows_built;
#endif
    // The image its pieces were cut from (cut_frames): a frame a rotation fixes is its own.
    lane.walk.start(
        n, f.searched, f.stabilizer, piece,
        rows + std::size_t{piece.frame} * static_cast<unsigned>(frame_walk_row_words(n)), words);
#if !defined(__CUDACC__)
    lane.rows_built += nq::detail::frame_rows_built - built;  // rows this take built
    lane.row_words += lane.walk.row_words_read;
#endif
    lane.position = piece.frame;
    lane.holding = true;
    return lane_turn::worked;
  }

  /// Adds a piece's tally to its frame; the frame's last piece publishes the frame.
  NQ_HD void finish(std::uint32_t position, const count_tally& tally) const {
    unsigned long long* sum = sums + 2 * std::uint64_t{position};
    atomic_add(sum, static_cast<unsigned long long>(tally.solutions));
    atomic_add(sum + 1, static_cast<unsigned long long>(tally.unique_eighths));
    // acq_rel: the last one sees every other piece's sums.
    if (device_atomic<unsigned>(remaining[position]).fetch_sub(1u, order::memory_order_acq_rel) !=
        1u)
      return;
    tallies[position] = count_tally{load_relaxed(sum), load_relaxed(sum + 1)};
    raise_flag(finished + position);
  }

#if !defined(__CUDACC__)
  /// The host execution's model of the lanes on a device: one phase per iteration, every
  /// lane one turn, and per warp of 32 the turns its lanes sat idle while another lane of the
  /// warp worked (a SIMT warp runs an iteration for all its lanes while any needs it). With
  /// frame_lane_play::warp_fetch a lane takes a piece only once every lane of its warp has
  /// finished theirs: the schedule of a nested loop (take a piece, search it), whose lanes
  /// wait at the end of the search for the warp's largest piece.
  template <class Block>
  void play_in_lockstep(Block& block) const {
    constexpr unsigned warp_lanes = 32;
    constexpr unsigned warps = Block::threads / warp_lanes;
    static_assert(Block::threads % warp_lanes == 0, "whole warps");
    per_thread<frame_lane, Block::copies> lanes;
    per_thread<lane_turn, Block::copies> last;
    per_thread<bool, Block::copies> took;
    block.each([&](unsigned t) {
      lanes[t] = frame_lane{};
      last[t] = lane_turn::worked;
    });
    const bool own = play == gpu::frame_lane_play::lockstep;
    std::uint64_t lane_steps = 0, idle = 0;
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
        last[t] = turn(lanes[t], lane_words(block, t), own || warp_empty[t / warp_lanes]);
        took[t] = last[t] != lane_turn::waited;  // an end is a turn too: the take that failed
      });
      any = false;
      for (unsigned w = 0; w < warps; ++w) {
        std::uint64_t worked = 0;
        for (unsigned t = w * warp_lanes; t < (w + 1) * warp_lanes; ++t) {
          worked += took[t] ? 1 : 0;
          any |= last[t] != lane_turn::ended;
          had_piece[w] |= last[t] == lane_turn::worked;
        }
        if (worked == 0) continue;
        lane_steps += worked;
        idle += warp_lanes - worked;
      }
    }
    std::uint64_t longest = 0;
    std::uint64_t rows_built = 0, row_words = 0;
    for (unsigned t = 0; t < Block::threads; ++t) {
      longest = std::max(longest, lanes[t].longest);
      rows_built += lanes[t].rows_built;
      row_words += lanes[t].row_words;
    }
    lockstep->rows_built += rows_built;
    lockstep->row_words += row_words;
    lockstep->lane_steps += lane_steps;
    lockstep->idle_lane_steps += idle;
    lockstep->warps += static_cast<std::uint64_t>(std::count(had_piece, had_piece + warps, true));
    for (std::uint64_t seen = lockstep->longest.load();
         longest > seen && !lockstep->longest.compare_exchange_weak(seen, longest);) {
    }
  }
#endif
};

/// Where each array of a count sits in its one device allocation, uploaded in one copy: the
/// frames' sums (zeroed), the frames, their rows, the pieces, the frames' pieces left, the piece
/// counter.
struct count_image {
  static std::size_t align(std::size_t at) { return (at + 15) / 16 * 16; }
  std::size_t sums = 0, frames, rows, pieces, remaining, next, bytes;
  count_image(std::size_t count, std::size_t row_words, std::size_t piece_count) {
    frames = align(sums + 2 * count * sizeof(unsigned long long));
    rows = align(frames + count * sizeof(canonical_frame));
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

/// The rows (frame_walk_rows) of each position's frame, frame_walk_row_words(n) words a
/// position, of the image its pieces search (`searched`, which cut_frames cuts).
std::vector<std::uint32_t> frame_rows(int n, const std::vector<canonical_frame>& frames) {
  const auto words = static_cast<std::size_t>(frame_walk_row_words(n));
  std::vector<std::uint32_t> rows(frames.size() * words, 0);
  for (std::size_t p = 0; p < frames.size(); ++p)
    frame_walk_rows(n, frames[p].searched, rows.data() + p * words);
  return rows;
}

/// The pieces of frames[p] for every position p, frame by frame, biggest frame first: whole
/// frames (searched a node at a time by one thread), then by free rows, then by pieces. A frame's
/// pieces stay together, so frames finish (and reach the checkpoint) steadily rather than all at
/// the end, and the tail is the smallest frames' pieces. `pieces_of[p]` gets each frame's piece
/// count. Checks that each piece's parents fit a walk's `stack_levels`.
std::vector<frame_piece> cut_frames(int n, int depth, int stack_levels,
                                    const std::vector<canonical_frame>& frames,
                                    std::vector<unsigned>& pieces_of) {
  std::vector<frame_piece> cut;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order;  // (size key, position)
  std::vector<std::size_t> first(frames.size() + 1, 0);
  pieces_of.assign(frames.size(), 0);
  for (std::uint32_t p = 0; p < frames.size(); ++p) {
    const frame_search s = prepare_frame_search(n, frames[p].searched);
    first[p] = cut.size();
    bool whole = false;
    split_frame(s, frames[p].stabilizer, p, depth, [&](const frame_piece& piece) {
      NQ_EXPECTS(piece.whole() || s.levels - 2 - piece.level <= stack_levels,
                 "a piece's parents fit its walk's stack");
      whole |= piece.whole();
      cut.push_back(piece);
    });
    pieces_of[p] = static_cast<unsigned>(cut.size() - first[p]);
    const std::uint64_t key =
        (std::uint64_t{whole} << 63) | (static_cast<std::uint64_t>(s.levels) << 40) | pieces_of[p];
    order.emplace_back(key, p);
  }
  first[frames.size()] = cut.size();
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<frame_piece> pieces;
  pieces.reserve(cut.size());
  for (const auto& [key, p] : order)
    pieces.insert(pieces.end(), cut.begin() + static_cast<std::ptrdiff_t>(first[p]),
                  cut.begin() + static_cast<std::ptrdiff_t>(first[p + 1]));
  return pieces;
}

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

struct frame_counter::impl {
  int n = 0;
  int device = 0;
  int depth = 0;
  int stack_levels = 0;
  std::vector<nq::detail::canonical_frame> frames;
  unsigned blocks = 0;  // found on the first count, on the counter's device
  std::size_t shared_bytes = 0;
  double kernel_seconds = 0.0;
  frame_count_stats stats;
};

namespace {
std::atomic<frame_lane_play> host_lane_play{frame_lane_play::threads};
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

frame_counter::frame_counter(int n, int depth, int device) {
  NQ_EXPECTS(n >= 4 && n <= max_count_n, "frames need n from 4 to 32");
  if (device < 0 || device >= device_count())
    throw cuda_error("no CUDA device " + std::to_string(device));
  impl_ = std::make_unique<impl>();
  impl_->n = n;
  impl_->device = device;
  impl_->depth = depth < 0 ? frame_piece_depth(n) : depth;
  impl_->frames = *nq::detail::oriented_frames(n);  // oriented once for every device
  // split_frame cuts a frame a rotation fixes no deeper than max_path_levels: its pieces'
  // parents start there at the deepest.
  impl_->stack_levels = frame_walk_stack_levels(n, std::min(impl_->depth, max_path_levels));
  impl_->shared_bytes = std::size_t{cuda::frame_block} * sizeof(std::uint32_t) *
                        static_cast<std::size_t>(frame_lane_words(n, impl_->stack_levels));
}

frame_counter::~frame_counter() = default;

std::size_t frame_counter::frames() const { return impl_->frames.size(); }

void frame_counter::count(
    const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
    const std::function<void(std::span<const finished_subproblem>)>& finished) {
  if (indices.empty()) return;
  cuda::use_device(impl_->device);
  if (impl_->blocks == 0)  // every SM as full as its registers and shared memory allow
    impl_->blocks =
        cuda::multiprocessors(impl_->device) *
        cuda::resident_blocks<cuda::frame_block, cuda::count_frame_pieces>(impl_->shared_bytes);
  const auto count = static_cast<std::uint32_t>(indices.size());
  NQ_EXPECTS(indices.size() <= UINT32_MAX, "positions fit 32 bits");
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
  const std::vector<std::uint32_t> rows = cuda::frame_rows(impl_->n, slice);
  const cuda::count_image at(count, static_cast<std::size_t>(frame_walk_row_words(impl_->n)),
                             pieces.size());
  std::vector<unsigned char> image(at.bytes, 0);
  cuda::place(image, at.frames, slice);
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
  cuda::launch_blocks<cuda::frame_block>(
      "count_frame_pieces", blocks, impl_->shared_bytes,
      cuda::count_frame_pieces{
          impl_->n, reinterpret_cast<const nq::detail::canonical_frame*>(base + at.frames),
          reinterpret_cast<const std::uint32_t*>(base + at.rows),
          reinterpret_cast<const frame_piece*>(base + at.pieces),
          static_cast<std::uint32_t>(pieces.size()), reinterpret_cast<unsigned*>(base + at.next),
          reinterpret_cast<unsigned long long*>(base + at.sums),
          reinterpret_cast<unsigned*>(base + at.remaining), tallies.device(), done.device(),
          stop_flag.device(), impl_->stack_levels, play, &lockstep});
  try {
    end.record();
    for (bool raised = false;;) {
      const bool over = cuda::stream_idle();  // then every flag it raised is visible below
      batch.clear();
      std::size_t kept = 0;
      for (const std::uint32_t position : waiting) {
        if (cuda::read_flag(done.host() + position))
          batch.push_back({position, tallies.host()[position]});
        else
          waiting[kept++] = position;
      }
      waiting.resize(kept);
      if (!batch.empty()) finished(batch);
      if (over) break;
      if (!raised && stop && stop->load(std::memory_order_relaxed)) {
        cuda::raise_flag(stop_flag.host());
        raised = true;
      }
      std::this_thread::sleep_for(cuda::frame_poll_period);
    }
    cuda::synchronize();  // reports a failed kernel
  } catch (...) {
    cuda::stop_and_wait(stop_flag.host());
    throw;
  }
  impl_->kernel_seconds += cuda::elapsed_seconds(start, end);
  impl_->stats.lane_steps = lockstep.lane_steps.load();
  impl_->stats.idle_lane_steps = lockstep.idle_lane_steps.load();
  impl_->stats.warps = lockstep.warps.load();
  impl_->stats.longest_piece_steps = lockstep.longest.load();
  impl_->stats.take_rows_built = lockstep.rows_built.load();
  impl_->stats.take_row_words = lockstep.row_words.load();
}

std::vector<count_tally> frame_counter::count(const std::vector<std::uint32_t>& indices) {
  return cuda::collect_tallies(indices.size(), "the GPU frame counter left a frame unfinished",
                               [&](const auto& finished) { count(indices, nullptr, finished); });
}

double frame_counter::kernel_seconds() const { return impl_->kernel_seconds; }

frame_count_stats frame_counter::stats() const { return impl_->stats; }

}  // namespace nq::gpu
