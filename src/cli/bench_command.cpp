// nqueens bench: the engine's benchmark (nqueens/bench.hpp) as a table or its JSON record, and
// a comparison with a record saved before.

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/memory.hpp"
#include "core/temp_files.hpp"
#include "nqueens/bench.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {
namespace {

using json = nlohmann::ordered_json;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::string table(const bench_report& report) {
  std::string text = "nqueens bench, " + std::string(bench_suite_name(report.suite)) +
                     " suite: " + report.cpu + ", " + count_of(report.cores, "core") + ", " +
                     format_bytes(report.memory_bytes) + "; ";
  if (report.gpus.empty()) text += "no GPU";
  for (const auto& g : report.gpus)
    text +=
        (&g == &report.gpus.front() ? "" : ", ") + ("gpu" + std::to_string(g.index)) + " " + g.name;
  text += "; nqueens " + report.version + " " + report.build_type + " " + report.git_sha + "\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-20s %-10s %11s %11s %11s %7s %11s  %s\n", "workload", "on",
                "median", "min", "max", "repeats", "per core", "unit");
  text += line;
  for (const auto& f : report.figures) {
    if (!f.ran) {
      std::snprintf(line, sizeof line, "%-20s %-10s  not run: ", f.workload.name.c_str(),
                    f.target.on.c_str());
      text += line + f.why_not + "\n";
      continue;
    }
    const std::string per_core =
        f.target.gpu < 0 ? number(f.median / std::max(1u, f.target.threads)) : "-";
    std::snprintf(line, sizeof line, "%-20s %-10s %11s %11s %11s %7u %11s  %s\n",
                  f.workload.name.c_str(), f.target.on.c_str(), number(f.median).c_str(),
                  number(f.min).c_str(), number(f.max).c_str(), f.repeats, per_core.c_str(),
                  f.workload.unit.c_str());
    text += line;
  }
  if (!report.speedups.empty()) text += "\nGPU speed-ups (median over median):\n";
  for (const auto& s : report.speedups) {
    const auto ratio = [](const std::optional<double>& r) { return r ? number(*r) + "x" : "-"; };
    std::snprintf(line, sizeof line, "%-20s %-10s %10s over all cores, %10s over one core\n",
                  s.workload.c_str(), s.on.c_str(), ratio(s.over_all_cores).c_str(),
                  ratio(s.over_one_core).c_str());
    text += line;
  }
  char took[96];
  std::snprintf(took, sizeof took, "\n%s in %.1f s%s\n",
                count_of(report.figures.size(), "figure").c_str(), report.seconds,
                report.stopped ? ", stopped before the end" : "");
  return text + took;
}

/// A bench record read from `path`; anything else is a usage_error naming it.
json read_record(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw usage_error("--compare: cannot read '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  json record;
  try {
    record = json::parse(text.str());
  } catch (const json::parse_error&) {
    throw usage_error("--compare: '" + path +
                      "' is not JSON (expected a record of nqueens bench -f json)");
  }
  if (!record.is_object() || record.value("workload", "") != "bench" ||
      record.value("schema", 0) != 1 || !record.contains("figures") ||
      !record["figures"].is_array())
    throw usage_error("--compare: '" + path + "' is not a record of nqueens bench (schema 1)");
  return record;
}

/// Each figure that ran in both, as the new median over the old, the regressions first.
json compare(const json& now, const json& before) {
  json rows = json::array();
  for (const auto& f : now["figures"]) {
    if (!f.value("ran", false)) continue;
    for (const auto& g : before["figures"]) {
      if (g.value("workload", "") != f["workload"] || g.value("on", "") != f["on"] ||
          !g.value("ran", false) || !g["median"].is_number() || g["median"].get<double>() <= 0)
        continue;
      const double old_rate = g["median"].get<double>(), new_rate = f["median"].get<double>();
      rows.push_back({{"workload", f["workload"]},
                      {"on", f["on"]},
                      {"unit", f["unit"]},
                      {"before", old_rate},
                      {"now", new_rate},
                      {"ratio", new_rate / old_rate}});
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const json& a, const json& b) {
    return a["ratio"].get<double>() < b["ratio"].get<double>();
  });
  return rows;
}

std::string comparison_table(const json& rows, const json& before, const std::string& path) {
  std::string text = "\nCompared with " + path + " (" +
                     before["machine"].value("cpu", std::string("?")) + ", " +
                     before.value("started", std::string("?")) + "), slowest first:\n";
  if (rows.empty()) text += "  no figure in common\n";
  for (const auto& r : rows) {
    char line[200];
    std::snprintf(line, sizeof line, "%-20s %-10s %8sx  (%s -> %s %s)\n",
                  r["workload"].get<std::string>().c_str(), r["on"].get<std::string>().c_str(),
                  number(r["ratio"].get<double>()).c_str(),
                  number(r["before"].get<double>()).c_str(), number(r["now"].get<double>()).c_str(),
                  r["unit"].get<std::string>().c_str());
    text += line;
  }
  return text;
}

}  // namespace

