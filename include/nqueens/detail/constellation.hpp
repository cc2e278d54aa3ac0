#pragma once
/// @file
/// @brief Counting with the full 8-fold symmetry of the square. A solution's "frame" is its
/// queens on the outer lines (row 0, row n-1, column 0, column n-1). The 8 symmetries permute
/// frames; in each orbit one frame is canonical (the least), and every class of solutions has
/// members whose frame is canonical. So the count visits only solutions with a canonical
/// frame, weights each by its frame's orbit size for the total, and by Burnside's lemma over
/// the frame's stabiliser for the fundamental count. The canonical frame's first key, the
/// column of the row-0 queen, is fixed first and bounds where the other frame queens may
/// stand, which prunes the search to about an eighth of the full tree.
///
/// Cells are (row, column); the search places one queen per row and keeps columns as bits.
/// Everything here is NQ_HD. The GPU counts row-prefix subproblems with
/// count_prefix_completions below; the CPU places whole frames first (frame_search.hpp) and
/// shares the frame algebra.

#include <cstdint>

#include "nqueens/config.hpp"

namespace nq {

/// @brief Counting works on bitboards of 32 columns.
inline constexpr int max_count_n = 32;

/// @brief The frame queens: the column of the queen in row 0 (`top`) and in row n-1
/// (`bottom`), the row of the queen in column 0 (`left`) and in column n-1 (`right`).
/// A corner queen belongs to two sides: top == 0 exactly when left == 0, and so on.
struct frame {
  std::uint8_t top = 0;
  std::uint8_t bottom = 0;
  std::uint8_t left = 0;
  std::uint8_t right = 0;
  friend constexpr bool operator==(const frame&, const frame&) = default;
};

/// @brief The 8 symmetries of the square, in the order the bit masks below use.
inline constexpr int symmetry_count = 8;

/// @brief Where symmetry `g` (0: identity, 1..3: rotations by 90, 180, 270 degrees, 4: mirror
/// left-right, 5: mirror top-bottom, 6: transpose, 7: anti-transpose) takes cell (row, col).
NQ_HD constexpr void apply_symmetry(int g, int n, int& row, int& col) {
  const int r = row, c = col, m = n - 1;
  switch (g) {
    case 1:
      row = c, col = m - r;
      break;
    case 2:
      row = m - r, col = m - c;
      break;
    case 3:
      row = m - c, col = r;
      break;
    case 4:
      row = r, col = m - c;
      break;
    case 5:
      row = m - r, col = c;
      break;
    case 6:
      row = c, col = r;
      break;
    case 7:
      row = m - c, col = m - r;
      break;
    default:
      break;
  }
}

/// @brief The distinct queens of a frame (2 to 4 of them); returns how many.
NQ_HD constexpr int frame_queens(int n, const frame& f, int rows[4], int cols[4]) {
  const int cand_rows[4] = {0, n - 1, f.left, f.right};
  const int cand_cols[4] = {f.top, f.bottom, 0, n - 1};
  int count = 0;
  for (int i = 0; i < 4; ++i) {
    bool seen = false;
    for (int j = 0; j < count; ++j) seen |= rows[j] == cand_rows[i] && cols[j] == cand_cols[i];
    if (!seen) rows[count] = cand_rows[i], cols[count] = cand_cols[i], ++count;
  }
  return count;
}

/// @brief Whether `f` describes one queen per side line, corners consistent, none attacking.
/// Precondition: n >= 4.
NQ_HD constexpr bool frame_is_valid(int n, const frame& f) {
  const int m = n - 1;
  if (f.top > m || f.bottom > m || f.left > m || f.right > m) return false;
  if ((f.top == 0) != (f.left == 0) || (f.top == m) != (f.right == 0) ||
      (f.bottom == 0) != (f.left == m) || (f.bottom == m) != (f.right == m))
    return false;
  int rows[4] = {}, cols[4] = {};
  const int count = frame_queens(n, f, rows, cols);
  for (int i = 0; i < count; ++i)
    for (int j = i + 1; j < count; ++j) {
      const int dr = rows[i] - rows[j], dc = cols[i] - cols[j];
      if (dr == 0 || dc == 0 || dr == dc || dr == -dc) return false;
    }
  return true;
}

/// @brief The image of a valid frame under symmetry `g`.
NQ_HD constexpr frame transform_frame(int n, const frame& f, int g) {
  int rows[4] = {}, cols[4] = {};
  const int count = frame_queens(n, f, rows, cols);
  frame image;
  for (int i = 0; i < count; ++i) {
    int r = rows[i], c = cols[i];
    apply_symmetry(g, n, r, c);
    if (r == 0) image.top = static_cast<std::uint8_t>(c);
    if (r == n - 1) image.bottom = static_cast<std::uint8_t>(c);
    if (c == 0) image.left = static_cast<std::uint8_t>(r);
    if (c == n - 1) image.right = static_cast<std::uint8_t>(r);
  }
  return image;
}

/// @brief Frames compare by (top, bottom, left, right); the canonical one of an orbit is least.
NQ_HD constexpr bool frame_less(const frame& a, const frame& b) {
  if (a.top != b.top) return a.top < b.top;
  if (a.bottom != b.bottom) return a.bottom < b.bottom;
  if (a.left != b.left) return a.left < b.left;
  return a.right < b.right;
}

/// @brief Whether symmetry `g` maps the board (column of the queen in each row) onto itself.
NQ_HD constexpr bool board_is_fixed_by(int g, int n, const int* col_of_row) {
  for (int r = 0; r < n; ++r) {
    int rr = r, cc = col_of_row[r];
    apply_symmetry(g, n, rr, cc);
    if (col_of_row[rr] != cc) return false;
  }
  return true;
}

NQ_HD constexpr int popcount32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}

