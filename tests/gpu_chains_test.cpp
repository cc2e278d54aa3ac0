// GPU chains against the CPU reference: run i with seed s ends the same way, after the same
// steps and restarts, on the same board, on both sides. Skipped without a CUDA device.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "algorithm_label.hpp"
#include "board_oracles.hpp"
#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/batch.hpp"
#include "nqueens/chains.hpp"
#include "nqueens/error.hpp"
#include "nqueens/local_settings.hpp"

namespace nq {
namespace {

using A = local_algorithm;

using test::device_or_host;
using test::label;

using GpuChains = test::gpu_param_fixture<A>;
using GpuBlockChains = test::gpu_fixture;
using GpuRace = test::gpu_fixture;
using GpuSolveChainsStopped = test::gpu_fixture;
using GpuBatchStop = test::gpu_fixture;
using GpuBatchTally = test::gpu_fixture;

TEST_P(GpuChains, MatchTheCpuRunForRun) {
  local_search_settings settings;
  settings.algorithm = GetParam();
  constexpr std::uint64_t seed = 77, first = 1000, max_steps = 3000;
  for (const index_t n : {1, 4, 5, 8, 13, 32, 33, 48}) {
    if (n > gpu::max_thread_chain_n && settings.algorithm == A::first_choice) continue;
    const std::uint64_t runs = n >= 32 ? device_or_host(200, 40, 4) : device_or_host(2000, 300, 30);
    std::vector<row_t> boards;
    const auto gpu_runs =
        gpu::run_thread_chains(n, settings, seed, first, runs, {.max_steps = max_steps}, &boards);
    ASSERT_EQ(gpu_runs.size(), runs);
    local_workspace cpu(n, settings);
    for (std::uint64_t i = 0; i < runs; ++i) {
      local_run run;
      run.seed = seed;
      run.stream = first + i;
      run.limits.max_steps = max_steps;
      const chain_outcome expected = cpu.run(run);
      const chain_outcome& got = gpu_runs[i];
      ASSERT_EQ(got.solved, expected.solved) << "n=" << n << " run " << i;
      ASSERT_EQ(got.cost, expected.cost) << "n=" << n << " run " << i;
      ASSERT_EQ(got.steps, expected.steps) << "n=" << n << " run " << i;
      ASSERT_EQ(got.restarts, expected.restarts) << "n=" << n << " run " << i;
      ASSERT_EQ(std::vector<row_t>(boards.begin() + i * n, boards.begin() + (i + 1) * n),
                std::vector<row_t>(cpu.board(), cpu.board() + n))
          << "n=" << n << " run " << i;
    }
  }
}

// The GPU backend's device-side tally gives the CPU backend's statistics, and its records are
// the CPU's run for run.
TEST_P(GpuChains, BatchesMatchTheCpuBackend) {
  local_search_settings settings;
  settings.algorithm = GetParam();
  batch_settings b;
  b.runs = device_or_host(40000, 3000, 200);
  b.seed = 3;
  b.limits.max_steps = 2000;
  std::vector<chain_outcome> gpu_records, cpu_records;
  const auto gpu = gpu::make_gpu_backend();
  const auto cpu = make_cpu_backend(0);
  for (const index_t n : {8, 17}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    b.on_records = [&](std::uint64_t, const std::vector<chain_outcome>& runs) {
      gpu_records.insert(gpu_records.end(), runs.begin(), runs.end());
    };
    const batch_stats on_gpu = run_batch(n, settings, b, *gpu);
    b.on_records = [&](std::uint64_t, const std::vector<chain_outcome>& runs) {
      cpu_records.insert(cpu_records.end(), runs.begin(), runs.end());
    };
    const batch_stats on_cpu = run_batch(n, settings, b, *cpu);
    EXPECT_EQ(on_gpu.solved, on_cpu.solved);
    EXPECT_EQ(on_gpu.success.mean, on_cpu.success.mean);
    EXPECT_EQ(on_gpu.success.median, on_cpu.success.median);
    EXPECT_EQ(on_gpu.success.max, on_cpu.success.max);
    EXPECT_EQ(on_gpu.failure.mean, on_cpu.failure.mean);
    EXPECT_EQ(on_gpu.failure.median, on_cpu.failure.median);
    EXPECT_EQ(on_gpu.restarts, on_cpu.restarts);
    ASSERT_EQ(gpu_records.size(), cpu_records.size());
    for (std::size_t i = 0; i < gpu_records.size(); ++i) {
      ASSERT_EQ(gpu_records[i].steps, cpu_records[i].steps) << "run " << i;
      ASSERT_EQ(gpu_records[i].cost, cpu_records[i].cost) << "run " << i;
    }
    gpu_records.clear();
    cpu_records.clear();
  }
}

INSTANTIATE_TEST_SUITE_P(Gpu, GpuChains, ::testing::ValuesIn(single_chain_algorithms),
                         [](const auto& info) { return label(info.param); });

// Block-per-chain steepest ascent (33 to 8192 queens), with several columns per thread on the
// larger boards: the CPU's chain, run for run. Static and dynamic shared memory pass 48 KiB
// (the opt-in) from 3,337 queens, dynamic alone from 3,512; at 8,192 the board takes 112 KiB.
TEST_F(GpuBlockChains, MatchTheCpuRunForRun) {
  struct size_case {
    index_t n;
    std::uint64_t runs, max_steps;
  };
  const std::uint64_t runs = device_or_host(48, 6);
  const std::vector<size_case> sizes =
      test::under_thread_sanitizer()
          ? std::vector<size_case>{{33, 2, 200}, {257, 1, 40}, {3337, 1, 1}}
          : std::vector<size_case>{{33, runs, 400},  {100, runs, 400}, {257, runs, 400},
                                   {600, runs, 100}, {3336, 1, 2},     {3337, 1, 2},
                                   {3511, 1, 2},     {3512, 1, 2},     {8192, 2, 2}};
  for (const A a : {A::hc, A::hc_sideways, A::hc_restart}) {
    local_search_settings settings;
    settings.algorithm = a;
    for (const auto& [n, count, max_steps] : sizes) {
      std::vector<row_t> boards;
      const auto gpu_runs =
          gpu::run_thread_chains(n, settings, 5, 0, count, {.max_steps = max_steps}, &boards);
      local_workspace cpu(n, settings);
      for (std::uint64_t i = 0; i < count; ++i) {
        local_run run;
        run.seed = 5;
        run.stream = i;
        run.limits.max_steps = max_steps;
        const chain_outcome expected = cpu.run(run);
        ASSERT_EQ(gpu_runs[i].steps, expected.steps) << label(a) << " n=" << n << " run " << i;
        ASSERT_EQ(gpu_runs[i].restarts, expected.restarts) << label(a) << " n=" << n;
        ASSERT_EQ(gpu_runs[i].cost, expected.cost) << label(a) << " n=" << n;
        ASSERT_EQ(gpu_runs[i].solved, expected.solved) << label(a) << " n=" << n;
        ASSERT_EQ(std::vector<row_t>(boards.begin() + i * n, boards.begin() + (i + 1) * n),
                  std::vector<row_t>(cpu.board(), cpu.board() + n))
            << label(a) << " n=" << n << " run " << i;
      }
    }
  }
}

// The seeds' climber rules on block chains with one or several columns per thread, where the
// first or last tie may sit in any thread's range, and threads scan rows from staggered starts
// (P = 4 at 1,024): the block's choice is the CPU's, run for run.
TEST_F(GpuBlockChains, TieRulesAndPlateauJumpsMatchTheCpu) {
  std::vector<local_search_settings> cases(4);
  cases[0].algorithm = A::hc;
  cases[0].hill.ties = tie_rule::last;
  cases[1].algorithm = A::hc_sideways;
  cases[1].hill = {20, true, tie_rule::first, false};
  cases[2].algorithm = A::hc_restart;
  cases[2].hill = {3, false, tie_rule::last, true};
  cases[3].algorithm = A::hc_sideways;
  cases[3].hill = {4294967295u, false, tie_rule::last, true};  // the case study's climber
  const std::uint64_t runs = device_or_host(24, 3, 1);
  for (const auto& settings : cases)
    for (const index_t n : {64, 128, 257, 600, 1024}) {         // blocks of 64, 128 and 256; P = 4
      if (test::under_thread_sanitizer() && n > 257) continue;  // every kernel, not every size
      const std::uint64_t steps = n > 600 ? 30 : 300;           // O(n^2) a step on the CPU's side
      std::vector<row_t> boards;
      const auto gpu_runs =
          gpu::run_thread_chains(n, settings, 9, 40, runs, {.max_steps = steps}, &boards);
      local_workspace cpu(n, settings);
      for (std::uint64_t i = 0; i < runs; ++i) {
        local_run run;
        run.seed = 9;
        run.stream = 40 + i;
        run.limits.max_steps = steps;
        const chain_outcome expected = cpu.run(run);
        const std::string where =
            label(settings.algorithm) + " n=" + std::to_string(n) + " run " + std::to_string(i);
        ASSERT_EQ(gpu_runs[i].steps, expected.steps) << where;
        ASSERT_EQ(gpu_runs[i].restarts, expected.restarts) << where;
        ASSERT_EQ(gpu_runs[i].cost, expected.cost) << where;
        ASSERT_EQ(std::vector<row_t>(boards.begin() + i * n, boards.begin() + (i + 1) * n),
                  std::vector<row_t>(cpu.board(), cpu.board() + n))
            << where;
      }
    }
}

// solve --chains on the GPU: runs stop once a lower-numbered run has solved, and the
// lowest-numbered run that solves is the CPU's, whose record matches.
TEST_F(GpuRace, FindsTheCpusLowestSolvedChain) {
  for (const A a : {A::hc, A::sa, A::hc_sideways}) {
    local_search_settings settings;
    settings.algorithm = a;
    batch_settings b;
    b.runs = 5000;
    b.seed = 21;
    b.stop_after_first_solved = true;
    const auto lowest = [&](batch_backend& backend) {
      std::uint64_t found = UINT64_MAX;
      chain_outcome record;
      b.on_records = [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
        for (std::size_t i = 0; i < runs.size() && found == UINT64_MAX; ++i)
          if (runs[i].solved) found = first + i, record = runs[i];
      };
      run_batch(12, settings, b, backend);
      return std::pair{found, record};
    };
    const auto gpu_backend = gpu::make_gpu_backend();
    const auto cpu_backend = make_cpu_backend(0);
    const auto [on_gpu, gpu_record] = lowest(*gpu_backend);
    const auto [on_cpu, cpu_record] = lowest(*cpu_backend);
    ASSERT_NE(on_cpu, UINT64_MAX) << label(a);
    EXPECT_EQ(on_gpu, on_cpu) << label(a);
    EXPECT_EQ(gpu_record.steps, cpu_record.steps) << label(a);
  }
}

// solve --chains on the GPU takes the kept chain's board and trace from the device: they are
// what the CPU's run of that chain alone (solve --chain I) gives, row for row.
struct kept_chain_case {
  A algorithm;
  index_t n;
  std::uint64_t chains;
  std::uint64_t seed;
  std::uint64_t max_steps;
  friend std::ostream& operator<<(std::ostream& out, const kept_chain_case& c) {
    return out << label(c.algorithm) << " n=" << c.n << " chains=" << c.chains;
  }
};

using GpuSolveChains = test::gpu_param_fixture<kept_chain_case>;

// A chain a stop or a limit ended at its very start is kept as it stood (no steps, its start's
// pairs), traced or not, on the CPU and the GPU: the trace's replay must not run it further.
TEST_F(GpuSolveChainsStopped, AChainStoppedAtItsStartIsKeptAsItStood) {
  // sa on 30 queens runs as a thread chain on the GPU, hc-restart on 40 as a block chain.
  const std::pair<A, index_t> searches[] = {{A::sa, 30}, {A::hc_restart, 40}};
  for (const auto& [algorithm, n] : searches)
    for (const bool timed : {false, true})
      for (const bool traced : {false, true})
        for (const bool on_gpu : {false, true}) {
          SCOPED_TRACE(std::string(on_gpu ? "gpu" : "cpu") + (traced ? ", traced" : "") +
                       (timed ? ", a time limit of 1 ns" : ", a stop") +
                       ", n=" + std::to_string(n));
          local_search_settings settings;
          settings.algorithm = algorithm;
          std::vector<trace_row> rows;
          chains_settings chains;
          chains.chains = 3;
          chains.seed = 5;
          std::atomic<bool> stop{true};
          if (timed)
            chains.limits.time_limit = 1e-9;
          else
            chains.limits.stop = &stop;
          if (traced) chains.trace = [&](const trace_row& row) { rows.push_back(row); };
          const auto backend = on_gpu ? gpu::make_gpu_backend() : make_cpu_backend(2);
          const chains_result kept = solve_chains(n, settings, chains, *backend);
          EXPECT_TRUE(kept.stopped);
          EXPECT_FALSE(kept.result.solved);
          EXPECT_EQ(kept.result.steps, 0u);
          EXPECT_EQ(kept.result.conflicts, test::brute_force_pairs(kept.result.queen_row));
          EXPECT_GT(kept.result.conflicts, 0u);
          if (traced) {
            EXPECT_LE(rows.size(), 1u);
          }
        }
}

TEST_P(GpuSolveChains, KeepTheCpusChainWithItsBoardAndTrace) {
  const kept_chain_case c = GetParam();
  local_search_settings settings;
  settings.algorithm = c.algorithm;
  if (c.algorithm == A::ga) settings.genetic.population = 24;
  if (c.algorithm == A::beam) settings.beam.width = 4;
  for (const bool traced : {false, true}) {
    std::vector<trace_row> rows;
    chains_settings chains;
    chains.chains = c.chains;
    chains.seed = c.seed;
    chains.limits.max_steps = c.max_steps;
    if (traced) chains.trace = [&](const trace_row& row) { rows.push_back(row); };
    const auto backend = gpu::make_gpu_backend();
    const chains_result on_gpu = solve_chains(c.n, settings, chains, *backend);
    const auto cpu_backend = make_cpu_backend(2);
    chains.trace = {};
    EXPECT_EQ(on_gpu.chain, solve_chains(c.n, settings, chains, *cpu_backend).chain);
    std::vector<trace_row> expected_rows;
    local_run run;
    run.seed = c.seed;
    run.stream = on_gpu.chain;
    run.limits.max_steps = c.max_steps;
    run.trace = [&](const trace_row& row) { expected_rows.push_back(row); };
    const solve_result expected = solve_local(c.n, settings, run);
    const solve_result& got = on_gpu.result;
    EXPECT_EQ(got.solved, expected.solved);
    EXPECT_EQ(got.conflicts, expected.conflicts);
    EXPECT_EQ(got.steps, expected.steps);
    EXPECT_EQ(got.restarts, expected.restarts);
    EXPECT_EQ(got.queen_row, expected.queen_row) << "traced: " << traced;
    if (!traced) continue;
    ASSERT_FALSE(rows.empty());
    ASSERT_EQ(rows.size(), expected_rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].step, expected_rows[i].step) << "row " << i;
      EXPECT_EQ(rows[i].restarts, expected_rows[i].restarts) << "row " << i;
      EXPECT_EQ(rows[i].cost, expected_rows[i].cost) << "row " << i;
      EXPECT_DOUBLE_EQ(rows[i].temperature, expected_rows[i].temperature) << "row " << i;
      EXPECT_DOUBLE_EQ(rows[i].best_fitness, expected_rows[i].best_fitness) << "row " << i;
      EXPECT_NEAR(rows[i].mean_fitness, expected_rows[i].mean_fitness, 1e-9) << "row " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kept, GpuSolveChains,
                         ::testing::Values(kept_chain_case{A::ga, 8, 6, 5, 40},
                                           kept_chain_case{A::ga, 10, 1, 3, 30},
                                           kept_chain_case{A::beam, 10, 5, 9, 60},
                                           kept_chain_case{A::hc, 12, 40, 21, 0},
                                           kept_chain_case{A::hc_restart, 40, 3, 4, 0},
                                           kept_chain_case{A::sa, 12, 8, 2, 3000},
                                           kept_chain_case{A::sa, 9, 1, 6, 2000}),
                         [](const auto& info) {
                           const kept_chain_case& c = info.param;
                           std::string name = std::string(label(c.algorithm)) + "_n" +
                                              std::to_string(c.n) + "_chains" +
                                              std::to_string(c.chains);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A stop ends a batch with the statistics of runs 0..k-1, every one finished and each the CPU's
// record: the runs the stop cut short, or kept from starting, are left out, on both backends.
TEST_F(GpuBatchStop, DescribesOnlyTheRunsThatFinished) {
  local_search_settings settings;
  settings.algorithm = A::sa;
  constexpr index_t n = 10;
  constexpr std::uint64_t seed = 8;
  const auto gpu_backend = gpu::make_gpu_backend({.slice_runs = 64});
  const auto cpu_backend = make_cpu_backend(2);
  for (batch_backend* backend : {gpu_backend.get(), cpu_backend.get()}) {
    std::atomic<bool> stop{false};
    std::vector<chain_outcome> records;
    batch_settings b;
    b.runs = 100'000'000;  // far more than run before the stop
    b.seed = seed;
    b.limits.stop = &stop;
    // The first report of runs finished raises the stop: on the GPU after the first launch of
    // 64, on the CPU a quarter of a second in, with runs in flight.
    b.progress = [&](std::uint64_t, double) { stop = true; };
    b.on_records = [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
      ASSERT_EQ(first, records.size());
      records.insert(records.end(), runs.begin(), runs.end());
    };
    const batch_stats stats = run_batch(n, settings, b, *backend);
    const std::string device(backend->device());
    EXPECT_TRUE(stats.interrupted) << device;
    ASSERT_GT(stats.runs, 0u) << device;
    ASSERT_LT(stats.runs, records.size()) << device;
    if (device == "gpu") {
      EXPECT_EQ(stats.runs, 64u);
    }
    EXPECT_TRUE(records[stats.runs].interrupted) << device;
    local_workspace cpu(n, settings);
    std::uint64_t solved = 0, failed_steps = 0;
    for (std::uint64_t i = 0; i < stats.runs; ++i) {
      local_run run;
      run.seed = seed;
      run.stream = i;
      const chain_outcome expected = cpu.run(run);
      ASSERT_FALSE(records[i].interrupted) << device << " run " << i;
      ASSERT_EQ(records[i].solved, expected.solved) << device << " run " << i;
      ASSERT_EQ(records[i].steps, expected.steps) << device << " run " << i;
      solved += expected.solved;
      if (!expected.solved) failed_steps += expected.steps;
    }
    EXPECT_EQ(stats.solved, solved) << device;
    EXPECT_EQ(stats.failure.runs, stats.runs - solved) << device;
    EXPECT_DOUBLE_EQ(stats.failure.mean * static_cast<double>(stats.failure.runs),
                     static_cast<double>(failed_steps))
        << device;
  }
}

// Without records, a stopped batch on the GPU is described by its backend's tally alone: the
// runs of the launches before the stop, every one finished and each the CPU's.
TEST_F(GpuBatchStop, WithoutRecordsDescribesTheLaunchesBeforeTheStop) {
  local_search_settings settings;
  settings.algorithm = A::sa;
  constexpr index_t n = 10;
  constexpr std::uint64_t seed = 8;
  const auto backend = gpu::make_gpu_backend({.slice_runs = 64});
  std::atomic<bool> stop{false};
  batch_settings b;
  b.runs = 100'000'000;
  b.seed = seed;
  b.limits.stop = &stop;
  b.progress = [&](std::uint64_t, double) { stop = true; };  // after the first launch of 64
  const batch_stats stats = run_batch(n, settings, b, *backend);
  EXPECT_TRUE(stats.interrupted);
  ASSERT_EQ(stats.runs, 64u);
  local_workspace cpu(n, settings);
  std::uint64_t solved = 0, failed_steps = 0;
  for (std::uint64_t i = 0; i < stats.runs; ++i) {
    local_run run;
    run.seed = seed;
    run.stream = i;
    const chain_outcome expected = cpu.run(run);
    solved += expected.solved;
    if (!expected.solved) failed_steps += expected.steps;
  }
  EXPECT_EQ(stats.solved, solved);
  EXPECT_EQ(stats.failure.runs, stats.runs - solved);
  EXPECT_DOUBLE_EQ(stats.failure.mean * static_cast<double>(stats.failure.runs),
                   static_cast<double>(failed_steps));
}

// A batch is one persistent launch, and a stop ends the taking of runs: every run taken runs
// to its end, so the statistics describe runs 0..k-1, each the CPU's, with nothing dropped and
// no records kept.
TEST_F(GpuBatchStop, OneLaunchStopsTakingRunsAndDescribesThoseTaken) {
  local_search_settings settings;
  settings.algorithm = A::hc;
  constexpr index_t n = 8;
  constexpr std::uint64_t seed = 5;
  const auto backend = gpu::make_gpu_backend();
  std::atomic<bool> stop{false};
  batch_settings b;
  b.runs = std::uint64_t{1} << 40;  // far more than run before the stop
  b.seed = seed;
  b.limits.stop = &stop;
  batch_tally tally;
  b.tally = &tally;
  const gpu::gpu_costs before = gpu::costs();
  // The stop 20 ms after the launch (2e7 runs at 1e9 a second on a device, which every core
  // replays below), never before it, however loaded the machine.
  const std::jthread stopper([&] {
    while (gpu::costs().launches == before.launches)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stop = true;
  });
  const batch_stats stats = run_batch(n, settings, b, *backend);
  const gpu::gpu_costs spent = gpu::costs() - before;
  EXPECT_EQ(spent.launches, 1u);
  EXPECT_TRUE(stats.interrupted);
  ASSERT_GT(stats.runs, 0u);
  ASSERT_LT(stats.runs, b.runs);
  EXPECT_EQ(tally.success.runs() + tally.failure.runs(), stats.runs);
  batch_settings cpu_batch;
  cpu_batch.runs = stats.runs;
  cpu_batch.seed = seed;
  batch_tally expected;
  cpu_batch.tally = &expected;
  run_batch(n, settings, cpu_batch, *make_cpu_backend(0));
  EXPECT_EQ(tally.success.counts(), expected.success.counts());
  EXPECT_EQ(tally.failure.counts(), expected.failure.counts());
  EXPECT_EQ(tally.restarts, expected.restarts);
}

// Runs in flight run to their end once a stop has ended the taking, but not for ever: a second
// later the stop cuts them too, and the launch it reached is dropped (its runs could describe
// only the short ones). Stopped 20 ms in, no run is described: endless random searches (the
// generic chains) and hc-sideways with no limit on its sideways moves, which wanders a plateau
// for ever (8 queens: the chains in registers, which poll the stop as the observer does).
TEST_F(GpuBatchStop, RunsThatOutliveTheGraceAreCutAndTheirLaunchDropped) {
  struct endless_case {
    A algorithm;
    index_t n;
  };
  for (const auto& [algorithm, n] :
       {endless_case{A::random, 32}, endless_case{A::hc_sideways, 8}}) {
    local_search_settings settings;
    settings.algorithm = algorithm;
    settings.hill.max_sideways = UINT32_MAX;
    std::atomic<bool> stop{false};
    batch_settings b;
    b.runs = 1000;
    b.limits.max_steps = algorithm == A::random ? std::uint64_t{1} << 40 : 0;
    b.limits.stop = &stop;
    const std::jthread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      stop = true;
    });
    const batch_stats stats = run_batch(n, settings, b, *gpu::make_gpu_backend());
    EXPECT_TRUE(stats.interrupted) << label(algorithm);
    EXPECT_EQ(stats.runs, 0u) << label(algorithm);
    EXPECT_EQ(stats.success.runs + stats.failure.runs, 0u) << label(algorithm);
  }
}

// Runs past the device's dense bins (2^16 steps where the step limit is above 2^22) go to a
// list, read back with the bins: random search on 7 queens takes 20,600 draws on average, and
// about one run in 25 more than 65,536. The statistics are the CPU's.
TEST_F(GpuBatchTally, RunsPastTheBinsAreTalliedExactly) {
  local_search_settings settings;
  settings.algorithm = A::random;
  batch_settings b;
  b.runs = 300;
  b.seed = 4;
  b.limits.max_steps = std::uint64_t{1} << 23;
  batch_tally on_gpu, on_cpu;
  b.tally = &on_gpu;
  run_batch(7, settings, b, *gpu::make_gpu_backend());
  b.tally = &on_cpu;
  run_batch(7, settings, b, *make_cpu_backend(2));
  ASSERT_GT(on_cpu.success.nth(on_cpu.success.runs() - 1), std::uint64_t{1} << 16)
      << "the case needs a run past the bins";
  EXPECT_EQ(on_gpu.success.counts(), on_cpu.success.counts());
  EXPECT_EQ(on_gpu.failure.counts(), on_cpu.failure.counts());
  EXPECT_EQ(on_gpu.restarts, on_cpu.restarts);
}

// Above 32 queens each thread's board is a slice of scratch sized for the grid the launch
// takes: a batch of more runs than one block holds is the CPU's, run for run (ASan, in the
// host execution, sees a board past the scratch).
TEST_F(GpuBatchTally, ScratchChainsMatchTheCpu) {
  for (const A a : {A::sa, A::random_opt}) {
    local_search_settings settings;
    settings.algorithm = a;
    batch_settings b;
    b.runs = test::device_or_host(20'000, 600, 300);
    b.seed = 6;
    b.limits.max_steps = 300;
    batch_tally on_gpu, on_cpu;
    b.tally = &on_gpu;
    run_batch(40, settings, b, *gpu::make_gpu_backend());
    b.tally = &on_cpu;
    run_batch(40, settings, b, *make_cpu_backend(0));
    EXPECT_EQ(on_gpu.success.counts(), on_cpu.success.counts()) << label(a);
    EXPECT_EQ(on_gpu.failure.counts(), on_cpu.failure.counts()) << label(a);
    EXPECT_EQ(on_gpu.restarts, on_cpu.restarts) << label(a);
  }
}

// Checked before any device work, so it holds on machines without a GPU too.
TEST(GpuChainsRefuse, PopulationAndPermutationSearches) {
  for (const A a : {A::beam, A::ga, A::min_conflicts}) {
    local_search_settings settings;
    settings.algorithm = a;
    EXPECT_THROW(gpu::run_thread_chains(8, settings, 1, 0, 10, {}), usage_error) << label(a);
  }
  local_search_settings first_choice;
  first_choice.algorithm = A::first_choice;  // its move order does not fit above 32 queens
  EXPECT_THROW(gpu::run_thread_chains(33, first_choice, 1, 0, 10, {}), usage_error);
}

}  // namespace
}  // namespace nq
