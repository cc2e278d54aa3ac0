#include "core/board_parsers.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>
#include <tuple>

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

std::size_t byte_source::read_bytes(char* out, std::size_t size) {
  std::size_t done = std::min(size, end_ - pos_);
  std::memcpy(out, buffer_.data() + pos_, done);
  pos_ += done;
  while (done < size) {
    const std::size_t got = std::fread(out + done, 1, size - done, in_);
    if (got == 0) {
      if (std::ferror(in_)) fail(std::string("cannot read: ") + std::strerror(errno));
      break;
    }
    done += got;
  }
  return done;
}

std::uint64_t byte_source::bytes_left() const {
  struct stat facts {};
  const long at = std::ftell(in_);
  if (at < 0 || fstat(fileno(in_), &facts) != 0 || !S_ISREG(facts.st_mode) || facts.st_size < at)
    return 0;
  return static_cast<std::uint64_t>(facts.st_size - at) + (end_ - pos_);
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

namespace {

constexpr std::string_view npy_magic("\x93NUMPY", 6);

/// The value of `key` in an npy header's dict ("'descr': '<u4', ..."), as written.
std::string_view npy_field(std::string_view header, std::string_view key) {
  std::string quoted(1, '\'');
  quoted.append(key).push_back('\'');
  auto at = header.find(quoted);
  if (at == std::string_view::npos) return {};
  at = header.find(':', at + quoted.size());
  if (at == std::string_view::npos) return {};
  ++at;
  while (at < header.size() && header[at] == ' ') ++at;
  std::size_t end = at;
  if (end < header.size() && header[end] == '(') {
    end = header.find(')', end);
    return end == std::string_view::npos ? std::string_view() : header.substr(at, end + 1 - at);
  }
  while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  while (end > at && header[end - 1] == ' ') --end;
  return header.substr(at, end - at);
}

/// `n` items of `width` bytes (signed or not) as rows, each checked against [0, n).
std::vector<row_t> read_items(byte_source& bytes, std::uint64_t n, unsigned width, bool is_signed,
                              const char* what) {
  if (n == 0) bytes.fail(std::string(what) + " holds no row: no board to read");
  if (n > max_n)
    bytes.fail(std::string(what) + " holds " + std::to_string(n) + " rows, more than " +
               std::to_string(max_n) + " queens");
  bytes.check_size(n);
  // Grown as the data comes, not sized from the header: a header that claims 4 billion rows
  // over a few bytes of data allocates what the data holds, then is refused as truncated.
  std::vector<row_t> rows;
  rows.reserve(static_cast<std::size_t>(
      std::min<std::uint64_t>(n, (std::uint64_t{1} << 16) + bytes.bytes_left() / width)));
  std::vector<char> chunk(std::size_t{1} << 20);
  std::uint64_t col = 0;
  while (col < n) {
    const std::uint64_t items = std::min<std::uint64_t>(n - col, chunk.size() / width);
    const std::size_t want = static_cast<std::size_t>(items) * width;
    if (bytes.read_bytes(chunk.data(), want) != want)
      bytes.fail(std::string(what) + " is truncated: " + std::to_string(n) + " rows expected");
    for (std::uint64_t i = 0; i < items; ++i, ++col) {
      std::uint64_t value = 0;
      std::memcpy(&value, chunk.data() + i * width, width);  // little-endian, as the host
      const bool negative = is_signed && (value >> (8 * width - 1)) & 1;
      if (negative || value >= n)
        bytes.fail("column " + std::to_string(col + 1) + " has row " +
                   (negative ? std::string("< 0") : std::to_string(value)) + ", outside 0.." +
                   std::to_string(n - 1) + " (rows are 0-based)");
      rows.push_back(static_cast<row_t>(value));
    }
  }
  char extra = 0;
  if (bytes.read_bytes(&extra, 1) != 0)
    bytes.fail(std::string(what) + " has bytes after its " + std::to_string(n) + " rows");
  return rows;
}

}  // namespace

board_format detect_binary(byte_source& bytes) {
  bytes.refill_window();
  const std::string_view window = bytes.window();
  if (window.starts_with(npy_magic)) return board_format::npy;
  if (window.find('\0') != std::string_view::npos) return board_format::raw;
  return board_format::auto_detect;
}

npy_layout read_npy_header(byte_source& bytes) {
  static_assert(std::endian::native == std::endian::little, "npy data is read as held");
  char lead[8];
  if (bytes.read_bytes(lead, sizeof lead) != sizeof lead || std::string_view(lead, 6) != npy_magic)
    bytes.fail("not an npy file (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(lead[6]);
  if (major < 1 || major > 3)
    bytes.fail("npy version " + std::to_string(major) + " is not one this reader knows (1 to 3)");
  unsigned char size_bytes[4] = {};
  const std::size_t size_width = major == 1 ? 2 : 4;
  if (bytes.read_bytes(reinterpret_cast<char*>(size_bytes), size_width) != size_width)
    bytes.fail("npy header is truncated");
  std::uint64_t header_size = 0;
  for (std::size_t i = 0; i < size_width; ++i)
    header_size |= std::uint64_t{size_bytes[i]} << (8 * i);
  if (header_size > 65536)
    bytes.fail("npy header of " + std::to_string(header_size) + " bytes is too long");
  std::string header(static_cast<std::size_t>(header_size), '\0');
  if (bytes.read_bytes(header.data(), header.size()) != header.size())
    bytes.fail("npy header is truncated");
  const std::string_view descr = npy_field(header, "descr");
  unsigned width = 0;
  bool is_signed = false;
  for (const auto& [name, w, s] : {std::tuple{"'<u4'", 4u, false},
                                   {"'<i4'", 4u, true},
                                   {"'<u8'", 8u, false},
                                   {"'<i8'", 8u, true}})
    if (descr == name) width = w, is_signed = s;
  if (!width)
    bytes.fail("npy dtype " + std::string(descr.empty() ? "(none)" : descr) +
               " is not a row type (expected '<u4', '<i4', '<u8' or '<i8')");
  if (npy_field(header, "fortran_order") != "False")
    bytes.fail("npy array in Fortran order (expected fortran_order False)");
  const std::string_view shape = npy_field(header, "shape");
  // One dimension: "(n,)".
  std::uint64_t n = 0;
  const bool one_dimension =
      shape.size() >= 4 && shape.front() == '(' && shape.ends_with(",)") &&
      std::from_chars(shape.data() + 1, shape.data() + shape.size() - 2, n).ptr ==
          shape.data() + shape.size() - 2;
  if (!one_dimension)
    bytes.fail("npy shape " + std::string(shape.empty() ? "(none)" : shape) +
               " is not one row per column (expected a shape of (n,))");
  return {n, width, is_signed, 8 + size_width + header_size};
}

std::vector<row_t> read_npy(byte_source& bytes) {
  const npy_layout layout = read_npy_header(bytes);
  return read_items(bytes, layout.n, layout.width, layout.is_signed, "the npy array");
}

std::vector<row_t> read_raw(byte_source& bytes) {
  static_assert(std::endian::native == std::endian::little, "raw data is read as held");
  // Read to the end: a file's size is known ahead (one allocation), a pipe's is not.
  std::vector<row_t> rows;
  rows.reserve(static_cast<std::size_t>(bytes.bytes_left() / sizeof(row_t)));
  std::vector<char> chunk(std::size_t{1} << 20);
  std::size_t carry = 0;  // bytes of a row split between two reads
  for (;;) {
    const std::size_t want = chunk.size() - carry;
    const std::size_t got = bytes.read_bytes(chunk.data() + carry, want);
    const std::size_t held = carry + got, whole = held / sizeof(row_t);
    const std::size_t before = rows.size();
    if (whole) {  // (an empty vector's data() may be null, which memcpy must not get)
      rows.resize(before + whole);
      std::memcpy(rows.data() + before, chunk.data(), whole * sizeof(row_t));
    }
    carry = held - whole * sizeof(row_t);
    std::memmove(chunk.data(), chunk.data() + whole * sizeof(row_t), carry);
    bytes.check_size(rows.size());
    if (rows.size() > max_n)
      bytes.fail("raw board of more than " + std::to_string(max_n) + " rows (the most queens)");
    if (got < want) break;
  }
  const std::uint64_t size = rows.size() * sizeof(row_t) + carry;
  if (carry)
    bytes.fail("raw board of " + std::to_string(size) +
               " bytes: not whole little-endian uint32 rows (a multiple of 4 bytes)");
  const std::uint64_t n = rows.size();
  if (n == 0) bytes.fail("empty input: no board to read");
  for (std::size_t col = 0; col < rows.size(); ++col)
    if (rows[col] >= n)
      bytes.fail("column " + std::to_string(col + 1) + " has row " + std::to_string(rows[col]) +
                 ", outside 0.." + std::to_string(n - 1) +
                 " (read as a raw board: little-endian uint32 rows, 0-based)");
  return rows;
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
