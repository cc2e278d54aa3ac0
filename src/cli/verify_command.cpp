// nqueens verify: reads a board in any layout nqueens writes and reports its attacking pairs.

#include <cstdio>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"
#include "nqueens/settings.hpp"

namespace nq::cli {

int run_verify(int argc, char** argv) {
  cxxopts::Options options("nqueens verify",
                           "Check a board: exit 0 if no two queens attack, 1 if some do, 2 if the "
                           "input is not a board.");
  options.positional_help("[FILE|-]");
  // clang-format off
  options.add_options()
      ("file", "board to read; - or nothing reads standard input", cxxopts::value<std::string>())
      ("f,format", "auto (each detected), positions, grid, matrix, json, npy or raw (binary uint32 rows, 0-based)", cxxopts::value<std::string>()->default_value("auto"))
      ("json", "report as JSON (columns 0-based)")
      ("each", "one board per line (positions or JSON lines, as solutions writes): a report per board; exit 0 when every one is valid")
      ("memory-limit", "refuse boards needing more than this, e.g. 512M (a file of a million queens or more in npy, raw or positions on one line: 1 to 2 bytes a queen, 5 when it has a clash; otherwise about 9; default: what is available)", cxxopts::value<std::string>())
      ("t,threads", "count the lines of a board of a million queens or more on T threads (default: every core); the report does not depend on them", cxxopts::value<std::string>())
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv, "file");
  if (args.count("help")) throw help_requested(options.help());
  engine::named_settings given;
  for (const char* name : {"file", "format", "memory-limit", "threads"})
    if (args.count(name)) given.set(name, args[name].as<std::string>());
  if (args.count("each")) given.set("each", "true");
  verify_request request = engine::verify_request_from(given);
  const bool json = args.count("json") > 0;
  const auto write = [&](const verify_report& report) {
    std::fputs((json ? nq::to_json(report) + "\n" : to_text(report)).c_str(), stdout);
  };
  request.on_board = write;
  const verify_outcome outcome = nq::run(request);
  if (!request.each) write(outcome.report);
  return outcome.all_valid ? exit_ok : exit_unsolved;
}

}  // namespace nq::cli
