#pragma once
/// @file
/// @brief Line occupancy counters for the complete-state formulation (one queen per column)
/// and O(1) changes in attacking pairs. Pure logic on views, compiled for host and device.
///
/// Lines: a queen at (col, row) sits on row `row`, diagonal `col - row + n - 1` (rows grow
/// with columns, "\" with row 0 on top) and anti-diagonal `col + row` ("/"). Each family of
/// diagonals has 2n - 1 lines. A line holding k queens contributes C(k, 2) attacking pairs.

#include "nqueens/config.hpp"

namespace nq {

/// @brief The three kinds of line a pair of queens can share.
enum class line_kind : std::uint8_t { row, diagonal, anti_diagonal };

NQ_HD constexpr index_t diag_index(index_t n, index_t col, index_t row) {
  return col + (n - 1) - row;
}
NQ_HD constexpr index_t anti_diag_index(index_t col, index_t row) { return col + row; }
/// @brief Lines per diagonal family: 2n - 1.
NQ_HD constexpr index_t diag_line_count(index_t n) { return n == 0 ? 0 : 2 * n - 1; }
/// @brief C(k, 2): attacking pairs among k queens on one line.
NQ_HD constexpr index_t pairs_on_line(index_t k) { return k < 2 ? 0 : k * (k - 1) / 2; }

/// @brief Non-owning counters of queens per line. `row_count` may be null for permutation
/// boards, whose rows are distinct by construction.
template <class Count>
struct line_counts_view {
  Count* row_count;        ///< n entries, or null
  Count* diag_count;       ///< 2n - 1 entries
  Count* anti_diag_count;  ///< 2n - 1 entries
  index_t n;
};

/// @brief Puts a queen on its three lines; returns the attacking pairs it creates.
template <class Count>
NQ_HD index_t add_queen(line_counts_view<Count> v, index_t col, index_t row) {
  index_t created = 0;
  if (v.row_count) created += v.row_count[row]++;
  created += v.diag_count[diag_index(v.n, col, row)]++;
  created += v.anti_diag_count[anti_diag_index(col, row)]++;
  return created;
}

/// @brief Takes a queen off its three lines; returns the attacking pairs it removes.
template <class Count>
NQ_HD index_t remove_queen(line_counts_view<Count> v, index_t col, index_t row) {
  index_t removed = 0;
  if (v.row_count) removed += --v.row_count[row];
  removed += --v.diag_count[diag_index(v.n, col, row)];
  removed += --v.anti_diag_count[anti_diag_index(col, row)];
  return removed;
}

/// @brief Pairs attacking the queen at (col, row), which must be on the board.
template <class Count>
NQ_HD index_t queen_conflicts(line_counts_view<Count> v, index_t col, index_t row) {
  index_t on_lines = (v.row_count ? v.row_count[row] : 1) +
                     v.diag_count[diag_index(v.n, col, row)] +
                     v.anti_diag_count[anti_diag_index(col, row)];
  return on_lines - 3;
}

namespace detail {

/// Change in pairs on one family of lines when K queens leave the `from` lines and K queens
/// arrive on the `to` lines. Lines may coincide; each distinct line is counted once. `count`
/// is anything indexable by line: an array, or a compact counter with operator[].
template <int K, class Counts>
NQ_HD std::int64_t family_delta(const Counts& count, const index_t (&from)[K],
                                const index_t (&to)[K]) {
  index_t lines[2 * K];
  for (int i = 0; i < K; ++i) {
    lines[i] = from[i];
    lines[K + i] = to[i];
  }
  std::int64_t delta = 0;
  for (int i = 0; i < 2 * K; ++i) {
    bool seen = false;
    for (int j = 0; j < i; ++j) seen = seen || lines[j] == lines[i];
    if (seen) continue;
    std::int64_t change = 0;
    for (int j = 0; j < K; ++j) change += (to[j] == lines[i]) - (from[j] == lines[i]);
    if (change == 0) continue;
    const auto k = static_cast<std::int64_t>(count[lines[i]]);
    delta += static_cast<std::int64_t>(pairs_on_line(static_cast<index_t>(k + change))) -
             static_cast<std::int64_t>(pairs_on_line(static_cast<index_t>(k)));
  }
  return delta;
}

}  // namespace detail

/// @brief Change in attacking pairs if the queen of `col` moves from `from_row` to `to_row`.
template <class Count>
NQ_HD std::int64_t move_delta(line_counts_view<Count> v, index_t col, index_t from_row,
                              index_t to_row) {
  std::int64_t delta = 0;
  if (v.row_count) delta += detail::family_delta<1>(v.row_count, {from_row}, {to_row});
  delta += detail::family_delta<1>(v.diag_count, {diag_index(v.n, col, from_row)},
                                   {diag_index(v.n, col, to_row)});
  delta += detail::family_delta<1>(v.anti_diag_count, {anti_diag_index(col, from_row)},
                                   {anti_diag_index(col, to_row)});
  return delta;
}

/// @brief Change in attacking pairs if columns a and b exchange rows, for any indexable
/// diagonal counters (row counts never change under a swap).
template <class DiagCounts, class AntiDiagCounts>
NQ_HD std::int64_t swap_delta(const DiagCounts& diag_count, const AntiDiagCounts& anti_diag_count,
                              index_t n, index_t col_a, index_t row_a, index_t col_b,
                              index_t row_b) {
  return detail::family_delta<2>(diag_count,
                                 {diag_index(n, col_a, row_a), diag_index(n, col_b, row_b)},
                                 {diag_index(n, col_a, row_b), diag_index(n, col_b, row_a)}) +
         detail::family_delta<2>(anti_diag_count,
                                 {anti_diag_index(col_a, row_a), anti_diag_index(col_b, row_b)},
                                 {anti_diag_index(col_a, row_b), anti_diag_index(col_b, row_a)});
}

/// @brief Change in attacking pairs if columns a and b exchange rows.
template <class Count>
NQ_HD std::int64_t swap_delta(line_counts_view<Count> v, index_t col_a, index_t row_a,
                              index_t col_b, index_t row_b) {
  const Count* diag = v.diag_count;
  const Count* anti = v.anti_diag_count;
  return swap_delta(diag, anti, v.n, col_a, row_a, col_b, row_b);
}

/// @brief Zeroes the counters, places every queen of `queen_row` and returns the pairs: O(n).
template <class Count>
NQ_HD index_t recount(line_counts_view<Count> v, const row_t* queen_row) {
  if (v.row_count)
    for (index_t i = 0; i < v.n; ++i) v.row_count[i] = 0;
  for (index_t i = 0; i < diag_line_count(v.n); ++i) v.diag_count[i] = v.anti_diag_count[i] = 0;
  index_t pairs = 0;
  for (index_t col = 0; col < v.n; ++col) pairs += add_queen(v, col, queen_row[col]);
  return pairs;
}

}  // namespace nq
