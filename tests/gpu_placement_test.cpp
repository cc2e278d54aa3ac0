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
  sizes.push_back(test::device_or_host<index_t>(10000000, 1000000));
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

TEST_F(GpuPlacement, NoSolutionForTwoAndThree) {
  EXPECT_FALSE(gpu::solve_placement(2, {}).solved);
  EXPECT_FALSE(gpu::solve_placement(3, {}).solved);
}

}  // namespace
}  // namespace nq
