// The benchmark's human output: a table of every figure in SI units, each with its quality, the
// GPUs' speed-ups and the comparison with a saved record.

#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/whole_number.hpp"
#include "nqueens/bench.hpp"
#include "nqueens/detail/memory.hpp"

namespace nq {
namespace {

using detail::count_of;

/// `value` with an SI prefix and three significant digits: "35.3 M", "1.42 G", "512", "0.0345".
std::string si(double value) {
  static constexpr const char* prefixes[] = {"", " k", " M", " G", " T", " P", " E"};
  std::size_t prefix = 0;
  while (std::fabs(value) >= 999.5 && prefix + 1 < std::size(prefixes)) value /= 1000, ++prefix;
  char text[32];
  const double size = std::fabs(value);
  if (prefix == 0 && size < 1 && size > 0)
    std::snprintf(text, sizeof text, "%.3g", value);
  else
    std::snprintf(text, sizeof text,
                  size >= 99.95   ? "%.0f%s"
                  : size >= 9.995 ? "%.1f%s"
                                  : "%.2f%s",
                  value, prefixes[prefix]);
  return text;
}

/// A ratio to three digits: "1.04x", "0.0234x", "152x".
std::string ratio_text(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, ratio >= 999.5 ? "%.0fx" : "%.3gx", ratio);
  return text;
}

std::string machine_line(const bench_report& report) {
  std::string text = report.cpu;
  if (report.cpu_family >= 0 && report.cpu_model >= 0)
    text += " (family " + std::to_string(report.cpu_family) + " model " +
            std::to_string(report.cpu_model) + ")";
  text += ", " + count_of(report.cores, "core");
  if (report.cpu_mhz > 0) text += ", " + std::to_string(std::lround(report.cpu_mhz)) + " MHz";
  text += ", " + format_bytes(report.memory_bytes);
  if (!report.os.empty()) text += "; " + report.os;
  if (!report.kernel.empty()) text += ", " + report.kernel;
  text += "; ";
  if (report.gpus.empty()) text += "no GPU";
  for (const auto& g : report.gpus)
    text += (&g == &report.gpus.front() ? "" : ", ") + ("gpu" + std::to_string(g.index)) + " " +
            g.name + " (" + std::to_string(g.multiprocessors) + " SMs, driver " + g.driver + ")";
  return text + "; nqueens " + report.version + " " + report.build_type + " " + report.git_sha +
         ", " + report.compiler + (report.cuda.empty() ? "" : ", CUDA " + report.cuda);
}

}  // namespace

std::string to_text(const bench_report& report) {
  std::string text = "nqueens bench, " + std::string(bench_suite_name(report.suite)) +
                     " suite: " + machine_line(report) + "\n\n";
  char line[320];
  std::snprintf(line, sizeof line, "%-20s %-10s %22s  %-17s %4s  %-10s %11s %9s  %s\n", "workload",
                "on", "median", "min - max", "reps", "quality", "kernel rate", "per core", "simd");
  text += line;
  bool doubtful = false;
  for (const auto& f : report.figures) {
    if (!f.ran) {
      std::snprintf(line, sizeof line, "%-20s %-10s  not run: ", f.workload.name.c_str(),
                    f.target.on.c_str());
      text += line + f.why_not + "\n";
      continue;
    }
    doubtful = doubtful || f.quality != bench_quality::steady;
    const std::string median = si(f.median) + " " + f.workload.unit;
    const std::string range = si(f.min) + " - " + si(f.max);
    const std::string kernel = f.kernel_seconds_median >= 0 ? si(f.kernel_median) : "-";
    const std::string per_core =
        f.target.gpu < 0 ? si(f.median / std::max(1u, f.target.threads)) : "-";
    std::snprintf(line, sizeof line, "%-20s %-10s %22s  %-17s %4u  %-10s %11s %9s  %s\n",
                  f.workload.name.c_str(), f.target.on.c_str(), median.c_str(), range.c_str(),
                  f.repeats, bench_quality_name(f.quality), kernel.c_str(), per_core.c_str(),
                  f.simd.empty() ? "-" : f.simd.c_str());
    text += line;
  }
  if (doubtful)
    text +=
        "\nunsteady: no three repeats agreed within 5% before the figure's share of the time "
        "budget ran out;\nindicative: fewer than three repeats (--quick runs each once). Read "
        "either as a rough figure.\n";
  if (!report.speedups.empty()) text += "\nGPU speed-ups (median over median):\n";
  for (const auto& s : report.speedups) {
    const auto ratio = [](const std::optional<double>& r) { return r ? ratio_text(*r) : "-"; };
    std::snprintf(line, sizeof line, "%-20s %-10s %10s over all cores, %10s over one core%s\n",
                  s.workload.c_str(), s.on.c_str(), ratio(s.over_all_cores).c_str(),
                  ratio(s.over_one_core).c_str(), s.steady ? "" : "  (not all steady)");
    text += line;
  }
  if (!report.compared_with.empty()) {
    text += "\nCompared with " + report.compared_with + " (" + report.compared_cpu + ", " +
            report.compared_started + "), slowest first:\n";
    if (report.comparison.empty()) text += "  no figure in common\n";
    for (const auto& r : report.comparison) {
      std::snprintf(line, sizeof line, "%-20s %-10s %8s  (%s -> %s %s)%s\n", r.workload.c_str(),
                    r.on.c_str(), ratio_text(r.ratio).c_str(), si(r.before).c_str(),
                    si(r.now).c_str(), r.unit.c_str(), r.steady ? "" : "  (not steady both times)");
      text += line;
    }
  }
  char took[96];
  std::snprintf(took, sizeof took, "\n%s in %.1f s%s\n",
                count_of(report.figures.size(), "figure").c_str(), report.seconds,
                report.stopped ? ", stopped before the end" : "");
  return text + took;
}

}  // namespace nq
