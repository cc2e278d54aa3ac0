#include "nqueens/systematic.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "board_oracles.hpp"
#include "nqueens/error.hpp"
#include "nqueens/verify.hpp"

namespace nq {
namespace {

using solver_fn = solve_result (*)(index_t, const systematic_settings&);

struct named_solver {
  const char* name;
  solver_fn solve;
  index_t max_n;  // bfs keeps whole levels: beyond this its frontier outgrows a test
};

const named_solver depth_first[] = {
    {"backtrack", solve_backtrack, 20},
    {"backtrack_opt", solve_backtrack_opt, 20},
    {"dfs", solve_dfs, 20},
};
const named_solver all_solvers[] = {
    depth_first[0], depth_first[1], depth_first[2], {"bfs", solve_bfs, 11}};

/// The lexicographically first solution, by walking permutations in order: no search tree.
std::vector<row_t> first_solution_by_permutations(index_t n) {
  std::vector<row_t> rows(n);
  std::iota(rows.begin(), rows.end(), row_t{0});
  do {
    if (test::brute_force_pairs(rows) == 0) return rows;
  } while (std::next_permutation(rows.begin(), rows.end()));
  return {};
}

class SystematicSolves : public ::testing::TestWithParam<named_solver> {};

TEST_P(SystematicSolves, FindsAValidBoardForEveryNFrom4) {
  const named_solver solver = GetParam();
  for (index_t n = 4; n <= solver.max_n; ++n) {
    const solve_result result = solver.solve(n, {});
    ASSERT_TRUE(result.solved) << solver.name << " n=" << n;
    ASSERT_EQ(result.queen_row.size(), n);
    EXPECT_TRUE(verify_board(result.queen_row).valid()) << solver.name << " n=" << n;
    EXPECT_EQ(test::brute_force_pairs(result.queen_row), 0u);
    EXPECT_GT(result.steps, 0u);
  }
}

TEST_P(SystematicSolves, ReturnsTheLexicographicallyFirstSolution) {
  const named_solver solver = GetParam();
  for (index_t n : {1, 4, 5, 6, 8, 9}) {
    const solve_result result = solver.solve(n, {});
    ASSERT_TRUE(result.solved);
    EXPECT_EQ(result.queen_row, first_solution_by_permutations(n)) << solver.name << " n=" << n;
  }
}

TEST_P(SystematicSolves, ExhaustsTheTreeWhenNoSolutionExists) {
  const named_solver solver = GetParam();
  for (index_t n : {2, 3}) {
    const solve_result result = solver.solve(n, {});
    EXPECT_FALSE(result.solved) << solver.name << " n=" << n;
    EXPECT_TRUE(result.queen_row.empty());
    EXPECT_GT(result.steps, 0u);
  }
}

TEST_P(SystematicSolves, StopsExactlyAtTheStepLimit) {
  const named_solver solver = GetParam();
  systematic_settings settings;
  settings.limits.max_steps = 10;
  const solve_result result = solver.solve(11, settings);  // needs far more than 10 expansions
  EXPECT_FALSE(result.solved);
  EXPECT_EQ(result.steps, 10u);
}

// A stop request (Ctrl-C in solve) ends the search at its first look at the clock.
TEST_P(SystematicSolves, AStopRequestEndsTheSearch) {
  const named_solver solver = GetParam();
  const std::atomic<bool> stop{true};
  systematic_settings settings;
  settings.limits.stop = &stop;
  const solve_result result = solver.solve(60, settings);
  EXPECT_FALSE(result.solved);
  EXPECT_LE(result.steps, 1u);
}

INSTANTIATE_TEST_SUITE_P(Systematic, SystematicSolves, ::testing::ValuesIn(all_solvers),
                         [](const auto& info) { return std::string(info.param.name); });

// backtrack, backtrack-opt and dfs walk one tree in one order: same board, same node count.
TEST(Systematic, DepthFirstSolversExpandTheSameNodes) {
  for (index_t n = 4; n <= 22; ++n) {
    const solve_result plain = solve_backtrack(n, {});
    for (const auto& solver : depth_first) {
      const solve_result other = solver.solve(n, {});
      EXPECT_EQ(other.queen_row, plain.queen_row) << solver.name << " n=" << n;
      EXPECT_EQ(other.steps, plain.steps) << solver.name << " n=" << n;
    }
  }
}

TEST(Systematic, RandomizedOrderIsReproducibleAndSeedDependent) {
  std::set<std::vector<row_t>> boards;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    systematic_settings settings;
    settings.randomize = true;
    settings.seed = seed;
    const solve_result first = solve_backtrack(30, settings);
    ASSERT_TRUE(first.solved) << "seed " << seed;
    EXPECT_TRUE(verify_board(first.queen_row).valid());
    for (const auto& solver : depth_first) {
      const solve_result again = solver.solve(30, settings);
      EXPECT_EQ(again.queen_row, first.queen_row) << solver.name << " seed " << seed;
      EXPECT_EQ(again.steps, first.steps) << solver.name << " seed " << seed;
    }
    boards.insert(first.queen_row);
  }
  // n = 30 has about 2.6e16 solutions: twelve seeds landing on fewer than ten boards would mean
  // the shuffle barely changes the search.
  EXPECT_GE(boards.size(), 10u);
}

TEST(Systematic, BfsReportsEveryLevelAndStopsBeforeItsMemoryBound) {
  std::vector<std::uint64_t> frontier;
  systematic_settings settings;
  settings.level_fn = [&](index_t level, std::uint64_t size) {
    EXPECT_EQ(level, frontier.size() + 1);
    frontier.push_back(size);
  };
  ASSERT_TRUE(solve_bfs(6, settings).solved);
  // Partial boards of k non-attacking queens in the first k columns of a 6x6 board, counted by
  // brute force over all row choices.
  ASSERT_EQ(frontier.size(), 5u);
  for (index_t k = 1; k <= 5; ++k) {
    std::uint64_t expected = 0;
    std::vector<row_t> rows(k, 0);
    for (std::uint64_t code = 0; code < static_cast<std::uint64_t>(std::pow(6, k)); ++code) {
      std::uint64_t c = code;
      for (auto& r : rows) r = static_cast<row_t>(c % 6), c /= 6;
      expected += test::brute_force_pairs(rows) == 0;
    }
    EXPECT_EQ(frontier[k - 1], expected) << "level " << k;
  }
  settings.level_fn = nullptr;
  settings.max_memory = 4096;
  EXPECT_THROW(solve_bfs(12, settings), resource_error);
}

TEST(Systematic, RefusesBoardsBeyondItsLimit) {
  EXPECT_THROW(solve_dfs(max_systematic_n + 1, {}), usage_error);
}

TEST(Enumerate, Visits92DistinctValidBoardsInOrderForN8) {
  std::vector<std::vector<row_t>> seen;
  const std::uint64_t visited = for_each_solution(8, [&](std::span<const row_t> rows) {
    seen.emplace_back(rows.begin(), rows.end());
    return true;
  });
  EXPECT_EQ(visited, 92u);
  ASSERT_EQ(seen.size(), 92u);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(std::set(seen.begin(), seen.end()).size(), 92u);
  for (const auto& rows : seen) EXPECT_EQ(test::brute_force_pairs(rows), 0u);
}

TEST(Enumerate, MatchesAPermutationWalkForSmallN) {
  for (index_t n = 1; n <= 8; ++n) {
    std::uint64_t by_permutations = 0;
    std::vector<row_t> rows(n);
    std::iota(rows.begin(), rows.end(), row_t{0});
    do by_permutations += test::brute_force_pairs(rows) == 0;
    while (std::next_permutation(rows.begin(), rows.end()));
    EXPECT_EQ(for_each_solution(n, [](auto) { return true; }), by_permutations) << "n=" << n;
  }
}

TEST(Enumerate, StopsWhenTheVisitorSaysSo) {
  std::uint64_t calls = 0;
  EXPECT_EQ(for_each_solution(10, [&](auto) { return ++calls < 5; }), 5u);
  EXPECT_EQ(calls, 5u);
}

}  // namespace
}  // namespace nq
