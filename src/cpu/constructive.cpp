#include <algorithm>

#include "core/huge_pages.hpp"
#include "core/stopwatch.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/construction.hpp"

namespace nq {

solve_result solve_constructive(index_t n) {
  if (!solution_exists(n)) return {};
  detail::stopwatch clock;
  solve_result result;
  detail::resize_on_huge_pages(result.queen_row, n);
  for (index_t col = 0; col < n; ++col)
    result.queen_row[col] = static_cast<row_t>(constructive_row(n, col));
  result.solved = true;
  result.steps = n;
  result.seconds = clock.seconds();
  return result;
}

}  // namespace nq