NQ_HD constexpr int lowest_bit_index(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return __builtin_ctz(x);
#endif
}

/// @brief In a frame class table, set when the frame is valid and the least of its orbit;
/// bits 0..7 of an entry hold the frame's stabiliser (bit g: symmetry g maps it onto itself).
inline constexpr std::uint16_t canonical_frame_flag = 0x100;

/// @brief Where frame (top, bottom, left, right) sits in a table of n^4 entries.
NQ_HD constexpr std::uint32_t frame_index(int n, int top, int bottom, int left, int right) {
  return ((static_cast<std::uint32_t>(top) * n + bottom) * n + left) * n + right;
}

/// @brief The columns row `row` may use once the row-0 queen stands at column `top` and the
/// row-1 queen at column `second`. Only frames whose least corner distance is `top` can be
/// canonical (`top` is the canonical frame's first key), so the queens in columns 0 and n-1
/// keep to rows top..n-1-top and the queen in row n-1 to columns top..n-1-top.
/// A corner queen (top = 0) leaves the frame nearly free, so corner solutions are told apart
/// by the transposition instead: it swaps the row-1 queen's column with the column-1 queen's
/// row, which always differ, and only the solution whose row-1 column is smaller is counted:
/// the column-1 queen keeps below row `second`. Precondition: top <= (n-1)/2.
NQ_HD constexpr std::uint32_t allowed_columns(int n, int top, int second, int row) {
  const std::uint32_t board = n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
  if (top == 0) return row >= 2 && row <= second ? board & ~2u : board;
  if (row == n - 1) return (board >> top) & ~((1u << top) - 1u);
  if (row < top || row > n - 1 - top) return board & ~(1u | 1u << (n - 1));
  return board;
}

/// @brief The most rows a counting subproblem fixes.
inline constexpr int max_prefix_rows = 8;

/// @brief One counting subproblem: the queens of the first `rows` rows, by column.
/// col[0] is the row-0 queen, the first key of the canonical frame.
struct count_prefix {
  std::uint8_t rows = 0;
  std::uint8_t col[max_prefix_rows] = {};
};

/// @brief What one subproblem contributes. A solution whose frame is symmetric may share its
/// class with other subproblems' solutions, so classes are counted in eighths: the sum over
/// all subproblems of `unique_eighths` is 8 times the number of fundamental solutions.
struct count_tally {
  std::uint64_t solutions = 0;
  std::uint64_t unique_eighths = 0;
};

/// @brief A stop condition that never holds.
struct never_stop {
  NQ_HD constexpr bool operator()() const { return false; }
};

/// @brief Nodes a stoppable count searches between two calls of its stop test.
inline constexpr std::uint32_t count_stop_interval = 1u << 14;

