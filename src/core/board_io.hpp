#pragma once
// Reading and writing boards: as text, positions (1-based rows in one line), grid (Q and .),
// matrix (0 and 1) and JSON ({"rows": [...]} with 0-based rows); as binary, NumPy's .npy
// (version 1.0, '<u4', shape (n,)) and raw (little-endian uint32), both with 0-based rows.

#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/config.hpp"

namespace nq {

/// @brief Board layouts on disk. `auto_detect` is for reading only.
enum class board_format { auto_detect, positions, grid, matrix, json, npy, raw };

/// @brief Parses "auto", "positions", "grid", "matrix", "json", "npy" or "raw"; throws
/// usage_error.
board_format parse_board_format(std::string_view name);

/// @brief Buffered writes to a file descriptor; a failed write throws resource_error.
class byte_sink {
 public:
  explicit byte_sink(int fd) : fd_(fd) { buffer_.reserve(capacity); }
  byte_sink(const byte_sink&) = delete;
  byte_sink& operator=(const byte_sink&) = delete;
  ~byte_sink();

  void write(std::string_view text) {
    if (buffer_.size() + text.size() > capacity) flush();
    buffer_.append(text);
  }
  void write_number(std::uint64_t value);
  /// Bytes written as they are: large spans go straight to the descriptor, unbuffered.
  void write_bytes(const void* data, std::size_t size);
  void flush();

 private:
  static constexpr std::size_t capacity = 1 << 20;
  int fd_;
  std::string buffer_;
};

/// @brief Writes a board in positions, grid or matrix layout (ending with a newline), or as
/// npy or raw.
void write_board(byte_sink& out, std::span<const row_t> queen_row, board_format format);

/// @brief Writes `[r0,r1,...]` with 0-based rows.
void write_rows_array(byte_sink& out, std::span<const row_t> queen_row);

/// @brief Reads one board from `in`; every row lies in [0, n). Auto-detection takes npy by its
/// magic and raw where the first block holds a zero byte (no text board has one). Throws usage_error naming
/// `source` and the problem for empty, malformed or out-of-range input, or for a second board
/// after the first; resource_error for a board of more than `max_queens` (0: no bound).
/// `of_line`, when not 0, is the line of `source` that `in` holds, named by every message.
std::vector<row_t> read_board(std::FILE* in, board_format format, const std::string& source,
                              std::uint64_t max_queens = 0, std::size_t of_line = 0);

}  // namespace nq
