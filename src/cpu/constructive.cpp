#include <algorithm>

#include "nqueens/algorithms.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/detail/huge_pages.hpp"
#include "nqueens/detail/stopwatch.hpp"

namespace nq {

solve_result solve_constructive(index_t n, const std::atomic<bool>* stop) {
  if (!solution_exists(n)) return {};
  detail::stopwatch clock;
  solve_result result;
  std::vector<row_t>& rows = result.queen_row;
  rows.reserve(n);
  detail::advise_huge_pages(rows.data(), n * sizeof(row_t));
  // 2^32 queens take over a minute, most of it first touches of 16 GiB: the board grows a block
  // of 2^20 columns at a time (each zeroed in cache, then written), the stop read between.
  constexpr index_t block = index_t{1} << 20;
  for (index_t first = 0; first < n; first += block) {
    if (stop && stop->load(std::memory_order_relaxed)) {
      rows = {};  // a part of the board is no board: none is shown
      result.unplaced = n - first;
      result.steps = first;
      result.seconds = clock.seconds();
      return result;
    }
    const index_t last = std::min(n, first + block);
    rows.resize(last);
    for (index_t col = first; col < last; ++col)
      rows[col] = static_cast<row_t>(constructive_row(n, col));
  }
  result.solved = true;
  result.steps = n;
  result.seconds = clock.seconds();
  return result;
}

}  // namespace nq
