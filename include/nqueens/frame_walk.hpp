#pragma once
/// @file
/// @brief A piece's search (frame_pieces.hpp) one node per call, for a GPU lane that runs one
/// flat loop: when its walk ends it takes the next piece in the same loop, instead of waiting
/// at the end of a nested search for the warp's largest piece. The node being searched, the
/// look-ahead step and the tally stay in registers; the parents of the node and the frame's
/// open columns per free row sit in the lane's words of shared memory (frame_lane_view), so a
/// push or pop reads or writes those and nothing in local memory. A frame's open columns per
/// free row are built once, by frame_walk_rows (the host, before the launch), and a take copies
/// them; the board rows of the free levels are computed from the two rows the side queens hold.
/// Counts exactly what count_piece_leaves and count_fixed_piece count, and a whole piece what
/// count_frame_completions counts. NQ_HD, like the rest of the counting logic.

#include <cstdint>

#include "nqueens/frame_pieces.hpp"

namespace nq {

/// @brief Stack levels a walk of the pieces split_frame cuts at `depth` needs: a piece at free
/// row `base` has parents at levels base .. levels - 3, and base is at least `depth` or it has
/// none (base = levels - 2); a valid frame has at most n - 3 free rows (at most one corner
/// queen, so at least one side queen holds an inner row). At least 1. Pass a frame a rotation
/// fixes at min(depth, max_path_levels): split_frame cuts those no deeper.
NQ_HD constexpr int frame_walk_stack_levels(int n, int depth) {
  return n - 5 - depth > 1 ? n - 5 - depth : 1;
}

/// @brief Shared-memory words a lane's walk needs: `stack_levels` levels (the untried
/// squares, cols, ld and rd of each parent), then the open columns of each free row (n - 3 at
/// most, as above; n - 2 kept for safety). 60 words at n = 18, depth 2.
NQ_HD constexpr int frame_lane_words(int n, int stack_levels) { return 4 * stack_levels + (n - 2); }

/// @brief Words of a frame image's prepared rows (frame_walk_rows): a header (its free rows and
/// the two inner rows side queens hold, a byte each), then the open columns of each free row
/// (n - 3 at most, as above; n - 2 kept, the rest 0). 17 words at n = 18.
NQ_HD constexpr int frame_walk_row_words(int n) { return n - 1; }

/// @brief Writes the rows of frame image `g` that frame_walk::start copies, `rows` holding
/// frame_walk_row_words(n) words: built once a frame (on the host), not at each take.
NQ_HD inline void frame_walk_rows(int n, const frame& g, std::uint32_t* rows) {
  int levels = 0, held_low = n + 2, held_high = n + 2;
  for (int r = 1; r < n - 1; ++r) {
    bool held = false;
    const std::uint32_t row_open = frame_row_open(n, g, r, held);
    if (!held)
      rows[1 + levels++] = row_open;
    else if (held_low > n)
      held_low = r;
    else
      held_high = r;
  }
  for (int k = levels; k < n - 2; ++k) rows[1 + k] = 0;
  rows[0] = static_cast<std::uint32_t>(levels) | static_cast<std::uint32_t>(held_low) << 8 |
            static_cast<std::uint32_t>(held_high) << 16;
}

/// @brief A lane's words, `stride` words apart (the block's lanes interleaved: no bank
/// conflicts).
struct frame_lane_view {
  std::uint32_t* base;
  unsigned stride;
  int stack_levels;  ///< frame_walk_stack_levels(n, depth)
  NQ_HD std::uint32_t& stack(int level, int word) const {
    return base[(static_cast<unsigned>(level) * 4u + static_cast<unsigned>(word)) * stride];
  }
  NQ_HD std::uint32_t& allowed(int level) const {
    return base[static_cast<unsigned>(4 * stack_levels + level) * stride];
  }
};

/// @brief One piece's search, a node at a time. start() takes a piece (a whole piece is
/// counted at once); advance() tries the next child of the current node, or steps back to its
/// parent; busy() says whether nodes are left. tally() is the piece's contribution once done.
struct frame_walk {
  int n = 0, levels = 0, base = 0, d = -1;  ///< d < base: no node left
  int held_low = 0, held_high = 0;          ///< the inner rows side queens hold (n + 2: none)
  frame searched{};                         ///< the frame image searched (its queens)
  std::uint8_t rotations = 0;               ///< the stabiliser's rotations: boards are checked
  std::uint32_t orbit = 0;                  ///< symmetries / |stabiliser|
  std::uint32_t path = 0;                   ///< the piece's queens above it (fixed frames)
  std::uint32_t open = 0, cols = 0, ld = 0, rd = 0;  ///< the node: untried squares, its lines
  frame_step step{};                                 ///< the step from level d
  std::uint64_t leaves = 0;                          ///< completions found, unweighed (no rotation)
  count_tally fixed_tally{};  ///< weighed completions (a rotation in the stabiliser)
#if !defined(__CUDACC__)
  /// The host execution's count of the words of prepared rows the last start() loaded, each
  /// counted as it is loaded (the rows it builds: detail::frame_rows_built).
  std::uint32_t row_words_read = 0;
#endif

