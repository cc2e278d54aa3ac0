// The CPU's frame counter: the prepared search against solutions enumerated and sorted by frame,
// and every set of vector kernels against the node-at-a-time reference, frame by frame.

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <string>
#include <tuple>

#include "cpu/frame_engine.hpp"
#include "nqueens/count.hpp"
#include "nqueens/error.hpp"
#include "nqueens/systematic.hpp"
#include "oeis.hpp"

namespace nq {
namespace {

using test::a000170;
using test::a002562;

using detail::frame_kernels;

/// The kernel sets this CPU runs, by name; the test says which it could not try.
std::vector<const frame_kernels*> runnable_kernels() {
  std::vector<const frame_kernels*> sets{&detail::portable_frame_kernels()};
  for (const frame_kernels* wide : {detail::avx2_frame_kernels(), detail::avx512_frame_kernels()})
    if (wide) sets.push_back(wide);
  return sets;
}

using frame_key = std::tuple<int, int, int, int>;  // top, bottom, left, right

/// How many solutions of n queens have each frame, from a plain enumeration.
std::map<frame_key, std::uint64_t> solutions_by_frame(int n) {
  std::map<frame_key, std::uint64_t> counts;
  for_each_solution(static_cast<index_t>(n), [&](std::span<const row_t> rows) {
    // rows[c] is the row of the queen in column c.
    int top = -1, bottom = -1;
    for (int c = 0; c < n; ++c) {
      if (rows[c] == 0) top = c;
      if (rows[c] == static_cast<row_t>(n - 1)) bottom = c;
    }
    ++counts[{top, bottom, static_cast<int>(rows[0]), static_cast<int>(rows[n - 1])}];
    return true;
  });
  return counts;
}

frame_key key_of(const frame& f) { return {f.top, f.bottom, f.left, f.right}; }

TEST(FrameCount, PreparedSearchesCountTheSolutionsOfTheirFrame) {
  for (int n = 4; n <= 10; ++n) {
    const auto expected = solutions_by_frame(n);
    const auto frames = detail::canonical_frames(n);
    ASSERT_FALSE(frames.empty()) << n;
    for (const frame_kernels* kernels : runnable_kernels()) {
      detail::frame_counter counter(n, *kernels);
      for (const auto& canonical : frames) {
        const auto found = expected.find(key_of(canonical.f));
        const std::uint64_t want = found == expected.end() ? 0 : found->second;
        EXPECT_EQ(counter.completions(prepare_frame_search(n, canonical.f)).value(), want)
            << "n=" << n << " " << kernels->name << " frame " << int{canonical.f.top} << ","
            << int{canonical.f.bottom} << "," << int{canonical.f.left} << ","
            << int{canonical.f.right};
        // The reference weights each completion by the orbit: 8 with the identity alone.
        EXPECT_EQ(count_frame_completions(n, canonical.f, 1).solutions, 8 * want);
      }
    }
  }
}

// Larger boards: the vector kernels see long chunks, partial vectors and deep levels.
TEST(FrameCount, EveryKernelSetAgreesWithTheReferenceOnEveryFrame) {
  const auto sets = runnable_kernels();
  if (sets.size() == 1) GTEST_SKIP() << "this CPU runs no vector kernels";
  for (const int n : {11, 12, 13, 14}) {
    std::vector<detail::frame_counter> counters;
    for (const frame_kernels* kernels : sets) counters.emplace_back(n, *kernels);
    for (const auto& canonical : detail::canonical_frames(n)) {
      const frame_search search = prepare_frame_search(n, canonical.f);
      const std::uint64_t want = count_frame_completions(n, canonical.f, 1).solutions / 8;
      for (std::size_t k = 0; k < sets.size(); ++k)
        ASSERT_EQ(counters[k].completions(search).value(), want)
            << "n=" << n << " " << sets[k]->name;
    }
  }
}

// count_frame counts every frame's completions with the kernels, and for a frame a rotation
// fixes, the completions that rotation fixes apart (count_fixed_completions): the same tally as
// the reference, which checks every complete board.
TEST(FrameCount, CountFrameMatchesTheReferenceOnEveryFrame) {
  std::uint64_t fixed_by[4] = {};
  for (const int n : {8, 9, 10, 11, 12, 13, 14}) {
    for (const frame_kernels* kernels : runnable_kernels()) {
      detail::frame_counter counter(n, *kernels);
      for (const auto& canonical : detail::canonical_frames(n)) {
        const count_tally want = count_frame_completions(n, canonical.f, canonical.stabilizer);
        const count_tally got = detail::count_frame(n, canonical, counter).value();
        const auto frame_name = [&] {
          return "n=" + std::to_string(n) + " " + kernels->name + " frame " +
                 std::to_string(canonical.f.top) + "," + std::to_string(canonical.f.bottom) + "," +
                 std::to_string(canonical.f.left) + "," + std::to_string(canonical.f.right);
        };
        ASSERT_EQ(got.solutions, want.solutions) << frame_name();
        ASSERT_EQ(got.unique_eighths, want.unique_eighths) << frame_name();
        if (kernels != runnable_kernels().front()) continue;
        for (const int g : {1, 2})
          if (canonical.stabilizer >> g & 1)
            fixed_by[g] += detail::count_fixed_completions(n, canonical.f, g).value();
      }
    }
  }
  // Else a count_fixed_completions that found nothing would pass.
  EXPECT_GT(fixed_by[1], 0u) << "no board fixed by a quarter turn";
  EXPECT_GT(fixed_by[2], 0u) << "no board fixed by a half turn";
}

TEST(FrameCount, SearchesSkipTheSideQueensRowsAndStrikeTheirLines) {
  // n = 8, frame (top 2, bottom 5, left 3, right 4): queens (0,2), (7,5), (3,0), (4,7).
  const frame_search s = prepare_frame_search(8, frame{2, 5, 3, 4});
  ASSERT_EQ(s.levels, 4);
  EXPECT_EQ(std::vector<int>(s.row, s.row + 4), (std::vector<int>{1, 2, 5, 6}));
  // Row 1: inner columns 1..6, less columns 2 and 5, less (0,2)'s 1 and 3, (7,5)'s 11 and -1,
  // (3,0)'s 2, (4,7)'s 4: column 6 is all that is left.
  EXPECT_EQ(s.allowed[0], 1u << 6);
  const frame_step step = frame_step_at(s, 1);  // from row 2 to row 5, look-ahead row 6
  EXPECT_EQ(step.shift[0], 3);
  EXPECT_EQ(step.shift[1], 1);
  EXPECT_EQ(step.allowed[1], s.allowed[3]);
  EXPECT_EQ(step.allowed[2], s.allowed[3]) << "past the last level, the last level again";
}

TEST(FrameCount, CountsMatchOeisWithEveryKernelSet) {
  for (const frame_kernels* kernels : runnable_kernels())
    for (int n = 1; n <= 13; ++n) {
      count_settings settings;
      settings.simd = kernels->name;
      const count_result result = count_solutions(n, settings);
      EXPECT_EQ(result.solutions, a000170[n - 1]) << "n=" << n << " " << kernels->name;
      EXPECT_EQ(result.unique, a002562[n - 1]) << "n=" << n << " " << kernels->name;
      EXPECT_EQ(result.simd, kernels->name);
    }
}

// count_frame trusts that only rotations can fix a solution (rotation_symmetries).
TEST(FrameCount, NoReflectionFixesASolution) {
  for (int n = 4; n <= 10; ++n) {
    std::uint64_t fixed_by_rotation = 0;
    for_each_solution(static_cast<index_t>(n), [&](std::span<const row_t> rows) {
      std::vector<int> col_of_row(n);
      for (int c = 0; c < n; ++c) col_of_row[rows[c]] = c;
      for (int g = 4; g < symmetry_count; ++g)
        EXPECT_FALSE(board_is_fixed_by(g, n, col_of_row.data())) << "n=" << n << " g=" << g;
      fixed_by_rotation += board_is_fixed_by(2, n, col_of_row.data());
      return true;
    });
    if (n == 10) {
      EXPECT_GT(fixed_by_rotation, 0u) << "the check can see a symmetric board";
    }
  }
}

TEST(FrameCount, SomeFramesNeedTheirBoardsChecked) {
  for (const int n : {8, 12, 13}) {
    int rotational = 0;
    for (const auto& canonical : detail::canonical_frames(n))
      rotational += (canonical.stabilizer & rotation_symmetries) != 0;
    EXPECT_GT(rotational, 0) << "n=" << n << ": the OEIS test would miss the board checks";
  }
}

// A frame of a large board may take days: both searches give up midway when told to stop.
TEST(FrameCount, SearchesStopMidFrameWhenAsked) {
  const int n = 16;
  const auto frames = detail::canonical_frames(n);
  int stopped_early = 0;
  for (std::size_t i = 0; i < 40; ++i) {
    const frame& f = frames[i * frames.size() / 40].f;
    bool stopped = false;
    const auto always = [] { return true; };
    const count_tally partial = count_frame_completions(n, f, 1, always, &stopped);
    if (stopped) {
      ++stopped_early;
      EXPECT_LT(partial.solutions, count_frame_completions(n, f, 1).solutions);
    } else {
      EXPECT_EQ(partial.solutions, count_frame_completions(n, f, 1).solutions) << "a small frame";
    }
  }
  EXPECT_GT(stopped_early, 0) << "no frame of n=16 took 65,536 nodes?";
  const std::atomic<bool> stop{true};
  for (const frame_kernels* kernels : runnable_kernels()) {
    detail::frame_counter counter(n, *kernels);
    EXPECT_FALSE(counter.completions(prepare_frame_search(n, frames[frames.size() / 2].f), &stop))
        << kernels->name;
  }
}

TEST(FrameCount, AutoPicksTheWidestAndUnknownNamesAreRefused) {
  EXPECT_EQ(std::string(detail::choose_frame_kernels("auto").name),
            runnable_kernels().back()->name);
  EXPECT_EQ(std::string(detail::choose_frame_kernels("off").name), "off");
  EXPECT_THROW(detail::choose_frame_kernels("sse9"), usage_error);
  for (const char* wide : {"avx2", "avx512"}) {
    bool runs = false;
    for (const frame_kernels* kernels : runnable_kernels())
      runs |= kernels->name == std::string(wide);
    if (runs) {
      EXPECT_EQ(std::string(detail::choose_frame_kernels(wide).name), wide);
    } else {
      EXPECT_THROW(detail::choose_frame_kernels(wide), resource_error) << wide;
    }
  }
}

}  // namespace
}  // namespace nq
