// The engine's requests (include/nqueens/engine.hpp) as a C++ program makes them: devices by
// name, a count on the CPU against OEIS, its stop token and flag, the GPU refused or fallen
// back from where none is present, and the record to_json writes.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stop_token>

#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"
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
  auto without = cpu_count(8, 2);
  without.unique = false;
  EXPECT_FALSE(nlohmann::json::parse(to_json(run(without))).contains("unique"));
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

TEST(EngineCount, RefusesABoardOutOfRange) {
  EXPECT_THROW(run(cpu_count(0, 1)), usage_error);
  EXPECT_THROW(run(cpu_count(max_exact_count_n + 1, 1)), usage_error);
}

}  // namespace
}  // namespace nq
