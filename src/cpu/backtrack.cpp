// Recursive backtracking: the plain textbook version and the one with occupancy arrays.

#include "cpu/systematic_common.hpp"

namespace nq {
namespace {

/// The plain check: compare with every queen already placed.
struct scan_check {
  explicit scan_check(index_t) {}
  bool safe(const std::vector<row_t>& board, index_t col, row_t row) const {
    return detail::safe_from_placed(board.data(), col, row);
  }
  void place(index_t, row_t) {}
  void remove(index_t, row_t) {}
};

template <typename Check>
class backtracker {
 public:
  backtracker(index_t n, const systematic_settings& settings)
      : n_(n), check_(n), order_(n, settings), budget_(settings.limits), board_(n, 0) {}

  solve_result run() {
    solve_result result;
    result.solved = place(0);
    result.steps = budget_.steps();
    result.seconds = budget_.seconds();
    if (result.solved) result.queen_row = std::move(board_);
    return result;
  }

 private:
  /// Fills columns col..n-1; true when a solution is found, false when exhausted or stopped.
  bool place(index_t col) {
    if (col == n_) return true;
    if (stopped_ || !budget_.expand()) return stopped_ = true, false;
    const row_t* order = order_.draw(col);
    for (row_t k = 0; k < n_; ++k) {
      const row_t row = detail::row_order::at(order, k);
      if (!check_.safe(board_, col, row)) continue;
      board_[col] = row;
      check_.place(col, row);
      if (place(col + 1)) return true;
      check_.remove(col, row);
      if (stopped_) return false;
    }
    return false;
  }

  index_t n_;
  Check check_;
  detail::row_order order_;
  detail::node_budget budget_;
  std::vector<row_t> board_;
  bool stopped_ = false;
};

}  // namespace

solve_result solve_backtrack(index_t n, const systematic_settings& settings) {
  detail::check_systematic_n(n);
  return backtracker<scan_check>(n, settings).run();
}

solve_result solve_backtrack_opt(index_t n, const systematic_settings& settings) {
  detail::check_systematic_n(n);
  return backtracker<detail::occupancy_check>(n, settings).run();
}

}  // namespace nq
