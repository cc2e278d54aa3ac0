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

/// Pairs of a board of any size by plain 32-bit line counts, and the first column that lands
/// on an occupied line: an O(n) oracle for boards too big for the brute force.
std::pair<index_t, index_t> counted_pairs(const std::vector<row_t>& rows) {
  const index_t n = rows.size();
  std::vector<std::uint32_t> row(n), diag(2 * n), anti(2 * n);
  index_t pairs = 0, first = n;
  for (index_t c = 0; c < n; ++c) {
    const index_t r = rows[c];
    const index_t created = row[r]++ + diag[c + n - r]++ + anti[c + r]++;
    pairs += created;
    if (created && first == n) first = c;
  }
  return {pairs, first};
}

// From a million queens up the lines are shared out among threads: the report is the same for
// any number of them, and equals the oracle's, on a solution, a permutation with planted
// clashes, a random board and one crowded on a few lines.
TEST(Verify, ThreadsShareTheLinesAndAgree) {
  const index_t n = (index_t{1} << 20) + 7;
  std::vector<std::vector<row_t>> boards;
  std::vector<row_t> solution(n);
  for (index_t c = 0; c < n; ++c)
    solution[c] = static_cast<row_t>((2 * c + 1) % n);  // n prime to 6
  boards.push_back(solution);
  std::vector<row_t> planted = solution;
  std::swap(planted[1000], planted[n - 5]);
  std::swap(planted[77], planted[500000]);
  boards.push_back(planted);
  boards.push_back(test::random_board(n, 3));
  std::vector<row_t> crowded(n);
  for (index_t c = 0; c < n; ++c) crowded[c] = static_cast<row_t>(c % 3 == 0 ? 5 : c);
  boards.push_back(crowded);
  for (std::size_t b = 0; b < boards.size(); ++b) {
    const auto [pairs, first] = counted_pairs(boards[b]);
    const verify_report one = verify_board(boards[b], 1);
    EXPECT_EQ(one.conflicts, pairs) << "board " << b;
    EXPECT_EQ(one.first_clash ? one.first_clash->col_b : n, first) << "board " << b;
    for (const unsigned threads : {2u, 3u, 8u}) {
      const verify_report many = verify_board(boards[b], threads);
      EXPECT_EQ(many.conflicts, one.conflicts) << "board " << b << " threads " << threads;
      ASSERT_EQ(many.first_clash.has_value(), one.first_clash.has_value());
      if (!one.first_clash) continue;
      EXPECT_EQ(many.first_clash->col_a, one.first_clash->col_a);
      EXPECT_EQ(many.first_clash->col_b, one.first_clash->col_b);
      EXPECT_EQ(many.first_clash->kind, one.first_clash->kind);
    }
  }
  EXPECT_TRUE(verify_board(boards[0], 4).valid());
  std::vector<row_t> off = solution;
  off[n / 2] = static_cast<row_t>(n);
  EXPECT_THROW(verify_board(off, 4), std::exception);
}

TEST(Verify, SingleQueenAndEmptyBoard) {
  EXPECT_TRUE(verify_board(std::vector<row_t>{0}).valid());
  EXPECT_TRUE(verify_board(std::vector<row_t>{}).valid());
  EXPECT_FALSE(verify_board(std::vector<row_t>{0, 1}).valid());
}

}  // namespace
}  // namespace nq
