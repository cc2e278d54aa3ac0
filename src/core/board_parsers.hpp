#pragma once
// The readers behind read_board. Every failure throws usage_error naming the source and line.

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/board_io.hpp"

namespace nq::detail {

/// Buffered bytes from a FILE*, counting lines.
class byte_source {
 public:
  byte_source(std::FILE* in, std::string name);

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
  /// Everything not yet consumed.
  std::string rest();

  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail_at_line(const std::string& what) const;

 private:
  bool fill();

  std::FILE* in_;
  std::string name_;
  std::string buffer_;
  std::size_t pos_ = 0, end_ = 0;
  std::size_t line_ = 1;
};

/// Quotes a byte for a message: 'x' when printable, else its hex value.
std::string describe_byte(int c);

board_format detect_format(byte_source& bytes);
std::vector<row_t> read_positions(byte_source& bytes);
std::vector<row_t> read_cells(byte_source& bytes, char queen, char empty);
std::vector<row_t> read_json(byte_source& bytes);

}  // namespace nq::detail
