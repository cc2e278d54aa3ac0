#pragma once
// An O(n) check of a board, independent of verify_board: a permutation whose diagonals are all
// distinct, counted with plain flags.

#include <cstdint>
#include <vector>

#include "nqueens/config.hpp"

namespace nq::test {

inline bool is_solution(const std::vector<row_t>& rows) {
  const std::size_t n = rows.size();
  std::vector<bool> row(n), diag(2 * n), anti(2 * n);
  for (std::size_t c = 0; c < n; ++c) {
    const std::size_t r = rows[c];
    if (r >= n || row[r] || diag[c + n - r] || anti[c + r]) return false;
    row[r] = diag[c + n - r] = anti[c + r] = true;
  }
  return true;
}

/// Attacking pairs of a board with rows below its size, by plain 32-bit line counts: O(n).
inline index_t pairs_by_lines(const std::vector<row_t>& rows) {
  const std::size_t n = rows.size();
  std::vector<std::uint32_t> row(n), diag(2 * n), anti(2 * n);
  index_t pairs = 0;
  for (std::size_t c = 0; c < n; ++c) {
    const std::size_t r = rows[c];
    pairs += row[r]++ + diag[c + n - r]++ + anti[c + r]++;
  }
  return pairs;
}

inline bool is_permutation(const std::vector<row_t>& rows) {
  std::vector<bool> seen(rows.size());
  for (const row_t r : rows) {
    if (r >= rows.size() || seen[r]) return false;
    seen[r] = true;
  }
  return true;
}

}  // namespace nq::test
