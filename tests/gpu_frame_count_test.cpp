// Counting canonical frames on the GPU (kernels/frame_count.cu) against OEIS, against the CPU's
// frame counter frame by frame, and across devices through checkpoints. Skipped without a CUDA
// device; in the host execution (one CPU thread plays the grid) the sizes are scaled down.

#include <gtest/gtest.h>

#include <chrono>

#include "cpu/frame_engine.hpp"
#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/count.hpp"
#include "oeis.hpp"
#include "sanitizers.hpp"
#include "scratch.hpp"

namespace nq {
namespace {

using test::a000170;
using test::a002562;

class GpuFrameCount : public test::gpu_fixture {
 protected:
  /// Settings that count n on the GPU by frames, the way `nqueens count --device gpu` does, in
  /// `launches` launches (one by default); `on_frame` hears every frame the counter reports.
  count_settings on_gpu(int n, std::function<void(const finished_subproblem&)> on_frame = {},
                        std::size_t launches = 1) {
    count_settings settings;
    if (n < 4) return settings;  // no frames: the CPU answers
    counter = std::make_unique<gpu::frame_counter>(n);
    settings.slice_frames = true;
    settings.slice_size = (counter->frames() + launches - 1) / launches;
    settings.slice_counters = {[this, on_frame](const std::vector<std::uint32_t>& indices,
                                                const std::atomic<bool>* stop,
                                                const auto& finished) {
      // on_frame first: a stop it raises then reaches the count as the report is recorded.
      counter->count(indices, stop, [&](std::span<const finished_subproblem> done) {
        if (on_frame)
          for (const finished_subproblem& f : done) on_frame(f);
        finished(done);
      });
    }};
    return settings;
  }
  std::unique_ptr<gpu::frame_counter> counter;
};

// OEIS A000170 and A002562. A device goes to 18; the host execution, one CPU thread, to 17
// (about a minute; n = 16 takes 6 s), or to 16 under the sanitizers.
TEST_F(GpuFrameCount, MatchesOeisForNFrom1To18) {
  const int host_limit = test::under_address_sanitizer() ? 16 : 17;
  for (int n = 1; n <= test::device_or_host(18, host_limit, 11); ++n) {
    const count_result result = count_solutions(n, on_gpu(n));
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.solutions, a000170[n - 1]) << "n=" << n;
    EXPECT_EQ(result.unique, a002562[n - 1]) << "n=" << n;
    if (n >= 4) {
      EXPECT_EQ(result.subproblems, counter->frames());
      EXPECT_GT(counter->stats().pieces, 0u);
    }
  }
}

// Frame by frame at n = 4..16, at four depths of pieces, with the kernels of look-aheads 1
// and 3; the host execution stops at 14 under the sanitizers.
TEST_F(GpuFrameCount, EveryFrameMatchesTheCpu) {
  const int host_limit = test::under_address_sanitizer() ? 14 : 16;
  for (int n = 4; n <= test::device_or_host(16, host_limit, 10); ++n) {
    const auto frames = detail::canonical_frames(n);
    detail::frame_counter cpu(n, detail::portable_frame_kernels());
    std::vector<count_tally> expected;
    for (const auto& frame : frames) expected.push_back(*detail::count_frame(n, frame, cpu));
    std::vector<std::uint32_t> all(frames.size());
    for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    for (const int depth : {0, gpu::frame_piece_depth(n), 3, 8}) {  // 8: past max_path_levels
      for (const int look_ahead : {1, 3}) {
        gpu::frame_counter device(n, depth, 0, look_ahead);
        ASSERT_EQ(device.frames(), frames.size());
        const auto tallies = device.count(all);
        for (std::size_t i = 0; i < frames.size(); ++i) {
          const auto at = [&] {
            return ::testing::Message() << "n=" << n << " depth " << depth << " look-ahead "
                                        << look_ahead << " frame " << i;
          };
          ASSERT_EQ(tallies[i].solutions, expected[i].solutions) << at();
          ASSERT_EQ(tallies[i].unique_eighths, expected[i].unique_eighths) << at();
        }
      }
    }
  }
}

// A subset of frames, in an order of the caller's: positions map back to the right frames.
TEST_F(GpuFrameCount, CountsAnySubsetOfFrames) {
  const int n = 12;
  const auto frames = detail::canonical_frames(n);
  gpu::frame_counter device(n);
  std::vector<std::uint32_t> some;
  for (std::uint32_t i = static_cast<std::uint32_t>(frames.size()); i-- > 0;)
    if (i % 3 != 1) some.push_back(i);
  const auto tallies = device.count(some);
  detail::frame_counter cpu(n, detail::portable_frame_kernels());
  for (std::size_t p = 0; p < some.size(); ++p)
    EXPECT_EQ(tallies[p].solutions, detail::count_frame(n, frames[some[p]], cpu)->solutions);
}

class GpuFrameCheckpoint : public GpuFrameCount {
 protected:
  int n = test::device_or_host(18, 14);
  test::scratch_dir dir;
  std::string path = (dir / "count.json").string();
};

TEST_F(GpuFrameCheckpoint, ACpuCheckpointResumesOnTheGpu) {
  count_settings cpu;
  cpu.threads = 2;
  cpu.checkpoint = path;
  cpu.max_subproblems = 300;
  const count_result part = count_solutions(n, cpu);
  ASSERT_FALSE(part.complete);
  count_settings gpu = on_gpu(n);
  gpu.checkpoint = path;
  const count_result rest = count_solutions(n, gpu);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.resumed, part.subproblems_done);
  EXPECT_EQ(rest.solutions, a000170[n - 1]);
  EXPECT_EQ(rest.unique, a002562[n - 1]);
}