/// @brief Counts the solutions completing `prefix` whose frame is canonical, each weighted by
/// its orbit, into `tally`: a bitboard search over rows prefix.rows..n-2, the last row
/// enumerated from a mask. `frame_class` is the table of n^4 entries described above. Every
/// count_stop_interval nodes it calls `stop()`, and gives up (returning false, with `tally`
/// partial) when that says so. Preconditions: 4 <= n <= 32, 2 <= prefix.rows <= n-1, and the
/// prefix places non-attacking queens in allowed columns.
template <class Stop>
NQ_HD bool count_prefix_completions_until(int n, const count_prefix& prefix,
                                          const std::uint16_t* frame_class, count_tally& tally,
                                          Stop stop) {
  const int last = n - 1;
  const int top = prefix.col[0];
  int board[max_count_n] = {};
  // Rows past the last allow everything, so the look-ahead below needs no bounds check.
  std::uint32_t allowed[max_count_n + 3];
  for (int row = 0; row < n; ++row) allowed[row] = allowed_columns(n, top, prefix.col[1], row);
  for (int row = n; row < n + 3; ++row) allowed[row] = 0xFFFFFFFFu;
  std::uint32_t c = 0, l = 0, r = 0;
  for (int row = 0; row < prefix.rows; ++row) {
    const std::uint32_t bit = 1u << prefix.col[row];
    board[row] = prefix.col[row];
    c |= bit, l = (l | bit) << 1, r = (r | bit) >> 1;
  }
  tally = count_tally{};
  const auto leaves = [&](std::uint32_t last_row) {
    for (; last_row != 0; last_row &= last_row - 1) {
      if (top == 0) {  // a corner solution: never symmetric, and one of its two per orbit here
        tally.solutions += symmetry_count;
        tally.unique_eighths += symmetry_count;
        continue;
      }
      board[last] = lowest_bit_index(last_row);
      int left = 0, right = 0;
      for (int row = 0; row < n; ++row) {
        if (board[row] == 0) left = row;
        if (board[row] == last) right = row;
      }
      const std::uint16_t cls = frame_class[frame_index(n, top, board[last], left, right)];
      if (!(cls & canonical_frame_flag)) continue;
      const int stabilizer = cls & 0xFF;
      const int orbit = symmetry_count / popcount32(static_cast<std::uint32_t>(stabilizer));
      tally.solutions += static_cast<std::uint64_t>(orbit);
      // Burnside over the stabiliser: this board is 1/|stab| of a class for each symmetry of
      // the stabiliser that fixes it (the identity always does).
      int fixed = 0;
      for (int g = 0; g < symmetry_count; ++g)
        if ((stabilizer >> g & 1) && (g == 0 || board_is_fixed_by(g, n, board))) ++fixed;
      tally.unique_eighths += static_cast<std::uint64_t>(fixed * orbit);
    }
  };
  // Off a corner, the queens of columns 0 and n-1 stand in rows top..n-1-top (the band):
  // a row with no more band rows left below it (itself included) than side columns still
  // empty must take one of them, and a row with fewer has no completion.
  const std::uint32_t sides = 1u | 1u << last;
  const int band_end = last - top;
  const auto side_rule = [&](int row, std::uint32_t occupied, std::uint32_t next) {
    const std::uint32_t empty = sides & ~occupied;
    if (top == 0 || row < band_end - 1 || empty == 0) return next;
    const int need = popcount32(empty), rows_left = band_end - row + 1;
    if (need > rows_left) return 0u;
    return need == rows_left ? next & empty : next;
  };
  const int first = prefix.rows;
  if (first == last) {
    leaves(side_rule(last, c, allowed[last] & ~(c | l | r)));
    return true;
  }
  std::uint32_t avail[max_count_n], cols[max_count_n], ld[max_count_n], rd[max_count_n];
  int d = first;
  avail[d] = side_rule(d, c, allowed[d] & ~(c | l | r)), cols[d] = c, ld[d] = l, rd[d] = r;
  std::uint32_t until_check = count_stop_interval;
  while (d >= first) {
    if (--until_check == 0) {
      if (stop()) return false;
      until_check = count_stop_interval;
    }
    const std::uint32_t a = avail[d];
    if (a == 0) {
      --d;
      continue;
    }
    const std::uint32_t bit = a & (0u - a);
    avail[d] = a ^ bit;
    board[d] = lowest_bit_index(bit);
    const std::uint32_t nc = cols[d] | bit, nl = (ld[d] | bit) << 1, nr = (rd[d] | bit) >> 1;
    // A look-ahead of three rows: a child that leaves one of them without a square is dead.
    // It costs a few operations and no branch, and cuts the nodes by a third (n = 16).
    const bool dead = ((allowed[d + 2] & ~(nc | nl << 1 | nr >> 1)) == 0) |
                      ((allowed[d + 3] & ~(nc | nl << 2 | nr >> 2)) == 0) |
                      ((allowed[d + 4] & ~(nc | nl << 3 | nr >> 3)) == 0);
    const std::uint32_t open = side_rule(d + 1, nc, allowed[d + 1] & ~(nc | nl | nr));
    const std::uint32_t next = dead ? 0u : open;
    if (d + 1 == last) {
      leaves(next);
    } else if (next != 0) {
      ++d;
      avail[d] = next, cols[d] = nc, ld[d] = nl, rd[d] = nr;
    }
  }
  return true;
}

/// @brief count_prefix_completions_until, to the end.
NQ_HD inline count_tally count_prefix_completions(int n, const count_prefix& prefix,
                                                  const std::uint16_t* frame_class) {
  count_tally tally;
  count_prefix_completions_until(n, prefix, frame_class, tally, never_stop{});
  return tally;
}

}  // namespace nq
