#pragma once
/// @file
/// @brief A piece's search (frame_pieces.hpp) one node per call, for a GPU lane that runs one
/// flat loop: when its walk ends it takes the next piece in the same loop, instead of waiting
/// at the end of a nested search for the warp's largest piece.
///
/// Each call places exactly one queen, and does it on one path, whatever the node: the child is
/// computed, stored under a predicate when it lives, counted by popcount when its row is the
/// last, and the next node is chosen by selects: the child, the same node again, or the parent
/// to return to, which a bit mask of the levels with squares left names (its highest bit), so
/// a node with nothing left costs no call of its own. A warp of lanes in different states then
/// issues that one path once an iteration, not the sum of a push, a pop, a leaf and a child.
/// The node and the tally stay in registers; the parents sit in the lane's 16-byte entries of
/// shared memory, one per level, the block's lanes side by side (entry(level, lane) at
/// (level * threads + lane) * 16 bytes), so a push or a pop is one 128-bit access that no two
/// lanes of a quarter-warp make to one bank, at any depths. What a level's step needs (the
/// open columns of the next rows, how far the diagonals shift to reach them) is built on the
/// host, once a frame (frame_walk_rows), and read through the read-only cache when the walk
/// changes level: nothing is rebuilt or copied per lane.
///
/// Counts exactly what count_piece_leaves and count_fixed_piece count, and a whole piece what
/// count_frame_completions counts. NQ_HD, like the rest of the counting logic.

#include <cstdint>

#include "nqueens/detail/frame_pieces.hpp"
#include "nqueens/detail/frame_walk_rows.hpp"

