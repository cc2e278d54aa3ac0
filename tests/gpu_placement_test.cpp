// The placement kernel against the CPU threads: the same board and steps for the same
// (seed, n). Skipped without a CUDA device (the host execution always has one).

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/placement.hpp"
#include "nqueens/placement_solver.hpp"
#include "placement_oracle.hpp"

namespace nq {
namespace {

using GpuPlacement = test::gpu_fixture;

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

/// The GPU's run equals the CPU's: solved or stopped where the CPU's is, the same board, steps,
/// restarts and queens left off the lines.
void expect_same_run(const solve_result& gpu, const solve_result& cpu, const std::string& what) {
  EXPECT_EQ(gpu.solved, cpu.solved) << what;
  EXPECT_EQ(gpu.steps, cpu.steps) << what;
  EXPECT_EQ(gpu.restarts, cpu.restarts) << what;
  EXPECT_EQ(gpu.unplaced, cpu.unplaced) << what;
  EXPECT_EQ(gpu.queen_row, cpu.queen_row) << what;
}

// The device checks the step limit after every round, as the CPU does: any limit, a multiple
// of the rounds between its reads of the stop flag or not, stops both at the same round.
TEST_F(GpuPlacement, AStepLimitStopsLikeTheCpu) {
  const index_t n = test::device_or_host<index_t>(1000000, 1000000, 100000);
  for (const std::uint64_t limit : {1, 64, 100, 2500}) {
    placement_settings settings;
    settings.limits.max_steps = limit;
    const solve_result cpu = solve_placement(n, settings);
    const solve_result gpu = gpu::solve_placement(n, settings);
    EXPECT_FALSE(gpu.solved) << "limit " << limit;
    expect_same_run(gpu, cpu, "limit " + std::to_string(limit));
  }
}

// Small boards play every pass and the insertion on the host: a step limit anywhere in them,
// in the one pass or among the insertion's partners (the queens left then counted from the
// deferred column that failed on), stops the run as on the CPU.
TEST_F(GpuPlacement, AStepLimitInTheLastPassOrTheInsertionStopsLikeTheCpu) {
  unsigned stops = 0;
  for (index_t n = 4; n < 32; ++n) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      placement_settings settings;
      settings.seed = seed;
      const std::uint64_t steps = solve_placement(n, settings).steps;
      for (const std::uint64_t limit : {std::uint64_t{1}, steps / 2, steps - 1}) {
        if (limit == 0) continue;
        settings.limits.max_steps = limit;
        const solve_result gpu = gpu::solve_placement(n, settings);
        expect_same_run(gpu, solve_placement(n, settings),
                        "n=" + std::to_string(n) + ", seed " + std::to_string(seed) + ", limit " +
                            std::to_string(limit));
        if (gpu.solved) continue;
        ++stops;
        EXPECT_GT(gpu.unplaced, 0u) << "n=" << n << ", seed " << seed;
        EXPECT_TRUE(test::is_permutation(gpu.queen_row)) << "n=" << n << ", seed " << seed;
      }
    }
  }
  EXPECT_GT(stops, 0u);
}

// Every pass on the device, the last one (one block) included: the split changes where the
// passes run, never the board, steps or restarts; a step limit in the device's passes stops
// the run where the CPU's stops.
TEST_F(GpuPlacement, EveryPassOnTheDeviceGivesTheSameRun) {
  const gpu::placement_split device_only{.host_blocks = 0};
  const index_t large = test::device_or_host<index_t>(100003, 100003, 20000);
  for (const index_t n :
       {index_t{1}, index_t{4}, index_t{5}, index_t{8}, index_t{9}, index_t{31}, index_t{32},
        index_t{33}, index_t{64}, index_t{1000}, index_t{8193}, large}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      placement_settings settings;
      settings.seed = seed;
      const solve_result cpu = solve_placement(n, settings);
      const solve_result gpu = gpu::solve_placement(n, settings, device_only);
      ASSERT_TRUE(gpu.solved) << "n=" << n << ", seed " << seed;
      expect_same_run(gpu, cpu, "n=" + std::to_string(n) + ", seed " + std::to_string(seed));
    }
  }
  for (const std::uint64_t limit : {1, 33, 3000, 20000}) {
    placement_settings settings;
    settings.limits.max_steps = limit;
    expect_same_run(gpu::solve_placement(large, settings, device_only),
                    solve_placement(large, settings), "limit " + std::to_string(limit));
  }
}

