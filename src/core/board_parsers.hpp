#pragma once
// The readers behind read_board. Every failure throws usage_error naming the source and line.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/board_io.hpp"

namespace nq::detail {

/// Buffered bytes from a FILE*, counting lines.
class byte_source {
 public:
  /// `max_queens` (0: no bound) bounds what a reader keeps; past it, resource_error. `of_line`,
  /// when not 0, is the line of `name` that `in` holds: every message names it.
  byte_source(std::FILE* in, std::string name, std::uint64_t max_queens = 0,
              std::size_t of_line = 0);

  int peek() { return pos_ < end_ || fill() ? static_cast<unsigned char>(buffer_[pos_]) : -1; }
  int get() {
    const int c = peek();
    if (c >= 0) {
      ++pos_;
      if (c == '\n') ++line_;
    }
    return c;
  }
  /// The bytes read ahead and not consumed: at least the first block of the input.
  std::string_view window() const { return {buffer_.data() + pos_, end_ - pos_}; }
  /// Everything not yet consumed (at most 16 bytes per queen of the bound).
  std::string rest();
  /// Moves the unconsumed bytes to the front and reads more, so the window holds a whole
  /// block unless the input ends first.
  void refill_window();
  /// Up to `size` bytes into `out`, the window's first; fewer only at the end of the input.
  std::size_t read_bytes(char* out, std::size_t size);
  /// The bytes left to read where the input is a regular file; 0 where it cannot tell (a pipe).
  std::uint64_t bytes_left() const;
  /// The line the next byte is on, counting from 1.
  std::size_t line() const { return line_; }
  /// Throws resource_error when a board of `queens` passes the bound.
  void check_size(std::uint64_t queens) const {
    if (max_queens_ && queens > max_queens_) refuse_size();
  }

  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail_at_line(const std::string& what) const;

 private:
  bool fill();
  [[noreturn]] void refuse_size() const;
  /// "name: " or, for one line of it, "name: line N: ".
  std::string where() const;

  std::FILE* in_;
  std::string name_;
  std::string buffer_;
  std::size_t pos_ = 0, end_ = 0;
  std::size_t line_ = 1;
  std::uint64_t max_queens_;
  bool of_line_;
};

/// Quotes a byte for a message: 'x' when printable, else its hex value.
std::string describe_byte(int c);

/// npy (its magic), raw (a zero byte in the first block, which no text board has), or
/// auto_detect for a text board.
board_format detect_binary(byte_source& bytes);
board_format detect_format(byte_source& bytes);
/// What an npy header says: n items of `width` bytes, from byte `data_offset` of the file.
struct npy_layout {
  std::uint64_t n = 0;
  unsigned width = 0;
  bool is_signed = false;
  std::uint64_t data_offset = 0;
};
/// Reads an npy header (and checks it, as read_npy does), leaving `bytes` at its data.
npy_layout read_npy_header(byte_source& bytes);
/// NumPy's .npy, versions 1.0 to 3.0: a one-dimensional array of little-endian integers
/// ('<u4', '<i4', '<u8', '<i8'), C order, its data exactly n items.
std::vector<row_t> read_npy(byte_source& bytes);
/// Little-endian uint32 rows, n = the bytes / 4.
std::vector<row_t> read_raw(byte_source& bytes);
std::vector<row_t> read_positions(byte_source& bytes);
/// A grid or matrix: `queens` lists the characters of a queen, `empties` of an empty square.
std::vector<row_t> read_cells(byte_source& bytes, std::string_view queens,
                              std::string_view empties);
std::vector<row_t> read_json(byte_source& bytes);

}  // namespace nq::detail