// The stop lands inside a launch, after the first frame with solutions is reported; what was
// reported resumes exactly, on the CPU. Four launches: whether the kernel sees the stop before
// it runs out of frames is a race with the host's polling (a 20 ms period, longer than the
// whole count takes in the host execution), but the next launch is never started, so the count
// is unfinished whichever way the race goes.
TEST_F(GpuFrameCheckpoint, AStopInsideTheLaunchResumesOnTheCpu) {
  std::atomic<bool> stop{false};
  std::chrono::steady_clock::time_point raised;
  count_settings gpu = on_gpu(
      n,
      [&](const finished_subproblem& f) {
        if (f.tally.solutions > 0 && !stop.exchange(true))
          raised = std::chrono::steady_clock::now();
      },
      4);
  gpu.checkpoint = path;
  gpu.stop = &stop;
  const count_result part = count_solutions(n, gpu);
  const double landed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - raised).count();
  ASSERT_TRUE(stop.load());
  EXPECT_FALSE(part.complete);
  EXPECT_GT(part.subproblems_done, 0u);
  EXPECT_LT(landed, 1.0) << "the stop took " << landed << " s to land";
  count_settings cpu;
  cpu.threads = 2;
  cpu.checkpoint = path;
  const count_result rest = count_solutions(n, cpu);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.resumed, part.subproblems_done);
  EXPECT_EQ(rest.solutions, a000170[n - 1]);
  EXPECT_EQ(rest.unique, a002562[n - 1]);
}

// Stopped twice on the GPU, then finished there: the same totals. Eight launches per count, so
// that each stop leaves frames to resume however fast the kernel runs (see above): a stop
// raised in a launch ends the count with that launch.
TEST_F(GpuFrameCheckpoint, AStoppedGpuCountResumesOnTheGpu) {
  std::uint64_t done_before = 0;
  for (int round = 0; round < 2; ++round) {
    std::atomic<bool> stop{false};
    count_settings gpu = on_gpu(
        n,
        [&](const finished_subproblem& f) {
          if (f.tally.solutions > 0) stop = true;
        },
        8);
    gpu.checkpoint = path;
    gpu.stop = &stop;
    const count_result part = count_solutions(n, gpu);
    ASSERT_FALSE(part.complete);
    EXPECT_EQ(part.resumed, done_before);
    EXPECT_GT(part.subproblems_done, done_before);
    // The first launch has solutions in it (the biggest frames go first).
    EXPECT_LE(part.subproblems_done - done_before, gpu.slice_size) << "round " << round;
    done_before = part.subproblems_done;
  }
  count_settings gpu = on_gpu(n);
  gpu.checkpoint = path;
  const count_result rest = count_solutions(n, gpu);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.resumed, done_before);
  EXPECT_EQ(rest.solutions, a000170[n - 1]);
  EXPECT_EQ(rest.unique, a002562[n - 1]);
}

}  // namespace
}  // namespace nq
