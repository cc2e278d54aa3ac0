// Counting on the GPU against OEIS and against the CPU, checkpoints included. Skipped without a
// CUDA device.

#include <gtest/gtest.h>

#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/count.hpp"
#include "oeis.hpp"
#include "scratch.hpp"

namespace nq {
namespace {

using test::a000170;
using test::a002562;

class GpuCount : public test::gpu_fixture {
 protected:
  /// Settings that count n on the GPU, the way `nqueens count --device gpu` does.
  count_settings on_gpu(int n) {
    count_settings settings;
    settings.split_rows = gpu::count_split_rows(n);
    counter = std::make_unique<gpu::subproblem_counter>(
        n, count_subproblems(n, settings.split_rows), frame_classes(n));
    settings.slice_counters = {
        [this](const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
               const auto& finished) { counter->count(indices, stop, finished); }};
    settings.slice_size = 1 << 14;
    return settings;
  }
  std::unique_ptr<gpu::subproblem_counter> counter;
};

// Up to 17 on a device; the host execution, one CPU thread, stops at 14.
TEST_F(GpuCount, MatchesOeisForNFrom4To17) {
  for (int n = 4; n <= test::device_or_host(17, 14); ++n) {
    const count_result result = count_solutions(n, on_gpu(n));
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.solutions, a000170[n - 1]) << "n=" << n;
    EXPECT_EQ(result.unique, a002562[n - 1]) << "n=" << n;
    EXPECT_GT(counter->kernel_seconds(), 0.0);
  }
}

TEST_F(GpuCount, EverySubproblemMatchesTheCpu) {
  for (const int n : {9, 12, 15}) {
    const int rows = gpu::count_split_rows(n);
    const auto subs = count_subproblems(n, rows);
    const auto classes = frame_classes(n);
    gpu::subproblem_counter device(n, subs, classes);
    std::vector<std::uint32_t> all(subs.size());
    for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    const auto tallies = device.count(all);
    for (std::size_t i = 0; i < subs.size(); ++i) {
      const count_tally expected = count_prefix_completions(n, subs[i], classes.data());
      ASSERT_EQ(tallies[i].solutions, expected.solutions) << "n=" << n << " subproblem " << i;
      ASSERT_EQ(tallies[i].unique_eighths, expected.unique_eighths) << "n=" << n << " " << i;
    }
  }
}

TEST_F(GpuCount, AStoppedCountResumesToTheSameTotals) {
  test::scratch_dir dir;
  count_settings settings = on_gpu(14);
  settings.checkpoint = (dir / "count.json").string();
  settings.max_subproblems = 5000;
  const count_result part = count_solutions(14, settings);
  EXPECT_FALSE(part.complete);
  settings.max_subproblems = 0;
  const count_result rest = count_solutions(14, settings);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.resumed, 5000u);
  EXPECT_EQ(rest.solutions, a000170[13]);
  EXPECT_EQ(rest.unique, a002562[13]);
}

}  // namespace
}  // namespace nq