// A step limit on the last round of a device pass: the CPU finishes that pass, since a round
// that ends the pass is not checked against the limit, and stops after the first round of the
// next (its steps then the limit plus one). The device must check in the same order. The pass's
// end is found on the CPU, among the limits just past its quota (two segments of 8,192 columns:
// blocks of a quarter of that, plus the rounds lost to contested claims), where its steps pass
// the limit; the device then plays only that limit, as one pass of two blocks.
TEST_F(GpuPlacement, AStepLimitOnAPassLastRoundStopsLikeTheCpu) {
  const index_t n = 16384;
  const index_t quota = n / placement_segments(n) * placement_quota_sixteenths / 16;
  placement_settings settings;
  settings.seed = 2;
  std::uint64_t limit = quota;
  for (; limit < quota + 512; ++limit) {
    settings.limits.max_steps = limit;
    if (solve_placement(n, settings).steps != limit) break;
  }
  ASSERT_LT(limit, quota + 512) << "no pass ends within 512 rounds of its quota";
  const solve_result cpu = solve_placement(n, settings);
  EXPECT_EQ(cpu.steps, limit + 1) << "limit " << limit;
  expect_same_run(gpu::solve_placement(n, settings, {.host_blocks = 0}), cpu, "on the device");
  expect_same_run(gpu::solve_placement(n, settings), cpu, "on the host");
}

// A stop raised, or a time limit past, before the run ends it in its first pass on the device,
// unsolved, its queens still a permutation with some of them left off the lines.
TEST_F(GpuPlacement, AStopOrATimeLimitEndsTheRun) {
  const index_t n = test::device_or_host<index_t>(1000000, 100000);
  std::atomic<bool> stop{true};
  placement_settings stopped;
  stopped.limits.stop = &stop;
  placement_settings timed;
  timed.limits.time_limit = 1e-9;
  for (const placement_settings& settings : {stopped, timed}) {
    const solve_result r = gpu::solve_placement(n, settings);
    EXPECT_FALSE(r.solved);
    EXPECT_GT(r.unplaced, 0u);
    EXPECT_GT(r.steps, 0u);
    EXPECT_TRUE(test::is_permutation(r.queen_row));
  }
}

TEST_F(GpuPlacement, NoSolutionForTwoAndThree) {
  EXPECT_FALSE(gpu::solve_placement(2, {}).solved);
  EXPECT_FALSE(gpu::solve_placement(3, {}).solved);
}

class GpuPlacementBudget : public GpuPlacement {};

// Each pass's rounds loop within one launch, and the passes of a few blocks and the insertion run
// on the host, so the host pays per pass, not per round. An attempt (the first run or a restart)
// of P passes pays at most: launches, the board's initialisation and one per pass (1 + P);
// copies back, per pass the segments' next columns and the pass's report, then the board, its two
// line families, the segments and the deferred columns once (5 + 2P); waits, one per copy either
// way (the segments' first columns, then per pass its prefix) and per pass one for the launch
// (6 + 4P). A launch per phase of each round, as before, costs about 3 x 2,100 launches at 10^5.
TEST_F(GpuPlacementBudget, LaunchesGrowWithThePassesNotTheRounds) {
  std::vector<index_t> sizes{100000};
  if (!(test::host_execution && test::under_thread_sanitizer()))  // fibers: a switch a phase
    sizes.insert(sizes.end(), {1000000, 4000000});
  for (const index_t n : sizes) {
    index_t segments = placement_segments(n), passes = 1;
    while ((index_t{1} << (passes - 1)) < segments) ++passes;  // ceil(log2(segments)) + 1
    placement_settings settings;
    settings.seed = 3;
    const gpu::gpu_costs before = gpu::costs();
    const solve_result r = gpu::solve_placement(n, settings);
    const gpu::gpu_costs spent = gpu::costs() - before;
    ASSERT_TRUE(r.solved) << "n=" << n;
    const std::uint64_t attempts = r.restarts + 1;
    EXPECT_LE(spent.launches, attempts * (1 + passes)) << "n=" << n << ", " << passes << " passes";
    EXPECT_LE(spent.to_host_copies, attempts * (5 + 2 * passes)) << "n=" << n;
    EXPECT_LE(spent.syncs, attempts * (6 + 4 * passes)) << "n=" << n;
  }
}

}  // namespace
}  // namespace nq
