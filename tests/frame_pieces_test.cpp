// The frame search cut into pieces (frame_pieces.hpp), against the CPU's frame counter: for
// every canonical frame and several depths, the pieces' weighted leaves are the frame's tally.

#include "nqueens/frame_pieces.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "cpu/frame_engine.hpp"

namespace nq {
namespace {

/// What a frame's pieces add up to, each searched with its own stack.
count_tally count_by_pieces(int n, const detail::canonical_frame& frame, int depth,
                            std::size_t* pieces = nullptr) {
  const frame_search s = prepare_frame_search(n, frame.f);
  std::vector<std::uint32_t> stack(4 * static_cast<std::size_t>(frame_stack_levels(n)));
  count_tally tally;
  std::uint64_t leaves = 0;
  split_frame(s, frame.stabilizer, 0, depth, [&](const frame_piece& piece) {
    if (pieces) ++*pieces;
    if (piece.whole()) {
      const count_tally whole = count_frame_completions(n, frame.f, frame.stabilizer);
      tally.solutions += whole.solutions, tally.unique_eighths += whole.unique_eighths;
      return;
    }
    EXPECT_LE(piece.level, s.levels - 2);
    EXPECT_NE(piece.open, 0u);
    if ((frame.stabilizer & rotation_symmetries) != 0) {
      EXPECT_LE(piece.level, max_path_levels);
      EXPECT_TRUE(count_fixed_piece(n, frame.f, frame.stabilizer, s, piece,
                                    frame_stack_view{stack.data(), 1}, never_stop{}, tally));
      return;
    }
    EXPECT_TRUE(
        count_piece_leaves(s, piece, frame_stack_view{stack.data(), 1}, never_stop{}, leaves));
  });
  const count_tally weighted = weigh_frame_leaves(frame.stabilizer, leaves);
  tally.solutions += weighted.solutions, tally.unique_eighths += weighted.unique_eighths;
  return tally;
}

TEST(FramePieces, AddUpToEveryFramesTallyForNFrom4To13) {
  for (int n = 4; n <= 13; ++n) {
    detail::frame_counter counter(n, detail::portable_frame_kernels());
    for (const detail::canonical_frame& frame : detail::canonical_frames(n)) {
      const count_tally expected = *detail::count_frame(n, frame, counter);
      for (const int depth : {0, 1, 2, 3, 30}) {
        const count_tally got = count_by_pieces(n, frame, depth);
        ASSERT_EQ(got.solutions, expected.solutions) << "n=" << n << " depth " << depth;
        ASSERT_EQ(got.unique_eighths, expected.unique_eighths) << "n=" << n << " depth " << depth;
      }
    }
  }
}

// Frames a rotation fixes are cut too (their boards checked at the leaves): at the GPU's
// depths and deeper, their pieces add up to the CPU's node-at-a-time search, n = 4..16.
TEST(FramePieces, FramesARotationFixesSplitExactlyForNFrom4To16) {
  for (int n = 4; n <= 16; ++n) {
    detail::frame_counter counter(n, detail::portable_frame_kernels());
    std::size_t fixed = 0, pieces = 0;
    for (const detail::canonical_frame& frame : detail::canonical_frames(n)) {
      if ((frame.stabilizer & rotation_symmetries) == 0) continue;
      ++fixed;
      const count_tally expected = *detail::count_frame(n, frame, counter);
      for (const int depth : {1, 2, 8}) {
        const count_tally got = count_by_pieces(n, frame, depth, depth == 2 ? &pieces : nullptr);
        ASSERT_EQ(got.solutions, expected.solutions) << "n=" << n << " depth " << depth;
        ASSERT_EQ(got.unique_eighths, expected.unique_eighths) << "n=" << n << " depth " << depth;
      }
    }
    if (n >= 12) {
      EXPECT_GT(pieces, 2 * fixed) << "n=" << n << ": not cut";
    }
  }
}

TEST(FramePieces, OnlyTheTinyFramesStayWhole) {
  for (const int n : {4, 5, 8, 9}) {
    for (const detail::canonical_frame& frame : detail::canonical_frames(n)) {
      std::size_t pieces = 0;
      bool whole = false;
      const frame_search s = prepare_frame_search(n, frame.f);
      split_frame(s, frame.stabilizer, 7, 2, [&](const frame_piece& piece) {
        EXPECT_EQ(piece.frame, 7u);
        whole |= piece.whole();
        ++pieces;
      });
      EXPECT_EQ(whole, s.levels < 2);
      if (whole) {
        EXPECT_EQ(pieces, 1u);
      }
    }
  }
}

TEST(FramePieces, AStoppedPieceSaysSo) {
  const int n = 17;
  const detail::canonical_frame frame = detail::canonical_frames(n).front();
  const frame_search s = prepare_frame_search(n, frame.f);
  std::vector<std::uint32_t> stack(4 * static_cast<std::size_t>(frame_stack_levels(n)));
  frame_piece whole_search;
  whole_search.open = s.allowed[0];
  std::uint64_t leaves = 0, nodes = 0;
  ASSERT_TRUE(count_piece_leaves(s, whole_search, frame_stack_view{stack.data(), 1}, never_stop{},
                                 leaves, &nodes));
  ASSERT_GT(nodes, count_stop_interval);  // else the stop is never asked
  std::uint64_t partial = 0;
  EXPECT_FALSE(count_piece_leaves(
      s, whole_search, frame_stack_view{stack.data(), 1}, [] { return true; }, partial));
  EXPECT_LT(partial, leaves);
}

}  // namespace
}  // namespace nq
