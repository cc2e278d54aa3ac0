// search_limits::stop: a raised flag ends every CPU search soon and unsolved (how the Python
// module stops a call on Ctrl-C). Raised before the call, or by a hook at a counted check, so no
// timing is involved: without the checks each of these runs would go on for minutes.

#include <gtest/gtest.h>

#include <atomic>

#include "board_oracles.hpp"
#include "cpu/population_search.hpp"
#include "nqueens/batch.hpp"
#include "nqueens/local_search.hpp"
#include "nqueens/min_conflicts.hpp"
#include "nqueens/placement_solver.hpp"
#include "nqueens/systematic.hpp"
#include "resident_memory.hpp"

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

// A stop raised before a beam of 2^20 states (230 MB) ends its making at the second state: its
// memory, reserved, is never made (touched), and the run reports the board it holds.
TEST(StopFlag, AWideBeamIsNotMadeAfterAStop) {
  if (test::peak_resident_bytes(true) == 0) GTEST_SKIP() << "no /proc/self/clear_refs or VmHWM";
  const std::uint64_t before = test::peak_resident_bytes();
  const std::atomic<bool> stop{true};
  local_search_settings settings;
  settings.algorithm = local_algorithm::beam;
  settings.beam.width = 1u << 20;
  const index_t n = 16;
  local_run run;
  run.seed = 3;
  run.limits = stopped(stop, std::uint64_t{1} << 40);
  const solve_result result = solve_local(n, settings, run);
  const std::uint64_t grown = test::peak_resident_bytes() - before;
  const std::uint64_t beam_bytes =
      (std::uint64_t{1} << 20) * (n * sizeof(row_t) + (5 * n - 2) * sizeof(std::uint16_t));
  EXPECT_LT(grown, beam_bytes / 4) << "the beam was made after the stop";
  EXPECT_FALSE(result.solved);
  EXPECT_EQ(result.steps, 0u);
  ASSERT_EQ(result.queen_row.size(), n);
  EXPECT_EQ(result.conflicts, test::brute_force_pairs(result.queen_row));
}

// A stop that comes when a generation has chosen its successors and begins to take them (beam
// asks once per state made after the first, once per column of each state's successors, twice
// over when it draws them, and once per state taken) drops that generation: the beam stays
// the starting one, and nothing more is asked.
TEST(StopFlag, ABeamGenerationStoppedWhileTakingItsStatesIsDropped) {
  const index_t n = 3;  // no solution: a beam never ends by itself
  const std::size_t k = std::size_t{1} << 14;
  for (const bool stochastic : {false, true}) {
    beam_settings settings;
    settings.width = static_cast<std::uint32_t>(k);
    settings.stochastic = stochastic;
    const std::uint64_t take_starts = (k - 1) + (stochastic ? 2 : 1) * k * n + 1;
    std::uint64_t asked = 0;
    std::vector<trace_row> rows;
    std::vector<row_t> best;
    const chain_outcome out = detail::beam_search(
        n, settings, 5, 0, nullptr, 0,
        [&](const trace_row& row) {
          rows.push_back(row);
          return true;
        },
        best, [&] { return ++asked >= take_starts; });
    EXPECT_TRUE(out.stopped) << stochastic;
    EXPECT_EQ(out.steps, 0u) << "the generation was kept: " << stochastic;
    EXPECT_EQ(asked, take_starts) << stochastic;
    ASSERT_EQ(rows.size(), 1u) << stochastic;
    EXPECT_EQ(out.cost, rows[0].cost);
    EXPECT_EQ(test::brute_force_pairs(best), out.cost);
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
