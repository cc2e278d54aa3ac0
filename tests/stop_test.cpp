// search_limits::stop: a raised flag ends every CPU search soon and unsolved (how the Python
// module stops a call on Ctrl-C). Raised before the call, so no timing is involved: without the
// checks each of these runs would go on for minutes.

#include <gtest/gtest.h>

#include <atomic>

#include "nqueens/batch.hpp"
#include "nqueens/local_search.hpp"
#include "nqueens/min_conflicts.hpp"
#include "nqueens/placement_solver.hpp"
#include "nqueens/systematic.hpp"

namespace nq {
namespace {

search_limits stopped(const std::atomic<bool>& flag, std::uint64_t max_steps = 0) {
  search_limits limits;
  limits.max_steps = max_steps;
  limits.stop = &flag;
  return limits;
}

TEST(StopFlag, EndsLocalSearchChains) {
  const std::atomic<bool> stop{true};
  for (const auto algorithm : {local_algorithm::sa, local_algorithm::hc_random_p,
                               local_algorithm::ga, local_algorithm::beam}) {
    local_search_settings settings;
    settings.algorithm = algorithm;
    local_run run;
    run.seed = 3;
    run.limits = stopped(stop, std::uint64_t{1} << 40);
    const solve_result result = solve_local(200, settings, run);
    EXPECT_FALSE(result.solved) << algorithm_name(algorithm);
    EXPECT_LE(result.steps, 2u) << algorithm_name(algorithm);
  }
}

TEST(StopFlag, LeavesUnraisedRunsAlone) {
  const std::atomic<bool> stop{false};
  local_search_settings settings;
  settings.algorithm = local_algorithm::hc_restart;
  local_run run;
  run.seed = 3;
  const solve_result free_run = solve_local(8, settings, run);
  run.limits = stopped(stop);
  const solve_result watched = solve_local(8, settings, run);
  EXPECT_TRUE(watched.solved);
  EXPECT_EQ(watched.steps, free_run.steps);
  EXPECT_EQ(watched.queen_row, free_run.queen_row);
}

TEST(StopFlag, EndsMinConflictsAndPlacement) {
  const std::atomic<bool> stop{true};
  min_conflicts_settings mc;
  mc.limits = stopped(stop);
  EXPECT_FALSE(solve_min_conflicts(1000000, mc).solved);
  placement_settings placement;
  placement.threads = 1;
  placement.limits = stopped(stop);
  EXPECT_FALSE(solve_placement(1000000, placement).solved);
}

TEST(StopFlag, EndsSystematicSearch) {
  const std::atomic<bool> stop{true};
  systematic_settings settings;
  settings.limits = stopped(stop);
  // Plain backtracking on 60 queens does not finish in any useful time.
  const solve_result result = solve_backtrack(60, settings);
  EXPECT_FALSE(result.solved);
  EXPECT_LE(result.steps, 1u);
  bool ended_early = false;
  std::uint64_t seen = 0;
  for_each_solution(
      60, [&](std::span<const row_t>) { return ++seen < 1000000; }, settings.limits, {},
      ended_early);
  EXPECT_TRUE(ended_early);
}

TEST(StopFlag, EndsBatches) {
  const std::atomic<bool> stop{true};
  local_search_settings algorithm;
  algorithm.algorithm = local_algorithm::hc_sideways;
  batch_settings settings;
  settings.runs = std::uint64_t{1} << 40;
  settings.threads = 2;
  settings.limits = stopped(stop);
  const batch_stats stats = run_batch(8, algorithm, settings);
  EXPECT_EQ(stats.solved, 0u);
}

}  // namespace
}  // namespace nq
