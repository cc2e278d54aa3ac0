// Counting canonical frames on the GPU, the host controller (the kernel: frame_count.cu): the
// frames cut into pieces, biggest frame first, their prepared rows built, everything the launch
// reads uploaded in one copy, the kernel launched once, and each frame handed on (and
// checkpointed) as the kernel raises its flag.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <span>
#include <string>
#include <thread>
#include <utility>

#include "kernels/count_common.cuh"
#include "kernels/frame_count.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/detail/canonical_frames.hpp"
#include "nqueens/error.hpp"
#include "nqueens/detail/frame_pieces.hpp"
#include "nqueens/detail/frame_walk.hpp"

namespace nq::cuda {
namespace {

using nq::detail::canonical_frame;

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
    frame_walk_rows<LookAhead>(n, frames[p].searched, frames[p].stabilizer,
                               rows.data() + p * words);
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
    order[p] = {
        (std::uint64_t{whole} << 63) | (static_cast<std::uint64_t>(s.levels) << 40) | cut[p].size(),
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
  if (impl_->blocks == 0)  // every SM as full as its registers and shared memory allow
    impl_->blocks = cuda::multiprocessors(impl_->device) *
                    cuda::frame_pieces_resident_blocks(impl_->look_ahead, impl_->shared_bytes);
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
  const std::vector<std::uint32_t> rows = impl_->look_ahead == 1
                                              ? cuda::frame_rows<1>(impl_->n, slice)
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
  const cuda::frame_piece_work work{
      .n = impl_->n,
      .rows = reinterpret_cast<const std::uint32_t*>(base + at.rows),
      .pieces = reinterpret_cast<const frame_piece*>(base + at.pieces),
      .count = static_cast<std::uint32_t>(pieces.size()),
      .next = reinterpret_cast<unsigned*>(base + at.next),
      .sums = reinterpret_cast<unsigned long long*>(base + at.sums),
      .remaining = reinterpret_cast<unsigned*>(base + at.remaining),
      .tallies = tallies.device(),
      .finished = done.device(),
      .stop = stop_flag.device(),
      .play = play,
      .lockstep = &lockstep};
  cuda::launch_frame_pieces(impl_->look_ahead, blocks, impl_->shared_bytes, work);
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
