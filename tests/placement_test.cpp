// The parallel placement on CPU threads: valid boards for every thread count, the same board
// for the same (seed, n) whatever the threads, and stops that leave a permutation behind.

#include "nqueens/placement.hpp"

#include <gtest/gtest.h>

#include "nqueens/placement_solver.hpp"
#include "placement_oracle.hpp"

namespace nq {
namespace {

std::vector<index_t> sizes() {
  std::vector<index_t> n{1};
  for (index_t k = 4; k <= 64; ++k) n.push_back(k);
  for (index_t k : {97, 1000, 8191, 16385, 100003, 1000000}) n.push_back(k);
  return n;
}

solve_result solve(index_t n, unsigned threads, std::uint64_t seed = 1, search_limits limits = {}) {
  placement_settings settings;
  settings.seed = seed;
  settings.threads = threads;
  settings.limits = limits;
  return solve_placement(n, settings);
}

TEST(Placement, EveryThreadCountGivesTheSameValidBoard) {
  for (const index_t n : sizes()) {
    const solve_result first = solve(n, 1);
    ASSERT_TRUE(first.solved) << "n=" << n;
    ASSERT_EQ(first.queen_row.size(), n);
    ASSERT_TRUE(test::is_solution(first.queen_row)) << "n=" << n;
    for (unsigned threads = 2; threads <= 8; ++threads) {
      const solve_result again = solve(n, threads);
      ASSERT_EQ(again.queen_row, first.queen_row) << "n=" << n << ", " << threads << " threads";
      EXPECT_EQ(again.steps, first.steps) << "n=" << n << ", " << threads << " threads";
      EXPECT_EQ(again.restarts, first.restarts);
    }
  }
}

TEST(Placement, SeedsGiveDifferentBoards) {
  const auto a = solve(100003, 2, 1), b = solve(100003, 2, 2);
  ASSERT_TRUE(a.solved && b.solved);
  EXPECT_NE(a.queen_row, b.queen_row);
}

TEST(Placement, NoSolutionForTwoAndThree) {
  for (const index_t n : {2, 3}) {
    const auto r = solve(n, 2);
    EXPECT_FALSE(r.solved);
    EXPECT_TRUE(r.queen_row.empty());
  }
}

TEST(Placement, AStepLimitStopsTheSameWayOnAnyThreadCount) {
  search_limits limits;
  limits.max_steps = 100;  // rounds: the first pass is far from done
  const auto one = solve(1000000, 1, 7, limits);
  EXPECT_FALSE(one.solved);
  EXPECT_EQ(one.steps, 100u);
  EXPECT_GT(one.unplaced, 0u);
  EXPECT_LT(one.unplaced, 1000000u);
  EXPECT_TRUE(test::is_permutation(one.queen_row));
  const auto three = solve(1000000, 3, 7, limits);
  EXPECT_EQ(three.queen_row, one.queen_row);
  EXPECT_EQ(three.unplaced, one.unplaced);
}

TEST(Placement, ATimeLimitStopsARun) {
  search_limits limits;
  limits.time_limit = 1e-9;
  const auto r = solve(1000000, 2, 1, limits);
  EXPECT_FALSE(r.solved);
  EXPECT_GT(r.unplaced, 0u);
  EXPECT_TRUE(test::is_permutation(r.queen_row));
}

TEST(Placement, AStopRequestStopsARun) {
  const std::atomic<bool> stop{true};
  search_limits limits;
  limits.stop = &stop;
  const auto r = solve(1000000, 2, 1, limits);
  EXPECT_FALSE(r.solved);
  EXPECT_GT(r.unplaced, 0u);
  EXPECT_TRUE(test::is_permutation(r.queen_row));
}

TEST(Placement, MemoryBoundCoversTheArrays) {
  // The board (4 bytes a queen) and two 2-bit line families (1 byte a queen), plus blocks.
  EXPECT_GE(placement_memory_bytes(1000000000), 5000000000u);
  EXPECT_LE(placement_memory_bytes(1000000000), 5040000000u);
}

}  // namespace
}  // namespace nq
