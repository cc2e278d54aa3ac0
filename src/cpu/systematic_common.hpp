#pragma once
// What the systematic solvers share: limit checks and the order rows are tried in.

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/deadline.hpp"
#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/error.hpp"
#include "nqueens/rng.hpp"
#include "nqueens/systematic.hpp"

namespace nq::detail {

/// Counts expanded nodes and says when a limit is reached; the clock is read about every 2 ms
/// (a node of plain backtracking on 5000 queens costs millions of checks, one of 8 queens few).
class node_budget {
 public:
  explicit node_budget(const search_limits& limits)
      : limits_(limits), deadline_(limits.time_limit, clock_, limits.stop) {}
  /// Counts one expansion; false when the search must stop first.
  bool expand() {
    if (limits_.max_steps && steps_ >= limits_.max_steps) return false;
    ++steps_;
    if (deadline_.passed()) stopped_ = true;
    return !stopped_;
  }
  std::uint64_t steps() const { return steps_; }
  double seconds() const { return clock_.seconds(); }

 private:
  search_limits limits_;
  std::uint64_t steps_ = 0;
  bool stopped_ = false;
  stopwatch clock_;  // before deadline_, which reads it
  deadline deadline_;
};

/// The rows a node tries, in order: ascending, or a fresh Fisher-Yates shuffle per node.
class row_order {
 public:
  row_order(index_t n, const systematic_settings& settings)
      : n_(static_cast<row_t>(n)), randomize_(settings.randomize), rng_(settings.seed, 0) {}
  /// The order for a node at `col`; stays valid until the next call for the same column.
  const row_t* draw(index_t col) {
    if (!randomize_) return nullptr;
    if (buffers_.size() <= col) buffers_.resize(col + 1);
    auto& rows = buffers_[col];
    rows.resize(n_);
    std::iota(rows.begin(), rows.end(), row_t{0});
    for (row_t i = n_; i > 1; --i) std::swap(rows[i - 1], rows[rng_.below(i)]);
    return rows.data();
  }
  static row_t at(const row_t* order, row_t k) { return order ? order[k] : k; }

 private:
  row_t n_;
  bool randomize_;
  philox_stream rng_;
  std::vector<std::vector<row_t>> buffers_;
};

/// Whether a queen at (col, row) is safe from the queens in columns 0..col-1: the plain O(n)
/// check of backtrack and bfs.
inline bool safe_from_placed(const row_t* board, index_t col, row_t row) {
  for (index_t c = 0; c < col; ++c) {
    const row_t other = board[c];
    const index_t distance = other > row ? other - row : row - other;
    if (distance == 0 || distance == col - c) return false;
  }
  return true;
}

/// O(1) checks: one flag per row, diagonal and anti-diagonal.
struct occupancy_check {
  explicit occupancy_check(index_t n) : n_(n), row_(n, 0), diag_(2 * n, 0), anti_(2 * n, 0) {}
  bool safe(const std::vector<row_t>&, index_t col, row_t row) const {
    return !row_[row] && !diag_[col + n_ - 1 - row] && !anti_[col + row];
  }
  void place(index_t col, row_t row) { set(col, row, 1); }
  void remove(index_t col, row_t row) { set(col, row, 0); }

 private:
  void set(index_t col, row_t row, char on) {
    row_[row] = diag_[col + n_ - 1 - row] = anti_[col + row] = on;
  }
  index_t n_;
  std::vector<char> row_, diag_, anti_;
};

using ::nq::check_systematic_n;

}  // namespace nq::detail
