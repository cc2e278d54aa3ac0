// The batch request: its backend, its runs and its record.

#include "engine/batch_job.hpp"

#include <algorithm>
#include <atomic>

#include "cluster/start_gate.hpp"

#include "engine/device_choice.hpp"
#include "engine/local_parameters.hpp"
#include "engine/rank_work.hpp"
#include "engine/stop_bridge.hpp"
#include "engine/sweep.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace engine {

chosen_backend::chosen_backend(index_t n, const local_search_settings& algorithm, device_kind device,
                     unsigned threads) {
  check_local_memory(algorithm, n, threads);
  backend_ = choose_backend(device, algorithm, n, threads, note_);
}

batch_report batch_report_of(index_t n, const local_search_settings& algorithm,
                             const batch_settings& settings, const batch_stats& stats,
                             const batch_backend& backend) {
  batch_report report;
  report.n = n;
  report.algorithm = algorithm;
  report.seed = settings.seed;
  report.runs_requested = settings.runs;
  report.max_steps = settings.limits.max_steps ? settings.limits.max_steps
                                               : default_max_steps(algorithm.algorithm);
  report.stats = stats;
  report.device = backend.device();
  report.device_name = backend.device_name();
  report.layout = backend.layout(algorithm, n, settings.runs);
  report.parameters = local_parameters(algorithm, n);
  return report;
}

nlohmann::ordered_json batch_json(const batch_report& report) {
  const batch_stats& stats = report.stats;
  nlohmann::ordered_json r;
  r["workload"] = "batch";
  r["n"] = report.n;
  r["algorithm"] = algorithm_name(report.algorithm.algorithm);
  if (report.algorithm.algorithm == local_algorithm::min_conflicts_column) r["variant"] = "column";
  r["device"] = report.device;
  r["device_name"] = report.device_name;
  if (!report.layout.empty())
    r["layout"] = report.layout;  // the GPU's ga and beam: one block per run, or the whole grid
  r["seed"] = report.seed;
  r["runs"] = stats.runs;
  if (stats.interrupted) {  // runs 0..runs-1 finished: the statistics describe them alone
    r["interrupted"] = true;
    r["runs_requested"] = report.runs_requested;
  }
  r["solved"] = stats.solved;
  r["success_rate"] = stats.success_rate;
  r["success_rate_low"] = stats.success_low;
  r["success_rate_high"] = stats.success_high;
  // No solved (or no failed) run has no mean: null, as the text says "none".
  const auto or_null = [](const step_summary& s, double value) {
    return s.runs ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
  };
  r["mean_steps_success"] = or_null(stats.success, stats.success.mean);
  r["median_steps_success"] = or_null(stats.success, stats.success.median);
  r["mean_steps_failure"] = or_null(stats.failure, stats.failure.mean);
  r["median_steps_failure"] = or_null(stats.failure, stats.failure.median);
  // Their spread: the five-number summary and the 90th percentile (null as above).
  const auto spread = [](const step_summary& s) {
    if (!s.runs) return nlohmann::ordered_json(nullptr);
    return nlohmann::ordered_json{{"min", s.min},   {"p25", s.p25}, {"p50", s.median},
                                  {"p75", s.p75},   {"p90", s.p90}, {"max", s.max}};
  };
  r["steps_success"] = spread(stats.success);
  r["steps_failure"] = spread(stats.failure);
  r["restarts"] = stats.restarts;
  r["mean_restarts"] = stats.mean_restarts;
  r["max_steps"] = report.max_steps;
  r["seconds"] = stats.seconds;
  if (report.device != "cpu") r["kernel_seconds"] = stats.kernel_seconds;
  r["runs_per_second"] = stats.runs_per_second;
  if (report.device != "cpu")  // the runs over the kernels' own time (null when none was timed)
    r["kernel_runs_per_second"] =
        stats.kernel_seconds > 0
            ? nlohmann::ordered_json(static_cast<double>(stats.runs) / stats.kernel_seconds)
            : nlohmann::ordered_json();
  r["threads"] = stats.threads;
  r["parameters"] = parameters_record(report.parameters);
  if (report.by_rank.empty()) return r;
  r["ranks"] = report.by_rank.size();
  nlohmann::ordered_json by_rank = nlohmann::ordered_json::array();
  for (std::size_t rank = 0; rank < report.by_rank.size(); ++rank) {
    const batch_rank& part = report.by_rank[rank];
    nlohmann::ordered_json entry;
    entry["rank"] = rank;
    entry["runs"] = part.runs;
    entry["seconds"] = part.seconds;
    entry["runs_per_second"] = static_cast<double>(part.runs) / std::max(part.seconds, 1e-9);
    entry["threads"] = part.threads;
    by_rank.push_back(std::move(entry));
  }
  r["by_rank"] = std::move(by_rank);
  return r;
}

}  // namespace engine

