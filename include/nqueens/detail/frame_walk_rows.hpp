#pragma once
/// @file
/// @brief A frame's prepared rows for frame_walk (frame_walk.hpp): what each level's step needs
/// (the open columns of the next rows, how far the diagonals shift to reach them), built on the
/// host once a frame and read by every lane that walks one of its pieces.

#include <cstdint>

#include "nqueens/detail/frame_search.hpp"

namespace nq {

/// @brief How a frame's prepared rows are laid out for a walk that looks `LookAhead` rows past
/// the child's (1 to frame_look_ahead). A header of four words: the free rows, the two inner
/// rows side queens hold and the stabiliser's rotations (a byte each); the first free row's
/// open columns; the orbit and n (a byte each); the frame image's queens (top, bottom, left,
/// right, a byte each). Then a step for each level d that has a child: the squares rows
/// d + 1 .. d + 1 + LookAhead do not offer (~open columns, so that a row left without a square
/// reads as all ones), then their shifts, one word each (a second 16-byte load beats one packed
/// word and three extractions), padded to whole 16-byte loads.
template <int LookAhead>
struct frame_step_layout {
  static_assert(LookAhead >= 1 && LookAhead <= frame_look_ahead, "a look-ahead of 1 to 3 rows");
  static constexpr int rows = LookAhead + 1;            ///< blocked-square words of a step
  static constexpr int words = (2 * rows + 3) / 4 * 4;  ///< a step's words, whole quads
  static constexpr int header_words = 4;                ///< before the first step
  /// Words of a frame's prepared rows: the header, then a step for each level that has a child
  /// (levels - 1 <= n - 4 of them; at least one kept).
  static constexpr int frame_words(int n) { return header_words + (n > 5 ? n - 4 : 1) * words; }
};

/// @brief Writes the prepared rows of frame image `g`, whose frame has stabiliser bits
/// `stabilizer`: frame_step_layout<LookAhead>::frame_words(n) words, the header, then for each
/// level d that has a child the step frame_step_at(d) makes, look-ahead cut to LookAhead rows
/// (the squares not open rather than those open; the last parent's first look-ahead row all
/// blocked). Built once a frame (on the host), not at each take; words past the frame's steps
/// are 0.
template <int LookAhead = frame_look_ahead>
NQ_HD inline void frame_walk_rows(int n, const frame& g, std::uint8_t stabilizer,
                                  std::uint32_t* rows) {
  using layout = frame_step_layout<LookAhead>;
  std::uint8_t row[max_count_n] = {};
  std::uint32_t allowed[max_count_n] = {};
  int levels = 0, held_low = n + 2, held_high = n + 2;
  for (int r = 1; r < n - 1; ++r) {
    bool held = false;
    const std::uint32_t row_open = frame_row_open(n, g, r, held);
    if (!held)
      row[levels] = static_cast<std::uint8_t>(r), allowed[levels++] = row_open;
    else if (held_low > n)
      held_low = r;
    else
      held_high = r;
  }
  for (int w = 0; w < layout::frame_words(n); ++w) rows[w] = 0;
  rows[0] = static_cast<std::uint32_t>(levels) | static_cast<std::uint32_t>(held_low) << 8 |
            static_cast<std::uint32_t>(held_high) << 16 |
            static_cast<std::uint32_t>(stabilizer & rotation_symmetries) << 24;
  rows[1] = allowed[0];
  rows[2] = static_cast<std::uint32_t>(symmetry_count / popcount32(stabilizer)) |
            static_cast<std::uint32_t>(n) << 8;
  rows[3] = static_cast<std::uint32_t>(g.top) | static_cast<std::uint32_t>(g.bottom) << 8 |
            static_cast<std::uint32_t>(g.left) << 16 | static_cast<std::uint32_t>(g.right) << 24;
  for (int d = 0; d + 1 < levels; ++d) {
    std::uint32_t* step = rows + layout::header_words + d * layout::words;
    for (int k = 0; k <= LookAhead; ++k) {
      const int level = d + 1 + k < levels ? d + 1 + k : levels - 1;
      step[k] = ~allowed[level];
      step[layout::rows + k] =
          static_cast<std::uint32_t>(k == 0 ? row[d + 1] - row[d] : row[level] - row[d + 1]);
    }
    // The last parent's children are leaves, counted, never pushed: its first look-ahead row
    // (the last row again, which frame_step_at looks at) is blocked whole, so advance() finds
    // them dead and needs no test of the level to keep them off the stack.
    if (d + 2 == levels) step[1] = ~0u;
  }
}

}  // namespace nq
