// nqueens bench: the engine's benchmark (nqueens/bench.hpp) as a table (SI units, each
// figure's quality) or its JSON record, and a comparison with a record saved before.

#include <cstdio>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/temp_files.hpp"
#include "nqueens/settings.hpp"
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
      ("progress", "show the progress line on stderr even where it is not a terminal")
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(options.help());
  // The benchmark as the engine reads it (the command's output options after it).
  engine::named_settings given;
  for (const char* name : {"suite", "workloads", "device", "time-budget", "threads", "compare"})
    if (args.count(name)) given.set(name, args[name].as<std::string>());
  for (const char* name : {"quick", "compare-shared"})
    if (args.count(name)) given.set(name, "true");
  bench_request request = engine::bench_request_from(given);
  const bool as_json = parse_text_or_json(args["format"].as<std::string>());
  const std::string path = file_option(args, "output");
  refuse_shared_outputs({{"-o", path.empty() ? "-" : path}});
  const bool show = progress_wanted(args);
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
  if (show) std::fputs("\r\033[K", stderr);
  report.command = "nqueens bench";
  for (int i = 1; i < argc; ++i) report.command += std::string(" ") + argv[i];
  const std::string text = as_json ? to_json(report) + "\n" : to_text(report);
  // A signal while the record is written lets it finish whole (then exit 130); a second one
  // ends the process, the temporary removed and the old file kept.
  output.sink().write(text);
  output.commit();
  remove_temp_files_on_signal();  // from here on, a signal ends the process
  return report.stopped || interrupted.load() ? exit_interrupted : exit_ok;
}

}  // namespace nq::cli
