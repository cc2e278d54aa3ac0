#include "nqueens/verify.hpp"

#include <algorithm>
#include <vector>

#include "core/compact_lines.hpp"
#include "core/worker_threads.hpp"
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

namespace {

/// What one part of a board's lines holds: its pairs, and the first column that lands on one
/// of its occupied lines (n: none).
struct part_count {
  index_t conflicts = 0;
  index_t first_attacked = 0;
  bool row_off_board = false;
};

/// Counts the lines of part t of `parts`: rows, diagonals and antidiagonals are each cut into
/// equal ranges, and part t counts the queens on its ranges alone, reading every column.
part_count count_part(std::span<const row_t> queen_row, unsigned t, unsigned parts) {
  const index_t n = queen_row.size(), lines = diag_line_count(n);
  const auto cut = [&](index_t count, unsigned k) {
    return count / parts * k + std::min<index_t>(k, count % parts);
  };
  const index_t r0 = cut(n, t), r1 = cut(n, t + 1);
  const index_t d0 = cut(lines, t), d1 = cut(lines, t + 1);
  detail::byte_lines rows(r1 - r0), diags(d1 - d0), anti_diags(d1 - d0);
  part_count out;
  out.first_attacked = n;
  for (index_t col = 0; col < n; ++col) {
    const index_t row = queen_row[col];
    if (row >= n) {
      out.row_off_board = true;
      return out;
    }
    const index_t d = diag_index(n, col, row), a = anti_diag_index(col, row);
    const index_t created = (row >= r0 && row < r1 ? rows.add(row - r0) : 0) +
                            (d >= d0 && d < d1 ? diags.add(d - d0) : 0) +
                            (a >= d0 && a < d1 ? anti_diags.add(a - d0) : 0);
    out.conflicts += created;
    if (created && out.first_attacked == n) out.first_attacked = col;
  }
  return out;
}

}  // namespace

verify_report verify_board(std::span<const row_t> queen_row, unsigned threads) {
  const index_t n = queen_row.size();
  verify_report report;
  report.n = n;
  // Below a million queens one thread is quicker than starting more.
  const unsigned parts = n < (index_t{1} << 20) ? 1u : std::max(1u, threads);
  std::vector<part_count> counts(parts);
  if (parts == 1) {
    counts[0] = count_part(queen_row, 0, 1);
  } else {
    detail::worker_threads workers(
        parts, [&](unsigned t) { counts[t] = count_part(queen_row, t, parts); });
    workers.join();
  }
  index_t first_attacked = n;  // the first column that lands on an occupied line
  for (const part_count& c : counts) {
    NQ_EXPECTS(!c.row_off_board, "every row must lie on the board");
    report.conflicts += c.conflicts;
    first_attacked = std::min(first_attacked, c.first_attacked);
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
