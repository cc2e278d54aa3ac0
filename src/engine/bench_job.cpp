// The benchmark: each workload of the suite on each target through the engine's own requests,
// timed end to end (wall clock, as a user's command sees it), repeated until steady, and the
// record of it all.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "engine/device_choice.hpp"
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

namespace {

bench_workload solve_workload(const char* name, index_t n) {
  return {name, "solve", "queens/s", n, "", 0, 0};
}
bench_workload batch_workload(const char* name, index_t n, const char* algorithm,
                              std::uint64_t runs) {
  return {name, "batch", "runs/s", n, algorithm, runs, 0};
}
bench_workload population_workload(const char* name, index_t n, std::uint64_t runs,
                                   std::uint64_t generations) {
  return {name, "population", "generations/s", n, name, runs, generations};
}
bench_workload count_workload(const char* name, index_t n) {
  return {name, "count", "solutions/s", n, "", 0, 0};
}

}  // namespace

std::vector<bench_workload> bench_workloads(bench_suite suite) {
  // Sizes: a repeat of each takes about a second on one core of a 2-core VM (quick: a tenth),
  // the huge boards and the counts excepted, whose sizes are what users run.
  if (suite == bench_suite::quick)
    return {solve_workload("solve-2^20", index_t{1} << 20),
            batch_workload("batch-hc", 8, "hc", 20000),
            batch_workload("batch-hc-sideways", 8, "hc-sideways", 5000),
            batch_workload("batch-sa", 32, "sa", 20),
            batch_workload("batch-first-choice", 8, "first-choice", 5000),
            population_workload("ga", 100, 4, 20),
            population_workload("beam", 64, 4, 20),
            count_workload("count-12", 12),
            count_workload("count-13", 13)};
  std::vector<bench_workload> out = {solve_workload("solve-1e7", 10000000),
                                     solve_workload("solve-1e8", 100000000)};
  if (suite == bench_suite::full) out.push_back(solve_workload("solve-1e9", 1000000000));
  for (auto w : {batch_workload("batch-hc", 8, "hc", 500000),
                 batch_workload("batch-hc-sideways", 8, "hc-sideways", 200000),
                 batch_workload("batch-sa", 32, "sa", 1000),
                 batch_workload("batch-first-choice", 8, "first-choice", 200000),
                 population_workload("ga", 100, 100, 100), population_workload("beam", 64, 10, 100),
                 count_workload("count-16", 16), count_workload("count-17", 17)})
    out.push_back(std::move(w));
  if (suite == bench_suite::full)
    for (const int n : {18, 20})
      out.push_back(count_workload(n == 18 ? "count-18" : "count-20", n));
  return out;
}

namespace {

using clock_type = std::chrono::steady_clock;

bool stop_requested(const job_stop& stop) {
  return stop.token.stop_requested() || (stop.flag && stop.flag->load());
}

/// Raises `cut` when the request's stop comes or `deadline` passes, whichever is first, until
/// destroyed: a repeat that runs past its time is stopped as Ctrl-C would stop it.
class repeat_watch {
 public:
  repeat_watch(const job_stop& outer, clock_type::time_point deadline, std::atomic<bool>& cut)
      : thread_([&outer, deadline, &cut, this](std::stop_token done) {
          std::unique_lock lock(mutex_);
          while (!done.stop_requested()) {
            if (stop_requested(outer) || clock_type::now() >= deadline) {
              cut.store(true);
              return;
            }
            changed_.wait_for(lock, done, std::chrono::milliseconds(20), [] { return false; });
          }
        }) {}

