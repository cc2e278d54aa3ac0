#include "nqueens/construction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "board_oracles.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/verify.hpp"

namespace nq {
namespace {

std::vector<row_t> construct(index_t n) {
  std::vector<row_t> rows(n);
  for (index_t col = 0; col < n; ++col) rows[col] = static_cast<row_t>(constructive_row(n, col));
  return rows;
}

TEST(Construction, SolutionsExistExceptForTwoAndThree) {
  EXPECT_FALSE(solution_exists(0));
  EXPECT_TRUE(solution_exists(1));
  EXPECT_FALSE(solution_exists(2));
  EXPECT_FALSE(solution_exists(3));
  for (index_t n = 4; n < 100; ++n) EXPECT_TRUE(solution_exists(n));
  EXPECT_TRUE(solution_exists(max_n));
}

// Against the O(n^2) oracle where it is cheap; every residue mod 6 appears many times.
TEST(Construction, ValidByBruteForceUpTo300) {
  EXPECT_EQ(test::brute_force_pairs(construct(1)), 0u);
  for (index_t n = 4; n <= 300; ++n) {
    const auto rows = construct(n);
    ASSERT_TRUE(test::is_permutation_of_rows(rows)) << "n=" << n;
    ASSERT_EQ(test::brute_force_pairs(rows), 0u) << "n=" << n;
  }
}

TEST(Construction, ValidForEveryNUpTo5000) {
  for (index_t n = 4; n <= 5000; ++n) {
    const auto report = verify_board(construct(n));
    ASSERT_TRUE(report.valid()) << "n=" << n << ": " << report.conflicts << " pairs";
  }
}

// The sequences the rule is known by (1-based rows): n = 8 (n mod 6 = 2) and n = 9 (= 3).
TEST(Construction, ReproducesTheClassicSequences) {
  auto one_based = [](index_t n) {
    std::vector<row_t> rows = construct(n);
    for (auto& r : rows) ++r;
    return rows;
  };
  EXPECT_EQ(one_based(8), (std::vector<row_t>{2, 4, 6, 8, 3, 1, 7, 5}));
  EXPECT_EQ(one_based(9), (std::vector<row_t>{4, 6, 8, 2, 5, 7, 9, 1, 3}));
  EXPECT_EQ(one_based(4), (std::vector<row_t>{2, 4, 1, 3}));
}

TEST(Construction, SolverReportsOneStepPerColumn) {
  const solve_result result = solve_constructive(1000);
  EXPECT_TRUE(result.solved);
  EXPECT_EQ(result.steps, 1000u);
  EXPECT_EQ(result.queen_row, construct(1000));
  EXPECT_EQ(solve_constructive(1).queen_row, std::vector<row_t>{0});
  for (index_t n : {2, 3}) {
    const solve_result none = solve_constructive(n);
    EXPECT_FALSE(none.solved);
    EXPECT_TRUE(none.queen_row.empty());
  }
}

// The repaired residues at scale: 1'000'004 = 2 (mod 6), 999'999 = 3 (mod 6); and a plain one.
TEST(Construction, LargeBoardsAreValid) {
  for (const index_t n : {1'000'004u, 999'999u, 1'000'003u})
    EXPECT_TRUE(verify_board(solve_constructive(n).queen_row).valid()) << "n=" << n;
}

}  // namespace
}  // namespace nq
