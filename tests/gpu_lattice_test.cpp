// The lattice kernel (kernels/lattice.cu) against the CPU threads (src/cpu/lattice.cpp): the
// same board, steps and restarts for the same (seed, n), the device's own check, and the
// limits. Skipped without a CUDA device (the host execution always has one).

#include <gtest/gtest.h>

#include <atomic>

#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/lattice.hpp"
#include "placement_oracle.hpp"

namespace nq {
namespace {

using GpuLattice = test::gpu_fixture;

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

// Classes in several launches of 1, 2 or 3 (odd slot counts and sizes lay the workspaces out
// differently): the same board.
TEST_F(GpuLattice, TheSlotsDoNotChangeTheBoard) {
  for (const auto& [n, aim] : {std::pair<index_t, index_t>{1000, 64}, {20000, 256}}) {
    const solve_result cpu = solve_lattice(n, with(2), {}, aim);
    for (const index_t slots : {1, 2, 3}) {
      const gpu::lattice_gpu_result gpu = gpu::solve_lattice(n, with(2), true, aim, slots);
      EXPECT_EQ(gpu.slots, slots);
      ASSERT_EQ(gpu.result.queen_row, cpu.queen_row) << "n=" << n << ", slots " << slots;
      EXPECT_EQ(gpu.result.steps, cpu.steps);
    }
  }
}

/// Clashes as the device's check counts them: queens beyond the first on each line.
std::uint64_t clashes_of(const std::vector<row_t>& rows) {
  const index_t n = rows.size();
  std::vector<std::uint32_t> row(n), diag(2 * n), anti(2 * n);
  std::uint64_t clashes = 0;
  for (index_t col = 0; col < n; ++col) {
    clashes += row[rows[col]]++ > 0;
    clashes += diag[col + n - 1 - rows[col]]++ > 0;
    clashes += anti[col + rows[col]]++ > 0;
  }
  return clashes;
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
  EXPECT_EQ(gpu.clashes, clashes_of(gpu.result.queen_row));
  EXPECT_EQ(gpu.unsolved, plan_lattice(20000, 5, 200).classes);
  EXPECT_EQ(gpu.result.queen_row, cpu.queen_row);
  EXPECT_EQ(gpu.result.steps, cpu.steps);
  EXPECT_EQ(gpu.result.conflicts, cpu.conflicts);
  EXPECT_EQ(gpu.result.conflicts, test::pairs_by_lines(gpu.result.queen_row));
}

// A stop raised before the start, or a time limit already past, leaves every class's rows in
// order, as on the CPU. Its pairs are not counted (on a huge board the copy and the CPU's count
// would take seconds after the stop), and the board is copied back only when asked for.
TEST_F(GpuLattice, AStopOrAPastTimeLimitLeavesTheRowsInOrderUncounted) {
  std::atomic<bool> stop{true};
  placement_settings stopped = with(3);
  stopped.limits.stop = &stop;
  placement_settings timed = with(3);
  timed.limits.time_limit = 1e-9;
  for (const placement_settings& settings : {stopped, timed})
    for (const auto& [n, aim] : {std::pair<index_t, index_t>{30000, 300}, {8, 0}, {64, 0}}) {
      const solve_result cpu = solve_lattice(n, settings, {}, aim);
      const gpu::lattice_gpu_result gpu = gpu::solve_lattice(n, settings, true, aim);
      EXPECT_FALSE(gpu.result.solved) << "n=" << n;
      EXPECT_FALSE(cpu.solved) << "n=" << n;
      EXPECT_EQ(gpu.result.steps, 0u);
      EXPECT_EQ(cpu.steps, 0u);
      EXPECT_EQ(gpu.result.queen_row, cpu.queen_row) << "n=" << n;
      EXPECT_TRUE(cpu.pairs_counted);
      EXPECT_FALSE(gpu.result.pairs_counted) << "n=" << n;
      EXPECT_EQ(gpu.result.conflicts, 0u);
      EXPECT_EQ(gpu.clashes, clashes_of(gpu.result.queen_row));
      const gpu::lattice_gpu_result kept = gpu::solve_lattice(n, settings, false, aim);
      EXPECT_TRUE(kept.result.queen_row.empty()) << "n=" << n;
      EXPECT_FALSE(kept.result.pairs_counted);
      EXPECT_EQ(kept.clashes, gpu.clashes);
    }
}

// A time limit that passes while the classes run (the host raises the flag during the launch)
// ends them at their next poll: an unsolved permutation, its pairs not counted. How long the
// set-up takes depends on the machine and its load, so the limits climb from 10 ms by half each
// time until one passes during the search; every run on the way must be a permutation. Needs
// the search to last half as long as the set-up, not a fast machine.
TEST_F(GpuLattice, ATimeLimitWhileRunningLeavesAnUncountedPermutation) {
  const index_t n = test::device_or_host<index_t>(400000000, 4000000);
  bool ended_while_running = false;
  for (double limit = 0.01; !ended_while_running; limit *= 1.5) {
    placement_settings settings = with(8);
    settings.limits.time_limit = limit;
    const gpu::lattice_gpu_result gpu = gpu::solve_lattice(n, settings, true);
    if (gpu.result.solved) break;  // the limit came after the whole search
    ASSERT_TRUE(test::is_permutation(gpu.result.queen_row)) << "limit " << limit;
    EXPECT_FALSE(gpu.result.pairs_counted);
    EXPECT_GT(gpu.clashes, 0u);
    EXPECT_GT(gpu.unsolved, 0u);
    ended_while_running = gpu.result.steps > 0;
  }
  // A device may search faster than the ladder's steps; the host execution searches for ~0.3 s.
  if (!test::host_execution && !ended_while_running) GTEST_SKIP() << "no limit fell in the search";
  EXPECT_TRUE(ended_while_running) << "no limit passed while the classes ran";
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
