// The GPU frame counter's loop, path by path, for its cost model (bench/frame_loop_cost.py):
// compiled to PTX only, never run. Each probe kernel repeats one path of the kernel's loop
// (kernels/frame_count.cu, included whole so that the paths are the kernel's own code), so the
// instructions of its loop body are what a warp issues for that path once an iteration:
//   probe_plain: an iteration that places a queen of a frame no rotation fixes (the loop's
//     head, its stop countdown, the one branch-free path of frame_walk::advance<false>);
//   probe_fixed: the same for a frame a rotation fixes (advance<true>, boards checked);
//   probe_take: a take: the finished piece's tally added to its frame, the next piece loaded.
// Built with -DNQ_PROBE_LOOK_AHEAD=1 or 3 (the kernel's template parameter).

#include "kernels/frame_count.cu"

#ifndef NQ_PROBE_LOOK_AHEAD
#define NQ_PROBE_LOOK_AHEAD 3
#endif

namespace nq::cuda {
namespace {

constexpr int probe_look_ahead = NQ_PROBE_LOOK_AHEAD;
using probe_body = count_frame_pieces<probe_look_ahead>;
using probe_lane = frame_lane<probe_look_ahead>;

template <bool Fixed>
__device__ void probe_iterations(const probe_body& body, probe_lane* lanes) {
  extern __shared__ __align__(16) unsigned char probe_shared[];
  const frame_lane_view entries =  // as the kernel makes it (count_frame_pieces::lane_entries)
      frame_lane_view::of(reinterpret_cast<frame_entry*>(probe_shared) + threadIdx.x, frame_block);
  probe_lane lane = lanes[threadIdx.x];
  for (;;) {  // turn()'s head, then its advance, never its take
    if (--lane.until_check == 0) {
      if (stop_raised(body.stop)) break;
      lane.until_check = count_stop_interval;
    }
    if (!lane.walk.busy() || lane.walk.checks_boards() != Fixed) break;
    lane.walk.template advance<Fixed>(entries);
  }
  lanes[threadIdx.x] = lane;
}

__global__ void probe_plain(probe_body body, probe_lane* lanes) {
  probe_iterations<false>(body, lanes);
}

__global__ void probe_fixed(probe_body body, probe_lane* lanes) {
  probe_iterations<true>(body, lanes);
}

__global__ void probe_take(probe_body body, probe_lane* lanes, int takes) {
  probe_lane lane = lanes[threadIdx.x];
  for (int i = 0; i < takes; ++i)
    if (body.take(lane, true) == lane_turn::ended) break;
  lanes[threadIdx.x] = lane;
}

}  // namespace

/// Named from outside, so that nvcc emits the probes.
[[maybe_unused]] const void* const frame_loop_probes[] = {reinterpret_cast<const void*>(probe_plain),
                                         reinterpret_cast<const void*>(probe_fixed),
                                         reinterpret_cast<const void*>(probe_take)};

}  // namespace nq::cuda
