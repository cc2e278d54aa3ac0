// GPU tests: each fixture skips when no CUDA device is present. Each check compares the device
// with the host running the same shared NQ_HD code.

#include "kernels/gpu.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "board_oracles.hpp"
#include "gpu_fixture.hpp"
#include "gpu_kernels.hpp"
#include "kernel_tests.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/verify.hpp"

namespace nq {
namespace {

using Gpu = test::gpu_fixture;

TEST(GpuDiscovery, CountingDevicesNeverThrows) {
  int count = -1;
  EXPECT_NO_THROW(count = gpu::device_count());
  EXPECT_GE(count, 0);
}

TEST_F(Gpu, NamesTheDevice) { EXPECT_FALSE(gpu::device_name().empty()); }

TEST_F(Gpu, PairCountMatchesVerifyOnRandomBoards) {
  for (const auto& c : test::edge_cases()) {
    for (const auto& rows :
         {test::random_board(c.n, c.seed), test::random_permutation(c.n, c.seed)})
      ASSERT_EQ(gpu::count_attacking_pairs(rows), verify_board(rows).conflicts) << c;
  }
}

TEST_F(Gpu, PairCountOnLargeAndCrowdedBoards) {
  EXPECT_EQ(gpu::count_attacking_pairs(solve_constructive(10'000'003).queen_row), 0u);
  const std::vector<row_t> one_row(100'000, 5);
  EXPECT_EQ(gpu::count_attacking_pairs(one_row), pairs_on_line(100'000));
  const auto rows = test::random_board(3'000'000, 17);
  EXPECT_EQ(gpu::count_attacking_pairs(rows), verify_board(rows).conflicts);
}

// A batch's kernel time is its launches' (kernels/runtime.cuh, kernel_clock): host sleeps
// before a launch, between a wait and the next launch, and after the last, standing for the
// allocations, frees and polling that once fell between the events, are not counted, while the
// kernels are. A clock that launched nothing since its last reading reads 0 without waiting.
TEST_F(Gpu, KernelClockTimesTheLaunchesNotTheHostAroundThem) {
  const test::kernel_clock_probe probe = test::probe_kernel_clock(0.15);
  EXPECT_GE(probe.wall, 0.45);
  EXPECT_GT(probe.timed, 0.0) << "the launches were not timed";
  EXPECT_LT(probe.timed, 0.1) << "the host's 0.45 s of sleep were counted as kernel time";
  EXPECT_EQ(probe.idle_reading, 0.0);
  EXPECT_EQ(probe.idle_waits, 0u);
}

TEST_F(Gpu, PhiloxDrawsMatchTheHost) {
  for (const std::uint32_t bound : {1u, 8u, 1000u, 3u << 30, 0xFFFFFFFFu}) {
    philox_stream host(99, 12345);
    std::vector<std::uint32_t> expected(5000);
    for (auto& x : expected) x = host.below(bound);
    EXPECT_EQ(test::device_draws(99, 12345, bound, 5000), expected) << "bound " << bound;
  }
}

TEST_F(Gpu, ConstructionMatchesTheHost) {
  for (const index_t n : {1, 4, 8, 9, 14, 15, 1000, 100'001}) {
    std::vector<row_t> expected(n);
    for (index_t col = 0; col < n; ++col)
      expected[col] = static_cast<row_t>(constructive_row(n, col));
    EXPECT_EQ(test::device_construction(n), expected) << "n=" << n;
  }
}

TEST_F(Gpu, DeltasMatchTheHost) {
  for (const auto& c : test::edge_cases(1)) {
    auto rows = test::random_board(c.n, c.seed);
    philox_stream rng(c.seed, 9);
    std::vector<test::move> moves(500);
    for (auto& m : moves) {
      m.a = rng.below(static_cast<std::uint32_t>(c.n));
      m.b = rng.below(2) ? m.a : rng.below(static_cast<std::uint32_t>(c.n));
      m.row = rng.below(static_cast<std::uint32_t>(c.n));
    }
    // The host: the same sequence, each delta the recounted change.
    const auto pairs = [&] { return static_cast<std::int64_t>(verify_board(rows).conflicts); };
    std::vector<std::int64_t> expected;
    for (const auto& m : moves) {
      const std::int64_t before = pairs();
      if (m.a == m.b) {
        rows[m.a] = static_cast<row_t>(m.row);
      } else {
        std::swap(rows[m.a], rows[m.b]);
      }
      expected.push_back(pairs() - before);
    }
    EXPECT_EQ(test::device_deltas(test::random_board(c.n, c.seed), moves), expected) << c;
  }
}

// steepest_move from a one-thread kernel against the same walk on the host.
TEST_F(Gpu, SteepestWalkMatchesTheHost) {
  for (const auto& c : test::edge_cases(1)) {
    if (c.n < 2 || c.n > 300) continue;
    const auto rows = test::random_board(c.n, c.seed);
    std::vector<row_t> host_rows = rows;
    std::vector<std::int16_t> lines(c.n + 2 * diag_line_count(c.n));
    const climber_view<std::int16_t> b{host_rows.data(), lines.data(), lines.data() + c.n,
                                       lines.data() + c.n + diag_line_count(c.n), c.n};
    recount(b);
    philox_stream rng(c.seed, 0);
    const auto device = test::device_steepest_walk(rows, c.seed, 20);
    for (const auto& m : device) {
      const queen_move expected = steepest_move(b, rng, 2);
      ASSERT_EQ(m.col, expected.col) << c;
      ASSERT_EQ(m.row, expected.row) << c;
      ASSERT_EQ(m.delta, expected.delta) << c;
      relocate(b, expected.col, expected.row);
    }
  }
}

// The grid's radix select against a sort: keys that tie across the k-th (three keys over
// thousands of elements, so the numbers decide) and keys that are all distinct, each k from 1
// to every element: the k least by (key, number), the same set as a sort's first k.
TEST_F(Gpu, RadixSelectTakesTheKLeastAsASortDoes) {
  const std::uint64_t count = test::device_or_host(std::uint64_t{300'000}, std::uint64_t{6'000});
  std::vector<std::uint64_t> tied(count), distinct(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    tied[i] = std::uint64_t{(i * 7) % 3} << 32;
    distinct[i] = (((i * 2654435761u) % 1000) << 32) | i;
  }
  for (const bool tie : {true, false}) {
    const std::vector<std::uint64_t>& keys = tie ? tied : distinct;
    std::vector<std::uint64_t> order(count);
    for (std::uint64_t i = 0; i < count; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return keys[a] < keys[b]; });
    for (const std::uint64_t k : {std::uint64_t{1}, std::uint64_t{2}, count / 3, count / 3 + 1,
                                  count / 2 + 7, count - 1, count}) {
      std::vector<std::uint64_t> expected(order.begin(), order.begin() + k);
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(test::device_select_least(keys, k, tie), expected)
          << (tie ? "tied" : "distinct") << " keys, k=" << k;
    }
  }
}

}  // namespace
}  // namespace nq
