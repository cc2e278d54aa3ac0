#include "cli/batch_report.hpp"

#include <cstdio>

#include "cli/cli_support.hpp"

namespace nq::cli {
namespace {

std::string format(const char* pattern, auto... values) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

}  // namespace

std::string batch_summary(const batch_report& report) {
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
    const std::string& layout = report.layout;
    const char* shape = layout == "whole_grid"      ? ", the whole grid on each run"
                        : layout == "block_per_run" ? ", one block per run"
                                                    : "";
    text += format("  %.3f s, %.4g runs/s on %s (%u SMs%s)\n", stats.seconds, stats.runs_per_second,
                   report.device_name.c_str(), stats.threads, shape);
  }
  return text;
}

void batch_progress::update(std::uint64_t done, double seconds) {
  if (!enabled_ || seconds < 1.0 || done == 0) return;
  const double rate = static_cast<double>(done) / seconds;
  std::fprintf(stderr,
               "\rbatch %5.1f%% | %llu of %llu runs | %.3g runs/s | about %.0f s left\033[K",
               100.0 * static_cast<double>(done) / static_cast<double>(runs_),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(runs_), rate,
               static_cast<double>(runs_ - done) / rate);
  shown_ = true;
}

void batch_progress::finish() {
  if (shown_) std::fputs("\r\033[K", stderr);
  shown_ = false;
}

}  // namespace nq::cli
