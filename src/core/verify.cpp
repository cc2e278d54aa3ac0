#include "nqueens/verify.hpp"

#include "core/compact_lines.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

line_kind shared_line(index_t n, index_t col_a, index_t row_a, index_t col_b, index_t row_b) {
  if (row_a == row_b) return line_kind::row;
  if (diag_index(n, col_a, row_a) == diag_index(n, col_b, row_b)) return line_kind::diagonal;
  return line_kind::anti_diagonal;
}

}  // namespace

const char* line_kind_name(line_kind kind) {
  switch (kind) {
    case line_kind::row:
      return "row";
    case line_kind::diagonal:
      return "diagonal";
    case line_kind::anti_diagonal:
      return "anti-diagonal";
  }
  return "line";
}

verify_report verify_board(std::span<const row_t> queen_row) {
  const index_t n = queen_row.size();
  verify_report report;
  report.n = n;
  detail::byte_lines rows(n), diags(diag_line_count(n)), anti_diags(diag_line_count(n));
  index_t first_attacked = n;  // the first column that lands on an occupied line
  for (index_t col = 0; col < n; ++col) {
    const index_t row = queen_row[col];
    NQ_EXPECTS(row < n, "every row must lie on the board");
    const index_t created = rows.add(row) + diags.add(diag_index(n, col, row)) +
                            anti_diags.add(anti_diag_index(col, row));
    report.conflicts += created;
    if (created && first_attacked == n) first_attacked = col;
  }
  if (first_attacked == n) return report;
  // Its partner is the earliest column on one of its lines; two queens share at most one line.
  const index_t col_b = first_attacked, row_b = queen_row[col_b];
  for (index_t col_a = 0; col_a < col_b; ++col_a) {
    const index_t row_a = queen_row[col_a];
    const bool shared = row_a == row_b ||
                        diag_index(n, col_a, row_a) == diag_index(n, col_b, row_b) ||
                        anti_diag_index(col_a, row_a) == anti_diag_index(col_b, row_b);
    if (shared) {
      report.first_clash = clash{col_a, col_b, shared_line(n, col_a, row_a, col_b, row_b)};
      break;
    }
  }
  return report;
}

}  // namespace nq