 private:
  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::jthread thread_;  // last: joined first, while the members it uses live
};

/// The command line that does one repeat of `w` on `t`.
std::string command_of(const bench_workload& w, const bench_target& t) {
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
  return line + " -r " + std::to_string(w.runs) + where + " -q";
}

/// One repeat: the work it did (in the workload's unit), or nothing when `cut` stopped it.
std::optional<double> one_repeat(const bench_workload& w, const bench_target& t,
                                 std::atomic<bool>& cut) {
  const device_kind device = t.gpu >= 0 ? device_kind::gpu : device_kind::cpu;
  const job_stop stop{{}, &cut};
  if (w.kind == "solve") {
    solve_request request;
    request.n = w.n;
    request.threads = t.threads;
    request.device = device;
    request.keep_board = false;  // timed as the command runs it: no copy back from a GPU
    request.stop = stop;
    const solve_report report = run(request);
    if (cut.load() || !report.result.solved) return std::nullopt;
    return static_cast<double>(w.n);
  }
  if (w.kind == "count") {
    count_request request;
    request.n = static_cast<int>(w.n);
    request.threads = t.threads;
    request.device.kind = device;
    if (t.gpu >= 0) request.device.ids = {t.gpu};
    request.stop = stop;
    const count_report report = run(request);
    if (!report.result.complete) return std::nullopt;
    return static_cast<double>(report.result.solutions);
  }
  batch_request request;
  request.n = w.n;
  request.algorithm.algorithm = *find_local_algorithm(w.algorithm);
  if (w.algorithm == "ga") request.algorithm.genetic.population = 200;
  request.settings.runs = w.runs;
  request.settings.threads = t.threads;
  request.settings.limits.max_steps = w.steps;
  request.device = device;
  request.stop = stop;
  const batch_report report = run(request);
  const batch_stats& stats = report.stats;
  if (stats.interrupted || cut.load()) return std::nullopt;
  if (w.kind == "batch") return static_cast<double>(stats.runs);
  // Generations: every step of every run (a run that solves stops early).
  return stats.success.mean * static_cast<double>(stats.success.runs) +
         stats.failure.mean * static_cast<double>(stats.failure.runs);
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

/// Repeats `w` on `t`: a warm-up (not timed; none in the quick suite), then timed repeats until
/// three agree within 5% (max - min against the median) or `share` seconds are spent, at least
/// one and at most ten. A repeat that takes `cap` seconds is cut.
void measure(bench_figure& figure, double share, double cap, bool warm_up, const job_stop& outer) {
  const bench_workload& w = figure.workload;
  const auto begin = clock_type::now();
  std::vector<double> rates, seconds;
  for (int attempt = 0; attempt < 11; ++attempt) {
    const bool timed = attempt > 0 || !warm_up;
    std::atomic<bool> cut{false};
    std::optional<double> work;
    const auto start = clock_type::now();
    {
      const repeat_watch watch(outer,
                               start + std::chrono::duration_cast<clock_type::duration>(
                                           std::chrono::duration<double>(cap)),
                               cut);
      work = one_repeat(w, figure.target, cut);
    }
    const double took = std::chrono::duration<double>(clock_type::now() - start).count();
    if (!work) {
      figure.why_not = stop_requested(outer)
                           ? "stopped"
                           : "a repeat took more than " + std::to_string(std::lround(cap)) +
                                 " s, its share of --time-budget";
      return;
    }
    if (!timed) continue;
    figure.work = *work;
    rates.push_back(*work / std::max(took, 1e-9));
    seconds.push_back(took);
    const double spent = std::chrono::duration<double>(clock_type::now() - begin).count();
    const auto [low, high] = std::minmax_element(rates.begin(), rates.end());
    const bool steady = rates.size() >= 3 && (*high - *low) <= 0.05 * median_of(rates);
    if (steady || spent >= share || rates.size() >= 10) break;
  }
  figure.ran = true;
  figure.repeats = static_cast<unsigned>(rates.size());
  figure.median = median_of(rates);
  figure.min = *std::min_element(rates.begin(), rates.end());
  figure.max = *std::max_element(rates.begin(), rates.end());
  figure.seconds_median = median_of(seconds);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

}  // namespace

bench_report run(const bench_request& request) {
  const auto begin = clock_type::now();
  bench_report report;
  report.suite = request.suite;
  report.started = utc_now();
  engine::describe_machine(report);
  std::vector<bench_workload> workloads = bench_workloads(request.suite);
  if (!request.workloads.empty()) {
    std::vector<bench_workload> chosen;
    for (const auto& name : request.workloads) {
      const auto found = std::find_if(workloads.begin(), workloads.end(),
                                      [&](const bench_workload& w) { return w.name == name; });
      if (found == workloads.end()) {
        std::string names;
        for (const auto& w : workloads) names += (names.empty() ? "" : ", ") + w.name;
        throw usage_error("unknown workload '" + name + "' in the " +
                          bench_suite_name(request.suite) + " suite (expected one of " + names +
                          ")");
      }
      chosen.push_back(*found);
    }
    workloads = std::move(chosen);
  }
  if (request.device == device_kind::gpu && report.gpus.empty())
    throw device_error("no CUDA device available");
  std::vector<bench_target> targets;
  if (request.device != device_kind::gpu) {
    targets.push_back({"one-core", 1, -1});
    targets.push_back({"all-cores", request.threads ? request.threads : report.cores, -1});
  }
  if (request.device != device_kind::cpu)
    for (const auto& g : report.gpus)
      targets.push_back({"gpu" + std::to_string(g.index), 0, g.index});
  const bool quick = request.suite == bench_suite::quick;
  // The whole run's budget; the quick suite has none (each workload once) unless given one.
  const double budget = request.time_budget > 0              ? request.time_budget
                        : quick                              ? 0
                        : request.suite == bench_suite::full ? 1200
                                                             : 240;
  const std::size_t total = workloads.size() * targets.size();
  for (const auto& w : workloads) {
    for (const auto& t : targets) {
      if (report.stopped) break;
      bench_figure figure;
      figure.workload = w;
      figure.target = t;
      figure.command = command_of(w, t);
      const double left = budget - std::chrono::duration<double>(clock_type::now() - begin).count();
      const double share =
          budget > 0 ? left / static_cast<double>(total - report.figures.size()) : 0;
      const double cap = budget > 0 ? std::min(left, std::max(30.0, 4 * share)) : 60;
      if (stop_requested(request.stop)) {
        figure.why_not = "stopped";
      } else if (t.gpu > 0 && w.kind != "count") {
        figure.why_not = "the engine runs solve and batch requests on GPU 0 only";
      } else if (budget > 0 && left <= 0) {
        figure.why_not = "the time budget was spent (--time-budget)";
      } else {
        try {
          measure(figure, share, cap, !quick, request.stop);
        } catch (const usage_error& e) {  // e.g. an algorithm the GPU does not run
          figure.why_not = e.what();
        } catch (const resource_error& e) {  // memory, the device
          figure.why_not = e.what();
        }
      }
      report.stopped = figure.why_not == "stopped";
      report.figures.push_back(std::move(figure));
      if (request.progress) request.progress(report.figures.size(), total, w.name + " on " + t.on);
    }
  }
  // Each GPU over the CPU, where both ran.
  const auto find = [&](const std::string& workload, const std::string& on) -> const bench_figure* {
    for (const auto& f : report.figures)
      if (f.workload.name == workload && f.target.on == on && f.ran) return &f;
    return nullptr;
  };
  for (const auto& f : report.figures) {
    if (f.target.gpu < 0 || !f.ran) continue;
    bench_speedup s{f.workload.name, f.target.on, std::nullopt, std::nullopt};
    if (const auto* all = find(f.workload.name, "all-cores"))
      s.over_all_cores = f.median / all->median;
    if (const auto* one = find(f.workload.name, "one-core"))
      s.over_one_core = f.median / one->median;
    if (s.over_all_cores || s.over_one_core) report.speedups.push_back(std::move(s));
  }
  report.seconds = std::chrono::duration<double>(clock_type::now() - begin).count();
  return report;
}

std::string to_json(const bench_report& report) {
  using json = nlohmann::ordered_json;
  const auto or_null = [](const std::string& text) { return text.empty() ? json() : json(text); };
  json record;
  record["workload"] = "bench";
  record["schema"] = 1;
  record["suite"] = bench_suite_name(report.suite);
  record["command"] = or_null(report.command);
  record["started"] = report.started;
  record["seconds"] = report.seconds;
  record["stopped"] = report.stopped;
  record["machine"] = {
      {"cpu", report.cpu}, {"cores", report.cores}, {"memory_bytes", report.memory_bytes}};
  json gpus = json::array();
  for (const auto& g : report.gpus)
    gpus.push_back({{"index", g.index},
                    {"name", g.name},
                    {"multiprocessors", g.multiprocessors},
                    {"clock_mhz", g.clock_mhz},
                    {"memory_clock_mhz", g.memory_clock_mhz},
                    {"memory_bytes", g.memory_bytes},
                    {"compute_capability", g.compute_capability},
                    {"driver", or_null(g.driver)},
                    {"runtime", or_null(g.runtime)}});
  record["gpus"] = std::move(gpus);
  record["build"] = {{"version", report.version},
                     {"git_sha", report.git_sha},
                     {"build_type", or_null(report.build_type)},
                     {"cuda", or_null(report.cuda)}};
  json figures = json::array();
  for (const auto& f : report.figures) {
    const bench_workload& w = f.workload;
    json row;
    row["workload"] = w.name;
    row["kind"] = w.kind;
    row["n"] = w.n;
    row["unit"] = w.unit;
    row["on"] = f.target.on;
    row["device"] = f.target.gpu >= 0 ? "gpu" : "cpu";
    row["threads"] = f.target.gpu >= 0 ? json() : json(f.target.threads);
    row["gpu"] = f.target.gpu >= 0 ? json(f.target.gpu) : json();
    row["command"] = f.command;
    row["ran"] = f.ran;
    row["why_not"] = or_null(f.why_not);
    const auto number = [&](double value) { return f.ran ? json(value) : json(); };
    row["work"] = number(f.work);
    row["repeats"] = f.repeats;
    row["median"] = number(f.median);
    row["min"] = number(f.min);
    row["max"] = number(f.max);
    row["seconds_median"] = number(f.seconds_median);
    row["per_core"] =
        f.ran && f.target.gpu < 0 ? json(f.median / std::max(1u, f.target.threads)) : json();
    figures.push_back(std::move(row));
  }
  record["figures"] = std::move(figures);
  json speedups = json::array();
  for (const auto& s : report.speedups)
    speedups.push_back({{"workload", s.workload},
                        {"on", s.on},
                        {"over_all_cores", s.over_all_cores ? json(*s.over_all_cores) : json()},
                        {"over_one_core", s.over_one_core ? json(*s.over_one_core) : json()}});
  record["speedups"] = std::move(speedups);
  return record.dump();
}

}  // namespace nq
