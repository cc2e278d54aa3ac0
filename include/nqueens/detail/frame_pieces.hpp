#pragma once
/// @file
/// @brief A canonical frame's search cut into pieces, for counters that run many small
/// searches side by side (the GPU). A piece is a node of the frame search (frame_search.hpp)
/// some levels down, with the lines of the queens placed above it; the frame's completions are
/// the sum of its pieces' leaves. A frame that a rotation maps onto itself is cut too, its pieces
/// carrying the columns of the queens above them, so that each complete board is checked for
/// the rotation (count_fixed_piece); frames of fewer than two free rows stay whole. The piece
/// search keeps its
/// stack in a strided view, so that a GPU thread's stack can sit in shared memory with the
/// block's other stacks interleaved (no bank conflicts) and a CPU's in a plain array.
/// NQ_HD, like the rest of the counting logic.

#include <cstdint>
#include <initializer_list>

#include "nqueens/detail/frame_search.hpp"

namespace nq {

/// @brief A piece's `level` when it stands for its whole frame (count_frame_completions).
inline constexpr std::uint8_t whole_frame_level = 0xFF;

/// @brief Free rows above a piece of a frame a rotation fixes, at most: their queens' columns,
/// 5 bits each, fit the piece's `path`.
inline constexpr int max_path_levels = 6;

/// @brief One piece: the node at free row `level` of the search of frame `frame` (an index into
/// the counter's frame list), its queens' lines as seen from that row, and its open columns.
struct frame_piece {
  std::uint32_t frame = 0;
  std::uint32_t cols = 0, ld = 0, rd = 0, open = 0;
  std::uint32_t path = 0;  ///< the column of free row k's queen at bits 5k.., k < level
  std::uint8_t level = 0;
  NQ_HD bool whole() const { return level == whole_frame_level; }
};

/// @brief Four words per stack level, `stride` words apart (the threads of a block).
struct frame_stack_view {
  std::uint32_t* base;
  unsigned stride;
  NQ_HD std::uint32_t& at(int level, int word) const {
    return base[(static_cast<unsigned>(level) * 4u + static_cast<unsigned>(word)) * stride];
  }
};

/// @brief Stack levels a piece search of n queens needs at most.
NQ_HD constexpr int frame_stack_levels(int n) { return n > 4 ? n - 4 : 1; }

/// @brief Whether a frame is searched whole, not in pieces: fewer than two free rows.
NQ_HD constexpr bool frame_stays_whole(const frame_search& s) { return s.levels < 2; }

/// @brief Calls emit(piece) for the pieces of frame `index` (search `s`, stabiliser bits
/// `stabilizer`): its live nodes at free row min(depth, levels - 2) (and at most
/// max_path_levels for a frame a rotation fixes), or one whole piece. A frame whose nodes all
/// die on the way has no piece.
template <class Emit>
NQ_HD void split_frame(const frame_search& s, std::uint8_t stabilizer, std::uint32_t index,
                       int depth, Emit emit) {
  frame_piece piece;
  piece.frame = index;
  if (frame_stays_whole(s)) {
    piece.level = whole_frame_level;
    emit(piece);
    return;
  }
  int stop_level = depth < s.levels - 2 ? depth : s.levels - 2;
  if ((stabilizer & rotation_symmetries) != 0 && stop_level > max_path_levels)
    stop_level = max_path_levels;
  if (s.allowed[0] == 0) return;
  // Depth first to stop_level, the same children in the same order as the search itself.
  std::uint32_t avail[max_count_n], cols[max_count_n], ld[max_count_n], rd[max_count_n];
  int d = 0;
  avail[0] = s.allowed[0], cols[0] = ld[0] = rd[0] = 0;
  for (;;) {
    if (d == stop_level) {
      piece.level = static_cast<std::uint8_t>(d);
      piece.open = avail[d], piece.cols = cols[d], piece.ld = ld[d], piece.rd = rd[d];
      // Each level's queen is the column its child added.
      piece.path = 0;
      for (int k = 0; k < d && k < max_path_levels; ++k)
        piece.path |= static_cast<std::uint32_t>(lowest_bit_index(cols[k + 1] ^ cols[k]))
                      << (5 * k);
      emit(piece);
      if (--d < 0) return;
      continue;
    }
    const std::uint32_t a = avail[d];
    if (a == 0) {
      if (--d < 0) return;
      continue;
    }
    const std::uint32_t bit = a & (0u - a);
    avail[d] = a ^ bit;
    std::uint32_t nc = cols[d], nl = ld[d], nr = rd[d];
    const std::uint32_t open = frame_child(frame_step_at(s, d), bit, nc, nl, nr);
    if (open != 0) {
      ++d;
      avail[d] = open, cols[d] = nc, ld[d] = nl, rd[d] = nr;
    }
  }
}

/// @brief An estimate of the nodes a frame of n queens searches, for sharing out work and for
/// choosing the image to search: the squares open to its live nodes three free rows down (their
/// children, before the look-ahead), times 3 for each free row past n - 4 (a corner queen frees
/// a row). bench/frame_tree_stats.cpp reports how well it correlates. (The live nodes alone
/// chose images that search 2 to 3 points more of the frames' nodes at n = 14 and 15.)
NQ_HD inline std::uint64_t frame_size_estimate(int n, const frame_search& s) {
  std::uint64_t estimate = 0;
  split_frame(s, 1, 0, 3, [&](const frame_piece& piece) {
    estimate += piece.whole() ? 1u : static_cast<unsigned>(popcount32(piece.open));
  });
  for (int extra = s.levels - (n - 4); extra > 0; --extra) estimate *= 3;
  return estimate;
}

/// @brief The image of frame `f` that a count searches: of the four that put each side of the
/// board on top (a left-right mirror searches the same tree, mirrored, so the other four add
/// nothing), the one frame_size_estimate finds smallest, f itself on a tie. A frame and its
/// images have as many completions, so the count is the same whichever is searched, while the
/// search is about a third smaller (bench/results/2026-11-23-frame-orientation.md). A frame a
/// rotation fixes is searched as it is: its boards are checked against its stabiliser, which
/// names symmetries of f itself. `estimate`, when given, receives the chosen image's estimate.
inline frame frame_to_search(int n, const frame& f, std::uint8_t stabilizer,
                             std::uint64_t* estimate = nullptr) {
  std::uint64_t least = frame_size_estimate(n, prepare_frame_search(n, f));
  frame best = f;
  if ((stabilizer & rotation_symmetries) == 0)
    for (const int g : {5, 6, 7}) {  // the bottom, left and right sides on top
      const frame image = transform_frame(n, f, g);
      const std::uint64_t size = frame_size_estimate(n, prepare_frame_search(n, image));
      if (size < least) best = image, least = size;
    }
  if (estimate) *estimate = least;
  return best;
}

/// @brief The search under a (not whole) piece of the search `s`: calls last(open, bit, k) at
/// each node of the last free row's parent, with the open squares of its child through `bit`,
/// stack level k holding the parent. Its stack holds levels piece.level .. s.levels - 2 at
/// stack levels 0, 1, ... Every count_stop_interval nodes it asks `stop()`, and returns false
/// (the search partial) when that says so. `nodes`, when not null, gets the nodes searched
/// added (a node: one queen placed).
/// Precondition: piece.level <= s.levels - 2, s.levels - 1 - piece.level <= stack levels.
template <class Stop, class Last>
NQ_HD bool search_piece(const frame_search& s, const frame_piece& piece, frame_stack_view stack,
                        Stop stop, Last last, std::uint64_t* nodes) {
  const int base = piece.level, last_parent = s.levels - 2;
  int d = base;
  stack.at(0, 0) = piece.open, stack.at(0, 1) = piece.cols;
  stack.at(0, 2) = piece.ld, stack.at(0, 3) = piece.rd;
  frame_step step = frame_step_at(s, d);
  std::uint64_t searched = 0;
  std::uint32_t until_check = count_stop_interval;
  while (d >= base) {
    if (--until_check == 0) {
      if (stop()) {
        if (nodes) *nodes += searched;
        return false;
      }
      until_check = count_stop_interval;
    }
    const int k = d - base;
    const std::uint32_t a = stack.at(k, 0);
    if (a == 0) {
      if (--d >= base) step = frame_step_at(s, d);
      continue;
    }
    ++searched;
    const std::uint32_t bit = a & (0u - a);
    stack.at(k, 0) = a ^ bit;
    std::uint32_t nc = stack.at(k, 1), nl = stack.at(k, 2), nr = stack.at(k, 3);
    const std::uint32_t open = frame_child(step, bit, nc, nl, nr);
    if (d == last_parent) {
      last(open, bit, k);
    } else if (open != 0) {
      ++d;
      stack.at(k + 1, 0) = open, stack.at(k + 1, 1) = nc;
      stack.at(k + 1, 2) = nl, stack.at(k + 1, 3) = nr;
      step = frame_step_at(s, d);
    }
  }
  if (nodes) *nodes += searched;
  return true;
}

/// @brief The leaves under a (not whole) piece of the search `s`, added to `leaves`: the last
/// free row's open squares counted by popcount, no board looked at. Stops, stack and `nodes`
/// as search_piece's; on a stop the leaves found so far are added and it returns false.
template <class Stop>
NQ_HD bool count_piece_leaves(const frame_search& s, const frame_piece& piece,
                              frame_stack_view stack, Stop stop, std::uint64_t& leaves,
                              std::uint64_t* nodes = nullptr) {
  std::uint64_t found = 0;
  const bool done = search_piece(
      s, piece, stack, stop,
      [&](std::uint32_t open, std::uint32_t, int) {
        found += static_cast<std::uint64_t>(popcount32(open));
      },
      nodes);
  leaves += found;
  return done;
}

/// @brief What a (not whole) piece of frame `f`, which a rotation in `stabilizer` fixes,
/// contributes, added to `tally`: each complete board is rebuilt (the frame's queens, the
/// piece's path, the stack's) and checked for the frame's rotations, weighed as
/// count_frame_completions weighs it. Stops, stack and `nodes` as search_piece's.
template <class Stop>
NQ_HD bool count_fixed_piece(int n, const frame& f, std::uint8_t stabilizer, const frame_search& s,
                             const frame_piece& piece, frame_stack_view stack, Stop stop,
                             count_tally& tally, std::uint64_t* nodes = nullptr) {
  const std::uint64_t orbit = static_cast<std::uint64_t>(symmetry_count / popcount32(stabilizer));
  const std::uint8_t rotations = stabilizer & rotation_symmetries;
  int board[max_count_n] = {};
  board[0] = f.top, board[n - 1] = f.bottom, board[f.left] = 0, board[f.right] = n - 1;
  for (int k = 0; k < piece.level; ++k)
    board[s.row[k]] = static_cast<int>((piece.path >> (5 * k)) & 31u);
  std::uint64_t solutions = 0, eighths = 0;
  const bool done = search_piece(
      s, piece, stack, stop,
      [&](std::uint32_t open, std::uint32_t bit, int parent) {
        if (open == 0) return;
        for (int j = 0; j < parent; ++j)
          board[s.row[piece.level + j]] = lowest_bit_index(stack.at(j + 1, 1) ^ stack.at(j, 1));
        board[s.row[piece.level + parent]] = lowest_bit_index(bit);
        for (; open != 0; open &= open - 1) {
          board[s.row[s.levels - 1]] = lowest_bit_index(open);
          std::uint64_t fixed = 1;
          for (int g = 1; g < symmetry_count; ++g)
            if ((rotations >> g & 1) && board_is_fixed_by(g, n, board)) ++fixed;
          solutions += orbit;
          eighths += fixed * orbit;
        }
      },
      nodes);
  tally.solutions += solutions;
  tally.unique_eighths += eighths;
  return done;
}

/// @brief What a frame contributes for `leaves` completions when no rotation fixes it: every
/// completion an orbit, each a class counted in eighths `orbit` times (see count_frame).
NQ_HD constexpr count_tally weigh_frame_leaves(std::uint8_t stabilizer, std::uint64_t leaves) {
  const std::uint64_t weighted =
      static_cast<std::uint64_t>(symmetry_count / popcount32(stabilizer)) * leaves;
  return count_tally{weighted, weighted};
}

}  // namespace nq
