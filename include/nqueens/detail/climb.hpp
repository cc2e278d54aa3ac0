#pragma once
/// @file
/// @brief Moves on a complete-state board (one queen per column, rows may repeat): the random
/// start, the O(1) change in attacking pairs when one queen moves within its column, the
/// steepest-ascent choice with a uniform tie-break, and random jumps. Shared by the CPU
/// reference algorithms and the kernels; every random draw comes from the caller's stream, in
/// an order both sides follow.

#include <limits>
#include <type_traits>

#include "nqueens/detail/lines.hpp"           // diag_line_count
#include "nqueens/local_settings.hpp"  // tie_rule
#include "nqueens/rng.hpp"

namespace nq {

/// @brief The largest board a climber with signed 16-bit counts takes: three counts add up
/// without overflow in 16 bits.
inline constexpr index_t small_climber_n = 32767 / 3;

/// @brief A board being improved: the row of each column and the queens on each line. Unlike
/// lines.hpp, the "\" diagonal of (col, row) is numbered row - col + n - 1, so that along a
/// column all three families are read in ascending order (a vectorisable scan).
template <class Count>
struct climber_view {
  row_t* queen_row;        ///< n entries
  Count* row_count;        ///< n entries; rows may repeat
  Count* diag_count;       ///< 2n - 1 entries, "\" numbered row - col + n - 1
  Count* anti_diag_count;  ///< 2n - 1 entries, "/" numbered col + row
  index_t size;            ///< n
  NQ_HD index_t n() const { return size; }
  NQ_HD Count& diag(index_t col, index_t row) const { return diag_count[row + size - 1 - col]; }
  NQ_HD Count& anti(index_t col, index_t row) const { return anti_diag_count[col + row]; }
};

/// @brief One queen moving within its column, and the change in attacking pairs it causes.
struct queen_move {
  index_t col = 0;
  row_t row = 0;
  std::int64_t delta = 0;
};

/// @brief Zeroes the lines, places every queen and returns the attacking pairs: O(n).
template <class Count>
NQ_HD index_t recount(climber_view<Count> b) {
  const index_t n = b.n();
  for (index_t i = 0; i < n; ++i) b.row_count[i] = 0;
  for (index_t i = 0; i < diag_line_count(n); ++i) b.diag_count[i] = b.anti_diag_count[i] = 0;
  index_t pairs = 0;
  for (index_t col = 0; col < n; ++col) {
    const index_t row = b.queen_row[col];
    pairs += b.row_count[row]++;
    pairs += b.diag(col, row)++;
    pairs += b.anti(col, row)++;
  }
  return pairs;
}

/// @brief Fills the board with independent uniform rows (n draws, column by column); returns
/// its attacking pairs.
template <class Count>
NQ_HD index_t random_board(climber_view<Count> b, philox_stream& rng) {
  const index_t n = b.n();
  for (index_t col = 0; col < n; ++col)
    b.queen_row[col] = static_cast<row_t>(rng.below(static_cast<std::uint32_t>(n)));
  return recount(b);
}

/// @brief Queens on the three lines through (col, row), counting one standing there.
template <class Count>
NQ_HD std::int32_t line_load(climber_view<Count> b, index_t col, index_t row) {
  return static_cast<std::int32_t>(b.row_count[row]) + static_cast<std::int32_t>(b.diag(col, row)) +
         static_cast<std::int32_t>(b.anti(col, row));
}

/// @brief Pairs the queen of `col` takes part in.
template <class Count>
NQ_HD std::int32_t queen_pairs(climber_view<Count> b, index_t col) {
  return line_load(b, col, b.queen_row[col]) - 3;
}

/// @brief Change in attacking pairs if the queen of `col` moves to `to_row` (a different row):
/// its old lines and new lines never coincide, so the change is new load minus old pairs.
template <class Count>
NQ_HD std::int64_t relocation_delta(climber_view<Count> b, index_t col, index_t to_row) {
  return line_load(b, col, to_row) - queen_pairs(b, col);
}

/// @brief Moves the queen of `col` to `to_row`, updating the lines.
template <class Count>
NQ_HD void relocate(climber_view<Count> b, index_t col, index_t to_row) {
  const index_t from = b.queen_row[col];
  --b.row_count[from];
  --b.diag(col, from);
  --b.anti(col, from);
  ++b.row_count[to_row];
  ++b.diag(col, to_row);
  ++b.anti(col, to_row);
  b.queen_row[col] = static_cast<row_t>(to_row);
}

/// @brief The k-th other row of a column whose queen stands on `current` (k < n - 1).
NQ_HD constexpr index_t other_row(index_t k, index_t current) { return k < current ? k : k + 1; }

namespace detail {

/// The type a column scan adds three counts in: 16 bits for signed 16-bit counts (boards up to
/// small_climber_n, twice the lanes per vector), 32 bits otherwise.
template <class Count>
using load_t = std::conditional_t<std::is_same_v<Count, std::int16_t>, std::int16_t, std::int32_t>;

/// The least line load over all squares of `col` (its own square included), vectorisable.
template <class Count>
NQ_HD std::int32_t least_load(climber_view<Count> b, index_t col) {
  const index_t n = b.n();
  const Count* __restrict rows = b.row_count;
  const Count* __restrict diag = &b.diag(col, 0);
  const Count* __restrict anti = &b.anti(col, 0);
  using load = load_t<Count>;
  load least = std::numeric_limits<load>::max();
  for (index_t row = 0; row < n; ++row) {
    const auto sum = static_cast<load>(static_cast<load>(rows[row]) + static_cast<load>(diag[row]) +
                                       static_cast<load>(anti[row]));
    least = sum < least ? sum : least;
  }
  return least;
}

/// Squares of `col` whose line load is `load`, vectorisable.
template <class Count>
NQ_HD std::uint32_t squares_with_load(climber_view<Count> b, index_t col, std::int32_t load) {
  const index_t n = b.n();
  const Count* __restrict rows = b.row_count;
  const Count* __restrict diag = &b.diag(col, 0);
  const Count* __restrict anti = &b.anti(col, 0);
  using sum_t = load_t<Count>;
  const auto wanted = static_cast<sum_t>(load);
  std::uint32_t count = 0;
  for (index_t row = 0; row < n; ++row)
    count += static_cast<sum_t>(static_cast<sum_t>(rows[row]) + static_cast<sum_t>(diag[row]) +
                                static_cast<sum_t>(anti[row])) == wanted;
  return count;
}

/// least_load and squares_with_load with the rows taken from `start` round to start - 1: the
/// same least load and count (neither depends on the order). A block chain's threads start at
/// different rows so that neighbouring lanes, P columns apart, read different shared-memory banks.
template <class Count>
NQ_HD std::int32_t least_load_from(climber_view<Count> b, index_t col, index_t start) {
  const index_t n = b.n();
  const Count* rows = b.row_count;
  const Count* diag = &b.diag(col, 0);
  const Count* anti = &b.anti(col, 0);
  std::int32_t least = INT32_MAX;
  for (index_t k = 0, row = start; k < n; ++k, row = row + 1 == n ? 0 : row + 1) {
    const std::int32_t sum = std::int32_t{rows[row]} + diag[row] + anti[row];
    least = sum < least ? sum : least;
  }
  return least;
}

template <class Count>
NQ_HD std::uint32_t squares_with_load_from(climber_view<Count> b, index_t col, std::int32_t load,
                                           index_t start) {
  const index_t n = b.n();
  const Count* rows = b.row_count;
  const Count* diag = &b.diag(col, 0);
  const Count* anti = &b.anti(col, 0);
  std::uint32_t count = 0;
  for (index_t k = 0, row = start; k < n; ++k, row = row + 1 == n ? 0 : row + 1)
    count += std::int32_t{rows[row]} + diag[row] + anti[row] == load;
  return count;
}

}  // namespace detail

/// @brief The `pick`-th square of `col` (rows ascending) whose line load is `load`.
template <class Count>
NQ_HD index_t nth_row_with_load(climber_view<Count> b, index_t col, std::int32_t load,
                                std::uint64_t pick) {
  for (index_t row = 0;; ++row)
    if (line_load(b, col, row) == load && pick-- == 0) return row;
}

/// @brief Columns whose ties are remembered during the scan; past this a second pass finds the
/// chosen move, with the same result.
inline constexpr int steepest_tie_columns = 32;

/// @brief A scan's poll that never stops it (the device's, and where no one asks).
struct scan_goes_on {
  NQ_HD bool operator()() const { return true; }
};

/// @brief Columns a scan looks at between polls: a poll costs a clock read now and then,
/// 1,024 columns take about a millisecond at 1,024 queens and 50 ms at 65,535.
inline constexpr index_t scan_poll_columns = 1024;

/// @brief The steepest-ascent choice over all n(n-1) moves. When the least delta is at most
/// `max_delta` (which must be below 3), returns one of the moves achieving it, uniformly at
/// random (one draw unless it is unique; ties numbered column by column, rows ascending), or
/// with `ties` first or last the first or last of them, drawing nothing. Otherwise draws nothing
/// and returns a move whose delta exceeds `max_delta`. Needs n >= 2.
///
/// A column's own square has load pairs + 3, i.e. delta 3: including it in the scan changes
/// nothing at or below `max_delta`, and keeps the scan branch-free. Columns go in chunks of 32:
/// their deltas first, then the ties, only in chunks that reach the best delta so far.
/// `poll` is asked every scan_poll_columns columns; once it answers false the scan ends with
/// no move (delta INT64_MAX), drawing nothing.
template <class Count, class Poll = scan_goes_on>
NQ_HD queen_move steepest_move(climber_view<Count> b, philox_stream& rng, std::int64_t max_delta,
                               tie_rule rule = tie_rule::random, Poll poll = {}) {
  const index_t n = b.n();
  std::int64_t best = INT64_MAX;
  std::uint64_t ties = 0;
  int tie_columns = 0;
  index_t tie_col[steepest_tie_columns];
  std::uint32_t tie_count[steepest_tie_columns];
  constexpr index_t chunk = 32;
  std::int32_t chunk_delta[chunk];
  std::int32_t chunk_least[chunk];
  for (index_t first = 0; first < n; first += chunk) {
    // A long scan asks whether it is still wanted (a stop, a time limit): no move if not.
    if (first % scan_poll_columns == scan_poll_columns - chunk && !poll()) {
      queen_move none;
      none.delta = INT64_MAX;
      return none;
    }
    const index_t cols = n - first < chunk ? n - first : chunk;
    std::int32_t low = INT32_MAX;
    for (index_t i = 0; i < cols; ++i) {
      const std::int32_t least = detail::least_load(b, first + i);
      const std::int32_t delta = least - queen_pairs(b, first + i);
      chunk_least[i] = least;
      chunk_delta[i] = delta;
      low = delta < low ? delta : low;
    }
    if (low > best) continue;
    if (low < best) {
      best = low;
      ties = 0;
      tie_columns = 0;
    }
    if (low > max_delta) continue;
    for (index_t i = 0; i < cols; ++i) {
      if (chunk_delta[i] != low) continue;
      const std::uint32_t here = detail::squares_with_load(b, first + i, chunk_least[i]);
      if (tie_columns < steepest_tie_columns) {
        tie_col[tie_columns] = first + i;
        tie_count[tie_columns] = here;
      }
      ++tie_columns;
      ties += here;
    }
  }
  queen_move move;
  move.delta = best;
  if (best > max_delta) return move;
  std::uint64_t pick = rule == tie_rule::first || ties == 1 ? 0
                       : rule == tie_rule::last             ? ties - 1
                                                : rng.below(static_cast<std::uint32_t>(ties));
  if (tie_columns <= steepest_tie_columns) {
    int i = 0;
    while (pick >= tie_count[i]) pick -= tie_count[i++];
    move.col = tie_col[i];
  } else {
    for (index_t col = 0;; ++col) {
      const auto load = static_cast<std::int32_t>(best + queen_pairs(b, col));
      const std::uint32_t here = detail::squares_with_load(b, col, load);
      if (pick < here) {
        move.col = col;
        break;
      }
      pick -= here;
    }
  }
  const auto load = static_cast<std::int32_t>(best + queen_pairs(b, move.col));
  move.row = static_cast<row_t>(nth_row_with_load(b, move.col, load, pick));
  return move;
}

/// @brief `count` random jumps: each draws a column, then a row (possibly its own), and moves
/// the queen there. Returns the new attacking pairs given the old.
template <class Count>
NQ_HD index_t random_jumps(climber_view<Count> b, philox_stream& rng, std::uint32_t count,
                           index_t pairs) {
  const auto n = static_cast<std::uint32_t>(b.n());
  for (std::uint32_t i = 0; i < count; ++i) {
    const index_t col = rng.below(n);
    const index_t row = rng.below(n);
    if (row == b.queen_row[col]) continue;
    pairs = static_cast<index_t>(static_cast<std::int64_t>(pairs) + relocation_delta(b, col, row));
    relocate(b, col, row);
  }
  return pairs;
}

}  // namespace nq
