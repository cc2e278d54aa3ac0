// The lattice solver (src/cpu/lattice.cpp): its plans, its boards against an independent check,
// the same board for every thread count, and its limits.

#include "nqueens/lattice.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <string>

#include "nqueens/detail/philox_batch.hpp"
#include "nqueens/detail/qs4.hpp"
#include "placement_oracle.hpp"
#include "resident_memory.hpp"

namespace nq {
namespace {

bool prime_to_6(index_t w) { return w % 2 != 0 && w % 3 != 0; }

placement_settings with(std::uint64_t seed, unsigned threads) {
  placement_settings settings;
  settings.seed = seed;
  settings.threads = threads;
  return settings;
}

// The sub-board search with a work list far too short for its attacked queens: the list is
// compacted in place (keeping the column under repair) or the run restarts, and every board
// still ends solved.
TEST(Qs4, ATinyWorkListStillSolves) {
  for (index_t m = 1; m <= 400; m += m < 40 ? 1 : 7) {
    if (m == 2 || m == 3) continue;
    for (const index_t capacity : {index_t{2}, m / 64 + 1}) {
      std::vector<row_t> rows(m);
      std::vector<std::uint8_t> diag(diag_line_count(m)), anti(diag_line_count(m));
      std::vector<index_t> work(capacity);
      const qs4_view v{rows.data(), diag.data(), anti.data(), work.data(), m, capacity};
      qs4_reset(v);
      philox_stream rng(m, capacity);
      qs4_state state;
      ASSERT_TRUE(qs4_solve(v, rng, 0, state, [] { return false; }))
          << "m=" << m << ", capacity " << capacity;
      EXPECT_TRUE(test::is_solution(rows)) << "m=" << m << ", capacity " << capacity;
      EXPECT_EQ(state.pairs, 0u);
    }
  }
}

// The host's threads place with qs4_place over philox_batch, the device over philox_stream
// (qs4.hpp): from the same rows, lines and stream they make the same draws, stores and counts,
// whether the placement ends placed, at a step limit, at a stop, or restarting (a work list
// too short).
// Several placements follow each other on one board, as restarts do (rows kept, lines
// cleared), so the second and later ones start from a shuffled permutation.
TEST(Lattice, TheHostsPlacementIsTheDevicesPlacement) {
  struct outcome {
    std::vector<row_t> rows;
    std::vector<std::uint8_t> diag, anti;
    std::vector<index_t> work;
    qs4_state state;
    index_t work_size = 0;
    int end = 0;
    std::uint32_t next_word = 0;
  };
  const auto place = [](bool host, index_t m, index_t capacity, std::uint64_t max_steps,
                        std::uint64_t stop_at_poll, int rounds) {
    outcome o;
    o.rows.resize(m);
    o.diag.resize(diag_line_count(m));
    o.anti.resize(diag_line_count(m));
    o.work.assign(capacity, 0);
    const qs4_view v{o.rows.data(), o.diag.data(), o.anti.data(), o.work.data(), m, capacity};
    qs4_reset(v);
    std::uint64_t polls = 0;
    auto stop = [&] { return ++polls == stop_at_poll; };
    const auto rounds_with = [&](auto rng) {
      for (int r = 0; r < rounds; ++r) {
        detail::qs4_clear(v);
        o.end = detail::qs4_place(v, rng, max_steps, o.state, o.work_size, stop);
        if (o.end == 0) break;
      }
      o.next_word = rng.next_u32();
    };
    if (host)
      rounds_with(philox_batch(m, max_steps + capacity));
    else
      rounds_with(philox_stream(m, max_steps + capacity));
    return o;
  };
  int ends[3] = {0, 0, 0};
  for (index_t m = 1; m <= 3000; m += m < 40 ? 1 : 331)
    for (const index_t capacity : {qs4_work_capacity(m), index_t{1}})
      for (const std::uint64_t max_steps :
           {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{m} + 7, 3 * std::uint64_t{m}})
        for (const std::uint64_t stop_at_poll : {std::uint64_t{0}, std::uint64_t{2}}) {
          const outcome device = place(false, m, capacity, max_steps, stop_at_poll, 3);
          const outcome host = place(true, m, capacity, max_steps, stop_at_poll, 3);
          const std::string at =
              "m=" + std::to_string(m) + ", capacity " + std::to_string(capacity) + ", max_steps " +
              std::to_string(max_steps) + ", stop at poll " + std::to_string(stop_at_poll);
          ASSERT_EQ(host.end, device.end) << at;
          ++ends[device.end];
          EXPECT_EQ(host.rows, device.rows) << at;
          EXPECT_EQ(host.diag, device.diag) << at;
          EXPECT_EQ(host.anti, device.anti) << at;
          EXPECT_EQ(host.work_size, device.work_size) << at;
          EXPECT_EQ(host.work, device.work) << at;
          EXPECT_EQ(host.state.steps, device.state.steps) << at;
          EXPECT_EQ(host.state.pairs, device.state.pairs) << at;
          EXPECT_EQ(host.state.placed, device.state.placed) << at;
          EXPECT_EQ(host.next_word, device.next_word) << at;  // the same words drawn
        }
  // Each way a placement ends was met.
  EXPECT_GT(ends[0], 0);
  EXPECT_GT(ends[1], 0);
  EXPECT_GT(ends[2], 0);
}

// Every plan is valid: W = 1, or W prime to 6 dividing n, n - 1 or n + 1 (up to 2^20 queens;
// above, W may be a split of two or three levels), with sub-boards of
// at least 64 queens and p checked residue by residue; small aims split small boards.
TEST(Lattice, PlansAreValidSplits) {
  std::vector<index_t> sizes;
  for (index_t n = 1; n <= 3000; ++n) sizes.push_back(n);
  for (const index_t n : {index_t{1} << 20, index_t{1} << 30, index_t{999999937},
                          index_t{1000000000}, index_t{4000000000}, index_t{4294967295}})
    sizes.push_back(n);
  int split = 0;
  for (const index_t n : sizes)
    for (const index_t aim : {index_t{0}, index_t{64}, index_t{200}}) {
      if (n > 3000 && aim != 0) continue;  // W in the millions: slow, and no one's aim
      const lattice_plan plan = plan_lattice(n, 7, aim);
      ASSERT_TRUE(lattice_plan_is_valid(plan)) << "n=" << n << " aim " << aim;
      ASSERT_EQ(plan.n, n);
      if (plan.classes == 1) continue;
      ++split;
      const index_t w = plan.classes;
      EXPECT_TRUE(prime_to_6(w)) << "n=" << n << " W=" << w;
      if (n <= lattice_max_whole_search) {  // one level: W divides n, n - 1 or n + 1
        EXPECT_TRUE(n % w == 0 || n % w == 1 || n % w == w - 1) << "n=" << n << " W=" << w;
      }
      EXPECT_GE(n / w, 64u) << "n=" << n << " W=" << w;
      index_t columns = 0;
      for (index_t a = 0; a < w; ++a) columns += plan.size(a);
      EXPECT_EQ(columns, n) << "n=" << n << " W=" << w;
    }
  EXPECT_GT(split, 3000);
  // Huge boards split near the default aim of 2^16 queens a sub-board.
  const lattice_plan billion = plan_lattice(1000000000, 1);
  EXPECT_GT(billion.classes, 1000u);
  EXPECT_LT(1000000000 / billion.classes, 4 * lattice_default_sub_board);
}

// Above 2^20 queens the sub-boards stay within lattice_max_whole_search queens (the search's
// lines in a core's cache) wherever a split of up to three levels reaches it: n near 2^20,
// 10^7, 10^9 and 2^32 - 1, where one level left about 7% of n near 10^9 with W = 5 or so
// (1000000006: sub-boards of 2 x 10^8). Left over: n with no split at all (W = 1, solved whole)
// and a few whose n, n +- 1 and the quotients' neighbours have no divisor to refine by
// (1000004934: n + 1 = 5 x 200000987, 200000987 prime, 200000986 = 2 x 100000493), about
// under 1% of the n sampled. Every plan is checked valid, not timed.
TEST(Lattice, HugeBoardsSplitIntoSubBoardsThatFitInCache) {
  // Fewer near 10^9 and 2^32: their plans factor numbers of 10 digits (milliseconds each).
  const index_t ranges[][2] = {{(index_t{1} << 20) + 1, 2000},
                               {10000000 - 1000, 2000},
                               {1000000000 - 150, 300},
                               {4294967295 - 99, 100}};
  for (const auto& [first, count] : ranges) {
    index_t over = 0;
    for (index_t n = first; n < first + count; ++n) {
      const lattice_plan plan = plan_lattice(n, 5);
      ASSERT_TRUE(lattice_plan_is_valid(plan)) << "n=" << n;
      if (plan.size(0) > lattice_max_whole_search) ++over;
    }
    EXPECT_LE(over, count / 100 + 1) << "from n=" << first;  // 13, 10, 10, 4 in 2000 seen
  }
  for (const index_t n : {index_t{1000000006}}) {  // one level: W = 5, 2 x 10^8 queens
    const lattice_plan plan = plan_lattice(n, 1);
    EXPECT_TRUE(lattice_plan_is_valid(plan)) << "n=" << n;
    EXPECT_LE(plan.size(0), lattice_max_whole_search) << "n=" << n << " W=" << plan.classes;
  }
  const lattice_plan known = plan_lattice(1000004934, 1);  // still W = 5: see above
  EXPECT_TRUE(lattice_plan_is_valid(known));
  EXPECT_EQ(known.classes, 5u);
}

// A broken plan is refused by the check the solver's plans pass.
TEST(Lattice, TheValidityCheckRefusesBrokenPlans) {
  lattice_plan plan = plan_lattice(10000, 3, 64);
  ASSERT_GT(plan.classes, 1u);
  ASSERT_TRUE(lattice_plan_is_valid(plan));
  lattice_plan shared_line = plan;
  std::iota(shared_line.row_class.begin(), shared_line.row_class.end(), index_t{0});  // p(a) = a
  EXPECT_FALSE(lattice_plan_is_valid(shared_line));
  lattice_plan repeated = plan;
  repeated.row_class[1] = repeated.row_class[0];
  EXPECT_FALSE(lattice_plan_is_valid(repeated));
  lattice_plan anti_only = plan;  // p(a) = -a: diagonals apart, every antidiagonal one class
  for (index_t a = 0; a < plan.classes; ++a)
    anti_only.row_class[a] = (plan.classes - a) % plan.classes;
  EXPECT_FALSE(lattice_plan_is_valid(anti_only));
  lattice_plan wrong_n = plan;
  wrong_n.n += 2;
  EXPECT_FALSE(lattice_plan_is_valid(wrong_n));
}

// The class with a queen more (n = mW + 1) must keep rows of its own size: a plan that moves
// it is refused even when p is otherwise a torus solution.
TEST(Lattice, TheValidityCheckKeepsTheOddClassInPlace) {
  index_t n = 0;
  lattice_plan plan;
  for (n = 10001; plan.wide != 1; ++n) plan = plan_lattice(n, 3, 64);
  ASSERT_TRUE(lattice_plan_is_valid(plan));
  for (index_t k = 2; k + 1 < plan.classes; ++k) {  // p(a) = k (a - 1) mod W: a torus solution
    lattice_plan moved = plan;
    for (index_t a = 0; a < plan.classes; ++a)
      moved.row_class[a] = k * ((a + plan.classes - 1) % plan.classes) % plan.classes;
    if (moved.row_class[0] == 0) continue;
    EXPECT_FALSE(lattice_plan_is_valid(moved)) << "n=" << n - 1 << " k=" << k;
    return;
  }
  FAIL() << "no moved plan tried";
}

// The boards are solutions by an independent O(n) check, and every column of class a sits on
// a row of class p(a): the split is the one planned.
TEST(Lattice, SolvesEveryBoardOnItsPlannedRows) {
  std::vector<index_t> sizes;
  for (index_t n = 1; n <= 130; ++n) sizes.push_back(n);
  for (index_t n = 300; n <= 4000; n += 293) sizes.push_back(n);
  for (const index_t n : {index_t{4096}, index_t{10001}, index_t{65535}, index_t{100000}})
    sizes.push_back(n);
  for (const index_t n : sizes)
    for (const index_t aim : {index_t{0}, index_t{64}}) {
      const solve_result r = solve_lattice(n, with(n, 2), {}, aim);
      if (n == 2 || n == 3) {
        EXPECT_FALSE(r.solved);
        EXPECT_TRUE(r.queen_row.empty());
        continue;
      }
      ASSERT_TRUE(r.solved) << "n=" << n << " aim " << aim;
      ASSERT_TRUE(test::is_solution(r.queen_row)) << "n=" << n << " aim " << aim;
      EXPECT_EQ(r.conflicts, 0u);
      const lattice_plan plan = plan_lattice(n, n, aim);
      for (index_t c = 0; c < n; ++c)
        ASSERT_EQ(r.queen_row[c] % plan.classes, plan.row_class[c % plan.classes])
            << "n=" << n << " column " << c;
    }
}

// The board depends on (seed, n) alone: threads 1..8 give it, and another seed another board.
TEST(Lattice, TheSameBoardForEveryThreadCount) {
  std::vector<std::pair<index_t, index_t>> cases;  // n, aimed sub-board
  for (index_t n = 4; n <= 64; n += 5) cases.emplace_back(n, 0);
  for (const index_t n : {5000, 50000}) cases.emplace_back(n, 256);
  cases.emplace_back(1000000, 0);
  for (const auto& [n, aim] : cases) {
    const solve_result one = solve_lattice(n, with(11, 1), {}, aim);
    ASSERT_TRUE(one.solved);
    ASSERT_TRUE(test::is_solution(one.queen_row)) << "n=" << n;
    for (unsigned threads = 2; threads <= 8; ++threads) {
      const solve_result many = solve_lattice(n, with(11, threads), {}, aim);
      EXPECT_EQ(many.queen_row, one.queen_row) << "n=" << n << " threads " << threads;
      EXPECT_EQ(many.steps, one.steps);
    }
    if (n > 8) {
      EXPECT_NE(solve_lattice(n, with(12, 2), {}, aim).queen_row, one.queen_row) << "n=" << n;
    }
  }
}

// A step limit bounds each sub-board: too few steps leave the board unsolved, a permutation
// whose pairs are counted exactly; the same limit gives the same board on any thread count.
TEST(Lattice, AStepLimitLeavesAnExactlyCountedPermutation) {
  placement_settings settings = with(5, 1);
  settings.limits.max_steps = 50;
  const solve_result one = solve_lattice(20000, settings, {}, 200);
  EXPECT_FALSE(one.solved);
  ASSERT_TRUE(test::is_permutation(one.queen_row));
  EXPECT_EQ(one.conflicts, test::pairs_by_lines(one.queen_row));
  EXPECT_GT(one.conflicts, 0u);
  settings.threads = 3;
  const solve_result three = solve_lattice(20000, settings, {}, 200);
  EXPECT_EQ(three.queen_row, one.queen_row);
  EXPECT_EQ(three.conflicts, one.conflicts);
}

// A stop raised before the start leaves every sub-board's rows in order (each class's queens
// on one diagonal), counted exactly; a time limit ends the run unsolved or solved, never
// invalid.
TEST(Lattice, AStopOrATimeLimitEndsTheRunWithItsBoard) {
  std::atomic<bool> stop{true};
  placement_settings settings = with(3, 2);
  settings.limits.stop = &stop;
  const solve_result stopped = solve_lattice(30000, settings, {}, 300);
  EXPECT_FALSE(stopped.solved);
  EXPECT_EQ(stopped.steps, 0u);
  ASSERT_TRUE(test::is_permutation(stopped.queen_row));
  EXPECT_EQ(stopped.conflicts, test::pairs_by_lines(stopped.queen_row));
  const lattice_plan plan = plan_lattice(30000, 3, 300);
  index_t in_order = 0;
  for (index_t a = 0; a < plan.classes; ++a) in_order += plan.size(a) * (plan.size(a) - 1) / 2;
  EXPECT_EQ(stopped.conflicts, in_order);

  placement_settings timed = with(3, 2);
  timed.limits.time_limit = 1e-9;
  const solve_result late = solve_lattice(30000, timed, {}, 300);
  ASSERT_TRUE(test::is_permutation(late.queen_row));
  EXPECT_EQ(late.conflicts, test::pairs_by_lines(late.queen_row));
  EXPECT_EQ(late.solved, late.conflicts == 0);
}

// A stop raised part-way (after the first group is written) leaves a mix of solved, stopped
// and unstarted sub-boards: a permutation whose pairs are counted exactly.
TEST(Lattice, AStopPartWayCountsEverySubBoardsPairs) {
  std::atomic<bool> stop{false};
  placement_settings settings = with(8, 1);
  settings.limits.stop = &stop;
  const solve_result r = solve_lattice(
      200000, settings, [&](const solve_progress&) { stop.store(true); }, 300);
  EXPECT_FALSE(r.solved);
  EXPECT_GT(r.steps, 0u);
  ASSERT_TRUE(test::is_permutation(r.queen_row));
  EXPECT_EQ(r.conflicts, test::pairs_by_lines(r.queen_row));
  EXPECT_GT(r.conflicts, 0u);
  EXPECT_EQ(r.unplaced, 0u);
}

// A stop raised before the start, when no one shows the board: the board's 200 MB are never
// touched (its set-up reads the stop), no board is returned, and the pairs are still counted,
// every class's rows in order, without one.
TEST(Lattice, AStopBeforeTheStartTouchesNoBoardThatNoOneShows) {
  const index_t n = 50000000;
  if (test::peak_resident_bytes(true) == 0) GTEST_SKIP() << "no /proc/self/clear_refs or VmHWM";
  const std::uint64_t before = test::peak_resident_bytes();
  std::atomic<bool> stop{true};
  placement_settings settings = with(3, 2);
  settings.limits.stop = &stop;
  const solve_result r = solve_lattice(n, settings, {}, 0, false);
  const std::uint64_t grown = test::peak_resident_bytes() - before;
  EXPECT_LT(grown, n * sizeof(row_t) / 4) << "the set-up touched the board";
  EXPECT_TRUE(r.queen_row.empty());
  EXPECT_FALSE(r.solved);
  EXPECT_EQ(r.steps, 0u);
  const lattice_plan plan = plan_lattice(n, 3);
  index_t in_order = 0;
  for (index_t a = 0; a < plan.classes; ++a) in_order += plan.size(a) * (plan.size(a) - 1) / 2;
  EXPECT_EQ(r.conflicts, in_order);
}

// A stop after the first group (one thread: the rest never start): with the board shown, the
// groups left are written with their rows in order; without, none is returned; both count the
// same pairs, exactly.
TEST(Lattice, AStopPartWayCountsTheSamePairsWithOrWithoutTheBoard) {
  std::atomic<bool> stop{false};
  placement_settings settings = with(8, 1);
  settings.limits.stop = &stop;
  const progress_fn raise = [&](const solve_progress&) { stop.store(true); };
  const solve_result shown = solve_lattice(200000, settings, raise, 300);
  stop.store(false);
  const solve_result kept = solve_lattice(200000, settings, raise, 300, false);
  ASSERT_TRUE(test::is_permutation(shown.queen_row));
  EXPECT_EQ(shown.conflicts, test::pairs_by_lines(shown.queen_row));
  EXPECT_GT(shown.steps, 0u);
  EXPECT_TRUE(kept.queen_row.empty());
  EXPECT_EQ(kept.conflicts, shown.conflicts);
  EXPECT_EQ(kept.steps, shown.steps);
  EXPECT_FALSE(kept.solved);
}

// With no split (n under 320, W = 1), a limit still leaves a whole board with its pairs
// counted, never queens `unplaced`.
TEST(Lattice, AnUnsplitBoardStoppedByALimitCountsItsPairs) {
  ASSERT_EQ(plan_lattice(100, 1).classes, 1u);
  placement_settings settings = with(1, 2);
  settings.limits.max_steps = 10;
  const solve_result r = solve_lattice(100, settings);
  EXPECT_FALSE(r.solved);
  EXPECT_EQ(r.unplaced, 0u);
  ASSERT_TRUE(test::is_permutation(r.queen_row));
  EXPECT_EQ(r.conflicts, test::pairs_by_lines(r.queen_row));
  EXPECT_GT(r.conflicts, 0u);
}

// A board with no split above 2^20 queens is solved whole by min-conflicts: a limit that stops
// it while placing leaves its queens not yet placed uncounted, as min-conflicts reports them,
// rather than counting the pairs of the whole board (seconds at 10^8 queens, after the stop).
TEST(Lattice, AnUnsplitHugeBoardStoppedWhilePlacingReportsItsQueensUnplaced) {
  const index_t n = 1048588;  // n - 1, n and n + 1 have no divisor that splits them
  ASSERT_EQ(plan_lattice(n, 1).classes, 1u);
  ASSERT_GT(n, lattice_max_whole_search);
  placement_settings settings = with(1, 2);
  settings.limits.max_steps = 1000;
  const solve_result r = solve_lattice(n, settings);
  EXPECT_FALSE(r.solved);
  EXPECT_GT(r.unplaced, n - 1000);
  EXPECT_EQ(r.conflicts, 0u);
  EXPECT_TRUE(test::is_permutation(r.queen_row));
}

// The memory bound covers the board and each thread's sub-boards: under 5 bytes a queen for
// 10^9 queens on 2 threads, and the whole board's min-conflicts when it cannot be split.
TEST(Lattice, MemoryStaysNearFourBytesAQueen) {
  const lattice_plan billion = plan_lattice(1000000000, 1);
  const std::uint64_t bytes = lattice_memory_bytes(billion, 2);
  EXPECT_GE(bytes, 4000000000u);
  EXPECT_LT(bytes, 4200000000u);
  const lattice_plan whole = plan_lattice(100, 1);
  ASSERT_EQ(whole.classes, 1u);
  EXPECT_GE(lattice_memory_bytes(whole, 2), 400u);
}

// Where --device auto takes the GPU for the lattice (lattice_fills_gpu): from 64 classes a CPU
// thread, and one per SM. At 10^6 queens (13 classes) the CPU whatever the machine; at 10^8
// (1,507) the GPU beside 16 CPU threads but not beside 64; at 10^9 (15,625) beside 64 too, and
// not on a GPU of more SMs than classes.
TEST(LatticeDevice, AutoTakesTheGpuOnlyWithClassesToFillIt) {
  EXPECT_EQ(plan_lattice(1000000, 1).classes, 13u);
  EXPECT_EQ(plan_lattice(100000000, 1).classes, 1507u);
  EXPECT_EQ(plan_lattice(1000000000, 1).classes, 15625u);
  EXPECT_FALSE(lattice_fills_gpu(1000000, 132, 1));
  EXPECT_FALSE(lattice_fills_gpu(10000000, 132, 16));
  EXPECT_TRUE(lattice_fills_gpu(100000000, 132, 16));
  EXPECT_FALSE(lattice_fills_gpu(100000000, 132, 64));
  EXPECT_TRUE(lattice_fills_gpu(1000000000, 132, 64));
  EXPECT_FALSE(lattice_fills_gpu(1000000000, 20000, 1));
  // The boundary: exactly 64 classes a thread takes the GPU, one fewer does not.
  const index_t w = plan_lattice(100000000, 1).classes;
  EXPECT_TRUE(lattice_fills_gpu(100000000, 1, static_cast<unsigned>(w / 64)));
  EXPECT_FALSE(lattice_fills_gpu(100000000, 1, static_cast<unsigned>(w / 64 + 1)));
  // A board solved whole is one class: never the GPU for auto.
  EXPECT_EQ(plan_lattice(100, 1).classes, 1u);
  EXPECT_FALSE(lattice_fills_gpu(100, 1, 1));
}

}  // namespace
}  // namespace nq
