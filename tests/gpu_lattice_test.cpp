// The lattice kernel (kernels/lattice.cu) against the CPU threads (src/cpu/lattice.cpp): the
// same board, steps and restarts for the same (seed, n), the device's own check, and the
// limits. Skipped without a CUDA device (the host execution always has one).

#include <gtest/gtest.h>

#include <atomic>

#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/lattice.hpp"
#include "placement_oracle.hpp"

namespace nq {
namespace {

class GpuLattice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

placement_settings with(std::uint64_t seed, unsigned threads = 2) {
  placement_settings settings;
  settings.seed = seed;
  settings.threads = threads;
  return settings;
}

// Whole boards (n < 320, one GPU thread), small splits (aim 64 and 256) and the default split,
// up to 10^6 queens in the host execution.
TEST_F(GpuLattice, SameBoardAsTheCpu) {
  struct sized {
    index_t n, aim;
  };
  std::vector<sized> cases;
  for (index_t n = 1; n <= 64; ++n) cases.push_back({n, 0});
  for (const index_t n : {100, 319, 320, 1000, 4099, 20000}) cases.push_back({n, 64});
  for (const index_t n : {50000, 200003}) cases.push_back({n, 256});
  for (const index_t n : {65537, 1000000}) cases.push_back({n, 0});
  cases.push_back({test::device_or_host<index_t>(100000000, 3000000), 0});
  for (const auto& [n, aim] : cases) {
    const placement_settings settings = with(n % 7 + 1);
    const solve_result cpu = solve_lattice(n, settings, {}, aim);
    const gpu::lattice_gpu_result gpu = gpu::solve_lattice(n, settings, true, aim);
    const bool exists = n != 2 && n != 3;
    ASSERT_EQ(gpu.result.solved, exists) << "n=" << n;
    ASSERT_EQ(gpu.clashes, 0u) << "n=" << n;
    if (!exists) continue;
    ASSERT_TRUE(test::is_solution(gpu.result.queen_row)) << "n=" << n;
    ASSERT_EQ(gpu.result.queen_row, cpu.queen_row) << "n=" << n;
    EXPECT_EQ(gpu.result.steps, cpu.steps) << "n=" << n;
    EXPECT_EQ(gpu.result.restarts, cpu.restarts) << "n=" << n;
    EXPECT_EQ(gpu.unsolved, 0u) << "n=" << n;
    EXPECT_GE(gpu.slots, 1u);
  }
}

// A solved board stays on the device unless asked for; its check found no clash.
TEST_F(GpuLattice, TheBoardIsCopiedBackOnlyWhenAsked) {
  const gpu::lattice_gpu_result kept = gpu::solve_lattice(100000, with(4), false);
  EXPECT_TRUE(kept.result.solved);
  EXPECT_TRUE(kept.result.queen_row.empty());
  EXPECT_EQ(kept.clashes, 0u);
  const gpu::lattice_gpu_result copied = gpu::solve_lattice(100000, with(4), true);
  EXPECT_EQ(copied.result.steps, kept.result.steps);
  EXPECT_TRUE(test::is_solution(copied.result.queen_row));
}

// A step limit bounds each sub-board as on the CPU: the same unsolved board, copied back
// though not asked for, with its pairs counted exactly and the device's check finding clashes.
TEST_F(GpuLattice, AStepLimitStopsLikeTheCpu) {
  placement_settings settings = with(5);
  settings.limits.max_steps = 50;
  const solve_result cpu = solve_lattice(20000, settings, {}, 200);
  const gpu::lattice_gpu_result gpu = gpu::solve_lattice(20000, settings, false, 200);
  ASSERT_FALSE(gpu.result.solved);
  EXPECT_GT(gpu.clashes, 0u);
  EXPECT_EQ(gpu.unsolved, plan_lattice(20000, 5, 200).classes);
  EXPECT_EQ(gpu.result.queen_row, cpu.queen_row);
  EXPECT_EQ(gpu.result.steps, cpu.steps);
  EXPECT_EQ(gpu.result.conflicts, cpu.conflicts);
  EXPECT_EQ(gpu.result.conflicts, test::pairs_by_lines(gpu.result.queen_row));
}

// A stop raised before the start, or a time limit already past, leaves every class's rows in
// order, as on the CPU, counted exactly.
TEST_F(GpuLattice, AStopOrAPastTimeLimitLeavesTheRowsInOrder) {
  std::atomic<bool> stop{true};
  placement_settings stopped = with(3);
  stopped.limits.stop = &stop;
  placement_settings timed = with(3);
  timed.limits.time_limit = 1e-9;
  for (const placement_settings& settings : {stopped, timed}) {
    const solve_result cpu = solve_lattice(30000, settings, {}, 300);
    const gpu::lattice_gpu_result gpu = gpu::solve_lattice(30000, settings, false, 300);
    EXPECT_FALSE(gpu.result.solved);
    EXPECT_EQ(gpu.result.steps, 0u);
    EXPECT_EQ(gpu.result.queen_row, cpu.queen_row);
    EXPECT_EQ(gpu.result.conflicts, cpu.conflicts);
    EXPECT_EQ(gpu.result.conflicts, test::pairs_by_lines(gpu.result.queen_row));
  }
}

// A stop raised while the classes run ends them at their next poll: an unsolved permutation
// whose pairs are counted exactly.
TEST_F(GpuLattice, AStopWhileRunningEndsWithAnExactCount) {
  std::atomic<bool> stop{false};
  placement_settings settings = with(8);
  settings.limits.stop = &stop;
  std::thread raiser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stop.store(true);
  });
  const gpu::lattice_gpu_result gpu =
      gpu::solve_lattice(test::device_or_host<index_t>(400000000, 4000000), settings, false);
  raiser.join();
  if (gpu.result.solved) GTEST_SKIP() << "solved before the stop came";
  ASSERT_TRUE(test::is_permutation(gpu.result.queen_row));
  EXPECT_GT(gpu.unsolved, 0u);
  EXPECT_EQ(gpu.result.conflicts, test::pairs_by_lines(gpu.result.queen_row));
}

// Memory: the board, the plan and the larger of the workspaces and the check's 5 bits a queen;
// boards without a split above 2^20 queens are the CPU's.
TEST_F(GpuLattice, MemoryAndReach) {
  constexpr std::uint64_t board = 4000000000, check = 625000000;
  const std::uint64_t billion = gpu::lattice_device_bytes(1000000000);
  EXPECT_GE(billion, board + check);
  EXPECT_LE(billion, board + check + (std::uint64_t{1} << 20));
  // 10,000 workspaces of about 65,536 queens outweigh the check's bits.
  EXPECT_GT(gpu::lattice_device_bytes(1000000000, 10000), board + std::uint64_t{10000} * 8 * 65536);
  EXPECT_TRUE(gpu::has_lattice(100));
  EXPECT_TRUE(gpu::has_lattice(1000000000));
  index_t unsplit = 0;
  for (index_t n = lattice_max_whole_search + 1; unsplit == 0; ++n)
    if (plan_lattice(n, 1).classes == 1) unsplit = n;
  EXPECT_FALSE(gpu::has_lattice(unsplit));
}

}  // namespace
}  // namespace nq
