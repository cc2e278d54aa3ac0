// nqueens verify: reads a board in any layout nqueens writes and reports its attacking pairs.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "nqueens/error.hpp"
#include "nqueens/verify.hpp"

namespace nq::cli {
namespace {

struct file_closer {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

std::string describe(const verify_report& report) {
  std::string text = "n=" + std::to_string(report.n) + ": ";
  if (report.valid()) return text + "valid, no two queens attack each other\n";
  text += "invalid, " + std::to_string(report.conflicts) + " attacking pair" +
          (report.conflicts == 1 ? "" : "s");
  if (report.first_clash) {
    const clash& c = *report.first_clash;
    text += "; first clash: columns " + std::to_string(c.col_a + 1) + " and " +
            std::to_string(c.col_b + 1) + " share " +
            (c.kind == line_kind::anti_diagonal ? "an " : "a ") + line_kind_name(c.kind);
  }
  return text + "\n";
}

std::string to_json(const verify_report& report) {
  nlohmann::ordered_json record;
  record["n"] = report.n;
  record["valid"] = report.valid();
  record["conflicts"] = report.conflicts;
  if (report.first_clash) {
    record["first_clash"] = {{"columns", {report.first_clash->col_a, report.first_clash->col_b}},
                             {"line", line_kind_name(report.first_clash->kind)}};
  } else {
    record["first_clash"] = nullptr;
  }
  return record.dump() + "\n";
}

}  // namespace

int run_verify(int argc, char** argv) {
  cxxopts::Options options("nqueens verify",
                           "Check a board: exit 0 if no two queens attack, 1 if some do, 2 if the "
                           "input is not a board.");
  options.positional_help("[FILE|-]");
  // clang-format off
  options.add_options()
      ("file", "board to read; - or nothing reads standard input", cxxopts::value<std::string>())
      ("f,format", "auto, positions, grid, matrix or json", cxxopts::value<std::string>()->default_value("auto"))
      ("json", "report as JSON (columns 0-based)")
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv, "file");
  if (args.count("help")) throw help_requested(options.help());
  const board_format format = parse_board_format(args["format"].as<std::string>());
  const std::string path = args.count("file") ? args["file"].as<std::string>() : "-";
  std::unique_ptr<std::FILE, file_closer> opened;
  std::FILE* in = stdin;
  if (path != "-") {
    opened.reset(std::fopen(path.c_str(), "rb"));
    if (!opened) throw usage_error("cannot open " + path + ": " + std::strerror(errno));
    in = opened.get();
  }
  const std::vector<row_t> board = read_board(in, format, path == "-" ? "standard input" : path);
  const verify_report report = verify_board(board);
  const std::string text = args.count("json") ? to_json(report) : describe(report);
  std::fputs(text.c_str(), stdout);
  return report.valid() ? exit_ok : exit_unsolved;
}

}  // namespace nq::cli