namespace nq {

/// @brief The free row a frame's pieces are cut at, for a counter that cuts at `depth`: frames
/// with a corner queen (n - 3 free rows, the most there are; n - 4 otherwise) one row deeper,
/// since they have the largest pieces (bench/results/2026-11-27-gpu-counter-model.md), and
/// frames a rotation fixes no deeper than max_path_levels (their pieces carry their queens'
/// columns). split_frame stops at the frame's last parent row in any case.
NQ_HD constexpr int frame_cut_depth(int n, int depth, int levels, std::uint8_t stabilizer) {
  const int cut = depth + (levels > n - 4 ? 1 : 0);
  return (stabilizer & rotation_symmetries) != 0 && cut > max_path_levels ? max_path_levels : cut;
}

/// @brief Calls emit(piece) for the pieces of frame `index` (search `s`, stabiliser bits
/// `stabilizer`) a GPU count cuts when it cuts at `depth`: split_frame at frame_cut_depth.
template <class Emit>
NQ_HD void split_frame_for_walk(int n, int depth, const frame_search& s, std::uint8_t stabilizer,
                                std::uint32_t index, Emit emit) {
  split_frame(s, stabilizer, index, frame_cut_depth(n, depth, s.levels, stabilizer), emit);
}

/// @brief Stack levels a walk of the pieces frame_cut_depth cuts needs: a piece at free row
/// `base` of a frame of `levels` free rows keeps its parents at rows base .. levels - 3 (the
/// last parent, levels - 2, never pushes), so levels - 2 - base entries; n - 4 free rows cut at
/// depth (at most max_path_levels when a rotation fixes the frame), n - 3 at depth + 1 (no
/// rotation fixes a frame with a corner queen: it would bring a second corner queen, on the
/// first one's diagonal or row). At least 1.
NQ_HD constexpr int frame_walk_stack_levels(int n, int depth) {
  const int capped = depth < max_path_levels ? depth : max_path_levels;
  return n - 6 - capped > 1 ? n - 6 - capped : 1;
}

/// @brief Shared-memory words a lane's walk needs: four words (a 16-byte entry) per stack
/// level. 52 words at n = 21, depth 2: 26 KB a block of 128, so 8 blocks fit an SM of 228 KB
/// with the 1 KB each block reserves.
NQ_HD constexpr int frame_lane_words(int stack_levels) { return 4 * stack_levels; }

/// @brief One 16-byte stack entry: a parent's untried squares and its lines.
struct alignas(16) frame_entry {
  std::uint32_t open, cols, ld, rd;
};

/// @brief A lane's stack entries, `stride` entries apart (the block's lanes side by side).
/// On a device the entries are in shared memory and the view holds their 32-bit shared
/// `address` alone (made once, by of(); no 64-bit pointer to keep in registers): an entry's
/// address is one multiply-add of the level on it, and a push or pop one 128-bit access.
struct frame_lane_view {
  frame_entry* base;  ///< the host's entries (null on a device)
  unsigned stride;
  unsigned address = 0;  ///< a device's entries, in the shared window
  /// The view of the entries from `first` on, `stride` apart.
  NQ_HD static frame_lane_view of(frame_entry* first, unsigned stride) {
#if defined(__CUDA_ARCH__)
    return {nullptr, stride, static_cast<unsigned>(__cvta_generic_to_shared(first))};
#else
    return {first, stride, 0u};
#endif
  }
  NQ_HD frame_entry& entry(int level) const {
#if defined(__CUDA_ARCH__)
    return static_cast<frame_entry*>(__cvta_shared_to_generic(address))[static_cast<unsigned>(level) *
                                                                        stride];
#else
    return base[static_cast<unsigned>(level) * stride];
#endif
  }
  NQ_HD void store(int level, const frame_entry& e) const {
#if defined(__CUDA_ARCH__)
    asm volatile("{\n\t.reg .u32 a;\n\t"
                 "mad.lo.u32 a, %0, %1, %2;\n\t"
                 "st.shared.v4.u32 [a], {%3, %4, %5, %6};\n\t}"
                 :
                 : "r"(level), "r"(stride * 16u), "r"(address), "r"(e.open),
                   "r"(e.cols), "r"(e.ld), "r"(e.rd)
                 : "memory");
#else
    entry(level) = e;
#endif
  }
  NQ_HD frame_entry load(int level) const {
#if defined(__CUDA_ARCH__)
    frame_entry e;
    // volatile: kept after the stores before it (theirs too), which need the ordering.
    asm volatile("{\n\t.reg .u32 a;\n\t"
                 "mad.lo.u32 a, %4, %5, %6;\n\t"
                 "ld.shared.v4.u32 {%0, %1, %2, %3}, [a];\n\t}"
                 : "=r"(e.open), "=r"(e.cols), "=r"(e.ld), "=r"(e.rd)
                 : "r"(level), "r"(stride * 16u), "r"(address));
    return e;
#else
    return entry(level);
#endif
  }
};

/// @brief Four words from `at` (16-byte aligned, read-only for the kernel's life): one 128-bit
/// load through the read-only cache on a device.
NQ_HD inline frame_entry load_quad(const std::uint32_t* at) {
#if defined(__CUDA_ARCH__)
  const uint4 q = __ldg(reinterpret_cast<const uint4*>(at));
  return frame_entry{q.x, q.y, q.z, q.w};
#else
  return frame_entry{at[0], at[1], at[2], at[3]};
#endif
}

/// @brief a | b | c: one three-input logic instruction on a device (LOP3, which ptxas would
/// fuse too; written out so that the PTX counted by bench/frame_loop_cost.py is what runs).
NQ_HD inline std::uint32_t or3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
#if defined(__CUDA_ARCH__)
  std::uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, 0xFE;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
#else
  return a | b | c;
#endif
}

/// @brief The index of the highest set bit of x, -1 when x is 0 (one bfind on a device).
NQ_HD inline int highest_bit_index(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  int i;
  asm("bfind.u32 %0, %1;" : "=r"(i) : "r"(x));
  return i;
#else
  return x == 0 ? -1 : 31 - __builtin_clz(x);
#endif
}

/// @brief 1u << at for `at` in 0..31, else 0 (one shl on a device, whose shifts clamp).
NQ_HD inline std::uint32_t bit_at(int at) {
#if defined(__CUDA_ARCH__)
  std::uint32_t d;
  asm("shl.b32 %0, 1, %1;" : "=r"(d) : "r"(at));
  return d;
#else
  return at >= 0 && at < 32 ? 1u << at : 0u;
#endif
}

