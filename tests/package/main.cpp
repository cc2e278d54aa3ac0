// Uses libnqueens through its installed headers only: solves boards, checks each with
// verify_board, and counts n = 8. Exits non-zero on any wrong answer.

#include <cstdio>

#include "nqueens/count.hpp"
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
  std::printf("consumer: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
