// Depth-first search with an explicit stack: the same tree, in the same order, as backtrack.

#include "cpu/systematic_common.hpp"

namespace nq {
namespace {

/// One walk of the search tree; `visit` is called with each complete board and says whether
/// to go on.
class explicit_dfs {
 public:
  explicit_dfs(index_t n, const systematic_settings& settings, progress_fn progress = {})
      : progress_(std::move(progress)),
        n_(n),
        check_(n),
        order_(n, settings),
        budget_(settings.limits),
        board_(n, 0),
        next_(n + 1, 0),
        orders_(n + 1, nullptr) {}

  /// Returns false when a limit stopped the walk.
  template <typename Visit>
  bool walk(Visit&& visit) {
    index_t col = 0;  // the column the top frame is filling
    if (!open(0)) return false;
    for (;;) {
      // Take the next safe row of this column, if any.
      row_t row = 0;
      bool found = false;
      while (next_[col] < n_ && !found) {
        row = detail::row_order::at(orders_[col], next_[col]++);
        found = check_.safe(board_, col, row);
      }
      if (!found) {
        if (col == 0) return true;
        --col;
        check_.remove(col, board_[col]);
        continue;
      }
      board_[col] = row;
      if (col + 1 == n_) {
        ++visited_;
        if (!visit(static_cast<const std::vector<row_t>&>(board_))) return true;
        continue;
      }
      check_.place(col, row);
      ++col;
      if (!open(col)) return false;
    }
  }

  std::uint64_t steps() const { return budget_.steps(); }
  double seconds() const { return budget_.seconds(); }

 private:
  /// Expands the node that fills `col`.
  bool open(index_t col) {
    if (!budget_.expand()) return false;
    if (progress_ && (budget_.steps() & 0xFFFF) == 0)
      progress_({"searching", 0.0, budget_.steps(), visited_, budget_.seconds()});
    next_[col] = 0;
    orders_[col] = order_.draw(col);
    return true;
  }

  progress_fn progress_;
  std::uint64_t visited_ = 0;
  index_t n_;
  detail::occupancy_check check_;
  detail::row_order order_;
  detail::node_budget budget_;
  std::vector<row_t> board_;
  std::vector<row_t> next_;           // per column: the index of the next row to try
  std::vector<const row_t*> orders_;  // per column: its row order (null: ascending)
};

}  // namespace

solve_result solve_dfs(index_t n, const systematic_settings& settings) {
  detail::check_systematic_n(n);
  explicit_dfs search(n, settings);
  solve_result result;
  search.walk([&](const std::vector<row_t>& board) {
    result.solved = true;
    result.queen_row = board;
    return false;
  });
  result.steps = search.steps();
  result.seconds = search.seconds();
  return result;
}

std::uint64_t for_each_solution(index_t n,
                                const std::function<bool(std::span<const row_t>)>& visit) {
  bool stopped = false;
  return for_each_solution(n, visit, search_limits{}, progress_fn{}, stopped);
}

std::uint64_t for_each_solution(index_t n, const std::function<bool(std::span<const row_t>)>& visit,
                                const search_limits& limits, const progress_fn& progress,
                                bool& stopped) {
  detail::check_systematic_n(n);
  systematic_settings settings;
  settings.limits = limits;
  explicit_dfs search(n, settings, progress);
  std::uint64_t visited = 0;
  stopped = !search.walk([&](const std::vector<row_t>& board) {
    ++visited;
    return visit(board);
  });
  return visited;
}

}  // namespace nq
