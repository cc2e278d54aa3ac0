// nqueens solutions: every solution (or the first K), in lexicographic order, one per line.

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"
#include "nqueens/systematic.hpp"

namespace nq::cli {

namespace {

/// What `nqueens solutions` was asked for.
struct solutions_command {
  solutions_request job;
  std::string format;
  std::string output;
  bool progress = false;  // the progress line on stderr (progress_wanted)
};

solutions_command parse_request(int argc, char** argv) {
  cxxopts::Options options(
      "nqueens solutions",
      "Print every solution for n queens in lexicographic order, one per line: positions "
      "(1-based row per column) or JSON lines. n up to 5000 is accepted, but the search is "
      "exponential: the first solution for n = 30 takes seconds, and beyond about 60 the search "
      "may not finish in a lifetime; give --time-limit. On a terminal (or with --progress) a "
      "progress line shows on stderr.");
  // clang-format off
  options.add_options()
      ("n,queens", "number of queens (and board size)", cxxopts::value<std::string>())
      ("l,limit", "stop after this many solutions", cxxopts::value<std::string>())
      ("f,format", "positions or json (one JSON object per line)", cxxopts::value<std::string>()->default_value("positions"))
      ("o,output", "write to FILE (atomically) instead of standard output", cxxopts::value<std::string>())
      ("time-limit", "stop after SEC seconds (exit 1, the solutions found so far kept)", cxxopts::value<std::string>())
      ("q,quiet", "no progress line")
      ("progress", "show the progress line on stderr even where it is not a terminal")
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(options.help());
  if (!args.count("queens")) throw usage_error("missing -n: how many queens? (see --help)");
  solutions_command request;
  request.job.n = parse_board_size(args["queens"].as<std::string>());
  if (request.job.n > max_systematic_n)
    throw usage_error("-n " + std::to_string(request.job.n) +
                      " is above the enumeration limit of " + std::to_string(max_systematic_n));
  if (args.count("limit"))
    request.job.limit = parse_positive("--limit", args["limit"].as<std::string>());
  request.format = args["format"].as<std::string>();
  if (request.format != "positions" && request.format != "json")
    throw usage_error("unknown format '" + request.format + "' (expected positions or json)");
  if (args.count("time-limit"))
    request.job.limits.time_limit =
        parse_seconds("--time-limit", args["time-limit"].as<std::string>());
  request.output = file_option(args, "output");
  request.progress = progress_wanted(args);
  return request;
}

}  // namespace

int run_solutions(int argc, char** argv) {
  solutions_command request = parse_request(argc, argv);
  const index_t n = request.job.n;
  const std::string& format = request.format;
  // n = 2 and 3 are answered at once, and as solve does for them, with no file at all.
  if (!solution_exists(n)) {
    std::fprintf(stderr, "nqueens solutions: no solution exists for n=%llu\n",
                 static_cast<unsigned long long>(n));
    return exit_unsolved;
  }
  output_target output(request.output);
  byte_sink& out = output.sink();
  std::uint64_t printed = 0;
  progress_line progress(request.progress);
  if (request.progress)
    request.job.progress = [&](const solve_progress& p) {
      if (progress.due(p.seconds))
        progress.show("%llu solutions | %.3g nodes | %.1f s",
                      static_cast<unsigned long long>(p.restarts), static_cast<double>(p.steps),
                      p.seconds);
    };
  const solutions_report walked = run(request.job, [&](std::span<const row_t> rows) {
    ++printed;
    if (format == "json") {
      out.write("{\"n\":");
      out.write_number(n);
      out.write(",\"index\":");
      out.write_number(printed);
      out.write(",\"rows\":");
      write_rows_array(out, rows);
      out.write("}\n");
    } else {
      write_board(out, rows, board_format::positions);
    }
    return true;
  });
  const bool stopped = walked.stopped;
  progress.finish();
  output.commit();
  if (stopped) {
    std::fprintf(stderr, "nqueens solutions: stopped at the time limit after %llu solution%s\n",
                 static_cast<unsigned long long>(printed), printed == 1 ? "" : "s");
    return exit_unsolved;
  }
  if (printed == 0) {
    std::fprintf(stderr, "nqueens solutions: no solution exists for n=%llu\n",
                 static_cast<unsigned long long>(n));
    return exit_unsolved;
  }
  return exit_ok;
}

}  // namespace nq::cli
