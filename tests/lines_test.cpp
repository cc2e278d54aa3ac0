#include "nqueens/detail/lines.hpp"

#include <gtest/gtest.h>

#include "board_oracles.hpp"

namespace nq {
namespace {

using test::board_case;

/// Owns counters for a general board (with row counts) or a permutation (without).
struct counters {
  explicit counters(index_t n, bool with_rows)
      : row(with_rows ? n : 0), diag(diag_line_count(n)), anti(diag_line_count(n)) {
    view = {with_rows ? row.data() : nullptr, diag.data(), anti.data(), n};
  }
  std::vector<std::uint32_t> row, diag, anti;
  line_counts_view<std::uint32_t> view{};
};

class LinesTest : public ::testing::TestWithParam<board_case> {};

TEST_P(LinesTest, RecountMatchesBruteForce) {
  const auto [n, seed] = GetParam();
  const auto rows = test::random_board(n, seed);
  counters c(n, true);
  EXPECT_EQ(recount(c.view, rows.data()), test::brute_force_pairs(rows));
  for (index_t col = 0; col < n; ++col) {
    index_t attackers = 0;
    for (index_t other = 0; other < n; ++other)
      attackers += other != col && test::attack(rows, col, other);
    ASSERT_EQ(queen_conflicts(c.view, col, rows[col]), attackers) << "column " << col;
  }
}

TEST_P(LinesTest, CountersHoldQueensPerLine) {
  const auto [n, seed] = GetParam();
  const auto rows = test::random_board(n, seed);
  counters c(n, true);
  recount(c.view, rows.data());
  std::vector<std::uint32_t> row(n), diag(diag_line_count(n)), anti(diag_line_count(n));
  for (index_t col = 0; col < n; ++col) {
    ++row[rows[col]];
    ++diag[col - rows[col] + n - 1];  // the "\" line through (col, row)
    ++anti[col + rows[col]];
  }
  EXPECT_EQ(c.row, row);
  EXPECT_EQ(c.diag, diag);
  EXPECT_EQ(c.anti, anti);
}

// Every predicted delta must equal the change a full recount measures, and the incrementally
// maintained counters must equal recounted ones, move after move.
TEST_P(LinesTest, MoveDeltaMatchesRecountOverLongSequences) {
  const auto [n, seed] = GetParam();
  auto rows = test::random_board(n, seed);
  counters c(n, true), check(n, true);
  index_t pairs = recount(c.view, rows.data());
  philox_stream rng(seed, 2);
  const int moves = n > 100 ? 300 : 2000;
  for (int m = 0; m < moves; ++m) {
    const index_t col = rng.below(static_cast<std::uint32_t>(n));
    const index_t to = rng.below(static_cast<std::uint32_t>(n));
    const std::int64_t delta = move_delta(c.view, col, rows[col], to);
    const index_t before = pairs;
    pairs -= remove_queen(c.view, col, rows[col]);
    rows[col] = static_cast<row_t>(to);
    pairs += add_queen(c.view, col, to);
    const index_t truth = recount(check.view, rows.data());
    ASSERT_EQ(static_cast<std::int64_t>(truth) - static_cast<std::int64_t>(before), delta)
        << "move " << m << ": column " << col << " to row " << to;
    ASSERT_EQ(pairs, truth) << "move " << m;
    ASSERT_EQ(c.row, check.row);
    ASSERT_EQ(c.diag, check.diag);
    ASSERT_EQ(c.anti, check.anti);
  }
}

TEST_P(LinesTest, SwapDeltaMatchesRecountOverLongSequences) {
  const auto [n, seed] = GetParam();
  for (const bool permutation : {true, false}) {
    auto rows = permutation ? test::random_permutation(n, seed) : test::random_board(n, seed);
    counters c(n, !permutation), check(n, !permutation);
    index_t pairs = recount(c.view, rows.data());
    philox_stream rng(seed, 4);
    for (int m = 0; m < 1000; ++m) {
      const index_t a = rng.below(static_cast<std::uint32_t>(n));
      const index_t b = rng.below(static_cast<std::uint32_t>(n));
      const std::int64_t delta = swap_delta(c.view, a, rows[a], b, rows[b]);
      const index_t before = pairs;
      pairs -= remove_queen(c.view, a, rows[a]);
      pairs -= remove_queen(c.view, b, rows[b]);
      std::swap(rows[a], rows[b]);
      pairs += add_queen(c.view, a, rows[a]);
      pairs += add_queen(c.view, b, rows[b]);
      const index_t truth = recount(check.view, rows.data());
      ASSERT_EQ(static_cast<std::int64_t>(truth) - static_cast<std::int64_t>(before), delta)
          << (permutation ? "permutation" : "board") << " swap " << m << ": " << a << "<->" << b;
      ASSERT_EQ(pairs, truth);
    }
    if (permutation) {
      EXPECT_EQ(test::brute_force_pairs(rows), pairs);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, LinesTest, ::testing::ValuesIn(test::small_and_edge_cases()),
                         [](const auto& info) { return test::case_name(info.param); });

TEST(Lines, PairsOnLineIsBinomial) {
  EXPECT_EQ(pairs_on_line(0), 0u);
  EXPECT_EQ(pairs_on_line(1), 0u);
  for (index_t k = 2; k < 100; ++k) EXPECT_EQ(pairs_on_line(k), pairs_on_line(k - 1) + (k - 1));
  EXPECT_EQ(pairs_on_line(max_n), max_n * (max_n - 1) / 2);
}

TEST(Lines, DiagonalIndicesCoverEachLineOnce) {
  const index_t n = 7;
  std::vector<int> diag(diag_line_count(n)), anti(diag_line_count(n));
  for (index_t col = 0; col < n; ++col)
    for (index_t row = 0; row < n; ++row) {
      ASSERT_LT(diag_index(n, col, row), diag_line_count(n));
      ++diag[diag_index(n, col, row)];
      ++anti[anti_diag_index(col, row)];
    }
  // Line k of each family holds min(k + 1, 2n - 1 - k) squares.
  for (index_t k = 0; k < diag_line_count(n); ++k) {
    const int squares = static_cast<int>(std::min(k + 1, diag_line_count(n) - k));
    EXPECT_EQ(diag[k], squares);
    EXPECT_EQ(anti[k], squares);
  }
  EXPECT_EQ(diag_index(n, 0, 0), diag_index(n, 3, 3));
  EXPECT_EQ(anti_diag_index(0, 3), anti_diag_index(3, 0));
}

}  // namespace
}  // namespace nq
