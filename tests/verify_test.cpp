#include "nqueens/verify.hpp"

#include <gtest/gtest.h>

#include "board_oracles.hpp"

namespace nq {
namespace {

using test::board_case;

class VerifyTest : public ::testing::TestWithParam<board_case> {};

TEST_P(VerifyTest, CountsAndFirstClashMatchBruteForce) {
  const auto [n, seed] = GetParam();
  for (const auto& rows : {test::random_board(n, seed), test::random_permutation(n, seed)}) {
    const verify_report report = verify_board(rows);
    EXPECT_EQ(report.n, n);
    EXPECT_EQ(report.conflicts, test::brute_force_pairs(rows));
    const auto expected = test::brute_force_first_clash(rows);
    ASSERT_EQ(report.first_clash.has_value(), expected.has_value());
    if (!expected) continue;
    const clash& c = *report.first_clash;
    EXPECT_EQ(c.col_a, expected->first);
    EXPECT_EQ(c.col_b, expected->second);
    const index_t ra = rows[c.col_a], rb = rows[c.col_b];
    switch (c.kind) {
      case line_kind::row:
        EXPECT_EQ(ra, rb);
        break;
      case line_kind::diagonal:
        EXPECT_EQ(c.col_b - c.col_a, rb - ra);
        break;
      case line_kind::anti_diagonal:
        EXPECT_EQ(c.col_b - c.col_a, ra - rb);
        break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EdgeSizes, VerifyTest, ::testing::ValuesIn(test::edge_cases()),
                         [](const auto& info) { return test::case_name(info.param); });

TEST(Verify, NamesEachKindOfClash) {
  // Column 0 row 0 against column 1: same row, then diagonal (1, 1), then anti-diagonal.
  EXPECT_EQ(verify_board(std::vector<row_t>{0, 0, 3, 1}).first_clash->kind, line_kind::row);
  EXPECT_EQ(verify_board(std::vector<row_t>{0, 1, 3, 2}).first_clash->kind, line_kind::diagonal);
  EXPECT_EQ(verify_board(std::vector<row_t>{1, 0, 3, 2}).first_clash->kind,
            line_kind::anti_diagonal);
  EXPECT_STREQ(line_kind_name(line_kind::row), "row");
  EXPECT_STREQ(line_kind_name(line_kind::diagonal), "diagonal");
  EXPECT_STREQ(line_kind_name(line_kind::anti_diagonal), "anti-diagonal");
}

// Lines with more than 255 queens take the overflow path of the byte counters.
TEST(Verify, CountsCrowdedLinesExactly) {
  const index_t n = 1000;
  const std::vector<row_t> one_row(n, 7);
  EXPECT_EQ(verify_board(one_row).conflicts, n * (n - 1) / 2);
  std::vector<row_t> two_diagonals(n);
  for (index_t col = 0; col < n; ++col)
    two_diagonals[col] = static_cast<row_t>(col < 600 ? col : col - 600);
  EXPECT_EQ(verify_board(two_diagonals).conflicts, test::brute_force_pairs(two_diagonals));
}

TEST(Verify, SingleQueenAndEmptyBoard) {
  EXPECT_TRUE(verify_board(std::vector<row_t>{0}).valid());
  EXPECT_TRUE(verify_board(std::vector<row_t>{}).valid());
  EXPECT_FALSE(verify_board(std::vector<row_t>{0, 1}).valid());
}

}  // namespace
}  // namespace nq
