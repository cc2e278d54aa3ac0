#pragma once
// A board file read in pieces without holding the board (verify's streaming layer): where an
// npy, raw or one-line positions board lies in its file, its pieces (ranges of columns, and of
// bytes in a positions file), and each piece's rows read on demand.

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/board_io.hpp"
#include "nqueens/config.hpp"

namespace nq::detail {

inline constexpr std::size_t buffer_bytes = std::size_t{1} << 22;
/// Columns read at once in pieces of 2^20 columns of npy or raw, or of 2 MiB of positions
/// (2^20 numbers at most).
inline constexpr index_t binary_piece = index_t{1} << 20;
inline constexpr std::uint64_t text_piece_bytes = std::uint64_t{1} << 21;
/// Columns a batch: a row and three line entries each (16 bytes), two thirds of a byte a queen
/// of the board, up to 2^27 columns (2 GiB): with the line bits, 1.3 bytes a queen at 10^9
/// queens. The more columns a batch, the more lines set in each region's one pass through cache.
inline index_t batch_size(index_t n) {
  return std::min(n, std::clamp<index_t>(n / 24, binary_piece, index_t{1} << 27));
}

/// Where a board lies in its file and how its rows are held.
struct board_file {
  int fd = -1;
  board_format format = board_format::positions;
  index_t n = 0;
  std::uint64_t data_offset = 0;  // npy and raw: the first row's byte
  unsigned width = 4;
  bool is_signed = false;
  std::uint64_t size = 0;  // the file's bytes
};

/// Part of a board read by one thread: columns [first_col, first_col + count), which in a
/// positions file are the numbers starting in bytes [begin, end).
struct text_piece {
  index_t first_col = 0, count = 0;
  std::uint64_t begin = 0, end = 0;
};

/// The pieces of a positions file cut into `parts` byte ranges, counted on `threads` threads,
/// where it is one line of numbers 1..max_n; none otherwise.
std::vector<text_piece> split_positions(int fd, std::uint64_t size, unsigned parts,
                                        unsigned threads);

/// The rows of piece p of the board (npy or raw: columns from p.first_col; positions: the
/// numbers of bytes [p.begin, p.end)) into `out`; false where one lies off the board.
bool fill_piece(const board_file& f, const text_piece& p, row_t* out);

/// The file's layout, or nullopt where it is not an npy, raw or positions board in a regular
/// file (`in` at its start).
std::optional<board_file> open_board(std::FILE* in, board_format format, const std::string& source);

}  // namespace nq::detail
