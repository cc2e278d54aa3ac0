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

board_format detect_format(byte_source& bytes);
std::vector<row_t> read_positions(byte_source& bytes);
/// A grid or matrix: `queens` lists the characters of a queen, `empties` of an empty square.
std::vector<row_t> read_cells(byte_source& bytes, std::string_view queens,
                              std::string_view empties);
std::vector<row_t> read_json(byte_source& bytes);

}  // namespace nq::detail
