#include "core/board_io.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "core/board_parsers.hpp"
#include "nqueens/error.hpp"

namespace nq {

board_format parse_board_format(std::string_view name) {
  if (name == "auto") return board_format::auto_detect;
  if (name == "positions") return board_format::positions;
  if (name == "grid") return board_format::grid;
  if (name == "matrix") return board_format::matrix;
  if (name == "json") return board_format::json;
  throw usage_error("unknown board format '" + std::string(name) +
                    "' (expected auto, positions, grid, matrix or json)");
}

byte_sink::~byte_sink() {
  try {
    flush();
  } catch (...) {
    // Callers flush explicitly to see errors; a destructor must not throw.
  }
}

void byte_sink::write_number(std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  write(std::string_view(digits, static_cast<std::size_t>(end - digits)));
}

void byte_sink::flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t written = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      buffer_.clear();
      throw resource_error(std::string("cannot write output: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(written);
  }
  buffer_.clear();
}

void write_board(byte_sink& out, std::span<const row_t> queen_row, board_format format) {
  const std::size_t n = queen_row.size();
  if (format == board_format::positions) {
    for (std::size_t col = 0; col < n; ++col) {
      if (col) out.write(" ");
      out.write_number(std::uint64_t{queen_row[col]} + 1);
    }
    out.write("\n");
    return;
  }
  const bool grid = format == board_format::grid;
  NQ_EXPECTS(grid || format == board_format::matrix, "a board layout to write");
  std::string line(2 * n, ' ');
  line.back() = '\n';
  for (std::size_t row = 0; row < n; ++row) {
    for (std::size_t col = 0; col < n; ++col) {
      const bool queen = queen_row[col] == row;
      line[2 * col] = grid ? (queen ? 'Q' : '.') : (queen ? '1' : '0');
    }
    out.write(line);
  }
}

void write_rows_array(byte_sink& out, std::span<const row_t> queen_row) {
  out.write("[");
  for (std::size_t col = 0; col < queen_row.size(); ++col) {
    if (col) out.write(",");
    out.write_number(queen_row[col]);
  }
  out.write("]");
}

std::vector<row_t> read_board(std::FILE* in, board_format format, const std::string& source,
                              std::uint64_t max_queens, std::size_t of_line) {
  detail::byte_source bytes(in, source, max_queens, of_line);
  const bool detected = format == board_format::auto_detect;
  if (detected) format = detail::detect_format(bytes);
  switch (format) {
    case board_format::grid:  // also the alphabets of other tools: * - 0 for empty, 1 a queen
      return detail::read_cells(bytes, "Qq1", ".*-0");
    case board_format::matrix:  // detected from a line of 0s and 1s: Q . * - may come later
      return detected ? detail::read_cells(bytes, "1Qq", "0.*-")
                      : detail::read_cells(bytes, "1", "0");
    case board_format::json:
      return detail::read_json(bytes);
    default:
      return detail::read_positions(bytes);
  }
}

}  // namespace nq
