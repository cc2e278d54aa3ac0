#pragma once
/// @file
/// @brief Checking a board: attacking pairs and the first clash, in O(n) time and memory.

#include <optional>
#include <span>

#include "nqueens/detail/lines.hpp"

namespace nq {

/// @brief Two queens on one line; col_a < col_b, both 0-based.
struct clash {
  index_t col_a = 0;
  index_t col_b = 0;
  line_kind kind = line_kind::row;
};

/// @brief What verify_board found.
struct verify_report {
  index_t n = 0;
  index_t conflicts = 0;  ///< attacking pairs: sum of C(k, 2) over all lines
  /// The clash with the smallest col_b, then the smallest col_a; empty on a valid board.
  std::optional<clash> first_clash;
  bool valid() const { return conflicts == 0; }
};

/// @brief "row", "diagonal" or "anti-diagonal".
const char* line_kind_name(line_kind kind);

/// @brief Counts the attacking pairs of a board whose rows are all below its size, on `threads`
/// threads from a million queens up: each counts its share of the rows and diagonals, reading
/// every column, so the report is the same for any number. About 5 bytes per queen beyond the
/// board itself (verify_memory_bytes), whatever the threads.
verify_report verify_board(std::span<const row_t> queen_row, unsigned threads = 1);

/// @brief What verify_board allocates for a board of n queens: a byte per row and per
/// diagonal line, and a margin for the side tables of crowded lines.
inline std::uint64_t verify_memory_bytes(index_t n) {
  return std::uint64_t{n} + 2 * (2 * std::uint64_t{n}) + (std::uint64_t{1} << 20);
}

}  // namespace nq
