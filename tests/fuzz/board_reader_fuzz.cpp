// libFuzzer target: every board reader (verify --format auto, positions, grid, matrix, json).
// A reader may refuse input only with usage_error; a board it returns has every row in [0, n);
// and verify's verdict must agree with the plain O(n^2) check below.

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

void check(const std::uint8_t* data, std::size_t size, nq::board_format format) {
  FILE* in = ::fmemopen(const_cast<std::uint8_t*>(data), size, "rb");
  if (size == 0) in = ::fopen("/dev/null", "rb");  // fmemopen refuses an empty buffer
  if (!in) std::abort();
  std::vector<nq::row_t> board;
  bool read = false;
  try {
    board = nq::read_board(in, format, "fuzz input");
    read = true;
  } catch (const nq::usage_error&) {
  }
  ::fclose(in);
  if (!read) return;
  for (const nq::row_t row : board)
    if (row >= board.size()) std::abort();  // a row off the board
  const bool valid = nq::verify_board(board).valid();
  if (valid != no_attacks(board)) std::abort();  // a false verdict, "valid" or not
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (const auto format :
       {nq::board_format::auto_detect, nq::board_format::positions, nq::board_format::grid,
        nq::board_format::matrix, nq::board_format::json})
    check(data, size, format);
  return 0;
}
