// Uses libnqueens through its installed headers only: solves boards, checks each with
// verify_board, counts n = 8, and runs a count and a batch through the engine's requests (on a
// GPU where the build has CUDA and the machine a device). Exits non-zero on any wrong answer.

#include <cstdio>
#include <string>

#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/local_search.hpp"
#include "nqueens/min_conflicts.hpp"
#include "nqueens/verify.hpp"

namespace {

bool check(bool ok, const char* what) {
  if (!ok) std::fprintf(stderr, "consumer: %s\n", what);
  return ok;
}

}  // namespace

int main() {
  bool ok = true;
  nq::min_conflicts_settings settings;
  settings.seed = 7;
  const nq::solve_result huge = nq::solve_min_conflicts(10000, settings);
  ok &= check(huge.solved && huge.queen_row.size() == 10000, "min-conflicts did not solve n=10000");
  ok &= check(nq::verify_board(huge.queen_row).valid(), "the n=10000 board has attacking queens");

  nq::local_search_settings sideways;
  sideways.algorithm = nq::local_algorithm::hc_restart;
  nq::local_run run;
  run.seed = 3;
  const nq::solve_result small = nq::solve_local(8, sideways, run);
  ok &= check(small.solved, "hc-restart did not solve n=8");
  ok &= check(nq::verify_board(small.queen_row).valid(), "the n=8 board has attacking queens");

  nq::count_settings count;
  count.simd = "off";
  const nq::count_result eight = nq::count_solutions(8, count);
  ok &=
      check(eight.solutions == 92 && eight.unique == 12, "n=8 should have 92 solutions, 12 unique");

  nq::count_request ten;
  ten.n = 10;
  ten.unique = true;
  ten.device.kind = nq::device_kind::any;
  const nq::count_report counted = nq::run(ten);
  ok &= check(counted.result.solutions == 724 && counted.result.unique == 92,
              "the engine's count of n=10 should be 724, 92 unique");
  ok &= check((counted.device == "gpu") == (nq::gpu_count() > 0),
              "auto should count on the GPU exactly when there is one");

  nq::batch_request batch;
  batch.n = 8;
  batch.algorithm.algorithm = nq::local_algorithm::hc_restart;
  batch.settings.runs = 200;
  const nq::batch_report batched = nq::run(batch);
  ok &= check(batched.stats.runs == 200 && batched.stats.solved == 200,
              "hc-restart should solve all 200 runs of n=8");
  ok &= check(nq::to_json(batched).find("\"workload\":\"batch\"") != std::string::npos,
              "the batch record names its workload");
  std::printf("consumer: engine %s CUDA, %d GPU(s), count on the %s, batch on the %s\n",
              nq::built_with_cuda() ? "with" : "without", nq::gpu_count(), counted.device.c_str(),
              batched.device.c_str());
  std::printf("consumer: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
