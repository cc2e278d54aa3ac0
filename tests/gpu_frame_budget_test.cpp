// What a frame count on the GPU (kernels/frame_count.cu) may cost, from its design: host-side
// operations per count (gpu::costs) that do not grow with the frames, and, in the host
// execution's lockstep play of the lanes, the turns a lane sits idle while its warp works.

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/count.hpp"
#include "nqueens/detail/canonical_frames.hpp"
#include "nqueens/detail/frame_walk.hpp"
#include "oeis.hpp"

namespace nq {
namespace {

class GpuFrameCountBudget : public test::gpu_fixture {
 protected:
  void TearDown() override { gpu::set_host_frame_lanes(gpu::frame_lane_play::threads); }

  static std::vector<std::uint32_t> every_frame(const gpu::frame_counter& counter) {
    std::vector<std::uint32_t> all(counter.frames());
    std::iota(all.begin(), all.end(), 0u);
    return all;
  }
  static std::uint64_t solutions(const std::vector<count_tally>& tallies) {
    std::uint64_t sum = 0;
    for (const count_tally& t : tallies) sum += t.solutions;
    return sum;
  }
};

// One count: one upload (the frames' prepared rows, pieces, pieces left per frame, zeroed sums
// and piece counter, packed in one image), one launch that pulls every piece, nothing copied back
// (the tallies arrive through mapped memory); blocking waits: that upload, the launch's event
// timing and the final synchronize. Allocations: the image and three mapped buffers (tallies,
// done flags, stop flag). None of it grows with the frames (hundreds at n = 10, thousands at
// 13 or 16) or with the pieces.
TEST_F(GpuFrameCountBudget, OneLaunchAndOneUploadPerCountWhateverTheFrames) {
  for (const int n : {10, test::device_or_host(16, 13)}) {
    gpu::frame_counter counter(n);
    const auto all = every_frame(counter);
    const gpu::gpu_costs before = gpu::costs();
    const auto tallies = counter.count(all);
    const gpu::gpu_costs spent = gpu::costs() - before;
    ASSERT_GE(counter.stats().pieces, all.size()) << "n=" << n;
    EXPECT_EQ(solutions(tallies), test::a000170[n - 1]) << "n=" << n;
    EXPECT_EQ(spent.launches, 1u) << "n=" << n;
    EXPECT_EQ(spent.to_device_copies, 1u) << "n=" << n;
    EXPECT_EQ(spent.to_host_copies, 0u) << "n=" << n;
    EXPECT_LE(spent.syncs, 3u) << "n=" << n;
    EXPECT_LE(spent.allocations, 4u) << "n=" << n;
  }
}

/// A lockstep play of n queens (host execution only), with the kernel of `look_ahead` (the
/// counter's own when < 0): the stats, the totals checked.
gpu::frame_count_stats play(int n, gpu::frame_lane_play how, std::uint64_t expected,
                            int look_ahead = -1) {
  EXPECT_TRUE(gpu::set_host_frame_lanes(how));
  gpu::frame_counter counter(n, -1, 0, look_ahead);
  std::vector<std::uint32_t> all(counter.frames());
  std::iota(all.begin(), all.end(), 0u);
  const auto tallies = counter.count(all);
  std::uint64_t sum = 0;
  for (const count_tally& t : tallies) sum += t.solutions;
  EXPECT_EQ(sum, expected);
  return counter.stats();
}

/// The idle turns a flat loop allows: in a warp, a lane goes idle only once its take finds no
/// piece left; every other lane then holds at most one piece, at most `longest` node turns from
/// its end, and takes one more turn to find none. So at most 31 lanes idle for longest + 1
/// turns, per warp that took a piece.
std::uint64_t flat_loop_idle_bound(const gpu::frame_count_stats& s) {
  return s.warps * 31 * (s.longest_piece_steps + 1);
}

// n = 14 (12 under ThreadSanitizer): about 11,000 pieces (3,700) for 128 lanes a block, so
// each lane takes many pieces, and a warp that waited at the end of every piece would sit idle
// several times the bound (the next test). Measured at n = 14 (one block of 4 warps): 86,000
// idle turns of 5.9 million worked, the bound 578,000.
TEST_F(GpuFrameCountBudget, ALaneIdlesOnlyOnceThePiecesRunOut) {
  if (!test::host_execution) GTEST_SKIP() << "the lockstep play is the host execution's";
  const int n = test::device_or_host(14, 14, 12);
  const gpu::frame_count_stats s = play(n, gpu::frame_lane_play::lockstep, test::a000170[n - 1]);
  ASSERT_GT(s.lane_steps, 0u) << "the count was not played in lockstep";
  ASSERT_GT(s.pieces, 8 * 128u);
  EXPECT_LE(s.idle_lane_steps, flat_loop_idle_bound(s))
      << s.idle_lane_steps << " idle turns of " << s.lane_steps << " worked, " << s.warps
      << " warps, the longest piece " << s.longest_piece_steps << " turns";
}

// The control: the schedule of a nested loop (take a piece, search it to its end, as the
// kernel did before issue 29), where a lane takes its next piece only when its whole warp has
// finished theirs, breaks that bound: the same count, the same pieces. Measured at n = 14:
// 4.2 million idle turns of 5.9 million worked, 7 times the bound. The plays run in one block
// (4 warps), so neither figure depends on how many host threads play the blocks (the same
// with 1 and 3).
TEST_F(GpuFrameCountBudget, WarpWideTakesBreakTheFlatLoopBound) {
  if (!test::host_execution) GTEST_SKIP() << "the lockstep play is the host execution's";
  const int n = test::device_or_host(14, 14, 12);
  const gpu::frame_count_stats s = play(n, gpu::frame_lane_play::warp_fetch, test::a000170[n - 1]);
  ASSERT_GT(s.lane_steps, 0u);
  EXPECT_GT(s.idle_lane_steps, flat_loop_idle_bound(s))
      << s.idle_lane_steps << " idle turns of " << s.lane_steps << " worked, " << s.warps
      << " warps, the longest piece " << s.longest_piece_steps << " turns";
}

// What a lane's take of a piece may cost its warp: in a flat loop each lane takes its pieces
// at iterations of its own, and the warp waits for the take. Built in the kernel, a frame's
// free rows cost a frame_row_open for each of rows 1 .. n - 2, about 600 instructions at
// n = 14 (docs/gpu-costs.md), for every piece; copied to the lane, n - 1 loads and stores. The
// host builds each frame's steps once (frame_walk_rows) and uploads them, so a take builds no
// row and reads the frame's 4-word header (and then the first level's step, as every change of
// level does): at least one header a piece, at most 4 words a piece. Both counted where they
// happen (host execution): each frame_row_open call (detail::frame_rows_built) during a take,
// each word frame_walk::start loads. The same lockstep play of n = 14 as above; the kernel that
// built the rows at each take: 131,520 rows built for 10,960 pieces (12 a piece), no word
// loaded; the one that copied them (a666a80): n - 1 = 13 words a piece.
TEST_F(GpuFrameCountBudget, ATakeLoadsItsFramesRowsAndBuildsNone) {
  if (!test::host_execution) GTEST_SKIP() << "the lockstep play is the host execution's";
  const int n = test::device_or_host(14, 14, 12);
  const gpu::frame_count_stats s = play(n, gpu::frame_lane_play::lockstep, test::a000170[n - 1]);
  ASSERT_GT(s.lane_steps, 0u) << "the count was not played in lockstep";
  EXPECT_EQ(s.take_rows_built, 0u) << "rows built in the kernel for " << s.pieces << " pieces";
  EXPECT_GE(s.take_row_words, s.pieces) << "every take reads its frame's header";
  EXPECT_LE(s.take_row_words, s.pieces * 4u)
      << s.take_row_words << " words of rows read for " << s.pieces << " pieces";
}

/// The nodes (queens placed) of every piece a count of n cuts (split_frame_for_walk at
/// gpu::frame_piece_depth), counted by the CPU's reference piece search: the yardstick the
/// kernel's iterations are held to.
std::uint64_t reference_nodes(int n) {
  const auto frames = detail::oriented_frames(n);
  std::vector<std::uint32_t> stack(4 * static_cast<std::size_t>(frame_stack_levels(n)));
  std::uint64_t nodes = 0;
  for (std::uint32_t p = 0; p < frames->size(); ++p) {
    const frame_search s = prepare_frame_search(n, (*frames)[p].searched);
    split_frame_for_walk(n, gpu::frame_piece_depth(n), s, (*frames)[p].stabilizer, p,
                         [&](const frame_piece& piece) {
                           std::uint64_t leaves = 0;
                           if (!piece.whole())
                             count_piece_leaves(s, piece, frame_stack_view{stack.data(), 1},
                                                never_stop{}, leaves, &nodes);
                         });
  }
  return nodes;
}

// One iteration of a lane's loop per node (issue 43): a queen placed each iteration, the step
// back to a parent folded into the same iteration (a mask of the levels with squares left) and
// the take of the next piece too, so the iterations are the reference search's nodes plus
// whole pieces and each lane's last, failed take: at most 1.02 a node. The lockstep play (host
// execution) counts every lane's turns. a666a80's loop spent an iteration of its own on each
// step back and each take: 1.59 a node (measured at n = 14 to 18).
TEST_F(GpuFrameCountBudget, AtMost1_02IterationsANode) {
  if (!test::host_execution) GTEST_SKIP() << "the lockstep play is the host execution's";
  const int n = test::device_or_host(14, 14, 11);
  // Look-ahead 3: the reference search's (the kernel's own, 1, tries more nodes).
  const gpu::frame_count_stats s =
      play(n, gpu::frame_lane_play::lockstep, test::a000170[n - 1], frame_look_ahead);
  const std::uint64_t nodes = reference_nodes(n);
  ASSERT_GT(nodes, 20'000u);  // the lanes' last takes (128) well within 2% (n = 11 under TSan: 23,136)
  EXPECT_EQ(s.nodes, nodes) << "the walk places the reference search's queens, one an advance";
  EXPECT_LE(static_cast<double>(s.lane_steps), 1.02 * static_cast<double>(nodes))
      << s.lane_steps << " iterations for " << nodes << " nodes";
}

// Eight blocks of 128 threads an SM at n = 21 (issue 43), where a666a80's lanes, holding four
// words a stack level and the frame's rows, took 75 words: 5 blocks. An SM has 228 KB of
// shared memory and reserves 1 KB a block, so a lane may take 55 words; the walk keeps one
// 16-byte entry a stack level, nothing else, and the pieces of every frame of n = 21 (frames
// with a corner queen cut a row deeper) fit the stack. The registers (at most 64 a thread for
// 8 x 128 threads) are held by kernels/ptxas_budget.json.
TEST_F(GpuFrameCountBudget, ALaneTakesAtMost55WordsAtN21) {
  constexpr int n = 21;
  constexpr std::size_t sm_bytes = 228 * 1024, block_reserve = 1024, threads = 128;
  const int stack_levels = frame_walk_stack_levels(n, gpu::frame_piece_depth(n));
  const auto words = static_cast<std::size_t>(frame_lane_words(stack_levels));
  EXPECT_LE(words, 55u);
  EXPECT_GE(sm_bytes / (threads * 4 * words + block_reserve), 8u) << words << " words a lane";
  // Every piece's parents fit: levels - 2 - piece level entries.
  std::size_t pieces = 0;
  for (const detail::canonical_frame& f : detail::canonical_frames(n)) {
    const frame_search s = prepare_frame_search(n, f.f);  // any image: as many free rows
    split_frame_for_walk(n, gpu::frame_piece_depth(n), s, f.stabilizer, 0,
                         [&](const frame_piece& piece) {
                           ++pieces;
                           ASSERT_TRUE(piece.whole() || s.levels - 2 - piece.level <= stack_levels)
                               << "a piece at free row " << int{piece.level} << " of "
                               << s.levels;
                         });
  }
  EXPECT_GT(pieces, 1'000'000u);
}

}  // namespace
}  // namespace nq