  NQ_HD bool busy() const { return d >= base; }

  /// @brief Board row of free level `level`: the level's place among rows 1..n-2, skipping
  /// the rows side queens hold (held_low < held_high).
  NQ_HD int row(int level) const {
    return level + 1 + (level + 1 >= held_low ? 1 : 0) + (level + 2 >= held_high ? 1 : 0);
  }

  /// @brief Starts `piece` of a frame with stabiliser bits `stabilizer`, searching image `g`
  /// (the frame itself when a rotation fixes it), whose rows frame_walk_rows wrote to `rows`.
  /// Copies the free rows' open columns to the lane: n - 1 loads that do not depend on each
  /// other, no row built. A whole piece is counted here and leaves busy() false.
  NQ_HD void start(int board_n, const frame& g, std::uint8_t stabilizer, const frame_piece& piece,
                   const std::uint32_t* rows, frame_lane_view lane) {
    n = board_n, searched = g, path = piece.path;
    rotations = stabilizer & rotation_symmetries;
    orbit = static_cast<std::uint32_t>(symmetry_count / popcount32(stabilizer));
    leaves = 0, fixed_tally = {};
#if !defined(__CUDACC__)
    row_words_read = 0;
#endif
    const std::uint32_t header = load_row(rows, 0);
    // Loaded eight at a time into registers, then stored: a load, then its store, row by row
    // would wait out one memory round trip a row (the compiler cannot move a global load above
    // a store through another pointer), its whole warp idle with it.
    for (int k0 = 0; k0 < n - 2; k0 += row_batch) {
      std::uint32_t batch[row_batch];
      for (int j = 0; j < row_batch; ++j)
        batch[j] = k0 + j < n - 2 ? load_row(rows, 1 + k0 + j) : 0u;
      for (int j = 0; j < row_batch; ++j)
        if (k0 + j < n - 2) lane.allowed(k0 + j) = batch[j];
    }
    levels = static_cast<int>(header & 0xFFu);
    held_low = static_cast<int>(header >> 8 & 0xFFu), held_high = static_cast<int>(header >> 16);
    if (piece.whole()) {  // fewer than two free rows: no node to walk
      base = 0, d = -1;
      if (levels == 0)  // the frame is the whole board (n = 4)
        rotations == 0 ? void(leaves = 1) : add_board(lane, 0u, 0u, 0);
      else
        add_leaves(lane, lane.allowed(0), 0u);
      return;
    }
    base = piece.level, d = base;
    open = piece.open, cols = piece.cols, ld = piece.ld, rd = piece.rd;
    for (int k = 0; k <= frame_look_ahead; ++k)
      step.allowed[k] = lane.allowed(clamp_level(d + 1 + k));
    set_shifts();
  }

