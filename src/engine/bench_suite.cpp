// The benchmark's suites: which workloads at which sizes on which targets, the command each
// figure stands for, and how far a figure's repeats can be trusted.

#include <algorithm>

#include "engine/bench_parts.hpp"
#include "nqueens/bench.hpp"
#include "nqueens/error.hpp"

namespace nq {

bench_suite parse_bench_suite(std::string_view text) {
  if (text == "quick") return bench_suite::quick;
  if (text == "standard") return bench_suite::standard;
  if (text == "full") return bench_suite::full;
  throw usage_error("unknown --suite '" + std::string(text) +
                    "' (expected quick, standard or full)");
}

const char* bench_suite_name(bench_suite suite) {
  switch (suite) {
    case bench_suite::quick:
      return "quick";
    case bench_suite::full:
      return "full";
    case bench_suite::standard:
      break;
  }
  return "standard";
}

const char* bench_quality_name(bench_quality quality) {
  switch (quality) {
    case bench_quality::steady:
      return "steady";
    case bench_quality::unsteady:
      return "unsteady";
    case bench_quality::indicative:
      break;
  }
  return "indicative";
}

bench_quality classify_repeats(const std::vector<double>& rates) {
  if (rates.size() < 3) return bench_quality::indicative;
  std::vector<double> sorted = rates;
  std::sort(sorted.begin(), sorted.end());
  // Three that agree lie side by side once sorted: the closest triple of each start.
  for (std::size_t i = 0; i + 2 < sorted.size(); ++i)
    if (sorted[i + 2] - sorted[i] <= 0.05 * sorted[i + 1]) return bench_quality::steady;
  return bench_quality::unsteady;
}

namespace {

bench_workload solve_workload(const char* name, index_t n) {
  bench_workload w;
  w.name = name, w.kind = "solve", w.unit = "queens/s", w.n = n;
  return w;
}
bench_workload batch_workload(const char* name, index_t n, const char* algorithm,
                              std::uint64_t runs, std::uint64_t gpu_runs) {
  bench_workload w;
  w.name = name, w.kind = "batch", w.unit = "runs/s", w.n = n, w.algorithm = algorithm;
  w.runs = runs, w.gpu_runs = gpu_runs;
  return w;
}
bench_workload population_workload(const char* name, index_t n, std::uint64_t runs,
                                   std::uint64_t gpu_runs, std::uint64_t generations) {
  bench_workload w;
  w.name = name, w.kind = "population", w.unit = "generations/s", w.n = n, w.algorithm = name;
  w.runs = runs, w.gpu_runs = gpu_runs, w.steps = generations;
  return w;
}
bench_workload count_workload(int n, bool on_one_core = true, bool on_cpu = true) {
  bench_workload w;
  w.name = "count-" + std::to_string(n), w.kind = "count", w.unit = "solutions/s", w.n = n;
  w.on_one_core = on_one_core, w.on_cpu = on_cpu;
  return w;
}

}  // namespace

std::vector<bench_workload> bench_workloads(bench_suite suite) {
  // CPU sizes: a repeat of each takes about a second on one core of a 2-core VM (quick: a
  // tenth), the huge boards and the counts excepted, whose sizes are what users run. GPU sizes
  // keep a GPU busy for a second or more at the rates aimed for (batch-hc: 2^27 runs, about
  // 0.1 s at 10^9 runs/s), so that start-up and per-launch costs do not make the figure.
  if (suite == bench_suite::quick)
    return {solve_workload("solve-2^20", index_t{1} << 20),
            batch_workload("batch-hc", 8, "hc", 20000, 0),
            batch_workload("batch-hc-sideways", 8, "hc-sideways", 5000, 0),
            batch_workload("batch-sa", 32, "sa", 20, 0),
            batch_workload("batch-first-choice", 8, "first-choice", 5000, 0),
            population_workload("ga", 100, 4, 0, 20),
            population_workload("beam", 64, 4, 0, 20),
            count_workload(12),
            count_workload(13)};
  std::vector<bench_workload> out = {solve_workload("solve-1e7", 10000000),
                                     solve_workload("solve-1e8", 100000000)};
  if (suite == bench_suite::full) out.push_back(solve_workload("solve-1e9", 1000000000));
  constexpr std::uint64_t mega = std::uint64_t{1} << 20;
  for (auto w :
       {batch_workload("batch-hc", 8, "hc", 500000, 128 * mega),
        batch_workload("batch-hc-sideways", 8, "hc-sideways", 200000, 16 * mega),
        batch_workload("batch-sa", 32, "sa", 1000, mega),
        batch_workload("batch-first-choice", 8, "first-choice", 200000, 16 * mega),
        population_workload("ga", 100, 100, 1000, 100),
        population_workload("beam", 64, 10, 1000, 100), count_workload(16), count_workload(17)})
    out.push_back(std::move(w));
  if (suite == bench_suite::full) {
    // n = 19 takes about a minute on one core of a 2-core VM, n = 20 and 21 many: they are
    // GPU figures (every core still counts 19).
    out.push_back(count_workload(18));
    out.push_back(count_workload(19, false));
    out.push_back(count_workload(20, false, false));
    out.push_back(count_workload(21, false, false));
  }
  return out;
}

namespace engine {

std::string bench_command_of(const bench_workload& w, const bench_target& t) {
  std::string where =
      t.gpu >= 0 ? " --device gpu" : " --threads " + std::to_string(t.threads) + " --device cpu";
  const std::string n = std::to_string(w.n);
  if (w.kind == "solve") return "nqueens solve -n " + n + where + " -q";
  if (w.kind == "count") {
    if (t.gpu >= 0) where += " --devices " + std::to_string(t.gpu);
    return "nqueens count -n " + n + where + " -q";
  }
  std::string line = "nqueens batch -n " + n + " -a " + w.algorithm;
  if (w.algorithm == "ga") line += " --population 200";
  if (w.steps) line += " --generations " + std::to_string(w.steps);
  return line + " -r " + std::to_string(w.runs_on(t)) + where + " -q";
}

}  // namespace engine
}  // namespace nq