/// @brief One piece's search, a node at a time. start() takes a piece (a whole piece is
/// counted at once); advance() places the next queen; busy() says whether nodes are left.
/// tally() is the piece's contribution once done. `LookAhead`: rows past the child's a child
/// must leave a square open in (frame_look_ahead for the CPU's counts; fewer tries more nodes,
/// each for less).
template <int LookAhead = frame_look_ahead>
struct frame_walk {
  using layout = frame_step_layout<LookAhead>;

  // The loop's registers. Levels count from the piece's free row, `base`: the stack's.
  int d = -1, last = 0;  ///< the node's level, the last parent's (its free row - base)
  std::uint32_t open = 0, cols = 0, ld = 0, rd = 0;  ///< the node: untried squares, its lines
  std::uint32_t waiting = 0;  ///< bit k: stack level k holds a parent with squares left
  std::uint32_t blocked[LookAhead + 1] = {};  ///< the step from level d: rows d + 1 ..
  std::uint32_t shift[LookAhead + 1] = {};    ///< and their shifts (frame_step's)
  std::uint32_t recent = 0;  ///< leaves since flush_leaves (at most 30 an advance)
  const std::uint32_t* steps = nullptr;  ///< the step of the piece's free row (base)
  // What the rare paths need: frames a rotation fixes.
  int base = 0;                 ///< the piece's free row
  /// The stabiliser's rotations (bits 1..3): boards are checked; bit 0: a whole piece, its
  /// tally settled by start().
  std::uint32_t rotations = 0;
  std::uint32_t path = 0;       ///< the piece's queens above it (fixed frames)
  /// Weighed completions (a rotation in the stabiliser, or a whole piece); else `solutions`
  /// holds the leaves flushed so far, unweighed (one 64-bit sum fewer in registers).
  count_tally fixed_tally{};
#if !defined(__CUDACC__)
  /// The host execution's count of the words of prepared rows the last start() loaded.
  std::uint32_t row_words_read = 0;
#endif

  NQ_HD bool busy() const { return d >= 0; }
  /// Whether the piece's boards are checked for a rotation (advance<true>).
  NQ_HD bool checks_boards() const { return rotations != 0; }

  /// @brief Starts `piece` of the frame whose prepared rows (frame_walk_rows<LookAhead>) are
  /// `rows`: loads the header and the first level's step, nothing per free row. A whole piece
  /// is counted here and leaves busy() false.
  NQ_HD void start(const frame_piece& piece, const std::uint32_t* rows) {
    const frame_entry header = load_quad(rows);
#if !defined(__CUDACC__)
    row_words_read = 4;
#endif
    rotations = header.open >> 24, path = piece.path;
    recent = 0, fixed_tally = {}, waiting = 0;
    if (piece.whole()) {  // fewer than two free rows: no node to walk
      base = 0, d = -1, steps = rows + layout::header_words;
      fixed_tally = whole_tally(rows), rotations |= 1u;
      return;
    }
    base = piece.level, d = 0, last = static_cast<int>(header.open & 0xFFu) - 2 - base;
    steps = rows + layout::header_words + base * layout::words;
    open = piece.open, cols = piece.cols, ld = piece.ld, rd = piece.rd;
    load_step();
  }

