// nqueens solutions: every solution (or the first K), in lexicographic order, one per line.

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/error.hpp"
#include "nqueens/systematic.hpp"

namespace nq::cli {

int run_solutions(int argc, char** argv) {
  cxxopts::Options options("nqueens solutions",
                           "Print every solution for n queens in lexicographic order, one per "
                           "line: positions (1-based row per column) or JSON lines.");
  // clang-format off
  options.add_options()
      ("n,queens", "number of queens (and board size)", cxxopts::value<std::string>())
      ("l,limit", "stop after this many solutions", cxxopts::value<std::string>())
      ("f,format", "positions or json (one JSON object per line)", cxxopts::value<std::string>()->default_value("positions"))
      ("o,output", "write to FILE (atomically) instead of standard output", cxxopts::value<std::string>())
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(options.help());
  if (!args.count("queens")) throw usage_error("missing -n: how many queens? (see --help)");
  const index_t n = parse_board_size(args["queens"].as<std::string>());
  if (n > max_systematic_n)
    throw usage_error("-n " + std::to_string(n) + " is above the enumeration limit of " +
                      std::to_string(max_systematic_n));
  std::uint64_t limit = 0;
  if (args.count("limit")) limit = parse_positive("--limit", args["limit"].as<std::string>());
  const std::string format = args["format"].as<std::string>();
  if (format != "positions" && format != "json")
    throw usage_error("unknown format '" + format + "' (expected positions or json)");
  output_target output(args.count("output") ? args["output"].as<std::string>() : "");
  byte_sink& out = output.sink();
  std::uint64_t printed = 0;
  for_each_solution(n, [&](std::span<const row_t> rows) {
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
    return limit == 0 || printed < limit;
  });
  output.commit();
  if (printed == 0) {
    std::fprintf(stderr, "nqueens solutions: no solution exists for n=%llu\n",
                 static_cast<unsigned long long>(n));
    return exit_unsolved;
  }
  return exit_ok;
}

}  // namespace nq::cli
