// nqueens verify: reads a board in any layout nqueens writes and reports its attacking pairs.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/verify_stream.hpp"
#include "nqueens/detail/memory.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"
#include "nqueens/verify.hpp"

namespace nq::cli {
namespace {

struct file_closer {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

/// What verify takes a queen when it holds the board: its row and a byte for each line.
constexpr std::uint64_t held_bytes_per_queen = 9;

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

/// The bytes verify may take: --memory-limit, or the memory available (0: unknown, no bound).
std::uint64_t verify_memory_limit(const cxxopts::ParseResult& args) {
  const auto limit = args.count("memory-limit")
                         ? std::optional(parse_byte_size(args["memory-limit"].as<std::string>()))
                         : available_memory_bytes();
  if (!limit) return 0;
  if (*limit < held_bytes_per_queen)  // 0 would mean no bound
    throw resource_error("a memory limit of " + std::to_string(*limit) +
                         " bytes leaves no room for a board (verify needs about 9 bytes per "
                         "queen; see --memory-limit)");
  return *limit;
}

/// One line of `in` (without its newline); false at the end. A line longer than a board of
/// `max_queens` could be (16 bytes a queen) is a resource_error.
bool read_board_line(std::FILE* in, std::string& line, std::uint64_t max_queens,
                     const std::string& source) {
  line.clear();
  int c = 0;
  while ((c = std::getc(in)) != EOF && c != '\n') {
    line.push_back(static_cast<char>(c));
    if (max_queens && line.size() / 16 > max_queens)
      throw resource_error(source + ": a line passes the memory limit (verify needs about 9 " +
                           "bytes per queen; see --memory-limit)");
  }
  return c != EOF || !line.empty();
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
      ("f,format", "auto (each detected), positions, grid, matrix, json, npy or raw (binary uint32 rows, 0-based)", cxxopts::value<std::string>()->default_value("auto"))
      ("json", "report as JSON (columns 0-based)")
      ("each", "one board per line (positions or JSON lines, as solutions writes): a report per board; exit 0 when every one is valid")
      ("memory-limit", "refuse boards needing more than this, e.g. 512M (a file of a million queens or more in npy, raw or positions on one line: 1 to 2 bytes a queen, 5 when it has a clash; otherwise about 9; default: what is available)", cxxopts::value<std::string>())
      ("t,threads", "count the lines of a board of a million queens or more on T threads (default: every core); the report does not depend on them", cxxopts::value<std::string>())
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
  const std::string source = path == "-" ? "standard input" : path;
  const std::uint64_t memory_limit = verify_memory_limit(args);
  const std::uint64_t max_queens = memory_limit / held_bytes_per_queen;
  const bool json = args.count("json") > 0;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (args.count("threads")) {
    const std::uint64_t asked = parse_positive("--threads", args["threads"].as<std::string>());
    if (asked > 1024)
      throw usage_error("--threads must be at most 1024, got " + std::to_string(asked));
    threads = static_cast<unsigned>(asked);
  }
  if (!args.count("each")) {
    // A file streams (about 1 bit a line); other input is held whole.
    std::optional<verify_report> streamed =
        detail::verify_streamed(in, format, source, threads, memory_limit);
    const verify_report report =
        streamed ? *streamed : verify_board(read_board(in, format, source, max_queens), threads);
    std::fputs((json ? nq::to_json(report) + "\n" : describe(report)).c_str(), stdout);
    return report.valid() ? exit_ok : exit_unsolved;
  }
  if (format == board_format::grid || format == board_format::matrix ||
      format == board_format::npy || format == board_format::raw)
    throw usage_error("--each reads one board per line: positions or JSON lines, not " +
                      args["format"].as<std::string>());
  bool all_valid = true;
  std::size_t number = 0;
  for (std::string line; read_board_line(in, line, max_queens, source);) {
    ++number;
    if (line.find_first_not_of(" \t\r\v\f") == std::string::npos) continue;
    std::unique_ptr<std::FILE, file_closer> text(fmemopen(line.data(), line.size(), "rb"));
    if (!text) throw resource_error("out of memory");
    const verify_report report =
        verify_board(read_board(text.get(), format, source, max_queens, number));
    std::fputs((json ? nq::to_json(report) + "\n" : describe(report)).c_str(), stdout);
    all_valid = all_valid && report.valid();
  }
  if (number == 0) throw usage_error(source + ": empty input: no board to read");
  return all_valid ? exit_ok : exit_unsolved;
}

}  // namespace nq::cli
