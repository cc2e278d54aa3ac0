#include "nqueens/min_conflicts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "board_oracles.hpp"
#include "nqueens/verify.hpp"

namespace nq {
namespace {

min_conflicts_settings with_seed(std::uint64_t seed) {
  min_conflicts_settings settings;
  settings.seed = seed;
  return settings;
}

class MinConflictsSolves : public ::testing::TestWithParam<index_t> {};

TEST_P(MinConflictsSolves, ReturnsAValidPermutation) {
  const index_t n = GetParam();
  const solve_result result = solve_min_conflicts(n, with_seed(2024 + n));
  ASSERT_TRUE(result.solved) << "n=" << n;
  ASSERT_EQ(result.queen_row.size(), n);
  EXPECT_EQ(result.conflicts, 0u);
  EXPECT_GE(result.steps, n);  // at least one candidate per column
  EXPECT_TRUE(test::is_permutation_of_rows(result.queen_row));
  EXPECT_TRUE(verify_board(result.queen_row).valid());
  if (n <= 200) {
    EXPECT_EQ(test::brute_force_pairs(result.queen_row), 0u);
  }
}

std::vector<index_t> solved_sizes() {
  std::vector<index_t> sizes{1};
  for (index_t n = 4; n <= 200; ++n) sizes.push_back(n);
  sizes.insert(sizes.end(), {1000, 65'537, 100'000});
  return sizes;
}

INSTANTIATE_TEST_SUITE_P(Sizes, MinConflictsSolves, ::testing::ValuesIn(solved_sizes()),
                         [](const auto& info) {
                           return test::case_name({info.param, 0});
                         });

TEST(MinConflicts, ManySeedsSolveSmallBoards) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    for (const index_t n : {4, 5, 6, 8}) {
      const solve_result result = solve_min_conflicts(n, with_seed(seed));
      ASSERT_TRUE(result.solved) << "n=" << n << " seed=" << seed;
      ASSERT_EQ(test::brute_force_pairs(result.queen_row), 0u) << "n=" << n << " seed=" << seed;
    }
  }
}

TEST(MinConflicts, TwoAndThreeHaveNoSolution) {
  for (const index_t n : {2, 3}) {
    const solve_result result = solve_min_conflicts(n, with_seed(1));
    EXPECT_FALSE(result.solved);
    EXPECT_TRUE(result.queen_row.empty());
    EXPECT_EQ(result.steps, 0u);
  }
}

TEST(MinConflicts, EqualSeedsGiveEqualRuns) {
  for (const index_t n : {8, 1000, 70'000}) {
    const solve_result a = solve_min_conflicts(n, with_seed(5));
    const solve_result b = solve_min_conflicts(n, with_seed(5));
    EXPECT_EQ(a.queen_row, b.queen_row) << "n=" << n;
    EXPECT_EQ(a.steps, b.steps);
    EXPECT_EQ(a.restarts, b.restarts);
  }
}

TEST(MinConflicts, SeedsAndStreamsChangeTheRun) {
  const index_t n = 1000;
  const solve_result base = solve_min_conflicts(n, with_seed(5));
  EXPECT_NE(base.queen_row, solve_min_conflicts(n, with_seed(6)).queen_row);
  min_conflicts_settings other_stream = with_seed(5);
  other_stream.stream = 1;
  EXPECT_NE(base.queen_row, solve_min_conflicts(n, other_stream).queen_row);
}

// The step limit is exact. A run stopped mid-placement returns its board, still a permutation,
// with the columns it had not placed yet and its pairs left uncounted (counting them would cost
// seconds at 10^8): the first step stops before column 0, and more steps place more columns.
TEST(MinConflicts, StopsExactlyAtTheStepLimit) {
  constexpr index_t n = 100'000;
  index_t before = n + 1;
  for (const std::uint64_t limit : {1ull, 1000ull, 70'000ull, 150'000ull}) {
    min_conflicts_settings settings = with_seed(3);
    settings.limits.max_steps = limit;
    const solve_result result = solve_min_conflicts(n, settings);
    EXPECT_FALSE(result.solved);
    EXPECT_EQ(result.steps, limit);
    EXPECT_TRUE(test::is_permutation_of_rows(result.queen_row));
    EXPECT_EQ(result.conflicts, 0u) << "not counted";
    EXPECT_GT(verify_board(result.queen_row).conflicts, 0u);
    EXPECT_GT(result.unplaced, 0u) << limit;
    EXPECT_LT(result.unplaced, before) << limit;
    // At most one column is placed per step.
    EXPECT_GE(result.unplaced, n - std::min<std::uint64_t>(limit - 1, n)) << limit;
    if (limit == 1) {
      EXPECT_EQ(result.unplaced, n);
    }
    before = result.unplaced;
  }
}

// Ten million queens take well over a second under sanitizers and about 0.7 s in a release
// build on a CI-class machine; a 50 ms limit must stop the run long before either.
TEST(MinConflicts, StopsAtTheTimeLimit) {
  min_conflicts_settings settings = with_seed(3);
  settings.limits.time_limit = 0.05;
  const solve_result result = solve_min_conflicts(10'000'000, settings);
  EXPECT_FALSE(result.solved);
  EXPECT_GT(result.steps, 0u);
  EXPECT_LT(result.steps, 30'000'000u);  // a full placement takes about 3.06 n steps
}

TEST(MinConflicts, AStopRequestEndsTheRunAtItsFirstCheck) {
  const std::atomic<bool> stop{true};
  min_conflicts_settings settings = with_seed(3);
  settings.limits.stop = &stop;
  const solve_result result = solve_min_conflicts(1'000'000, settings);
  EXPECT_FALSE(result.solved);
  EXPECT_EQ(result.steps, 1u);
  EXPECT_EQ(result.unplaced, 1'000'000u);
}

TEST(MinConflicts, ReportsProgressWhilePlacing) {
  std::vector<solve_progress> reports;
  const solve_result result = solve_min_conflicts(
      1'000'000, with_seed(4), [&](const solve_progress& p) { reports.push_back(p); });
  ASSERT_TRUE(result.solved);
  ASSERT_GE(reports.size(), 2u);  // about 3 million steps, a report every 2^20
  EXPECT_STREQ(reports.front().phase, "placing");
  for (std::size_t i = 1; i < reports.size(); ++i) {
    EXPECT_GT(reports[i].steps, reports[i - 1].steps);
    EXPECT_GE(reports[i].fraction, reports[i - 1].fraction);
  }
  EXPECT_LE(reports.back().fraction, 1.0);
}

TEST(MinConflicts, TuningKnobsKeepItCorrect) {
  for (const index_t tail : {1, 10, 50}) {
    min_conflicts_settings settings = with_seed(tail);
    settings.random_tail = tail;
    settings.max_tries = 8;
    const solve_result result = solve_min_conflicts(5000, settings);
    ASSERT_TRUE(result.solved) << "tail " << tail;
    EXPECT_TRUE(verify_board(result.queen_row).valid());
  }
}

// The docs promise at most 10 bytes per queen, so 10^9 queens fit in 10 GB.
TEST(MinConflicts, MemoryStaysUnderTenBytesPerQueen) {
  for (const index_t n : {index_t{1'000'000}, index_t{1'000'000'000}, max_n})
    EXPECT_LE(min_conflicts_memory_bytes(n), 10 * n) << "n=" << n;
  EXPECT_GE(min_conflicts_memory_bytes(1'000'000), 4'000'000u);  // the board alone
}

}  // namespace
}  // namespace nq
