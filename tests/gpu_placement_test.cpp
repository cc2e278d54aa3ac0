// The placement kernel against the CPU threads: the same board and steps for the same
// (seed, n). Skipped without a CUDA device (the host execution always has one).

#include <gtest/gtest.h>

#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/placement_solver.hpp"
#include "placement_oracle.hpp"

namespace nq {
namespace {

class GpuPlacement : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_F(GpuPlacement, SameBoardAsTheCpu) {
  std::vector<index_t> sizes{1, 4, 5, 6, 7, 8, 9, 10, 16, 31, 32, 33, 63, 64, 1000, 8193, 100003};
  sizes.push_back(test::device_or_host<index_t>(10000000, 1000000, 100000));
  for (const index_t n : sizes) {
    placement_settings settings;
    settings.seed = 5;
    settings.threads = 2;
    const solve_result cpu = solve_placement(n, settings);
    const solve_result gpu = gpu::solve_placement(n, settings);
    ASSERT_TRUE(gpu.solved) << "n=" << n;
    ASSERT_TRUE(test::is_solution(gpu.queen_row)) << "n=" << n;
    ASSERT_EQ(gpu.queen_row, cpu.queen_row) << "n=" << n;
    EXPECT_EQ(gpu.steps, cpu.steps) << "n=" << n;
    EXPECT_EQ(gpu.restarts, cpu.restarts) << "n=" << n;
  }
}

TEST_F(GpuPlacement, AStepLimitStopsLikeTheCpu) {
  placement_settings settings;
  settings.limits.max_steps = 64;  // a multiple of the rounds the GPU launches between checks
  const solve_result cpu = solve_placement(1000000, settings);
  const solve_result gpu = gpu::solve_placement(1000000, settings);
  EXPECT_FALSE(gpu.solved);
  EXPECT_EQ(gpu.steps, cpu.steps);
  EXPECT_EQ(gpu.unplaced, cpu.unplaced);
  EXPECT_EQ(gpu.queen_row, cpu.queen_row);
}

TEST_F(GpuPlacement, AStopAfterAFailedInsertionCountsTheQueensLeft) {
  // Under 32 queens the one pass ends within the rounds launched between checks, so a limit of
  // one step stops a run only where its insertion fails: the queens left must be counted.
  unsigned stops = 0;
  for (index_t n = 4; n < 32; ++n) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      placement_settings settings;
      settings.seed = seed;
      settings.limits.max_steps = 1;
      const solve_result r = gpu::solve_placement(n, settings);
      if (r.solved) continue;
      ++stops;
      EXPECT_GT(r.unplaced, 0u) << "n=" << n << ", seed " << seed;
      EXPECT_TRUE(test::is_permutation(r.queen_row)) << "n=" << n << ", seed " << seed;
    }
  }
  EXPECT_GT(stops, 0u);
}

TEST_F(GpuPlacement, NoSolutionForTwoAndThree) {
  EXPECT_FALSE(gpu::solve_placement(2, {}).solved);
  EXPECT_FALSE(gpu::solve_placement(3, {}).solved);
}

}  // namespace
}  // namespace nq
