// The engine's requests (include/nqueens/engine.hpp) as a C++ program makes them: devices by
// name; a count on the CPU against OEIS and a batch against the CPU backend; their stop token
// and flag; the GPU refused or fallen back from where none is present; the records to_json
// writes.

#include "nqueens/engine.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stop_token>
#include <type_traits>

#include "engine/sweep.hpp"
#include "nqueens/error.hpp"
#include "nqueens/local_search.hpp"
#include "nqueens/settings.hpp"
#include "nqueens/verify.hpp"
#include "oeis.hpp"

namespace nq {
namespace {

TEST(EngineDevices, NamesReadBackAsTheirKinds) {
  for (const device_kind kind : {device_kind::cpu, device_kind::gpu, device_kind::any})
    EXPECT_EQ(parse_device_kind(device_kind_name(kind)), kind);
  EXPECT_EQ(parse_device_kind("all", true), device_kind::all);
  EXPECT_THROW(parse_device_kind("all"), usage_error);
  EXPECT_THROW(parse_device_kind("tpu", true), usage_error);
  EXPECT_EQ(parse_device_ids("0,2,1"), (std::vector<int>{0, 2, 1}));
  EXPECT_THROW(parse_device_ids("0,0"), usage_error);
  EXPECT_THROW(parse_device_ids("0,"), usage_error);
  EXPECT_THROW(parse_device_ids("-1"), usage_error);
}

count_request cpu_count(int n, unsigned threads) {
  count_request request;
  request.n = n;
  request.unique = true;
  request.threads = threads;
  request.device.kind = device_kind::cpu;
  return request;
}

TEST(EngineCount, MatchesOeisOnTheCpu) {
  for (int n = 1; n <= 11; ++n) {
    const count_report report = run(cpu_count(n, 1 + n % 2));
    EXPECT_TRUE(report.result.complete) << n;
    EXPECT_EQ(report.result.solutions, test::a000170[n - 1]) << n;
    EXPECT_EQ(report.result.unique, test::a002562[n - 1]) << n;
    EXPECT_EQ(report.device, "cpu");
    EXPECT_TRUE(report.gpus.empty());
    EXPECT_TRUE(report.note.empty()) << "cpu was asked for: nothing fell back";
  }
}

TEST(EngineCount, TheRecordHoldsTheReport) {
  const count_report report = run(cpu_count(8, 2));
  const auto record = nlohmann::json::parse(to_json(report));
  EXPECT_EQ(record.at("n"), 8);
  EXPECT_EQ(record.at("solutions"), 92);
  EXPECT_EQ(record.at("unique"), 12);
  EXPECT_EQ(record.at("device"), "cpu");
  EXPECT_EQ(record.at("threads"), report.result.threads);
  EXPECT_EQ(record.at("subproblems"), report.result.subproblems);
  EXPECT_FALSE(record.contains("devices")) << "a CPU count names no GPU";
  // unique is counted either way: the record has it either way, and the text when asked.
  auto without = cpu_count(8, 2);
  without.unique = false;
  EXPECT_EQ(nlohmann::json::parse(to_json(run(without))).at("unique"), 12);
  EXPECT_EQ(to_text(run(without)).find("unique"), std::string::npos);
}

// A stop requested before the count starts: it ends at once, incomplete, and says so.
TEST(EngineCount, AStopTokenOrFlagEndsTheCountIncomplete) {
  std::stop_source source;
  source.request_stop();
  auto request = cpu_count(16, 2);
  request.stop.token = source.get_token();
  const count_report by_token = run(request);
  EXPECT_FALSE(by_token.result.complete);
  EXPECT_LT(by_token.result.solutions, test::a000170[15]);

  std::atomic<bool> flag{true};
  request.stop = {{}, &flag};
  EXPECT_FALSE(run(request).result.complete);

  // A token that fires raises the caller's flag too (a signal handler and a stop_source agree).
  std::atomic<bool> quiet{false};
  request.stop = {source.get_token(), &quiet};
  EXPECT_FALSE(run(request).result.complete);
  EXPECT_TRUE(quiet.load());
}

// Where no GPU is present (or the build has no CUDA): gpu and device numbers are a device_error,
// auto and all count on the CPU and say why.
TEST(EngineCount, WithoutAGpuAutoFallsBackAndGpuIsRefused) {
  if (gpu_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  auto request = cpu_count(9, 2);
  request.device.kind = device_kind::gpu;
  EXPECT_THROW(run(request), device_error);
  request.device = {device_kind::any, {0}};
  EXPECT_THROW(run(request), device_error);
  for (const device_kind kind : {device_kind::any, device_kind::all}) {
    request.device = {kind, {}};
    const count_report report = run(request);
    EXPECT_EQ(report.result.solutions, test::a000170[8]);
    EXPECT_EQ(report.device, "cpu");
    EXPECT_EQ(report.note, "no CUDA device; counted on the CPU");
  }
  request.n = 3;  // no subproblems: nothing a GPU could have taken, nothing to say
  EXPECT_TRUE(run(request).note.empty());
}

batch_request cpu_batch(index_t n, local_algorithm algorithm, std::uint64_t runs) {
  batch_request request;
  request.n = n;
  request.algorithm.algorithm = algorithm;
  request.settings.runs = runs;
  request.settings.threads = 2;
  request.settings.seed = 11;
  request.device.kind = device_kind::cpu;
  return request;
}

// The engine's batch is the CPU backend's: the same runs, the same statistics.
TEST(EngineBatch, MatchesTheCpuBackendRunForRun) {
  for (const auto algorithm : {local_algorithm::hc, local_algorithm::sa, local_algorithm::beam}) {
    const batch_request request = cpu_batch(8, algorithm, 120);
    const batch_report report = run(request);
    const batch_stats direct = run_batch(request.n, request.algorithm, request.settings);
    EXPECT_EQ(report.stats.runs, 120u);
    EXPECT_EQ(report.stats.solved, direct.solved) << algorithm_name(algorithm);
    EXPECT_EQ(report.stats.success.mean, direct.success.mean);
    EXPECT_EQ(report.stats.failure.mean, direct.failure.mean);
    EXPECT_EQ(report.stats.restarts, direct.restarts);
    EXPECT_EQ(report.device, "cpu");
    EXPECT_EQ(report.max_steps, default_max_steps(algorithm));
  }
}

TEST(EngineBatch, TheRecordHoldsTheReport) {
  auto request = cpu_batch(8, local_algorithm::hc_sideways, 50);
  request.algorithm.hill.max_sideways = 7;
  const batch_report report = run(request);
  const auto record = nlohmann::json::parse(to_json(report));
  EXPECT_EQ(record.at("workload"), "batch");
  EXPECT_EQ(record.at("algorithm"), "hc-sideways");
  EXPECT_EQ(record.at("seed"), 11);
  EXPECT_EQ(record.at("runs"), 50);
  EXPECT_EQ(record.at("solved"), report.stats.solved);
  EXPECT_EQ(record.at("device"), "cpu");
  EXPECT_FALSE(record.contains("kernel_seconds")) << "the CPU has no kernels";
  EXPECT_EQ(record.at("parameters").at("sideways"), 7);
}

TEST(EngineBatch, RefusesABoardWithoutSolutionsOrPastTheAlgorithmsLimit) {
  EXPECT_THROW(run(cpu_batch(3, local_algorithm::hc, 10)), usage_error);
  EXPECT_THROW(run(cpu_batch(max_local_n(local_algorithm::hc) + 1, local_algorithm::hc, 1)),
               usage_error);
}

// A stop raised before the runs start: none finishes, the statistics say so.
TEST(EngineBatch, AStopEndsTheRunsEarly) {
  std::stop_source source;
  source.request_stop();
  auto request = cpu_batch(8, local_algorithm::hc, 100000);
  request.stop.token = source.get_token();
  const batch_report report = run(request);
  EXPECT_TRUE(report.stats.interrupted);
  EXPECT_LT(report.stats.runs, 100000u);
}

TEST(EngineBatch, WithoutAGpuAutoFallsBackAndGpuIsRefused) {
  if (gpu_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  auto request = cpu_batch(8, local_algorithm::hc, 20);
  request.device.kind = device_kind::gpu;
  EXPECT_THROW(run(request), device_error);
  request.device.kind = device_kind::any;
  const batch_report report = run(request);
  EXPECT_EQ(report.device, "cpu");
  EXPECT_NE(report.note.find("ran on the CPU"), std::string::npos) << report.note;
}

solve_request cpu_solve(index_t n, const std::string& algorithm, std::uint64_t seed = 5) {
  solve_request request;
  request.n = n;
  request.algorithm = algorithm;
  request.seed = seed;
  if (const auto local = find_local_algorithm(algorithm)) request.local.algorithm = *local;
  return request;
}

TEST(EngineSolve, TwoAndThreeQueensAreAnsweredWithoutASearch) {
  for (const index_t n : {2, 3}) {
    const solve_report report = run(cpu_solve(n, "min-conflicts"));
    EXPECT_FALSE(report.result.solved);
    EXPECT_TRUE(report.result.queen_row.empty());
    EXPECT_FALSE(report.pairs_counted);
    EXPECT_TRUE(nlohmann::json::parse(to_json(report)).at("conflicts").is_null());
  }
}

// Equal requests give equal boards, and each is a solution.
TEST(EngineSolve, ASeedGivesTheSameSolvedBoard) {
  for (const char* algorithm : {"min-conflicts", "hc-restart", "sa", "backtrack", "constructive"}) {
    const solve_report first = run(cpu_solve(12, algorithm)), again = run(cpu_solve(12, algorithm));
    EXPECT_TRUE(first.result.solved) << algorithm;
    EXPECT_TRUE(verify_board(first.result.queen_row).valid()) << algorithm;
    EXPECT_EQ(first.result.queen_row, again.result.queen_row) << algorithm;
    EXPECT_EQ(first.algorithm, algorithm);
  }
}

TEST(EngineSolve, TheDefaultIsLatticeFromTwoToTheTwentyQueens) {
  EXPECT_EQ(run(cpu_solve(100, "")).algorithm, "min-conflicts");
  auto huge = cpu_solve(index_t{1} << 20, "");
  huge.threads = 2;
  huge.keep_board = false;
  const solve_report report = run(huge);
  EXPECT_EQ(report.algorithm, "lattice");
  EXPECT_TRUE(report.result.solved);
  EXPECT_EQ(report.threads, 2u);
}

// --chains keeps one chain (the lowest-numbered that solves, else the one with the fewest
// pairs); that chain run alone gives the same board (its replay).
TEST(EngineSolve, AKeptChainReplaysAlone) {
  auto many = cpu_solve(10, "hc");
  many.chains = 16;
  const solve_report kept = run(many);
  EXPECT_LT(kept.chain, 16u);
  EXPECT_EQ(kept.device, "cpu");
  auto one = cpu_solve(10, "hc");
  one.chain = kept.chain;
  const solve_report alone = run(one);
  EXPECT_EQ(alone.result.queen_row, kept.result.queen_row);
  EXPECT_EQ(alone.result.solved, kept.result.solved);
  const auto record = nlohmann::json::parse(to_json(kept));
  EXPECT_EQ(record.at("chains"), 16);
  EXPECT_EQ(record.at("chain"), kept.chain);
  EXPECT_EQ(record.at("rows").size(), 10u);
}

TEST(EngineSolve, RefusesWhatItCannotRun) {
  EXPECT_THROW(run(cpu_solve(8, "nope")), usage_error);
  auto systematic = cpu_solve(8, "backtrack");
  systematic.chains = 2;
  EXPECT_THROW(run(systematic), usage_error);
  auto small = cpu_solve(1000, "min-conflicts");
  small.memory_limit = 1024;
  EXPECT_THROW(run(small), resource_error);
}

TEST(EngineSolve, AStopEndsTheRunUnsolved) {
  std::stop_source source;
  source.request_stop();
  auto request = cpu_solve(200, "hc-sideways");
  request.limits.max_steps = 1000000000;
  request.local.hill.max_sideways = 4294967295u;
  request.stop.token = source.get_token();
  const solve_report report = run(request);
  EXPECT_FALSE(report.result.solved);
  EXPECT_LT(report.result.steps, 1000000000u);
}

// A sweep's grid: ranges expand with their step, points vary the first axis slowest, and a
// share of n sets q to the nearest whole queen.
TEST(EngineSweep, AGridExpandsItsAxesAndSetsEachPoint) {
  const auto axes = engine::parse_sweep("p=0.1:0.3:0.1,q=25%:50%:25%");
  ASSERT_EQ(axes.size(), 2u);
  EXPECT_EQ(axes[0].values, (std::vector<std::string>{"0.1", "0.2", "0.3"}));
  EXPECT_EQ(axes[1].values, (std::vector<std::string>{"25%", "50%"}));
  const auto points = engine::grid_points(axes);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[1], (std::vector<std::string>{"0.1", "50%"}));
  local_search_settings settings;
  settings.algorithm = local_algorithm::hc_random_p;
  search_limits limits;
  engine::set_sweep_value(settings, limits, 10, "q", "25%");
  EXPECT_EQ(settings.random_jump.q, 3u);  // 2.5 queens rounds to 3
  engine::set_sweep_value(settings, limits, 10, "max-steps", "500");
  EXPECT_EQ(limits.max_steps, 500u);
  EXPECT_TRUE(engine::is_limit_axis("time-limit"));
  EXPECT_THROW(engine::parse_sweep("p=0.3:0.1"), usage_error);
  EXPECT_THROW(engine::parse_sweep("sideways=10%:20%"), usage_error);
  EXPECT_THROW(engine::parse_sweep("p=0:1:0.00001"), usage_error);  // past 10,000 points
}

TEST(EngineCount, RefusesABoardOutOfRange) {
  EXPECT_THROW(run(cpu_count(0, 1)), usage_error);
  EXPECT_THROW(run(cpu_count(max_exact_count_n + 1, 1)), usage_error);
}

// Every request names its device by one type with one default (any); solve and batch, which run
// on one GPU, refuse count's GPU numbers and `all`. The commands' defaults stay theirs.
TEST(EngineDevices, EveryRequestHasOneDeviceTypeAndDefault) {
  static_assert(std::is_same_v<decltype(count_request::device), device_request>);
  static_assert(std::is_same_v<decltype(solve_request::device), device_request>);
  static_assert(std::is_same_v<decltype(batch_request::device), device_request>);
  EXPECT_EQ(count_request{}.device.kind, device_kind::any);
  EXPECT_EQ(solve_request{}.device.kind, device_kind::any);
  EXPECT_EQ(batch_request{}.device.kind, device_kind::any);
  EXPECT_EQ(sweep_request{}.batch.device.kind, device_kind::any);
  engine::named_settings given;
  given.set("queens", "8");
  EXPECT_EQ(engine::solve_request_from(given, false).device.kind, device_kind::cpu);
  EXPECT_EQ(engine::count_request_from(given).device.kind, device_kind::any);
  given.set("algo", "hc");
  EXPECT_EQ(engine::batch_request_from(given, false).device.kind, device_kind::any);

  solve_request solve;
  solve.n = 8;
  const solve_report one = run(solve);  // one chain of min-conflicts: the CPU, nothing to say
  EXPECT_TRUE(one.result.solved);
  EXPECT_EQ(one.device, "cpu");
  EXPECT_TRUE(one.note.empty()) << one.note;
  solve.device.ids = {0};
  EXPECT_THROW(run(solve), usage_error);
  solve.device = {device_kind::all, {}};
  EXPECT_THROW(run(solve), usage_error);
  auto batch = cpu_batch(8, local_algorithm::hc, 10);
  batch.device = {device_kind::gpu, {1}};
  EXPECT_THROW(run(batch), usage_error);
  batch.device = {device_kind::all, {}};
  EXPECT_THROW(run(batch), usage_error);
}

}  // namespace
}  // namespace nq
