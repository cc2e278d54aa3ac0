#pragma once
// What the GPU frame counter's two halves share: its kernel (frame_count.cu) and the host
// controller that cuts the frames, launches the kernel and follows it (frame_counter.cu). The
// controller reaches the kernel through the two calls below, so only frame_count.cu compiles it.

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "kernels/gpu.hpp"
#include "nqueens/count.hpp"
#include "nqueens/detail/frame_pieces.hpp"

namespace nq::cuda {

/// Threads a block of the frame counter runs.
inline constexpr unsigned frame_block = 128;

/// The host execution's tally of a lockstep play (gpu::frame_lane_play), over every block.
struct lockstep_tally {
  std::atomic<std::uint64_t> lane_steps{0}, idle_lane_steps{0}, warps{0}, longest{0};
  std::atomic<std::uint64_t> rows_built{0}, row_words{0}, nodes{0};
  std::atomic<std::uint64_t> warp_steps{0}, take_warp_steps{0}, plain_warp_steps{0};
  std::atomic<std::uint64_t> fixed_warp_steps{0};
};

/// What one launch of the frame counter reads and writes: the kernel's arguments.
struct frame_piece_work {
  int n;
  const std::uint32_t* rows;  // per position, frame_step_layout<LookAhead>::frame_words(n)
  const frame_piece* pieces;  // biggest first
  std::uint32_t count;
  unsigned* next;             // device: the next piece to take
  unsigned long long* sums;   // device: per position, solutions then eighths so far
  unsigned* remaining;        // device: per position, pieces not yet finished
  count_tally* tallies;       // mapped: the tally of position i, once final
  unsigned* finished;         // mapped: raised once tallies[i] is final
  const unsigned* stop;       // mapped: raised by the host
  gpu::frame_lane_play play;  // the host execution's way of playing the lanes
  lockstep_tally* lockstep;   // host: what a lockstep play counted
};

/// Blocks of the kernel of look-ahead `look_ahead` (1 or frame_look_ahead) one SM holds, each
/// with `shared_bytes` of shared memory.
unsigned frame_pieces_resident_blocks(int look_ahead, std::size_t shared_bytes);

/// Launches the kernel of look-ahead `look_ahead` on `blocks` blocks of frame_block threads,
/// `shared_bytes` each, on `work`: its threads take pieces until none is left or the stop rises.
void launch_frame_pieces(int look_ahead, unsigned blocks, std::size_t shared_bytes,
                         const frame_piece_work& work);

}  // namespace nq::cuda
