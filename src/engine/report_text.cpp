// How a report reads to a person: the command line prints these, and the Python module's
// reports say the same.

#include <cstdio>

#include "core/whole_number.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/engine.hpp"

namespace nq {
namespace {

using detail::count_of;

std::string format(const char* pattern, auto... values) {
  char text[320];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

std::string resumed(const count_result& result) {
  return result.resumed ? ", resumed from the checkpoint" : "";
}

/// "5 threads", "2 GPUs", or "4 threads and 2 GPUs": what the ranks counted with together.
std::string rank_engines_text(const std::vector<count_rank>& ranks) {
  std::uint64_t threads = 0, gpus = 0;
  for (const auto& r : ranks) threads += r.threads, gpus += r.gpus;
  const std::string t = count_of(threads, "thread"), g = count_of(gpus, "GPU");
  return gpus == 0 ? t : threads == 0 ? g : t + " and " + g;
}

/// A sweep table's cells: each value, then the point's runs, solved, success and steps.
std::string sweep_row(const std::vector<std::string>& values, const batch_stats& stats) {
  std::string row;
  for (const auto& value : values) row += format("%-10s ", value.c_str());
  // A mean over no runs is "-", as the summary's "none" and JSON's null.
  const auto mean = [](const step_summary& steps) {
    return steps.runs == 0 ? std::string("             -") : format("%14.2f", steps.mean);
  };
  return row + format("%10llu %9llu %9.2f %s %s %10.4g\n",
                      static_cast<unsigned long long>(stats.runs),
                      static_cast<unsigned long long>(stats.solved), 100 * stats.success_rate,
                      mean(stats.success).c_str(), mean(stats.failure).c_str(),
                      stats.runs_per_second);
}

}  // namespace

std::string to_text(const count_report& report) {
  const count_result& result = report.result;
  const std::vector<count_rank>& ranks = report.by_rank;
  std::string text =
      "n=" + std::to_string(report.n) + ": " + count_of(result.solutions, "solution");
  if (report.unique) text += ", " + std::to_string(result.unique) + " unique";
  if (!ranks.empty())
    return text + format(" (%.3f s, %zu rank%s, %s in all, simd %s%s)\n", result.seconds,
                         ranks.size(), ranks.size() == 1 ? "" : "s",
                         rank_engines_text(ranks).c_str(), result.simd.c_str(),
                         resumed(result).c_str());
  if (report.device == "gpu")
    return text + format(" (%.3f s, %.3f s in kernels on %s%s)\n", result.seconds,
                         report.kernel_seconds, report.device_name.c_str(),
                         resumed(result).c_str());
  if (report.device == "all")
    return text + format(" (%.3f s, %.3f s in kernels on %s, and %u CPU thread%s, simd %s, "
                         "counting %llu of the subproblems%s)\n",
                         result.seconds, report.kernel_seconds, report.device_name.c_str(),
                         result.threads, result.threads == 1 ? "" : "s", result.simd.c_str(),
                         static_cast<unsigned long long>(result.by_cpu),
                         resumed(result).c_str());
  return text + format(" (%.3f s, %u thread%s, simd %s%s)\n", result.seconds, result.threads,
                       result.threads == 1 ? "" : "s", result.simd.c_str(),
                       resumed(result).c_str());
}

std::string to_text(const batch_report& report) {
  const batch_stats& stats = report.stats;
  const auto name = algorithm_name(report.algorithm.algorithm);
  std::string text =
      format("%.*s on n=%llu: %s, %llu solved (%.2f%%, 95%% CI %.2f-%.2f%%)\n",
             static_cast<int>(name.size()), name.data(), static_cast<unsigned long long>(report.n),
             count_of(stats.runs, "run").c_str(), static_cast<unsigned long long>(stats.solved),
             100 * stats.success_rate, 100 * stats.success_low, 100 * stats.success_high);
  const auto steps = [](const char* label, const step_summary& s) {
    if (s.runs == 0) return format("  steps when %s: none\n", label);
    return format("  steps when %s: mean %.2f, median %.1f, min %llu, max %llu\n", label, s.mean,
                  s.median, static_cast<unsigned long long>(s.min),
                  static_cast<unsigned long long>(s.max));
  };
  if (stats.interrupted)
    text += stats.runs == 0 ? std::string("  interrupted before the first run finished\n")
                            : format("  interrupted: these are runs 0 to %llu, all finished\n",
                                     static_cast<unsigned long long>(stats.runs - 1));
  text += steps("solved", stats.success);
  text += steps("failed", stats.failure);
  if (stats.restarts)
    text += format("  restarts: %llu (%.2f per run)\n",
                   static_cast<unsigned long long>(stats.restarts), stats.mean_restarts);
  if (report.device == "cpu") {
    text += format("  %.3f s, %.4g runs/s on %u CPU thread%s\n", stats.seconds,
                   stats.runs_per_second, stats.threads, stats.threads == 1 ? "" : "s");
  } else {
    const char* shape = report.layout == "whole_grid"      ? ", the whole grid on each run"
                        : report.layout == "block_per_run" ? ", one block per run"
                                                           : "";
    text += format("  %.3f s, %.4g runs/s on %s (%u SMs%s)\n", stats.seconds, stats.runs_per_second,
                   report.device_name.c_str(), stats.threads, shape);
  }
  if (!report.by_rank.empty())
    text += "  shared by " + std::to_string(report.by_rank.size()) + " MPI ranks (" +
            std::to_string(stats.threads) + " threads in all)\n";
  return text;
}

std::string to_text(const sweep_point& point) { return sweep_row(point.values, point.report.stats); }

std::string to_text(const sweep_report& report) {
  std::string text = std::string(algorithm_name(report.algorithm)) + " on n=" +
                     std::to_string(report.n) + ", " + std::to_string(report.runs_per_point) +
                     " runs per point\n";
  for (const auto& axis : report.axes) text += format("%-10s ", axis.c_str());
  text += "      runs    solved  success%  steps(solved)  steps(failed)     runs/s\n";
  for (const auto& point : report.points) text += to_text(point);
  return text;
}

std::string to_text(const solve_report& report) {
  const solve_result& result = report.result;
  if (!solution_exists(report.n)) return "n=" + std::to_string(report.n) + ": no solution exists\n";
  const char* outcome = result.solved ? "solved" : "no solution found";
  std::string by = report.algorithm;
  if (report.chains)
    by += " chain " + std::to_string(report.chain) + " of " + std::to_string(report.chains) +
          " on the " + report.device;
  else if (report.chain)
    by += " chain " + std::to_string(report.chain);
  std::string text = format("n=%llu: %s by %s in %.3f s (seed %llu, %s, %s",
                            static_cast<unsigned long long>(report.n), outcome, by.c_str(),
                            result.seconds, static_cast<unsigned long long>(report.seed),
                            count_of(result.steps, "step").c_str(),
                            count_of(result.restarts, "restart").c_str());
  if (report.chains) text += ", replay with --chain " + std::to_string(report.chain);
  if (report.threaded && report.device == "gpu" && report.kernel_seconds >= 0)
    text += format(", on the gpu (kernels %.3f s)", report.kernel_seconds);
  else if (report.threaded)
    text += report.device == "gpu" ? ", on the gpu"
                                   : ", " + count_of(report.threads, "thread") + " on the cpu";
  if (report.stopped_placing)
    text += ", " + count_of(result.unplaced, "queen") + " not yet placed";
  else if (!result.solved && result.queen_row.empty())
    text += ", no board: stopped before placing every queen";
  else if (!report.pairs_counted)
    text += ", attacking pairs not counted";
  else if (!result.solved)
    text += ", " + count_of(result.conflicts, "attacking pair") + " left";
  return text + ")\n";
}

std::string to_text(const verify_report& report) {
  std::string text = "n=" + std::to_string(report.n) + ": ";
  if (report.valid()) return text + "valid, no two queens attack each other\n";
  text += "invalid, " + count_of(report.conflicts, "attacking pair");
  if (report.first_clash) {
    const clash& c = *report.first_clash;
    text += "; first clash: columns " + std::to_string(c.col_a + 1) + " and " +
            std::to_string(c.col_b + 1) + " share " +
            (c.kind == line_kind::anti_diagonal ? "an " : "a ") + line_kind_name(c.kind);
  }
  return text + "\n";
}

}  // namespace nq
