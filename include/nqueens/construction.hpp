#pragma once
/// @file
/// @brief The explicit O(n) solution for n = 1 and every n >= 4, by the classic rule on n mod 6
/// (evens then odds, with the n mod 6 = 2 and n mod 6 = 3 repairs). Used as an oracle and as
/// `--algo constructive`.

#include "nqueens/config.hpp"

namespace nq {

/// @brief Whether a solution exists: every n except 2 and 3 (and 0, which is no board).
NQ_HD constexpr bool solution_exists(index_t n) { return n == 1 || n >= 4; }

/// @brief The 0-based row of the queen in column `col` (0-based) of the constructed solution.
/// Precondition: solution_exists(n) and col < n.
NQ_HD constexpr index_t constructive_row(index_t n, index_t col) {
  // 1-based sequence: the even rows 2, 4, ..., then the odd rows 1, 3, ...
  const index_t evens = n / 2;
  const index_t k = col + 1;  // 1-based position in the sequence
  index_t row1 = 0;           // 1-based row
  switch (n % 6) {
    case 2:  // evens; then odds with 1 and 3 exchanged and 5 moved to the end: 3, 1, 7, 9, ..., 5
      if (k <= evens) {
        row1 = 2 * k;
      } else {
        const index_t j = k - evens;  // 1-based position among the odds
        const index_t odds = n - evens;
        if (j == 1)
          row1 = 3;
        else if (j == 2)
          row1 = 1;
        else if (j == odds)
          row1 = 5;
        else
          row1 = 2 * (j + 1) - 1;  // skips 5: positions 3.. hold 7, 9, ...
      }
      break;
    case 3:  // evens with 2 moved to the end: 4, 6, ..., 2; then odds with 1, 3 at the end
      if (k <= evens) {
        row1 = k == evens ? 2 : 2 * (k + 1);
      } else {
        const index_t j = k - evens;
        const index_t odds = n - evens;
        if (j == odds - 1)
          row1 = 1;
        else if (j == odds)
          row1 = 3;
        else
          row1 = 2 * (j + 2) - 1;  // 5, 7, ...
      }
      break;
    default:
      row1 = k <= evens ? 2 * k : 2 * (k - evens) - 1;
  }
  return row1 - 1;
}

}  // namespace nq
