#pragma once
/// @file
/// @brief Counting the completions of one canonical frame (see constellation.hpp). With the
/// four frame queens placed, the other queens fill the free rows strictly between row 0 and
/// row n-1 (rows holding a side queen are skipped), in the inner columns. Every square a frame
/// queen attacks is struck from its row in advance, so the search carries only its own
/// queens' lines: a column mask and two diagonal masks that shift by the row distance from one
/// free row to the next. Placing the whole frame first lets the search test nothing at its
/// leaves, which is what lets the CPU run it many lanes at a time (src/cpu/frame_engine.hpp).
/// NQ_HD, like the rest of the counting logic.

#include <cstdint>
#include <type_traits>

#include "nqueens/detail/constellation.hpp"

namespace nq {

namespace detail {
// Host code only, nvcc's host pass included, so that every host object has one definition of
// frame_row_open (a device has no thread_local).
#if !defined(__CUDA_ARCH__)
/// The host's count of frame rows built (frame_row_open calls) on this thread, so that a
/// kernel's host execution can hold a budget to the rows its code builds (frame_count.cu).
inline thread_local std::uint64_t frame_rows_built = 0;
#endif
}  // namespace detail

/// @brief Rows below a placement the searches look at: a child that leaves one of them
/// without an open square is dead. Cheap and branch-free; it cuts the nodes by a third.
inline constexpr int frame_look_ahead = 3;

/// @brief Rotations by 90, 180 and 270 degrees, as stabiliser bits (apply_symmetry's g = 1..3).
/// No reflection maps a solution onto itself for n >= 2: a left-right or top-bottom mirror
/// would pair queens in one row or column, a (anti-)transposition would pair them on one
/// diagonal. So only a rotation in a frame's stabiliser asks for the board to be checked.
inline constexpr std::uint8_t rotation_symmetries = 0x0E;

/// @brief A canonical frame prepared for search: its free rows (levels), top to bottom.
struct frame_search {
  int levels = 0;                           ///< free rows
  std::uint8_t row[max_count_n] = {};       ///< the board row of each level
  std::uint32_t allowed[max_count_n] = {};  ///< open columns per level
};

/// @brief Row r's open columns once the queens of `f` are placed (each frame queen's column
/// and diagonals struck, and the border columns), and whether a frame queen stands in it. A
/// corner queen is two of the four side queens; striking its lines twice changes nothing.
/// Precondition: f is a valid frame, 4 <= n <= 32, 0 <= r < n.
NQ_HD constexpr std::uint32_t frame_row_open(int n, const frame& f, int r, bool& held) {
#if !defined(__CUDA_ARCH__)
  if (!std::is_constant_evaluated()) ++detail::frame_rows_built;
#endif
  const int queen_row[4] = {0, n - 1, f.left, f.right};
  const int queen_col[4] = {f.top, f.bottom, 0, n - 1};
  const std::uint32_t board = n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
  std::uint32_t open = board & ~(1u | 1u << (n - 1));
  held = false;
  for (int i = 0; i < 4; ++i) {
    const int distance = r - queen_row[i], col = queen_col[i];
    held |= distance == 0;
    open &= ~(1u << col);
    if (col + distance >= 0 && col + distance < n) open &= ~(1u << (col + distance));
    if (col - distance >= 0 && col - distance < n) open &= ~(1u << (col - distance));
  }
  return open;
}

/// @brief The search for the completions of `f`. Precondition: f is a valid frame, 4 <= n <= 32.
NQ_HD constexpr frame_search prepare_frame_search(int n, const frame& f) {
  frame_search s;
  for (int r = 1; r < n - 1; ++r) {
    bool held = false;
    const std::uint32_t open = frame_row_open(n, f, r, held);
    if (held) continue;
    s.row[s.levels] = static_cast<std::uint8_t>(r);
    s.allowed[s.levels] = open;
    ++s.levels;
  }
  return s;
}

/// @brief What placing a queen at level d needs to know, the same for every node there: the
/// open columns of level d + 1 and of the look-ahead levels after it, and how far the
/// diagonals shift to reach them (shift[0] from level d, shift[k] from level d + 1). Look-ahead
/// past the last level looks at the last level again, which changes nothing.
struct frame_step {
  std::uint32_t allowed[frame_look_ahead + 1] = {};
  int shift[frame_look_ahead + 1] = {};
};

/// @brief The step from level d. Precondition: d + 1 < s.levels.
NQ_HD constexpr frame_step frame_step_at(const frame_search& s, int d) {
  frame_step step;
  step.allowed[0] = s.allowed[d + 1];
  step.shift[0] = s.row[d + 1] - s.row[d];
  for (int k = 1; k <= frame_look_ahead; ++k) {
    const int level = d + 1 + k < s.levels ? d + 1 + k : s.levels - 1;
    step.allowed[k] = s.allowed[level];
    step.shift[k] = s.row[level] - s.row[d + 1];
  }
  return step;
}

/// @brief Places the queen `bit` at a node of level d with lines (cols, ld, rd), updating them
/// to the child's (as seen from level d + 1), and returns the child's open columns, or 0 when
/// the child is dead: nothing open, or a look-ahead level left without an open square.
NQ_HD constexpr std::uint32_t frame_child(const frame_step& step, std::uint32_t bit,
                                          std::uint32_t& cols, std::uint32_t& ld,
                                          std::uint32_t& rd) {
  cols |= bit;
  ld = (ld | bit) << step.shift[0];
  rd = (rd | bit) >> step.shift[0];
  const std::uint32_t open = step.allowed[0] & ~(cols | ld | rd);
  bool dead = open == 0;
  for (int k = 1; k <= frame_look_ahead; ++k)
    dead |= (step.allowed[k] & ~(cols | ld << step.shift[k] | rd >> step.shift[k])) == 0;
  return dead ? 0u : open;
}

/// @brief What frame `f` contributes, counted one node at a time (the reference the vector
/// engines are checked against, and the search for frames a rotation maps onto themselves,
/// whose complete boards must be checked for that symmetry). Each completion counts the
/// frame's orbit size to the total, and to the eighths that many times the number of
/// symmetries of the stabiliser that fix the board (Burnside, as in count_prefix_completions).
/// A frame of a large board can take days, so `stop()` is asked every 65,536 nodes; when it
/// says yes the search ends early and sets `*stopped` (the tally is then partial).
/// Preconditions: 4 <= n <= 32; f is valid and canonical, with stabiliser bits `stabilizer`.
template <class Stop = never_stop>
NQ_HD count_tally count_frame_completions(int n, const frame& f, std::uint8_t stabilizer,
                                          Stop stop = {}, bool* stopped = nullptr) {
  const frame_search s = prepare_frame_search(n, f);
  const int orbit = symmetry_count / popcount32(stabilizer);
  const std::uint8_t rotations = stabilizer & rotation_symmetries;
  count_tally tally;
  const auto complete = [&](const int* board) {
    int fixed = 1;
    for (int g = 1; g < symmetry_count; ++g)
      if ((rotations >> g & 1) && board_is_fixed_by(g, n, board)) ++fixed;
    tally.solutions += static_cast<std::uint64_t>(orbit);
    tally.unique_eighths += static_cast<std::uint64_t>(fixed * orbit);
  };
  int board[max_count_n] = {};
  board[0] = f.top, board[n - 1] = f.bottom, board[f.left] = 0, board[f.right] = n - 1;
  const int levels = s.levels;
  if (levels == 0) {  // the frame is the whole board (n = 4)
    complete(board);
    return tally;
  }
  // Enumerates the last level's open squares; boards are only looked at when a rotation could
  // fix one.
  const auto leaves = [&](std::uint32_t open) {
    if (rotations == 0) {
      const std::uint64_t count = static_cast<std::uint64_t>(popcount32(open)) * orbit;
      tally.solutions += count, tally.unique_eighths += count;
      return;
    }
    for (; open != 0; open &= open - 1) {
      board[s.row[levels - 1]] = lowest_bit_index(open);
      complete(board);
    }
  };
  if (levels == 1) {
    leaves(s.allowed[0]);
    return tally;
  }
  std::uint32_t avail[max_count_n], cols[max_count_n], ld[max_count_n], rd[max_count_n];
  int d = 0;
  avail[0] = s.allowed[0], cols[0] = 0, ld[0] = 0, rd[0] = 0;
  frame_step step = frame_step_at(s, 0);
  for (std::uint32_t nodes = 1; d >= 0; ++nodes) {
    if ((nodes & 0xFFFF) == 0 && stop()) {
      if (stopped) *stopped = true;
      return tally;
    }
    const std::uint32_t a = avail[d];
    if (a == 0) {
      if (--d >= 0) step = frame_step_at(s, d);
      continue;
    }
    const std::uint32_t bit = a & (0u - a);
    avail[d] = a ^ bit;
    board[s.row[d]] = lowest_bit_index(bit);
    std::uint32_t nc = cols[d], nl = ld[d], nr = rd[d];
    const std::uint32_t open = frame_child(step, bit, nc, nl, nr);
    if (d + 2 == levels) {
      leaves(open);
    } else if (open != 0) {
      ++d;
      avail[d] = open, cols[d] = nc, ld[d] = nl, rd[d] = nr;
      step = frame_step_at(s, d);
    }
  }
  return tally;
}

}  // namespace nq
