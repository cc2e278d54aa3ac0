#include "core/board_parsers.hpp"

#include <cerrno>
#include <cstring>
#include <limits>

#include "nqueens/error.hpp"

namespace nq::detail {
namespace {

// The fuzz targets read in small blocks, so that short inputs cross block boundaries too.
#ifndef NQ_READ_BLOCK
#define NQ_READ_BLOCK (1 << 20)
#endif
constexpr std::size_t block = NQ_READ_BLOCK;
constexpr row_t no_queen = std::numeric_limits<row_t>::max();

bool is_space(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::string first_line(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n\v\f");
  if (start == std::string_view::npos) return {};
  const std::size_t end = text.find('\n', start);
  return std::string(text.substr(start, end == std::string_view::npos ? text.npos : end - start));
}

/// A matrix line holds at least two whitespace-separated cells, each "0" or "1".
bool looks_like_matrix_line(std::string_view line) {
  std::size_t cells = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (is_space(c)) continue;
    if (c != '0' && c != '1') return false;
    if (i + 1 < line.size() && !is_space(line[i + 1])) return false;
    ++cells;
  }
  return cells >= 2;
}

}  // namespace

byte_source::byte_source(std::FILE* in, std::string name) : in_(in), name_(std::move(name)) {
  buffer_.resize(block);
  fill();
}

bool byte_source::fill() {
  if (pos_ < end_) return true;
  pos_ = end_ = 0;
  end_ = std::fread(buffer_.data(), 1, buffer_.size(), in_);
  if (end_ == 0 && std::ferror(in_)) fail(std::string("cannot read: ") + std::strerror(errno));
  return end_ > 0;
}

std::string byte_source::rest() {
  std::string all(window());
  pos_ = end_;
  while (fill()) {
    all.append(window());
    pos_ = end_;
  }
  return all;
}

void byte_source::fail(const std::string& what) const { throw usage_error(name_ + ": " + what); }

void byte_source::fail_at_line(const std::string& what) const {
  fail("line " + std::to_string(line_) + ": " + what);
}

std::string describe_byte(int c) {
  if (c < 0) return "end of input";
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  char hex[16];
  std::snprintf(hex, sizeof hex, "byte 0x%02x", static_cast<unsigned>(c));
  return hex;
}

board_format detect_format(byte_source& bytes) {
  const std::string line = first_line(bytes.window());
  if (line.empty()) bytes.fail("empty input: no board to read");
  if (line[0] == '{') return board_format::json;
  if (line.find_first_not_of("Qq. \t\r") == std::string::npos) return board_format::grid;
  const std::string_view window = bytes.window();
  const bool more_lines = first_line(window.substr(window.find(line) + line.size())).size() > 0;
  if (more_lines && looks_like_matrix_line(line)) return board_format::matrix;
  return board_format::positions;
}

std::vector<row_t> read_positions(byte_source& bytes) {
  std::vector<row_t> rows;
  for (;;) {
    int c = bytes.peek();
    while (is_space(c) || c == ',') {
      bytes.get();
      c = bytes.peek();
    }
    if (c < 0) break;
    if (c < '0' || c > '9')
      bytes.fail_at_line("expected a row number (1-based), found " + describe_byte(c));
    index_t value = 0;
    while (c >= '0' && c <= '9') {
      value = value * 10 + static_cast<index_t>(c - '0');
      if (value > max_n) bytes.fail_at_line("row number too large for any board");
      bytes.get();
      c = bytes.peek();
    }
    if (c >= 0 && !is_space(c) && c != ',')
      bytes.fail_at_line("expected a row number (1-based), found " + describe_byte(c));
    if (value == 0)
      bytes.fail_at_line("row 0 in column " + std::to_string(rows.size() + 1) +
                         ": positions are 1-based");
    rows.push_back(static_cast<row_t>(value - 1));
  }
  if (rows.empty()) bytes.fail("empty input: no board to read");
  for (std::size_t col = 0; col < rows.size(); ++col) {
    if (rows[col] >= rows.size())
      bytes.fail("column " + std::to_string(col + 1) + " has row " + std::to_string(rows[col] + 1) +
                 ", outside 1.." + std::to_string(rows.size()) + " for a board of " +
                 std::to_string(rows.size()) + " queens");
  }
  return rows;
}

std::vector<row_t> read_cells(byte_source& bytes, char queen, char empty) {
  std::vector<row_t> rows;
  std::size_t n = 0, row = 0;
  std::string cells;
  for (int c = bytes.peek(); c >= 0; c = bytes.peek()) {
    cells.clear();
    for (c = bytes.get(); c >= 0 && c != '\n'; c = bytes.get()) {
      if (is_space(c)) continue;
      if (c != queen && c != empty && !(queen == 'Q' && c == 'q'))
        bytes.fail_at_line(std::string("expected '") + queen + "' or '" + empty + "', found " +
                           describe_byte(c));
      cells.push_back(static_cast<char>(c));
    }
    if (cells.empty()) continue;
    if (n == 0) {
      n = cells.size();
      rows.assign(n, no_queen);
    }
    const std::string where = "board row " + std::to_string(row + 1) + ": ";
    if (cells.size() != n)
      bytes.fail(where + std::to_string(cells.size()) + " cells, expected " + std::to_string(n));
    if (row >= n)
      bytes.fail("more than " + std::to_string(n) + " rows for " + std::to_string(n) + " columns");
    for (std::size_t col = 0; col < n; ++col) {
      if (cells[col] == empty) continue;
      if (rows[col] != no_queen)
        bytes.fail("column " + std::to_string(col + 1) + " has more than one queen");
      rows[col] = static_cast<row_t>(row);
    }
    ++row;
  }
  if (n == 0) bytes.fail("empty input: no board to read");
  if (row != n)
    bytes.fail(std::to_string(row) + " rows for " + std::to_string(n) +
               " columns: a board is square");
  for (std::size_t col = 0; col < n; ++col)
    if (rows[col] == no_queen) bytes.fail("column " + std::to_string(col + 1) + " has no queen");
  return rows;
}

}  // namespace nq::detail