  /// @brief Places the next queen of the current node; afterwards the current node is its
  /// child (when it lives and is not on the last free row), the node itself (squares left), or
  /// the deepest parent with squares left (none: busy() turns false). `Fixed`: the frame's
  /// boards are checked for its rotations (checks_boards()). Precondition: busy(), and
  /// flush_leaves() called at least every 2^27 advances.
  template <bool Fixed = false>
  NQ_HD void advance(frame_lane_view lane) {
    const std::uint32_t bit = open & (0u - open);
    open ^= bit;
    const std::uint32_t nc = cols | bit, nl = (ld | bit) << shift[0], nr = (rd | bit) >> shift[0];
    // A row's squares all blocked (all ones) is a dead child: the largest of the child's row
    // and the look-ahead rows says whether any is.
    const std::uint32_t taken = or3(nc, nl, nr) | blocked[0];
    std::uint32_t worst = taken;
    for (int k = 1; k <= LookAhead; ++k) {
      const std::uint32_t row = or3(nc | blocked[k], nl << shift[k], nr >> shift[k]);
      worst = worst > row ? worst : row;
    }
    // The last parent's step blocks its first look-ahead row whole (frame_walk_rows): no child
    // of the last parent lives, so `alive` alone says whether the child is pushed.
    const bool alive = worst != ~0u;
    const std::uint32_t child = ~taken;
    const bool leaf = d == last;
    if constexpr (!Fixed) {
      recent += static_cast<std::uint32_t>(popcount32(leaf ? child : 0u));
    } else if (leaf && child != 0) {
      const count_tally found = board_tally(steps - layout::header_words - base * layout::words,
                                            lane, path, base, d, cols, child, bit);
      fixed_tally.solutions += found.solutions;
      fixed_tally.unique_eighths += found.unique_eighths;
    }
    const bool push = alive;
    if (push) lane.store(d, frame_entry{open, cols, ld, rd});
    // The node joins the levels with squares left while it has some (`waiting` holds levels
    // below d only); the highest of them is then the node itself (it stays), a parent (the walk
    // steps back to it) or none (-1: the walk ends).
    const std::uint32_t with_node = waiting | (open != 0 ? bit_at(d) : 0u);
    const int back = highest_bit_index(with_node);
    const bool popped = !push && static_cast<unsigned>(back) < static_cast<unsigned>(d);
    frame_entry parent{open, cols, ld, rd};
    if (popped) parent = lane.load(back);
    waiting = push ? with_node : with_node ^ bit_at(back);  // back -1: no bit
    d = push ? d + 1 : back;
    open = push ? child : parent.open;
    cols = push ? nc : parent.cols;
    ld = push ? nl : parent.ld;
    rd = push ? nr : parent.rd;
    if (push || popped) load_step();
  }

  /// @brief Moves the leaves counted since the last call into the 64-bit tally.
  NQ_HD void flush_leaves() {
    fixed_tally.solutions += recent;
    recent = 0;
  }

  /// @brief What the piece contributes (complete once busy() is false).
  NQ_HD count_tally tally() const {
    if (rotations != 0) return fixed_tally;
    const std::uint64_t weighted =
        (header().ld & 0xFFu) * (fixed_tally.solutions + std::uint64_t{recent});
    return count_tally{weighted, weighted};
  }

  /// @brief Board row of free level `level` of a frame whose header's first word is `held`:
  /// the level's place among rows 1..n-2, skipping the rows side queens hold.
  NQ_HD static int row(int level, std::uint32_t held) {
    const int low = static_cast<int>(held >> 8 & 0xFFu), high = static_cast<int>(held >> 16 & 0xFFu);
    return level + 1 + (level + 1 >= low ? 1 : 0) + (level + 2 >= high ? 1 : 0);
  }

 private:
  /// The frame's header.
  NQ_HD frame_entry header() const {
    return load_quad(steps - layout::header_words - base * layout::words);
  }

  /// The step from level d: its rows' blocked squares and shifts, whole 16-byte loads.
  NQ_HD void load_step() {
    std::uint32_t words[8];
    static_assert(layout::words == 4 || layout::words == 8, "one or two 16-byte loads");
#if defined(__CUDA_ARCH__)
    // The address in one multiply-add, both loads from it (the second at +16).
    if constexpr (layout::words == 8)
      asm("{\n\t.reg .u64 a;\n\t"
          "mad.wide.u32 a, %8, 32, %9;\n\t"
          "ld.global.nc.v4.u32 {%0, %1, %2, %3}, [a];\n\t"
          "ld.global.nc.v4.u32 {%4, %5, %6, %7}, [a+16];\n\t}"
          : "=r"(words[0]), "=r"(words[1]), "=r"(words[2]), "=r"(words[3]), "=r"(words[4]),
            "=r"(words[5]), "=r"(words[6]), "=r"(words[7])
          : "r"(d), "l"(steps));
    else
      asm("{\n\t.reg .u64 a;\n\t"
          "mad.wide.u32 a, %4, 16, %5;\n\t"
          "ld.global.nc.v4.u32 {%0, %1, %2, %3}, [a];\n\t}"
          : "=r"(words[0]), "=r"(words[1]), "=r"(words[2]), "=r"(words[3])
          : "r"(d), "l"(steps));
#else
    const std::uint32_t* at = steps + static_cast<unsigned>(d) * layout::words;
    for (int w = 0; w < layout::words; ++w) words[w] = at[w];
#endif
    for (int k = 0; k <= LookAhead; ++k)
      blocked[k] = words[k], shift[k] = words[layout::rows + k];
  }

