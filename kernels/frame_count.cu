// Counting canonical frames on the GPU, the CPU's subproblems: each frame cut into pieces
// (frame_pieces.hpp; the pieces of a frame a rotation fixes check their boards), frames biggest
// first, pulled by one persistent launch from an atomic counter. A thread's search stack lives
// in the block's shared memory, interleaved with its neighbours'. A piece's tally is added to
// its frame's sums; the thread that finishes a frame's last piece copies the sums to mapped
// host memory and raises the frame's flag, so the host records whole frames (and checkpoints
// them) while the launch runs.

#include <algorithm>
#include <chrono>
#include <thread>

#include "cpu/frame_engine.hpp"
#include "kernels/count_common.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/error.hpp"
#include "nqueens/frame_pieces.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned frame_block = 128;
constexpr auto frame_poll_period = std::chrono::milliseconds(20);
/// Shared memory the stacks of one SM's blocks may take together (of 228 KiB on the H100).
constexpr std::size_t stack_bytes_per_sm = 192 * 1024;
constexpr unsigned max_blocks_per_sm = 8;

using nq::detail::canonical_frame;

struct count_frame_pieces {
  struct shared_state {
    unsigned unused;
  };
  int n;
  const canonical_frame* frames;  // by position in the count
  const frame_piece* pieces;      // biggest first
  std::uint32_t count;
  unsigned* next;            // device: the next piece to take
  unsigned long long* sums;  // device: per position, solutions then eighths so far
  unsigned* remaining;       // device: per position, pieces not yet finished
  count_tally* tallies;      // mapped: the tally of position i, once final
  unsigned* finished;        // mapped: raised once tallies[i] is final
  const unsigned* stop;      // mapped: raised by the host

  template <class Block>
  NQ_HD void operator()(Block& block, shared_state&) const {
    auto* stacks = reinterpret_cast<std::uint32_t*>(block.shared());
    // One phase: every thread pulls pieces until none is left (persistent threads).
    block.each([&](unsigned t) { pull(frame_stack_view{stacks + t, Block::threads}); });
  }

