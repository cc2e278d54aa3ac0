// What the GPU frame counter's lanes do, played on the host in lockstep (the host execution of
// kernels/frame_count.cu, one block of 4 warps): per n, the nodes (queens placed), the lanes'
// iterations, the turns a lane sat idle while its warp worked, and the warp iterations that ran
// each path of the loop (a take, a queen of a plain frame, a queen of a frame a rotation fixes).
// bench/frame_loop_cost.py multiplies those by each path's PTX instructions. One JSON line per n.
//
// Usage: frame_loop_stats LOOK_AHEAD N... (build: cmake --build BUILD --target frame_loop_stats)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "kernels/gpu.hpp"
#include "nqueens/count.hpp"

int main(int argc, char** argv) {
  using namespace nq;
  if (argc < 3) {
    std::fprintf(stderr, "usage: frame_loop_stats LOOK_AHEAD N...\n");
    return 2;
  }
  const int look_ahead = std::atoi(argv[1]);
  if (look_ahead != 1 && look_ahead != 3) {
    std::fprintf(stderr, "frame_loop_stats: LOOK_AHEAD is 1 or 3, got %s\n", argv[1]);
    return 2;
  }
  if (!gpu::set_host_frame_lanes(gpu::frame_lane_play::lockstep)) {
    std::fprintf(stderr, "frame_loop_stats: built against a device; needs the host execution\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    const int n = std::atoi(argv[i]);
    if (n < 8 || n > 20) {
      std::fprintf(stderr, "frame_loop_stats: n from 8 to 20, got %s\n", argv[i]);
      return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    gpu::frame_counter counter(n, -1, 0, look_ahead);
    std::vector<std::uint32_t> all(counter.frames());
    std::iota(all.begin(), all.end(), 0u);
    std::uint64_t solutions = 0;
    for (const count_tally& t : counter.count(all)) solutions += t.solutions;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const gpu::frame_count_stats s = counter.stats();
    std::printf(
        "{\"n\":%d,\"look_ahead\":%d,\"solutions\":%llu,\"pieces\":%llu,\"whole_frames\":%llu,"
        "\"nodes\":%llu,\"lane_steps\":%llu,\"idle_lane_steps\":%llu,\"warp_steps\":%llu,"
        "\"take_warp_steps\":%llu,\"plain_warp_steps\":%llu,\"fixed_warp_steps\":%llu,"
        "\"longest_piece_steps\":%llu,\"stack_levels\":%llu,\"shared_bytes\":%llu,"
        "\"seconds\":%.3f}\n",
        n, look_ahead, static_cast<unsigned long long>(solutions),
        static_cast<unsigned long long>(s.pieces), static_cast<unsigned long long>(s.whole_frames),
        static_cast<unsigned long long>(s.nodes), static_cast<unsigned long long>(s.lane_steps),
        static_cast<unsigned long long>(s.idle_lane_steps),
        static_cast<unsigned long long>(s.warp_steps),
        static_cast<unsigned long long>(s.take_warp_steps),
        static_cast<unsigned long long>(s.plain_warp_steps),
        static_cast<unsigned long long>(s.fixed_warp_steps),
        static_cast<unsigned long long>(s.longest_piece_steps),
        static_cast<unsigned long long>(s.stack_levels),
        static_cast<unsigned long long>(s.shared_bytes), seconds);
    std::fflush(stdout);
  }
  return 0;
}