  /// @brief One node: the next child of the current node (its leaves counted when it is the
  /// last free row's parent, else made the current node), or, with none left, back to the
  /// parent. Precondition: busy().
  NQ_HD void advance(frame_lane_view lane) {
    if (open == 0) {
      if (--d < base) return;
      const int k = d - base;
      open = lane.stack(k, 0), cols = lane.stack(k, 1), ld = lane.stack(k, 2),
      rd = lane.stack(k, 3);
      for (int i = frame_look_ahead; i > 0; --i) step.allowed[i] = step.allowed[i - 1];
      step.allowed[0] = lane.allowed(d + 1);
      set_shifts();
      return;
    }
    const std::uint32_t bit = open & (0u - open);
    open ^= bit;
    std::uint32_t nc = cols, nl = ld, nr = rd;
    const std::uint32_t child = frame_child(step, bit, nc, nl, nr);
    if (d == levels - 2) {
      add_leaves(lane, child, bit);
    } else if (child != 0) {
      const int k = d - base;
      lane.stack(k, 0) = open, lane.stack(k, 1) = cols, lane.stack(k, 2) = ld,
                    lane.stack(k, 3) = rd;
      ++d;
      open = child, cols = nc, ld = nl, rd = nr;
      for (int i = 0; i < frame_look_ahead; ++i) step.allowed[i] = step.allowed[i + 1];
      step.allowed[frame_look_ahead] = lane.allowed(clamp_level(d + 1 + frame_look_ahead));
      set_shifts();
    }
  }

  /// @brief What the piece contributes (complete once busy() is false).
  NQ_HD count_tally tally() const {
    if (rotations != 0) return fixed_tally;
    const std::uint64_t weighted = std::uint64_t{orbit} * leaves;
    return count_tally{weighted, weighted};
  }

 private:
  static constexpr int row_batch = 8;  ///< rows start() loads before it stores them

  /// Word `i` of the frame's prepared rows (the host execution counts the load).
  NQ_HD std::uint32_t load_row(const std::uint32_t* rows, int i) {
#if !defined(__CUDACC__)
    ++row_words_read;
#endif
    return rows[i];
  }

  NQ_HD int clamp_level(int level) const { return level < levels ? level : levels - 1; }

  /// frame_step_at's shifts, from the rows of levels d .. d + 1 + look-ahead.
  NQ_HD void set_shifts() {
    const int next = row(d + 1);
    step.shift[0] = next - row(d);
    for (int k = 1; k <= frame_look_ahead; ++k) step.shift[k] = row(clamp_level(d + 1 + k)) - next;
  }

  /// The last free row's squares `last` under the current node's child through `bit` (for a
  /// whole piece of one free row: its squares, no parent).
  NQ_HD void add_leaves(frame_lane_view lane, std::uint32_t last, std::uint32_t bit) {
    if (rotations == 0) {
      leaves += static_cast<std::uint64_t>(popcount32(last));
      return;
    }
    for (; last != 0; last &= last - 1) add_board(lane, lowest_bit_index(last), bit, 1);
  }

  /// One complete board of a frame a rotation may fix: the frame's queens, the piece's path,
  /// the stack's, the current node's child through `bit` and, when `last_row` is 1, the last
  /// free row's queen in column `last_col`; weighed as count_frame_completions weighs it.
  NQ_HD void add_board(frame_lane_view lane, std::uint32_t last_col, std::uint32_t bit,
                       int last_row) {
    int board[max_count_n] = {};
    board[0] = searched.top, board[n - 1] = searched.bottom;
    board[searched.left] = 0, board[searched.right] = n - 1;
    if (last_row == 1 && levels >= 2) {
      for (int k = 0; k < base; ++k) board[row(k)] = static_cast<int>((path >> (5 * k)) & 31u);
      for (int j = base; j < d; ++j) {
        const std::uint32_t below = j + 1 < d ? lane.stack(j + 1 - base, 1) : cols;
        board[row(j)] = lowest_bit_index(below ^ lane.stack(j - base, 1));
      }
      board[row(d)] = lowest_bit_index(bit);
    }
    if (last_row == 1) board[row(levels - 1)] = static_cast<int>(last_col);
    std::uint64_t fixed = 1;
    for (int g = 1; g < symmetry_count; ++g)
      if ((rotations >> g & 1) && board_is_fixed_by(g, n, board)) ++fixed;
    fixed_tally.solutions += orbit;
    fixed_tally.unique_eighths += fixed * orbit;
  }
};

}  // namespace nq
