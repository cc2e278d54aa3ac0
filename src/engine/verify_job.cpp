// The verify request: a board from a file (streamed where its layout allows, else held) or from
// memory, one board or one a line, within a memory limit.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>

#include "core/board_io.hpp"
#include "core/verify_stream.hpp"
#include "nqueens/detail/memory.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

struct file_closer {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

/// What verify takes a queen when it holds the board: its row and a byte for each line.
constexpr std::uint64_t held_bytes_per_queen = 9;

/// The bytes verify may take: the request's limit, or the memory available (0: unknown, no
/// bound).
std::uint64_t verify_memory_limit(const verify_request& request) {
  const auto limit = request.memory_limit ? request.memory_limit : available_memory_bytes();
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

/// Every board of `in`, one a line, each report to on_board.
verify_outcome verify_each(const verify_request& request, std::FILE* in, board_format format,
                           const std::string& source, std::uint64_t max_queens) {
  if (format == board_format::grid || format == board_format::matrix ||
      format == board_format::npy || format == board_format::raw)
    throw usage_error("--each reads one board per line: positions or JSON lines, not " +
                      request.format);
  verify_outcome out;
  std::size_t number = 0;
  for (std::string line; read_board_line(in, line, max_queens, source);) {
    ++number;
    if (line.find_first_not_of(" \t\r\v\f") == std::string::npos) continue;
    std::unique_ptr<std::FILE, file_closer> text(fmemopen(line.data(), line.size(), "rb"));
    if (!text) throw resource_error("out of memory");
    out.report = verify_board(read_board(text.get(), format, source, max_queens, number));
    ++out.boards;
    out.all_valid = out.all_valid && out.report.valid();
    if (request.on_board) request.on_board(out.report);
  }
  if (number == 0) throw usage_error(source + ": empty input: no board to read");
  return out;
}

}  // namespace

verify_outcome run(const verify_request& request) {
  const board_format format = parse_board_format(request.format);
  unsigned threads = request.threads ? request.threads
                                     : std::max(1u, std::thread::hardware_concurrency());
  verify_outcome out;
  if (request.path.empty()) {
    out.report = verify_board(request.board, threads);
    out.boards = 1;
    out.all_valid = out.report.valid();
    return out;
  }
  std::unique_ptr<std::FILE, file_closer> opened;
  std::FILE* in = stdin;
  if (request.path != "-") {
    opened.reset(std::fopen(request.path.c_str(), "rb"));
    if (!opened) throw usage_error("cannot open " + request.path + ": " + std::strerror(errno));
    in = opened.get();
  }
  const std::string source = request.path == "-" ? "standard input" : request.path;
  const std::uint64_t memory_limit = verify_memory_limit(request);
  const std::uint64_t max_queens = memory_limit / held_bytes_per_queen;
  if (threads > 1024)
    throw usage_error("--threads must be at most 1024, got " + std::to_string(threads));
  if (request.each) return verify_each(request, in, format, source, max_queens);
  // A file streams (about 1 bit a line); other input is held whole.
  std::optional<verify_report> streamed =
      detail::verify_streamed(in, format, source, threads, memory_limit);
  out.report =
      streamed ? *streamed : verify_board(read_board(in, format, source, max_queens), threads);
  out.boards = 1;
  out.all_valid = out.report.valid();
  return out;
}

}  // namespace nq
