// The sizes of a count's work items, for the MPI scaling model (bench/results/*-mpi.md): per
// canonical frame, its counting time on one thread (n up to --timed) or its size estimate
// (frame_size_estimate, the figure the hand-out orders by). Prints one JSON line per n: the
// number of frames, the total, the largest frame's share of the total and the shares of the
// largest 1% and of the smallest half.
//
// Usage: frame_sizes TIMED_MAX N... (build: cmake --build BUILD --target frame_sizes)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "cpu/frame_engine.hpp"

namespace {

using namespace nq;

void describe(int n, const char* unit, std::vector<double> sizes, double wall) {
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  const double total = std::accumulate(sizes.begin(), sizes.end(), 0.0);
  const std::size_t top = std::max<std::size_t>(1, sizes.size() / 100);
  const double top_share = std::accumulate(sizes.begin(), sizes.begin() + top, 0.0) / total;
  const double small_half =
      std::accumulate(sizes.begin() + sizes.size() / 2, sizes.end(), 0.0) / total;
  std::printf(
      "{\"n\":%d,\"unit\":\"%s\",\"frames\":%zu,\"total\":%.6g,\"largest\":%.6g,"
      "\"largest_share\":%.6g,\"top_1pct_share\":%.6g,\"smallest_half_share\":%.6g,"
      "\"median\":%.6g,\"seconds\":%.3f}\n",
      n, unit, sizes.size(), total, sizes.front(), sizes.front() / total, top_share, small_half,
      sizes[sizes.size() / 2], wall);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: frame_sizes TIMED_MAX N...\n");
    return 2;
  }
  const int timed_max = std::atoi(argv[1]);
  for (int i = 2; i < argc; ++i) {
    const int n = std::atoi(argv[i]);
    if (n < 8 || n > 32) {
      std::fprintf(stderr, "frame_sizes: n from 8 to 32, got %s\n", argv[i]);
      return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    const auto frames = detail::oriented_frames(n);
    std::vector<double> sizes;
    if (n <= timed_max) {
      detail::frame_counter counter(n, detail::choose_frame_kernels("auto"));
      for (const auto& f : *frames) {
        const auto t0 = std::chrono::steady_clock::now();
        detail::count_frame(n, f, counter);
        sizes.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!sizes.empty()) describe(n, "seconds", sizes, wall);
    sizes.clear();
    for (const auto& f : *frames)
      sizes.push_back(static_cast<double>(std::max<std::uint64_t>(1, f.size)));
    describe(n, "estimate", sizes, wall);
  }
  return 0;
}
