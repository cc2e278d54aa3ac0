// The shared step logic of the climbers (climb.hpp), against brute force on real boards.

#include "nqueens/detail/climb.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "board_oracles.hpp"

namespace nq {
namespace {

/// Owns a climber's buffers, counted in Count.
template <class Count = std::uint16_t>
struct climber {
  explicit climber(const std::vector<row_t>& rows)
      : queen_row(rows), row(rows.size()), diag(2 * rows.size() - 1), anti(2 * rows.size() - 1) {
    pairs = recount(view());
  }
  climber_view<Count> view() {
    return {queen_row.data(), row.data(), diag.data(), anti.data(), queen_row.size()};
  }
  std::vector<row_t> queen_row;
  std::vector<Count> row, diag, anti;
  index_t pairs = 0;
};

/// Every move's delta by brute force: pairs after minus pairs before.
std::int64_t brute_delta(std::vector<row_t> rows, index_t col, row_t to) {
  const auto before = static_cast<std::int64_t>(test::brute_force_pairs(rows));
  rows[col] = to;
  return static_cast<std::int64_t>(test::brute_force_pairs(rows)) - before;
}

class ClimbTest : public ::testing::TestWithParam<test::board_case> {};

TEST_P(ClimbTest, DeltasAndMovesMatchBruteForce) {
  const auto [n, seed] = GetParam();
  climber<std::int16_t> c(test::random_board(n, seed));
  ASSERT_EQ(c.pairs, test::brute_force_pairs(c.queen_row));
  for (index_t col = 0; col < n; ++col)
    for (row_t to = 0; to < n; ++to) {
      if (to == c.queen_row[col]) continue;
      ASSERT_EQ(relocation_delta(c.view(), col, to), brute_delta(c.queen_row, col, to))
          << "col " << col << " to " << to;
    }
  // A walk of relocations keeps the lines in step with the board.
  philox_stream rng(seed, 9);
  for (int i = 0; i < 50; ++i) {
    const index_t col = rng.below(static_cast<std::uint32_t>(n));
    const row_t to = rng.below(static_cast<std::uint32_t>(n));
    if (to == c.queen_row[col]) continue;
    c.pairs += relocation_delta(c.view(), col, to);
    relocate(c.view(), col, to);
    ASSERT_EQ(c.pairs, test::brute_force_pairs(c.queen_row));
  }
}

// Both scans: 16-bit sums (int16_t counts) and 32-bit sums (uint16_t counts).
template <class Count>
void expect_steepest_move_is_a_best_move(index_t n, std::uint64_t seed) {
  climber<Count> c(test::random_board(n, seed));
  std::int64_t best = INT64_MAX;
  for (index_t col = 0; col < n; ++col)
    for (row_t to = 0; to < n; ++to)
      if (to != c.queen_row[col]) best = std::min(best, brute_delta(c.queen_row, col, to));
  philox_stream rng(seed, 3);
  const queen_move m = steepest_move(c.view(), rng, 2);  // 2: every best move is acceptable
  EXPECT_EQ(m.delta, best);
  ASSERT_NE(m.row, c.queen_row[m.col]);
  EXPECT_EQ(brute_delta(c.queen_row, m.col, m.row), best);
  // Above max_delta nothing is chosen, and nothing is drawn.
  philox_stream untouched(seed, 3);
  const queen_move none = steepest_move(c.view(), untouched, best - 1);
  EXPECT_GT(none.delta, best - 1);
  EXPECT_EQ(untouched.next_u32(), philox_stream(seed, 3).next_u32());
  // --ties first: the first best move column by column, rows ascending, and no draw.
  index_t first_col = n;
  row_t first_row = 0;
  for (index_t col = 0; col < n && first_col == n; ++col)
    for (row_t to = 0; to < n; ++to)
      if (to != c.queen_row[col] && brute_delta(c.queen_row, col, to) == best) {
        first_col = col;
        first_row = to;
        break;
      }
  philox_stream first_rng(seed, 3);
  const queen_move first = steepest_move(c.view(), first_rng, 2, tie_rule::first);
  EXPECT_EQ(first.delta, best);
  EXPECT_EQ(first.col, first_col);
  EXPECT_EQ(first.row, first_row);
  EXPECT_EQ(first_rng.next_u32(), philox_stream(seed, 3).next_u32());
  // --ties last: the last of them.
  index_t last_col = n;
  row_t last_row = 0;
  for (index_t col = 0; col < n; ++col)
    for (row_t to = 0; to < n; ++to)
      if (to != c.queen_row[col] && brute_delta(c.queen_row, col, to) == best) {
        last_col = col;
        last_row = to;
      }
  philox_stream last_rng(seed, 3);
  const queen_move last = steepest_move(c.view(), last_rng, 2, tie_rule::last);
  EXPECT_EQ(last.col, last_col);
  EXPECT_EQ(last.row, last_row);
  EXPECT_EQ(last_rng.next_u32(), philox_stream(seed, 3).next_u32());
}

TEST_P(ClimbTest, SteepestMoveIsABestMove) {
  const auto [n, seed] = GetParam();
  expect_steepest_move_is_a_best_move<std::int16_t>(n, seed);
  expect_steepest_move_is_a_best_move<std::uint16_t>(n, seed);
}

INSTANTIATE_TEST_SUITE_P(Boards, ClimbTest,
                         ::testing::Values(test::board_case{2, 1}, test::board_case{3, 2},
                                           test::board_case{4, 3}, test::board_case{5, 4},
                                           test::board_case{8, 5}, test::board_case{13, 6},
                                           test::board_case{32, 7}, test::board_case{41, 8}),
                         [](const auto& info) { return test::case_name(info.param); });

// Ties are drawn uniformly: on a board with many equal best moves, each comes up about equally
// often. With k ties and d draws, each count is Binomial(d, 1/k); 6 standard deviations.
TEST(Climb, TiesAreDrawnUniformly) {
  climber<> c(std::vector<row_t>(40, 0));  // all on row 0: many moves tie, across columns
  philox_stream probe(1, 0);
  const queen_move first = steepest_move(c.view(), probe, 2);
  std::map<std::pair<index_t, row_t>, int> seen;
  const int draws = 20000;
  for (int i = 0; i < draws; ++i) {
    philox_stream rng(2, static_cast<std::uint64_t>(i));
    const queen_move m = steepest_move(c.view(), rng, 2);
    ASSERT_EQ(m.delta, first.delta);
    ++seen[{m.col, m.row}];
  }
  std::size_t ties = 0;
  for (index_t col = 0; col < 40; ++col)
    for (row_t to = 1; to < 40; ++to) ties += brute_delta(c.queen_row, col, to) == first.delta;
  ASSERT_GT(ties, std::size_t{steepest_tie_columns});  // the two-pass path is exercised too
  EXPECT_EQ(seen.size(), ties);
  const double mean = static_cast<double>(draws) / static_cast<double>(ties);
  const double sd = std::sqrt(mean * (1 - 1.0 / static_cast<double>(ties)));
  for (const auto& [move, count] : seen) EXPECT_NEAR(count, mean, 6 * sd);
}

TEST(Climb, RandomJumpsKeepTheLinesInStep) {
  climber<> c(test::random_board(12, 4));
  philox_stream rng(4, 4);
  for (int i = 0; i < 30; ++i) {
    c.pairs = random_jumps(c.view(), rng, 3, c.pairs);
    ASSERT_EQ(c.pairs, test::brute_force_pairs(c.queen_row));
  }
}

}  // namespace
}  // namespace nq