  NQ_HD void pull(frame_stack_view stack) const {
    const auto stopped = [this] { return stop_raised(stop); };
    while (!stopped()) {
      const unsigned i = atomic_add(next, 1u);
      if (i >= count) return;
      const frame_piece piece = pieces[i];
      const canonical_frame f = frames[piece.frame];
      count_tally tally;
      if (piece.whole()) {
        bool cut = false;
        tally = count_frame_completions(n, f.f, f.stabilizer, stopped, &cut);
        if (cut) return;
      } else if ((f.stabilizer & rotation_symmetries) != 0) {  // boards checked at the leaves
        const frame_search s = prepare_frame_search(n, f.f);
        if (!count_fixed_piece(n, f.f, f.stabilizer, s, piece, stack, stopped, tally)) return;
      } else {
        const frame_search s = prepare_frame_search(n, f.searched);
        std::uint64_t leaves = 0;
        if (!count_piece_leaves(s, piece, stack, stopped, leaves)) return;
        tally = weigh_frame_leaves(f.stabilizer, leaves);
      }
      finish(piece.frame, tally);
    }
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
};

template <class T>
device_buffer<T> upload_all(const std::vector<T>& host) {
  device_buffer<T> device(host.size());
  copy_to_device(device.data(), host.data(), host.size());
  return device;
}

/// The pieces of frames[p] for every position p, frame by frame, biggest frame first: whole
/// frames (searched a node at a time by one thread), then by free rows, then by pieces. A frame's
/// pieces stay together, so frames finish (and reach the checkpoint) steadily rather than all at
/// the end, and the tail is the smallest frames' pieces. `pieces_of[p]` gets each frame's piece
/// count.
std::vector<frame_piece> cut_frames(int n, int depth, const std::vector<canonical_frame>& frames,
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
  std::vector<nq::detail::canonical_frame> frames;
  unsigned blocks = 1;
  std::size_t shared_bytes = 0;
  double kernel_seconds = 0.0;
  frame_count_stats stats;
};

frame_counter::frame_counter(int n, int depth, int device) {
  NQ_EXPECTS(n >= 4 && n <= max_count_n, "frames need n from 4 to 32");
  if (device < 0 || device >= device_count())
    throw cuda_error("no CUDA device " + std::to_string(device));
  const std::size_t shared_bytes = std::size_t{cuda::frame_block} * 4 * sizeof(std::uint32_t) *
                                   static_cast<std::size_t>(frame_stack_levels(n));
  const auto per_sm = static_cast<unsigned>(
      std::clamp<std::size_t>(cuda::stack_bytes_per_sm / shared_bytes, 1, cuda::max_blocks_per_sm));
  impl_ = std::make_unique<impl>();
  impl_->n = n;
  impl_->device = device;
  impl_->depth = depth < 0 ? frame_piece_depth(n) : depth;
  impl_->frames = *nq::detail::oriented_frames(n);  // oriented once for every device
  impl_->blocks = cuda::multiprocessors(device) * per_sm;
  impl_->shared_bytes = shared_bytes;
}

frame_counter::~frame_counter() = default;

std::size_t frame_counter::frames() const { return impl_->frames.size(); }

void frame_counter::count(
    const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
    const std::function<void(std::span<const finished_subproblem>)>& finished) {
  if (indices.empty()) return;
  cuda::use_device(impl_->device);
  const auto count = static_cast<std::uint32_t>(indices.size());
  NQ_EXPECTS(indices.size() <= UINT32_MAX, "positions fit 32 bits");
  std::vector<nq::detail::canonical_frame> slice(count);
  for (std::uint32_t p = 0; p < count; ++p) {
    NQ_EXPECTS(indices[p] < impl_->frames.size(), "frame indices in range");
    slice[p] = impl_->frames[indices[p]];
  }
  std::vector<unsigned> pieces_of;
  const std::vector<frame_piece> pieces =
      cuda::cut_frames(impl_->n, impl_->depth, slice, pieces_of);
  NQ_EXPECTS(pieces.size() <= UINT32_MAX - std::uint64_t{impl_->blocks} * cuda::frame_block,
             "piece numbers fit 32 bits");
  impl_->stats = {pieces.size(), static_cast<std::uint64_t>(std::count_if(
                                     pieces.begin(), pieces.end(),
                                     [](const frame_piece& p) { return p.whole(); }))};
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
  const auto d_frames = cuda::upload_all(slice);
  const auto d_pieces = cuda::upload_all(pieces);
  auto d_remaining = cuda::upload_all(pieces_of);
  cuda::device_buffer<unsigned> next(1);
  cuda::fill_bytes(next.data(), 0, 1);
  cuda::device_buffer<unsigned long long> sums(2 * std::size_t{count});
  cuda::fill_bytes(sums.data(), 0, sums.size());
  cuda::mapped_buffer<count_tally> tallies(count);
  cuda::mapped_buffer<unsigned> done(count), stop_flag(1);
  cuda::cuda_event start, end;
  start.record();
  cuda::launch_blocks<cuda::frame_block>(
      "count_frame_pieces", impl_->blocks, impl_->shared_bytes,
      cuda::count_frame_pieces{impl_->n, d_frames.data(), d_pieces.data(),
                               static_cast<std::uint32_t>(pieces.size()), next.data(), sums.data(),
                               d_remaining.data(), tallies.device(), done.device(),
                               stop_flag.device()});
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
}

std::vector<count_tally> frame_counter::count(const std::vector<std::uint32_t>& indices) {
  return cuda::collect_tallies(indices.size(), "the GPU frame counter left a frame unfinished",
                               [&](const auto& finished) { count(indices, nullptr, finished); });
}

double frame_counter::kernel_seconds() const { return impl_->kernel_seconds; }

frame_count_stats frame_counter::stats() const { return impl_->stats; }

}  // namespace nq::gpu
