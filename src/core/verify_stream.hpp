#pragma once
// verify of a board in a file without holding the board: a bit for each row and diagonal line
// instead of a row for each column and a byte for each line (5 bits a queen against 9 bytes).

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "core/board_io.hpp"
#include "nqueens/verify.hpp"

namespace nq::detail {

/// Bytes verify_streamed needs at most for a board of n queens on `threads` threads (clashes
/// found): a bit for every line, a second for lines holding two queens or more, read buffers.
/// A valid board needs about half (the second bits come with the first clash).
std::uint64_t streamed_verify_bytes(index_t n, unsigned threads);

/// The numbers of a positions file of `size` bytes, counted in `parts` ranges at once, where
/// they make one line of numbers (whitespace or commas between them); 0 otherwise. Their
/// values are read, and checked, as the board is.
index_t count_positions(int fd, std::uint64_t size, unsigned parts);

/// verify_board(read_board(in, format, source), threads) for a board in a regular file (`in`
/// at its start) held as npy, raw or positions on one line, read without holding it: every
/// thread reads the whole file and counts its share of the lines, and a board with a clash is
/// read again for the first one. std::nullopt, with `in` back at its start, where the input is
/// none of these (a pipe, grid, matrix, JSON, positions over several lines) or not a well-formed
/// board: read_board then reads it whole and names the fault. Throws resource_error where the
/// board needs more than `memory_limit` bytes (0: no bound). Boards under `smallest` queens
/// are left to read_board too: held, they cost little, and are read once.
std::optional<verify_report> verify_streamed(std::FILE* in, board_format format,
                                             const std::string& source, unsigned threads,
                                             std::uint64_t memory_limit,
                                             index_t smallest = index_t{1} << 20);

}  // namespace nq::detail
