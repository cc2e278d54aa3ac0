// libFuzzer target: every board reader (verify --format auto, positions, grid, matrix, json).
// A reader may refuse input only with usage_error; a board it returns has every row in [0, n);
// verify's verdict must agree with the plain O(n^2) check below; and a bound of one queen fewer
// than the board holds is refused with resource_error.

#include <stdio.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/board_io.hpp"
#include "nqueens/error.hpp"
#include "nqueens/verify.hpp"

namespace {

/// The independent check: no two queens share a row or a diagonal.
bool no_attacks(const std::vector<nq::row_t>& rows) {
  for (std::size_t a = 0; a < rows.size(); ++a)
    for (std::size_t b = a + 1; b < rows.size(); ++b) {
      const std::int64_t rise = std::int64_t{rows[b]} - std::int64_t{rows[a]};
      if (rise == 0 || rise == std::int64_t(b - a) || -rise == std::int64_t(b - a)) return false;
    }
  return true;
}

/// The board in `data`, read with at most `max_queens` (0: any number).
std::vector<nq::row_t> read(const std::uint8_t* data, std::size_t size, nq::board_format format,
                            std::uint64_t max_queens) {
  FILE* in = ::fmemopen(const_cast<std::uint8_t*>(data), size, "rb");
  if (size == 0) in = ::fopen("/dev/null", "rb");  // fmemopen refuses an empty buffer
  if (!in) std::abort();
  std::vector<nq::row_t> board;
  try {
    board = nq::read_board(in, format, "fuzz input", max_queens);
  } catch (...) {
    ::fclose(in);
    throw;
  }
  ::fclose(in);
  return board;
}

void check(const std::uint8_t* data, std::size_t size, nq::board_format format) {
  std::vector<nq::row_t> board;
  try {
    board = read(data, size, format, 0);
  } catch (const nq::usage_error&) {
    return;
  }
  for (const nq::row_t row : board)
    if (row >= board.size()) std::abort();  // a row off the board
  const bool valid = nq::verify_board(board).valid();
  if (valid != no_attacks(board)) std::abort();  // a false verdict, "valid" or not
  // The memory bound holds at every size: a board of one queen more is refused.
  if (board.size() < 2) return;
  try {
    read(data, size, format, board.size() - 1);
    std::abort();
  } catch (const nq::resource_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (const auto format :
       {nq::board_format::auto_detect, nq::board_format::positions, nq::board_format::grid,
        nq::board_format::matrix, nq::board_format::json})
    check(data, size, format);
  return 0;
}
