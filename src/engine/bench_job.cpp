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
#include <optional>
#include <thread>

#include "engine/bench_parts.hpp"
#include "engine/device_choice.hpp"
#include "nqueens/bench.hpp"
#include "nqueens/error.hpp"
#include "nqueens/detail/philox_batch.hpp"

namespace nq {

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

/// A repeat of this many seconds or more is its own warm-up: what a warm-up saves (start-up,
/// first touches of memory) is then a few percent of it, and a second run would cost as much.
constexpr double long_repeat_seconds = 5;

/// What one repeat did: its work in the workload's unit, its time in a GPU's kernels (-1 where
/// the request reports none) and the CPU's vector path ("" on a GPU).
struct repeat_result {
  double work = 0;
  double kernel_seconds = -1;
  std::string simd;
};

/// One repeat, or nothing when `cut` stopped it.
std::optional<repeat_result> one_repeat(const bench_workload& w, const bench_target& t,
                                        std::atomic<bool>& cut) {
  const bool on_gpu = t.gpu >= 0;
  const device_kind device = on_gpu ? device_kind::gpu : device_kind::cpu;
  const job_stop stop{{}, &cut};
  repeat_result out;
  if (w.kind == "solve") {
    solve_request request;
    request.n = w.n;
    request.threads = t.threads;
    request.device.kind = device;
    request.keep_board = false;  // timed as the command runs it: no copy back from a GPU
    request.stop = stop;
    const solve_report report = run(request);
    if (cut.load() || !report.result.solved) return std::nullopt;
    out.work = static_cast<double>(w.n);
    if (on_gpu)
      out.kernel_seconds = report.kernel_seconds;
    else
      out.simd = report.algorithm != "lattice"  ? "off"
                 : philox_batch::cpu_has_avx2() ? "avx2"
                                                : "sse2";
    return out;
  }
  if (w.kind == "count") {
    count_request request;
    request.n = static_cast<int>(w.n);
    request.threads = t.threads;
    request.device.kind = device;
    if (on_gpu) request.device.ids = {t.gpu};
    request.stop = stop;
    const count_report report = run(request);
    if (!report.result.complete) return std::nullopt;
    out.work = static_cast<double>(report.result.solutions);
    if (on_gpu)
      out.kernel_seconds = report.kernel_seconds;
    else
      out.simd = report.result.simd;
    return out;
  }
  batch_request request;
  request.n = w.n;
  request.algorithm.algorithm = *find_local_algorithm(w.algorithm);
  if (w.algorithm == "ga") request.algorithm.genetic.population = 200;
  request.settings.runs = w.runs_on(t);
  request.settings.threads = t.threads;
  request.settings.limits.max_steps = w.steps;
  request.device.kind = device;
  request.stop = stop;
  const batch_report report = run(request);
  const batch_stats& stats = report.stats;
  if (stats.interrupted || cut.load()) return std::nullopt;
  if (on_gpu)
    out.kernel_seconds = stats.kernel_seconds;
  else
    out.simd = "off";
  // Batches count runs; populations every step of every run (a run that solves stops early).
  out.work = w.kind == "batch" ? static_cast<double>(stats.runs)
                               : stats.success.mean * static_cast<double>(stats.success.runs) +
                                     stats.failure.mean * static_cast<double>(stats.failure.runs);
  return out;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

/// Repeats `figure`'s work: a warm-up (not timed; none in the quick suite, and a repeat of
/// long_repeat_seconds or more is its own), then timed repeats until three agree within 5%
/// (classify_repeats) or `share` seconds are spent, at least one and at most ten. A repeat that
/// takes `cap` seconds is cut.
void measure(bench_figure& figure, double share, double cap, bool warm_up, const job_stop& outer) {
  const bench_workload& w = figure.workload;
  const auto begin = clock_type::now();
  std::vector<double> rates, seconds, kernels;
  bool warmed = !warm_up;
  while (rates.size() < 10) {
    std::atomic<bool> cut{false};
    std::optional<repeat_result> result;
    const auto start = clock_type::now();
    {
      const repeat_watch watch(outer,
                               start + std::chrono::duration_cast<clock_type::duration>(
                                           std::chrono::duration<double>(cap)),
                               cut);
      result = one_repeat(w, figure.target, cut);
    }
    const double took = std::chrono::duration<double>(clock_type::now() - start).count();
    if (!result) {
      figure.why_not = stop_requested(outer)
                           ? "stopped"
                           : "a repeat took more than " + std::to_string(std::lround(cap)) +
                                 " s, its share of --time-budget";
      return;
    }
    if (!warmed) {
      warmed = true;
      if (took < long_repeat_seconds) continue;
    }
    figure.work = result->work;
    figure.simd = result->simd;
    rates.push_back(result->work / std::max(took, 1e-9));
    seconds.push_back(took);
    if (result->kernel_seconds >= 0) kernels.push_back(result->kernel_seconds);
    const double spent = std::chrono::duration<double>(clock_type::now() - begin).count();
    if (classify_repeats(rates) == bench_quality::steady || spent >= share) break;
  }
  figure.ran = true;
  figure.repeats = static_cast<unsigned>(rates.size());
  figure.median = median_of(rates);
  figure.min = *std::min_element(rates.begin(), rates.end());
  figure.max = *std::max_element(rates.begin(), rates.end());
  figure.seconds_median = median_of(seconds);
  figure.quality = classify_repeats(rates);
  figure.spread = (figure.max - figure.min) / std::max(figure.median, 1e-300);
  if (!kernels.empty() && kernels.size() == rates.size()) {
    figure.kernel_seconds_median = median_of(kernels);
    figure.kernel_median = figure.work / std::max(figure.kernel_seconds_median, 1e-12);
  }
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

/// The workloads `request` names, in the suite's order of its list.
std::vector<bench_workload> chosen_workloads(const bench_request& request) {
  std::vector<bench_workload> workloads = bench_workloads(request.suite);
  if (request.workloads.empty()) return workloads;
  std::vector<bench_workload> chosen;
  for (const auto& name : request.workloads) {
    const auto found = std::find_if(workloads.begin(), workloads.end(),
                                    [&](const bench_workload& w) { return w.name == name; });
    if (found == workloads.end()) {
      std::string names;
      for (const auto& w : workloads) names += (names.empty() ? "" : ", ") + w.name;
      throw usage_error("unknown workload '" + name + "' in the " +
                        bench_suite_name(request.suite) + " suite (expected one of " + names + ")");
    }
    chosen.push_back(*found);
  }
  return chosen;
}

/// Every figure to measure, in order, each workload on the targets it is sized for.
std::vector<bench_figure> plan_figures(const std::vector<bench_workload>& workloads,
                                       const std::vector<bench_target>& targets) {
  std::vector<bench_figure> plan;
  for (const auto& w : workloads)
    for (const auto& t : targets) {
      if (t.gpu < 0 && (!w.on_cpu || (t.on == "one-core" && !w.on_one_core))) continue;
      bench_figure figure;
      figure.workload = w;
      figure.target = t;
      figure.command = engine::bench_command_of(w, t);
      plan.push_back(std::move(figure));
    }
  return plan;
}

/// Each GPU over the CPU, where both ran.
std::vector<bench_speedup> speedups_of(const std::vector<bench_figure>& figures) {
  const auto find = [&](const std::string& workload, const char* on) -> const bench_figure* {
    for (const auto& f : figures)
      if (f.workload.name == workload && f.target.on == on && f.ran) return &f;
    return nullptr;
  };
  std::vector<bench_speedup> speedups;
  for (const auto& f : figures) {
    if (f.target.gpu < 0 || !f.ran) continue;
    bench_speedup s{f.workload.name, f.target.on, std::nullopt, std::nullopt,
                    f.quality == bench_quality::steady};
    for (const auto& [on, ratio] :
         {std::pair{"all-cores", &s.over_all_cores}, std::pair{"one-core", &s.over_one_core}})
      if (const bench_figure* cpu = find(f.workload.name, on)) {
        *ratio = f.median / cpu->median;
        s.steady = s.steady && cpu->quality == bench_quality::steady;
      }
    if (s.over_all_cores || s.over_one_core) speedups.push_back(std::move(s));
  }
  return speedups;
}

}  // namespace

bench_report run(const bench_request& request) {
  const auto begin = clock_type::now();
  // A record to compare with is read and checked first: a bad one ends the run before any work.
  std::optional<engine::bench_saved_record> saved;
  if (!request.compare_with.empty()) saved = engine::read_bench_record(request.compare_with);
  bench_report report;
  report.suite = request.suite;
  report.started = utc_now();
  engine::describe_machine(report);
  const std::vector<bench_workload> workloads = chosen_workloads(request);
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
  std::vector<bench_figure> plan = plan_figures(workloads, targets);
  if (saved) {
    const std::string mismatch = engine::bench_mismatch(*saved, request.suite, plan);
    if (!mismatch.empty() && !request.compare_shared)
      throw usage_error("--compare: '" + saved->path + "' " + mismatch +
                        "; give --compare-shared to compare only the figures both have at the "
                        "same sizes");
  }
  const bool quick = request.suite == bench_suite::quick;
  // The whole run's budget; the quick suite has none (each workload once) unless given one.
  const double budget = request.time_budget > 0              ? request.time_budget
                        : quick                              ? 0
                        : request.suite == bench_suite::full ? 1200
                                                             : 240;
  const std::size_t total = plan.size();
  for (bench_figure& figure : plan) {
    if (report.stopped) break;
    const bench_workload& w = figure.workload;
    const bench_target& t = figure.target;
    const double left = budget - std::chrono::duration<double>(clock_type::now() - begin).count();
    const double share = budget > 0 ? left / static_cast<double>(total - report.figures.size()) : 0;
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
  report.speedups = speedups_of(report.figures);
  if (saved) {
    report.compared_with = saved->path;
    report.compared_cpu = saved->cpu;
    report.compared_started = saved->started;
    report.comparison = engine::compare_figures(report.figures, *saved);
  }
  report.seconds = std::chrono::duration<double>(clock_type::now() - begin).count();
  return report;
}

}  // namespace nq
