// One count shared by several slice counters (one per GPU) and CPU threads: the shared source
// of subproblems on its own, then the controller driven by slice counters that count frames
// with the CPU's frame engine, so these run everywhere, sanitizers included.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "control/count_source.hpp"
#include "cpu/frame_engine.hpp"
#include "nqueens/count.hpp"
#include "nqueens/error.hpp"
#include "oeis.hpp"
#include "scratch.hpp"

namespace nq {
namespace {

using test::a000170;
using test::a002562;

using source = detail::subproblem_source;

std::vector<std::uint32_t> iota(std::uint32_t count) {
  std::vector<std::uint32_t> out(count);
  for (std::uint32_t i = 0; i < count; ++i) out[i] = i;
  return out;
}

TEST(SubproblemSource, ALoneTakerTakesEverythingAtOnceUpToTheCap) {
  source all(iota(10), std::vector<std::uint64_t>(10, 5), 1, 100);
  EXPECT_EQ(all.take_share().size(), 10u);
  EXPECT_TRUE(all.take_share().empty());
  source capped(iota(10), std::vector<std::uint64_t>(10, 5), 1, 4);
  EXPECT_EQ(capped.take_share().size(), 4u);
  EXPECT_EQ(capped.take_share().size(), 4u);
  EXPECT_EQ(capped.take_share().size(), 2u);
  EXPECT_TRUE(capped.take_share().empty());
}

// A cap of "no cap" (slice_size is a public setting) once the big end has moved: the share
// used to end at first + cap, which wrapped past 2^64 to before its start.
TEST(SubproblemSource, AnUnboundedCapTakesTheRest) {
  source s(iota(10), std::vector<std::uint64_t>(10, 5), 1, UINT64_MAX);
  EXPECT_EQ(s.take_one(source::end::big), 0u);
  const auto share = s.take_share();
  ASSERT_EQ(share.size(), 9u);
  EXPECT_EQ(share[0], 1u);
  EXPECT_EQ(share[8], 9u);
  EXPECT_TRUE(s.take_share().empty());
}

TEST(SubproblemSource, SharesFollowTheWeightLeftAndBothEndsMeet) {
  // Weights 8 4 2 1 1 1 1 (18 in all), four parts: the first share needs 5 of weight, so it
  // is the first subproblem alone (8); then 10 are left, 3 wanted: the next (4).
  source s({10, 11, 12, 13, 14, 15, 16}, {8, 4, 2, 1, 1, 1, 1}, 4, 100);
  auto share = s.take_share();
  ASSERT_EQ(share.size(), 1u);
  EXPECT_EQ(share[0], 10u);
  EXPECT_EQ(s.take_one(source::end::small), 16u);  // the small end
  EXPECT_EQ(s.take_one(source::end::small), 15u);
  share = s.take_share();  // 4 2 1 1 left, 8 of weight: 2 wanted
  ASSERT_EQ(share.size(), 1u);
  EXPECT_EQ(share[0], 11u);
  EXPECT_EQ(s.take_one(source::end::big), 12u);
  share = s.take_share();  // 1 1 left: at least one
  ASSERT_EQ(share.size(), 1u);
  EXPECT_EQ(share[0], 13u);
  EXPECT_EQ(s.take_one(source::end::small), 14u);
  EXPECT_FALSE(s.take_one(source::end::small));
  EXPECT_FALSE(s.take_one(source::end::big));
  EXPECT_TRUE(s.take_share().empty());
}

// Threads taking from both ends at once: every subproblem handed out exactly once.
TEST(SubproblemSource, ConcurrentTakersGetEachSubproblemOnce) {
  const std::uint32_t count = 20000;
  std::vector<std::uint64_t> weight(count);
  for (std::uint32_t i = 0; i < count; ++i) weight[i] = count - i;
  source s(iota(count), weight, 6, 50);
  std::vector<std::vector<std::uint32_t>> got(4);
  std::vector<std::thread> takers;
  for (unsigned t = 0; t < got.size(); ++t)
    takers.emplace_back([&, t] {
      for (;;) {
        if (t < 2) {
          const auto share = s.take_share();
          if (share.empty()) return;
          got[t].insert(got[t].end(), share.begin(), share.end());
        } else {
          const auto one = s.take_one(t == 2 ? source::end::small : source::end::big);
          if (!one) return;
          got[t].push_back(*one);
        }
      }
    });
  for (auto& taker : takers) taker.join();
  std::vector<std::uint32_t> all;
  for (const auto& part : got) all.insert(all.end(), part.begin(), part.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, iota(count));
}

/// Slice counters that count frames with the CPU's frame engine, the way a GPU's counter is
/// driven: each reports its frames last first, three at a time, and gives up at the stop.
/// `after_report(counter, done)` runs after each report.
class SharedCount : public ::testing::Test {
 protected:
  count_settings shared(int n, unsigned counters,
                        std::function<void(unsigned, const finished_subproblem&)> after = {}) {
    frames = n >= 4 ? detail::canonical_frames(n) : std::vector<detail::canonical_frame>{};
    count_settings settings;
    settings.slice_frames = true;
    settings.slice_size = 1000;
    for (unsigned c = 0; c < counters; ++c)
      settings.slice_counters.push_back([this, n, c, after](const std::vector<std::uint32_t>& slice,
                                                            const std::atomic<bool>* stop,
                                                            const auto& finished) {
        detail::frame_counter engine(n, detail::portable_frame_kernels());
        std::vector<finished_subproblem> done;
        for (std::size_t p = slice.size(); p-- > 0;) {
          if (stop->load()) return;
          done.push_back(
              {static_cast<std::uint32_t>(p), *detail::count_frame(n, frames[slice[p]], engine)});
          if (done.size() == 3 || p == 0) {
            finished(std::span<const finished_subproblem>(done));
            if (after)
              for (const auto& f : done) after(c, f);
            done.clear();
          }
        }
      });
    return settings;
  }
  std::vector<detail::canonical_frame> frames;
  test::scratch_dir dir;
  std::string path = (dir / "count.json").string();
};

TEST_F(SharedCount, OneTwoOrThreeCountersMatchOeis) {
  for (unsigned counters = 1; counters <= 3; ++counters)
    for (int n = 1; n <= 12; ++n) {
      const count_result result = count_solutions(n, shared(n, counters));
      EXPECT_TRUE(result.complete);
      EXPECT_EQ(result.solutions, a000170[n - 1]) << "n=" << n << ", " << counters << " counters";
      EXPECT_EQ(result.unique, a002562[n - 1]) << "n=" << n << ", " << counters << " counters";
      ASSERT_EQ(result.by_slice_counter.size(), counters);
      std::uint64_t sum = 0;
      for (const std::uint64_t c : result.by_slice_counter) sum += c;
      EXPECT_EQ(sum, result.subproblems);
      EXPECT_EQ(result.by_cpu, 0u);
    }
}

// Three counters stopped once some frames are in; the checkpoint resumes with two, then one
// counter, then the CPU, to the exact totals.
TEST_F(SharedCount, AStopResumesWithOtherCountersAndOnTheCpu) {
  const int n = 12;
  std::uint64_t done_before = 0;
  for (const unsigned counters : {3u, 2u, 1u}) {
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> reported{0};
    // Slowed down (a millisecond a report) so that the stop, passed on within 50 ms, lands
    // before the count ends.
    count_settings settings = shared(n, counters, [&](unsigned, const finished_subproblem&) {
      if (++reported == 40) stop = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    settings.checkpoint = path;
    settings.stop = &stop;
    const count_result part = count_solutions(n, settings);
    ASSERT_FALSE(part.complete) << counters << " counters";
    EXPECT_EQ(part.resumed, done_before);
    EXPECT_GE(part.subproblems_done, done_before + 40);
    done_before = part.subproblems_done;
  }
  count_settings cpu;
  cpu.threads = 2;
  cpu.checkpoint = path;
  const count_result rest = count_solutions(n, cpu);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.resumed, done_before);
  EXPECT_EQ(rest.solutions, a000170[n - 1]);
  EXPECT_EQ(rest.unique, a002562[n - 1]);
}

// A counter that fails stops the others; its exception reaches the caller, and the checkpoint
// keeps what was finished, which resumes exactly.
TEST_F(SharedCount, ACounterThatThrowsStopsTheOthersAndIsReported) {
  const int n = 12;
  std::atomic<bool> thrown{false};
  count_settings settings = shared(n, 3, [&](unsigned, const finished_subproblem&) {
    if (!thrown.exchange(true)) throw std::runtime_error("device 1 fell off the bus");
  });
  settings.checkpoint = path;
  try {
    count_solutions(n, settings);
    FAIL() << "the counter's exception was swallowed";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "device 1 fell off the bus");
  }
  count_settings cpu;
  cpu.checkpoint = path;
  const count_result rest = count_solutions(n, cpu);
  EXPECT_TRUE(rest.complete);
  EXPECT_GT(rest.resumed, 0u);  // the failing counter reported before it threw
  EXPECT_EQ(rest.solutions, a000170[n - 1]);
  EXPECT_EQ(rest.unique, a002562[n - 1]);
}

// A counter that drops a frame without being stopped is a bug the count refuses to hide.
TEST_F(SharedCount, ACounterThatLosesAFrameIsAnError) {
  count_settings settings;
  settings.slice_frames = true;
  settings.slice_counters.push_back(
      [](const std::vector<std::uint32_t>&, const std::atomic<bool>*, const auto&) {});
  EXPECT_THROW(count_solutions(10, settings), std::logic_error);
}

// CPU threads beside a counter (--device all): the counter takes the big frames, the CPU the
// small ones, one at a time; together every frame once, to the exact totals.
TEST_F(SharedCount, CpuThreadsCountBesideTheCounters) {
  // Who counts what depends on when the threads start (at n = 12 the CPU threads may finish
  // before the counter's thread has begun): the totals and the sum may not.
  for (const int n : {5, 8, 12}) {
    count_settings settings = shared(n, 1);
    settings.cpu_beside_slices = true;
    settings.threads = 2;
    const count_result result = count_solutions(n, settings);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.solutions, a000170[n - 1]) << "n=" << n;
    EXPECT_EQ(result.unique, a002562[n - 1]) << "n=" << n;
    EXPECT_EQ(result.by_cpu + result.by_slice_counter.at(0), result.subproblems);
    EXPECT_NE(result.simd, "");
  }
}

}  // namespace
}  // namespace nq
