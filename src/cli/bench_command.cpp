// nqueens bench: the engine's benchmark (nqueens/bench.hpp) as a table (SI units, each
// figure's quality) or its JSON record, and a comparison with a record saved before.

#include <cstdio>
#include <sstream>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/temp_files.hpp"
#include "nqueens/bench.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {

int run_bench(int argc, char** argv) {
  cxxopts::Options options(
      "nqueens bench",
      "Time a fixed suite (huge boards, restart batches, populations, counts) on one CPU thread, "
      "on every CPU thread and on each GPU: a warm-up, then repeats until three agree within 5% "
      "or the figure's share of the time budget is spent (the figure is then marked unsteady; "
      "one or two repeats, indicative). Prints a table, or the JSON record (docs/bench.md).");
  // clang-format off
  options.add_options()
      ("quick", "every workload once, at small sizes (seconds in all)")
      ("suite", "standard (default: minutes on two cores) or full (adds 10^9 queens and counts of 18 to 21; 20 and 21 on GPUs only)",
       cxxopts::value<std::string>())
      ("workloads", "only these workloads of the suite, e.g. batch-hc,count-16 (default: every one)",
       cxxopts::value<std::string>())
      ("device", "cpu (one thread and every thread), gpu (each GPU) or all (default: both)",
       cxxopts::value<std::string>()->default_value("all"))
      ("time-budget", "seconds the whole run may take (default: standard 240, full 1200, quick none)",
       cxxopts::value<std::string>())
      ("t,threads", "the all-cores figures' threads (default: every core)", cxxopts::value<std::string>())
      ("compare", "print each figure's ratio to the record in FILE (a saved -f json of the same suite and sizes), slowest first",
       cxxopts::value<std::string>())
      ("compare-shared", "with --compare: compare only the figures both runs have at the same sizes, where the suites or sizes differ")
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
  if (args.count("compare")) {
    request.compare_with = file_option(args, "compare");
    request.compare_shared = args.count("compare-shared") > 0;
  } else if (args.count("compare-shared")) {
    throw usage_error("--compare-shared goes with --compare FILE");
  }
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
  const std::string text = as_json ? to_json(report) + "\n" : to_text(report);
  output.sink().write(text);
  output.commit();
  return report.stopped ? exit_interrupted : exit_ok;
}

}  // namespace nq::cli
