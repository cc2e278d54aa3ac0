// The kernels at their edges: scratch layout, boards past 48 queens and past 8,192, settings
// other than the defaults, several launches per call and several slices per batch, time limits,
// races, out-of-range boards, and a count stopped in the middle of a launch. Each compares with
// the CPU reference where the algorithm allows. Skipped without a CUDA device (the host
// execution always has one).

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "algorithm_label.hpp"
#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/chains.cuh"
#include "kernels/gpu.hpp"
#include "nqueens/batch.hpp"
#include "nqueens/count.hpp"
#include "nqueens/error.hpp"
#include "scratch.hpp"

namespace nq {
namespace {

using A = local_algorithm;
using test::device_or_host;
using test::label;

using GpuEdges = test::gpu_fixture;

/// Runs [first, first + count) on the GPU and on the CPU: outcome and board, run for run.
void expect_runs_match_cpu(index_t n, const local_search_settings& settings, std::uint64_t seed,
                           std::uint64_t first, std::uint64_t count,
                           const gpu::chain_options& options) {
  std::vector<row_t> boards;
  const auto on_gpu = gpu::run_thread_chains(n, settings, seed, first, count, options, &boards);
  ASSERT_EQ(on_gpu.size(), count);
  local_workspace cpu(n, settings);
  for (std::uint64_t i = 0; i < count; ++i) {
    local_run run;
    run.seed = seed;
    run.stream = first + i;
    run.limits.max_steps = options.max_steps;
    run.limits.time_limit = options.time_limit;
    const chain_outcome expected = cpu.run(run);
    const std::string where =
        label(settings.algorithm) + " n=" + std::to_string(n) + " run " + std::to_string(first + i);
    ASSERT_EQ(on_gpu[i].solved, expected.solved) << where;
    ASSERT_EQ(on_gpu[i].cost, expected.cost) << where;
    ASSERT_EQ(on_gpu[i].steps, expected.steps) << where;
    ASSERT_EQ(on_gpu[i].restarts, expected.restarts) << where;
    ASSERT_EQ(on_gpu[i].stopped, expected.stopped) << where;
    ASSERT_EQ(std::vector<row_t>(boards.begin() + i * n, boards.begin() + (i + 1) * n),
              std::vector<row_t>(cpu.board(), cpu.board() + n))
        << where;
  }
}

// Chain i's rows start on a 16-byte boundary for every board the scratch chains take: an odd n
// once put every other chain's 32-bit rows at 2 mod 4, which a GPU refuses.
TEST(GpuScratch, EveryChainsRowsAreAligned) {
  for (index_t n = gpu::max_thread_chain_n + 1; n <= gpu::max_global_chain_n; ++n) {
    ASSERT_EQ(cuda::scratch_per_chain(n) % 16, 0u) << "n=" << n;
    ASSERT_GE(cuda::scratch_per_chain(n), n * sizeof(row_t) + (5 * n - 2) * sizeof(std::int16_t));
  }
}

// Boards in global scratch: every scratch algorithm at odd and even sizes above 48, and the hc
// family past the block chains' 8,192 (a few steps each). A scratch chain is one GPU thread
// walking its board in global memory, each access a dependent load: on an H200 (2026-11-25)
// 300 steps of the O(n^2) climbers at n = 1001 and two at 8,193 and 10,922 ran past 150 s, so
// a device takes fewer steps there (the host execution, with a CPU's caches, the full number).
TEST_F(GpuEdges, ScratchChainsMatchTheCpuOnLargeBoards) {
  for (const A a : {A::min_conflicts_column, A::sa, A::random, A::random_opt, A::hc_random_p,
                    A::hc_anneal_p, A::hc_memory}) {
    local_search_settings settings;
    settings.algorithm = a;
    for (const index_t n : {49, 50, 257, 1001}) {
      const std::uint64_t steps = n > 257 ? device_or_host<std::uint64_t>(20, 300) : 300;
      expect_runs_match_cpu(n, settings, 8, 100, device_or_host(64, 3, 1), {.max_steps = steps});
    }
  }
  for (const A a : {A::hc, A::hc_sideways, A::hc_restart}) {
    local_search_settings settings;
    settings.algorithm = a;
    for (const index_t n : {8193, 10922}) {
      // Under TSan one large board of one climber is enough; on a device, one climber.
      if (test::under_thread_sanitizer() && (n > 8193 || a != A::hc)) continue;
      if (!test::host_sizes() && a != A::hc) continue;
      expect_runs_match_cpu(n, settings, 8, 0, device_or_host(2, 2, 1),
                            {.max_steps = device_or_host<std::uint64_t>(1, 2)});
    }
  }
}

// Settings other than the defaults reach the kernels: restarts, schedules, budgets.
TEST_F(GpuEdges, NonDefaultSettingsMatchTheCpu) {
  std::vector<local_search_settings> cases(13);
  cases[0].algorithm = A::min_conflicts_column;
  cases[0].column.steps_per_try = 40;
  cases[0].column.restarts = 5;
  cases[1].algorithm = A::sa;
  cases[1].annealing = {5.0, 0.9, 0.05, false};  // --reject-equal (taking them is the default)
  cases[2].algorithm = A::hc_sideways;
  cases[2].hill.max_sideways = 7;
  cases[3].algorithm = A::hc_random_p;
  cases[3].random_jump = {0.5, 3};
  cases[4].algorithm = A::hc_anneal_p;
  cases[4].annealed_jump = {0.4, 1, 0.95, 0.05};
  cases[5].algorithm = A::hc_memory;
  cases[5].memory.q = 2;
  // The seeds' rules: first ties and a total sideways limit (block chains at 40 queens too),
  // the tutorial's fixed first-choice scan and its per-move annealing loop.
  cases[6].algorithm = A::hc_sideways;
  cases[6].hill = {5, true, tie_rule::first, false};
  cases[7].algorithm = A::hc_restart;
  cases[7].hill = {3, false, tie_rule::last, true};  // the case study's climber, restarting
  cases[8].algorithm = A::first_choice;
  cases[8].first_choice.fixed_order = true;
  cases[9].algorithm = A::sa;
  cases[9].annealing.cool_per_move = true;
  cases[10].algorithm = A::hc_memory;
  cases[10].hill.ties = tie_rule::first;
  cases[11].algorithm = A::hc_sideways;
  cases[11].hill = {1000, false, tie_rule::last, true};  // the case study's climber
  cases[12].algorithm = A::random_opt;
  cases[12].random_opt.sweep = true;
  for (const auto& settings : cases)
    for (const index_t n : {8, 13, 40}) {
      if (settings.algorithm == A::first_choice && n > 32) continue;  // no GPU chain there
      expect_runs_match_cpu(n, settings, 31, 7, device_or_host(500, 60, 6), {.max_steps = 2000});
    }
}

// A call split over many launches gives what one launch gives.
TEST_F(GpuEdges, ManyLaunchesPerCallMatchTheCpu) {
  for (const A a : {A::hc, A::sa, A::first_choice}) {
    local_search_settings settings;
    settings.algorithm = a;
    expect_runs_match_cpu(10, settings, 4, 50, 101, {.max_steps = 500, .runs_per_launch = 7});
  }
  local_search_settings block;
  block.algorithm = A::hc_restart;
  expect_runs_match_cpu(40, block, 4, 0, 9, {.max_steps = 100, .runs_per_launch = 4});
}

// A batch split into many slices, by the controller and by the backend: the CPU's statistics
// and records.
TEST_F(GpuEdges, SlicedBatchesMatchTheCpuBackend) {
  local_search_settings settings;
  settings.algorithm = A::hc_sideways;
  batch_settings b;
  b.runs = 1000;
  b.seed = 12;
  b.slice_runs = 300;
  std::vector<chain_outcome> gpu_records, cpu_records;
  b.on_records = [&](std::uint64_t, const std::vector<chain_outcome>& runs) {
    gpu_records.insert(gpu_records.end(), runs.begin(), runs.end());
  };
  const auto gpu = gpu::make_gpu_backend({.slice_runs = 64});
  const batch_stats on_gpu = run_batch(9, settings, b, *gpu);
  b.on_records = [&](std::uint64_t, const std::vector<chain_outcome>& runs) {
    cpu_records.insert(cpu_records.end(), runs.begin(), runs.end());
  };
  const auto cpu = make_cpu_backend(2);
  const batch_stats on_cpu = run_batch(9, settings, b, *cpu);
  EXPECT_EQ(on_gpu.solved, on_cpu.solved);
  EXPECT_EQ(on_gpu.success.mean, on_cpu.success.mean);
  EXPECT_EQ(on_gpu.failure.median, on_cpu.failure.median);
  ASSERT_EQ(gpu_records.size(), 1000u);
  ASSERT_EQ(cpu_records.size(), 1000u);
  for (std::size_t i = 0; i < gpu_records.size(); ++i) {
    ASSERT_EQ(gpu_records[i].steps, cpu_records[i].steps) << "run " << i;
    ASSERT_EQ(gpu_records[i].solved, cpu_records[i].solved) << "run " << i;
  }
}

// A time limit is checked where the CPU checks it, every 1024 observer calls: with a limit
// already past at the first check, every run that has not solved by then stops there, on the
// device exactly as on the CPU (thread chains, scratch chains and block chains alike).
// A time limit already passed stops every unsolved run on both backends. Where exactly is not
// compared: the CPU reads its clock by elapsed time (src/core/deadline.hpp), the device every
// 1024 steps, and a timed run is not reproducible anyway.
TEST_F(GpuEdges, ATimeLimitStopsRunsOnBothBackends) {
  struct limit_case {
    A algorithm;
    index_t n;
  };
  for (const auto& [algorithm, n] :
       {limit_case{A::random, 12}, limit_case{A::sa, 20}, limit_case{A::hc_memory, 50},
        limit_case{A::hc_restart, 300}}) {
    local_search_settings settings;
    settings.algorithm = algorithm;
    settings.hill.max_sideways = 0;  // hc-restart without sideways moves solves seldom
    const gpu::chain_options options{.max_steps = 100000, .time_limit = 1e-9};
    const auto runs = gpu::run_thread_chains(n, settings, 6, 0, 24, options);
    local_workspace cpu(n, settings);
    std::uint64_t gpu_stopped = 0, cpu_stopped = 0;
    for (std::uint64_t i = 0; i < runs.size(); ++i) {
      EXPECT_TRUE(runs[i].solved || runs[i].stopped) << label(algorithm) << " run " << i;
      EXPECT_LT(runs[i].steps, options.max_steps) << label(algorithm) << " run " << i;
      gpu_stopped += runs[i].stopped;
      local_run run;
      run.seed = 6;
      run.stream = i;
      run.limits.max_steps = options.max_steps;
      run.limits.time_limit = options.time_limit;
      const chain_outcome expected = cpu.run(run);
      EXPECT_TRUE(expected.solved || expected.stopped) << label(algorithm) << " run " << i;
      cpu_stopped += expected.stopped;
    }
    EXPECT_GT(gpu_stopped, 0u) << label(algorithm) << " n=" << n;
    EXPECT_GT(cpu_stopped, 0u) << label(algorithm) << " n=" << n;
  }
}

// A run that would go on for ever ends once its time is up, and the batch reports it as the
// CPU backend does: a failed run.
TEST_F(GpuEdges, ATimeLimitEndsEndlessRuns) {
  const std::uint64_t endless = std::uint64_t{1} << 40;
  local_search_settings random;
  random.algorithm = A::random;
  for (const chain_outcome& run :
       gpu::run_thread_chains(32, random, 3, 0, 2, {.max_steps = endless, .time_limit = 0.02})) {
    EXPECT_TRUE(run.stopped);
    EXPECT_FALSE(run.solved);
    EXPECT_LT(run.steps, endless);
  }
  batch_settings b;
  b.runs = 3;
  b.limits = {endless, 0.02};
  const auto gpu = gpu::make_gpu_backend();
  const auto cpu = make_cpu_backend(1);
  for (batch_backend* backend : {gpu.get(), cpu.get()}) {
    const batch_stats stats = run_batch(32, random, b, *backend);
    EXPECT_EQ(stats.solved, 0u) << backend->device();
    EXPECT_EQ(stats.failure.runs, 3u) << backend->device();
    EXPECT_LT(stats.failure.max, endless) << backend->device();
  }
}

// solve --chains: once a run solves, no run numbered above it starts in a later slice, on either
// backend, and block chains (40 queens) take part in the race too.
TEST_F(GpuEdges, RacesHoldAcrossSlicesAndBlockChains) {
  struct race_case {
    A algorithm;
    index_t n;
  };
  for (const auto& [algorithm, n] : {race_case{A::hc, 12}, race_case{A::hc_restart, 40}}) {
    local_search_settings settings;
    settings.algorithm = algorithm;
    batch_settings b;
    b.runs = 200;
    b.seed = 2;
    b.limits.max_steps = 2000;
    b.slice_runs = 20;
    b.stop_after_first_solved = true;
    const auto lowest_and_late = [&](batch_backend& backend) {
      std::uint64_t lowest = UINT64_MAX, late_started = 0, started_above = 0, stopped = 0;
      b.on_records = [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
        for (std::size_t i = 0; i < runs.size(); ++i) {
          if (runs[i].solved && lowest == UINT64_MAX) lowest = first + i;
          if (runs[i].stopped) ++stopped;
          // A run of a later slice than the lowest solver's must not have started.
          if (lowest != UINT64_MAX && first / b.slice_runs > lowest / b.slice_runs &&
              runs[i].steps != 0)
            ++late_started;
          if (lowest < first + i && runs[i].steps != 0) ++started_above;
        }
      };
      run_batch(n, settings, b, backend);
      return std::tuple{lowest, late_started, started_above, stopped};
    };
    const auto gpu_backend = gpu::make_gpu_backend();
    const auto cpu_backend = make_cpu_backend(2);
    const auto [gpu_lowest, gpu_late, gpu_above, gpu_stopped] = lowest_and_late(*gpu_backend);
    const auto [cpu_lowest, cpu_late, cpu_above, cpu_stopped] = lowest_and_late(*cpu_backend);
    ASSERT_LT(cpu_lowest, 180u) << label(algorithm) << ": the case needs an early solver";
    EXPECT_EQ(gpu_lowest, cpu_lowest) << label(algorithm);
    EXPECT_EQ(gpu_late, 0u) << label(algorithm);
    EXPECT_EQ(cpu_late, 0u) << label(algorithm);
    EXPECT_GT(gpu_stopped, 0u) << label(algorithm);
    EXPECT_GT(cpu_stopped, 0u) << label(algorithm);
    // Run in order (the host execution's forward schedule), every run above the solver sees
    // its number before it starts; a device, or another schedule, runs them in any order.
    if (gpu::runs_in_order()) {
      EXPECT_EQ(gpu_above, 0u) << label(algorithm);
    }
  }
}

TEST_F(GpuEdges, PairCountRefusesRowsOffTheBoard) {
  EXPECT_THROW(gpu::count_attacking_pairs(std::vector<row_t>{0, 3, 1}), usage_error);
  EXPECT_THROW(gpu::count_attacking_pairs(std::vector<row_t>{0xFFFFFFFFu}), usage_error);
  EXPECT_EQ(gpu::count_attacking_pairs(std::vector<row_t>{1, 3, 0, 2}), 0u);
}

// A stop lands in the middle of one long launch: the count ends incomplete, what finished was
// reported (and checkpointed) while the launch ran, and a resume gives the exact total.
TEST_F(GpuEdges, ACountStopsInsideALaunchAndResumes) {
  // Big enough that the first reports come long before the end (n = 18: seconds on a GPU).
  const int n = device_or_host(18, 15);
  const std::uint64_t solutions = device_or_host(666090624ull, 2279184ull);
  const std::uint64_t unique = device_or_host(83263591ull, 285053ull);
  test::scratch_dir dir;
  const int rows = gpu::count_split_rows(n);
  const auto subs = count_subproblems(n, rows);
  gpu::subproblem_counter counter(n, subs, frame_classes(n));
  std::atomic<bool> stop{false};
  count_settings settings;
  settings.split_rows = rows;
  settings.slice_size = subs.size();  // one launch for the whole count
  settings.checkpoint = (dir / "count.json").string();
  settings.checkpoint_interval = 0;
  settings.stop = &stop;
  // The stop is raised as the launch reports its first finished subproblems, not from the
  // progress callback: that comes every 0.25 s, by when the host execution of n = 15 can be
  // done (the test failed so on a loaded machine).
  std::atomic<std::uint64_t> reports_mid_launch{0};
  std::atomic<bool> stop_on_report{true};  // the first count only
  settings.slice_counters = {[&](const std::vector<std::uint32_t>& indices,
                                 const std::atomic<bool>* flag, const auto& finished) {
    counter.count(indices, flag, [&](std::span<const finished_subproblem> done) {
      finished(done);
      if (!done.empty() && stop_on_report) {
        ++reports_mid_launch;
        stop = true;  // once some subproblems are in
      }
    });
  }};
  const count_result part = count_solutions(n, settings);
  EXPECT_FALSE(part.complete);
  EXPECT_GT(part.subproblems_done, 0u);
  EXPECT_LT(part.subproblems_done, subs.size());
  EXPECT_GT(reports_mid_launch, 0u);
  stop_on_report = false;
  stop = false;
  const count_result rest = count_solutions(n, settings);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.resumed, part.subproblems_done);
  EXPECT_EQ(rest.solutions, solutions);
  EXPECT_EQ(rest.unique, unique);
}

}  // namespace
}  // namespace nq