int run_bench(int argc, char** argv) {
  cxxopts::Options options(
      "nqueens bench",
      "Time a fixed suite (huge boards, restart batches, populations, counts) on one CPU thread, "
      "on every CPU thread and on each GPU: a warm-up, then repeats until three agree within 5% "
      "or the figure's share of the time budget is spent. Prints a table, or the JSON record "
      "(docs/bench.md).");
  // clang-format off
  options.add_options()
      ("quick", "every workload once, at small sizes (seconds in all)")
      ("suite", "standard (default: minutes on two cores) or full (adds 10^9 queens and counts of 18 and 20)",
       cxxopts::value<std::string>())
      ("workloads", "only these workloads of the suite, e.g. batch-hc,count-16 (default: every one)",
       cxxopts::value<std::string>())
      ("device", "cpu (one thread and every thread), gpu (each GPU) or all (default: both)",
       cxxopts::value<std::string>()->default_value("all"))
      ("time-budget", "seconds the whole run may take (default: standard 240, full 1200, quick none)",
       cxxopts::value<std::string>())
      ("t,threads", "the all-cores figures' threads (default: every core)", cxxopts::value<std::string>())
      ("compare", "print each figure's ratio to the record in FILE (a saved -f json), slowest first",
       cxxopts::value<std::string>())
      ("f,format", "text or json", cxxopts::value<std::string>()->default_value("text"))
      ("o,output", "write the result to FILE (atomically) instead of standard output", cxxopts::value<std::string>())
      ("q,quiet", "no progress line on stderr")
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(options.help());
  bench_request request;
  if (args.count("quick") && args.count("suite"))
    throw usage_error("--quick is a suite of its own: give --quick or --suite");
  request.suite = args.count("quick")   ? bench_suite::quick
                  : args.count("suite") ? parse_bench_suite(args["suite"].as<std::string>())
                                        : bench_suite::standard;
  if (args.count("workloads")) {
    std::stringstream list(args["workloads"].as<std::string>());
    for (std::string name; std::getline(list, name, ',');) request.workloads.push_back(name);
    if (request.workloads.empty()) throw usage_error("--workloads is empty");
  }
  const std::string device = args["device"].as<std::string>();
  if (device == "auto") throw usage_error("unknown --device 'auto' (expected cpu, gpu or all)");
  request.device = parse_device_kind(device, true);
  if (args.count("time-budget"))
    request.time_budget = parse_seconds("--time-budget", args["time-budget"].as<std::string>());
  if (args.count("threads")) {
    const std::uint64_t threads = parse_positive("--threads", args["threads"].as<std::string>());
    if (threads > 1024)
      throw usage_error("--threads must be at most 1024, got " + std::to_string(threads));
    request.threads = static_cast<unsigned>(threads);
  }
  const bool as_json = parse_text_or_json(args["format"].as<std::string>());
  const std::string path = file_option(args, "output");
  std::optional<json> before;
  const std::string compare_path = args.count("compare") ? args["compare"].as<std::string>() : "";
  if (!compare_path.empty()) before = read_record(compare_path);
  refuse_shared_outputs({{"-o", path.empty() ? "-" : path}});
  const bool show = !args.count("quiet") && stderr_is_terminal();
  if (show)
    request.progress = [](std::size_t done, std::size_t total, const std::string& what) {
      std::fprintf(stderr, "\r\033[Knqueens bench: %zu of %zu figures, last %s", done, total,
                   what.c_str());
    };
  // Ctrl-C or a polite kill: the figure running stops, and the record holds those before it.
  stop_on_signal(&interrupted);
  request.stop.flag = &interrupted;
  output_target output(path);
  bench_report report = run(request);
  remove_temp_files_on_signal();
  if (show) std::fputs("\r\033[K", stderr);
  report.command = "nqueens bench";
  for (int i = 1; i < argc; ++i) report.command += std::string(" ") + argv[i];
  std::string text;
  if (as_json) {
    json record = json::parse(to_json(report));
    if (before) record["comparison"] = compare(record, *before);
    text = record.dump() + "\n";
  } else {
    text = table(report);
    if (before)
      text +=
          comparison_table(compare(json::parse(to_json(report)), *before), *before, compare_path);
  }
  output.sink().write(text);
  output.commit();
  return report.stopped ? exit_interrupted : exit_ok;
}

}  // namespace nq::cli
