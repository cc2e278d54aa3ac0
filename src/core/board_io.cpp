#include "core/board_io.hpp"

#include <unistd.h>

#include <bit>
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
  if (name == "npy") return board_format::npy;
  if (name == "raw") return board_format::raw;
  throw usage_error("unknown board format '" + std::string(name) +
                    "' (expected auto, positions, grid, matrix, json, npy or raw)");
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

namespace {

void write_all(int fd, const char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t written = ::write(fd, data + done, size - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0)
      throw resource_error(std::string("cannot write output: ") + std::strerror(errno));
    done += static_cast<std::size_t>(written);
  }
}

}  // namespace

void byte_sink::flush() {
  try {
    write_all(fd_, buffer_.data(), buffer_.size());
  } catch (...) {
    buffer_.clear();
    throw;
  }
  buffer_.clear();
}

void byte_sink::write_bytes(const void* data, std::size_t size) {
  if (buffer_.size() + size <= capacity) {
    buffer_.append(static_cast<const char*>(data), size);
    return;
  }
  flush();
  write_all(fd_, static_cast<const char*>(data), size);
}

void write_board(byte_sink& out, std::span<const row_t> queen_row, board_format format) {
  const std::size_t n = queen_row.size();
  static_assert(std::endian::native == std::endian::little, "npy and raw are written as held");
  if (format == board_format::npy) {
    // NumPy's format 1.0: magic, version, a little-endian header length, then the header (a
    // Python dict) padded with spaces to a newline, so that the data starts at a multiple of 64.
    std::string header =
        "{'descr': '<u4', 'fortran_order': False, 'shape': (" + std::to_string(n) + ",), }";
    header.append(63 - (10 + header.size()) % 64, ' ');
    header += '\n';
    const char lead[8] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
    const char length[2] = {static_cast<char>(header.size() & 0xFF),
                            static_cast<char>(header.size() >> 8)};
    out.write(std::string_view(lead, sizeof lead));
    out.write(std::string_view(length, sizeof length));
    out.write(header);
  }
  if (format == board_format::npy || format == board_format::raw) {
    out.write_bytes(queen_row.data(), n * sizeof(row_t));
    return;
  }
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
  if (detected) format = detail::detect_binary(bytes);
  if (format == board_format::auto_detect) format = detail::detect_format(bytes);
  switch (format) {
    case board_format::npy:
      return detail::read_npy(bytes);
    case board_format::raw:
      return detail::read_raw(bytes);
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