namespace {

/// The checks of a batch (and a sweep) before any work, its backend, the face's outputs opened
/// and, under mpirun, every rank ready (or none starts).
engine::chosen_backend prepare(const batch_request& request) {
  if (!solution_exists(request.n))
    throw usage_error("no solution exists for n=" + std::to_string(request.n) + "; no runs made");
  engine::check_local_size(request.algorithm.algorithm, request.n);
  engine::chosen_backend job(request.n, request.algorithm, engine::single_device(request.device),
                             batch_threads(request.settings));
  if (request.ready) request.ready();
  if (request.ranks.world) cluster::start_together(*request.ranks.world);
  return job;
}

/// One point: its runs where the request says, and its report.
batch_report run_point(const batch_request& request, const local_search_settings& algorithm,
                       batch_settings settings, engine::chosen_backend& job, bool& stopped) {
  const engine::batch_outcome outcome = engine::shared_work(request.ranks, [&] {
    return engine::run_where(request, algorithm, settings, job.backend());
  });
  batch_report report =
      engine::batch_report_of(request.n, algorithm, settings, outcome.stats, job.backend());
  report.by_rank = outcome.by_rank;
  report.note = job.note();
  stopped = outcome.stopped;
  return report;
}

}  // namespace

batch_report run(const batch_request& request) {
  engine::chosen_backend job = prepare(request);
  batch_settings settings = request.settings;
  const engine::stop_bridge stop(request.stop);
  if (stop.given()) settings.limits.stop = stop.given();
  bool stopped = false;
  return run_point(request, request.algorithm, settings, job, stopped);
}

sweep_report run(const sweep_request& request) {
  const batch_request& batch = request.batch;
  engine::chosen_backend job = prepare(batch);
  const engine::stop_bridge stop(batch.stop);
  sweep_report report;
  report.n = batch.n;
  report.algorithm = batch.algorithm.algorithm;
  report.runs_per_point = batch.settings.runs;
  for (const auto& axis : request.axes) report.axes.push_back(axis.name);
  report.note = job.note();
  for (const auto& point : engine::grid_points(request.axes)) {
    local_search_settings algorithm = batch.algorithm;
    batch_settings settings = batch.settings;
    if (stop.given()) settings.limits.stop = stop.given();
    for (std::size_t i = 0; i < point.size(); ++i)
      engine::set_sweep_value(algorithm, settings.limits, batch.n, request.axes[i].name, point[i]);
    bool stopped = false;
    report.points.push_back({point, run_point(batch, algorithm, settings, job, stopped)});
    if (request.on_point && batch.ranks.leader())
      request.on_point(point, report.points.back().report);
    if (stopped) break;
  }
  return report;
}

std::string to_json(const batch_report& report) { return engine::batch_json(report).dump(); }

std::string to_json(const sweep_report& report, int indent) {
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  for (const sweep_point& point : report.points)
    records.push_back(engine::batch_json(point.report));
  return records.dump(indent);
}

}  // namespace nq
