#include "core/board_parsers.hpp"

#include <algorithm>
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

/// The next line of `text` holding more than whitespace, from its first such byte; consumed.
std::string_view next_line(std::string_view& text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n\v\f");
  if (start == std::string_view::npos) return text = {};
  const std::size_t end = std::min(text.find('\n', start), text.size());
  const std::string_view line = text.substr(start, end - start);
  text.remove_prefix(end);
  return line;
}

/// Whether a number in `line` starts with 0: a matrix row ("0100"), never a row number.
bool has_number_starting_with_zero(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] == '0' && (i == 0 || is_space(line[i - 1]))) return true;
  return false;
}

/// "1 queen", "8 queens".
std::string queens(std::size_t n) { return std::to_string(n) + (n == 1 ? " queen" : " queens"); }

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

byte_source::byte_source(std::FILE* in, std::string name, std::uint64_t max_queens,
                         std::size_t of_line)
    : in_(in),
      name_(std::move(name)),
      line_(of_line ? of_line : 1),
      max_queens_(max_queens),
      of_line_(of_line != 0) {
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
    check_size(all.size() / 16);
  }
  return all;
}

void byte_source::refill_window() {
  if (pos_ == 0) return;
  buffer_.erase(0, pos_);
  end_ -= pos_;
  pos_ = 0;
  buffer_.resize(block);
  while (end_ < buffer_.size()) {
    const std::size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, in_);
    if (got == 0) break;
    end_ += got;
  }
}

void byte_source::refuse_size() const {
  throw resource_error(where() + "the board passes " + queens(max_queens_) +
                       ", more than the memory limit allows (verify needs about 9 "
                       "bytes per queen; see --memory-limit)");
}

std::string byte_source::where() const {
  return name_ + ": " + (of_line_ ? "line " + std::to_string(line_) + ": " : "");
}

void byte_source::fail(const std::string& what) const { throw usage_error(where() + what); }

void byte_source::fail_at_line(const std::string& what) const {
  if (of_line_) fail(what);  // where() names the line
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
  while (is_space(bytes.peek())) bytes.get();  // however much whitespace comes first
  bytes.refill_window();
  std::string_view window = bytes.window();
  const std::string_view line = next_line(window), second = next_line(window);
  if (line.empty()) bytes.fail("empty input: no board to read");
  if (line[0] == '{') return board_format::json;
  // A grid in any alphabet: Q, q or 1 for a queen, '.', '*', '-' or 0 for an empty square.
  if (line.find_first_not_of("Qq1.*-0 \t\r\v\f") != std::string_view::npos)
    return board_format::positions;
  if (line.find_first_of("Qq.*-") != std::string_view::npos) return board_format::grid;
  // Only 0s and 1s: a matrix when its cells are spaced or a number starts with 0.
  if (!second.empty() && (looks_like_matrix_line(line) || has_number_starting_with_zero(line) ||
                          has_number_starting_with_zero(second)))
    return board_format::matrix;
  return board_format::positions;
}

std::vector<row_t> read_positions(byte_source& bytes) {
  std::vector<row_t> rows;
  // The board ends at the first line break where its numbers make a board (k numbers, each
  // 1..k), so a board wrapped over lines reads whole and the next line is a second board.
  index_t highest = 0;
  const auto complete = [&] { return !rows.empty() && highest <= rows.size(); };
  for (;;) {
    int c = bytes.peek();
    while ((is_space(c) || c == ',') && !(c == '\n' && complete())) {
      bytes.get();
      c = bytes.peek();
    }
    if (c < 0 || c == '\n') break;
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
    highest = std::max(highest, value);
    bytes.check_size(rows.size());
  }
  if (rows.empty()) bytes.fail("empty input: no board to read");
  const std::string ends =
      ", which ends on line " + std::to_string(bytes.line()) + " with " + queens(rows.size());
  while (is_space(bytes.peek())) bytes.get();
  const int next = bytes.peek();
  if (next >= '0' && next <= '9')
    bytes.fail_at_line("a second board follows the first" + ends +
                       "; verify checks one board (--each checks one per line)");
  if (next >= 0)
    bytes.fail_at_line("expected the end of input after the board" + ends + "; found " +
                       describe_byte(next));
  for (std::size_t col = 0; col < rows.size(); ++col) {
    if (rows[col] >= rows.size())
      bytes.fail("column " + std::to_string(col + 1) + " has row " + std::to_string(rows[col] + 1) +
                 ", outside 1.." + std::to_string(rows.size()) + " for a board of " +
                 queens(rows.size()));
  }
  return rows;
}

std::vector<row_t> read_cells(byte_source& bytes, std::string_view queens,
                              std::string_view empties) {
  std::vector<row_t> rows;
  std::size_t n = 0, row = 0;
  std::string cells;
  for (int c = bytes.peek(); c >= 0; c = bytes.peek()) {
    cells.clear();
    for (c = bytes.get(); c >= 0 && c != '\n'; c = bytes.get()) {
      if (is_space(c)) continue;
      const bool queen = queens.find(static_cast<char>(c)) != std::string_view::npos;
      if (!queen && empties.find(static_cast<char>(c)) == std::string_view::npos)
        bytes.fail_at_line(std::string("expected '") + queens[0] + "' or '" + empties[0] +
                           "', found " + describe_byte(c));
      cells.push_back(queen ? 'Q' : '.');
      bytes.check_size(cells.size());
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
      if (cells[col] == '.') continue;
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