  /// What a whole piece contributes: the frame's completions, its one free row's squares (or
  /// the frame itself, n = 4). Out of the loop's line on a device, and given values only, so
  /// that no walk needs an address (it stays in registers).
#if defined(__CUDA_ARCH__)
  __noinline__
#endif
  NQ_HD static count_tally whole_tally(const std::uint32_t* rows) {
    const frame_entry head = load_quad(rows);
    const std::uint64_t orbit = head.ld & 0xFFu;
    if ((head.open >> 24) == 0) {
      const std::uint64_t leaves =
          (head.open & 0xFFu) == 0 ? 1u : static_cast<std::uint64_t>(popcount32(head.cols));
      return count_tally{orbit * leaves, orbit * leaves};
    }
    if ((head.open & 0xFFu) == 0) return board_tally(rows, {}, 0, 0, 0, 0, 0, 0);
    return board_tally(rows, {}, 0, 0, 0, 0, head.cols, 0);
  }

  /// The weighed completions of a frame a rotation may fix (rows: its prepared rows) whose
  /// last free row offers `last_row` under the node at stack level d (lines `cols`) of a piece
  /// at free row `base` (its queens above in `path`), through the queen `bit`: each board
  /// rebuilt (the frame's queens, the path's, the stack's, the node's) and checked for the
  /// rotations, weighed as count_frame_completions weighs it. A frame of no free row (n = 4):
  /// last_row 0, its one board. A whole piece of one free row: no node (d 0, bit 0). Out of
  /// the loop's line on a device, values only (as whole_tally).
#if defined(__CUDA_ARCH__)
  __noinline__
#endif
  NQ_HD static count_tally board_tally(const std::uint32_t* rows, frame_lane_view lane,
                                       std::uint32_t path, int base, int d, std::uint32_t cols,
                                       std::uint32_t last_row, std::uint32_t bit) {
    const frame_entry head = load_quad(rows);
    const int n = static_cast<int>(head.ld >> 8 & 0xFFu);
    const int levels = static_cast<int>(head.open & 0xFFu);
    const std::uint8_t rotations = static_cast<std::uint8_t>(head.open >> 24);
    const std::uint64_t orbit = head.ld & 0xFFu;
    const std::uint32_t queens = head.rd;
    int board[max_count_n] = {};
    board[0] = static_cast<int>(queens & 0xFFu);
    board[n - 1] = static_cast<int>(queens >> 8 & 0xFFu);
    board[queens >> 16 & 0xFFu] = 0, board[queens >> 24] = n - 1;
    if (levels >= 2) {  // a node: the piece's path, the stack's queens, the node's
      for (int k = 0; k < base; ++k)
        board[row(k, head.open)] = static_cast<int>((path >> (5 * k)) & 31u);
      for (int j = 0; j < d; ++j) {  // stack level j: free row base + j
        const std::uint32_t below = j + 1 < d ? lane.entry(j + 1).cols : cols;
        board[row(base + j, head.open)] = lowest_bit_index(below ^ lane.entry(j).cols);
      }
      board[row(base + d, head.open)] = lowest_bit_index(bit);
    }
    count_tally tally;
    const auto weigh = [&] {
      std::uint64_t fixed = 1;
      for (int g = 1; g < symmetry_count; ++g)
        if ((rotations >> g & 1) && board_is_fixed_by(g, n, board)) ++fixed;
      tally.solutions += orbit;
      tally.unique_eighths += fixed * orbit;
    };
    if (levels == 0) {
      weigh();
      return tally;
    }
    for (; last_row != 0; last_row &= last_row - 1) {
      board[row(levels - 1, head.open)] = lowest_bit_index(last_row);
      weigh();
    }
    return tally;
  }
};

}  // namespace nq
