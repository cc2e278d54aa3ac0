// Breadth-first search, level by level: every partial board with k queens before any with k+1.
// The frontier is kept whole, so its size is the point of the exercise and is bounded.

#include "cpu/systematic_common.hpp"
#include "nqueens/detail/memory.hpp"

namespace nq {
solve_result solve_bfs(index_t n, const systematic_settings& settings) {
  detail::check_systematic_n(n);
  NQ_EXPECTS(!settings.randomize, "bfs takes no row order");
  detail::node_budget budget(settings.limits);
  solve_result result;
  // A level-k frontier is a flat array of k rows per partial board; level 0 is the empty board.
  std::vector<row_t> frontier, next;
  std::uint64_t boards = 1;
  for (index_t level = 0; level < n; ++level) {
    next.clear();
    std::uint64_t next_boards = 0;
    for (std::uint64_t b = 0; b < boards; ++b) {
      if (!budget.expand()) {
        result.steps = budget.steps();
        result.seconds = budget.seconds();
        return result;
      }
      const row_t* board = frontier.data() + b * level;
      for (row_t row = 0; row < n; ++row) {
        if (!detail::safe_from_placed(board, level, row)) continue;
        if (level + 1 == n) {  // the first complete board ends the search
          result.queen_row.assign(board, board + level);
          result.queen_row.push_back(row);
          result.solved = true;
          result.steps = budget.steps();
          result.seconds = budget.seconds();
          return result;
        }
        // Growth is done here, by doubling, so the bound holds for what is really allocated.
        const std::size_t needed = next.size() + level + 1;
        const std::size_t capacity =
            needed > next.capacity() ? std::max(needed, 2 * next.capacity()) : next.capacity();
        if ((frontier.capacity() + capacity) * sizeof(row_t) > settings.max_memory)
          throw resource_error("bfs stopped at level " + std::to_string(level + 1) + " of " +
                               std::to_string(n) +
                               ": the frontier of partial boards would need more than " +
                               format_bytes(settings.max_memory) + " (--max-memory); " +
                               std::to_string(next_boards) + " boards so far on this level");
        next.reserve(capacity);
        next.insert(next.end(), board, board + level);
        next.push_back(row);
        ++next_boards;
      }
    }
    frontier.swap(next);
    boards = next_boards;
    if (settings.level_fn) settings.level_fn(level + 1, boards);
    if (boards == 0) break;  // n = 2 or 3: no board survives
  }
  result.steps = budget.steps();
  result.seconds = budget.seconds();
  return result;
}

}  // namespace nq
