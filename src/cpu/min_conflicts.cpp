#include "nqueens/min_conflicts.hpp"

#include <algorithm>
#include <numeric>

#include "core/compact_lines.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/detail/huge_pages.hpp"
#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/detail/lines.hpp"
#include "nqueens/rng.hpp"

namespace nq {
namespace {

constexpr unsigned depth = 16;                // placement candidates in flight
constexpr index_t pipeline_margin = 1 << 16;  // final columns placed without the pipeline
constexpr unsigned default_max_tries = 64;
// Steps between clock reads: from 1, doubled while reads come sooner than every millisecond
// (a step on 10^8 queens waits on memory that 10^6 queens find in cache), up to 2^16.
constexpr std::uint64_t max_check_interval = 1 << 16;
constexpr double check_period = 0.001;
constexpr std::uint64_t progress_interval = 1 << 20;  // steps between progress reports

/// One solver run: the permutation board, its diagonal lines and the bookkeeping.
class min_conflicts_run {
 public:
  min_conflicts_run(index_t n, const min_conflicts_settings& s, const progress_fn& progress)
      : n_(n),
        settings_(s),
        progress_(progress),
        rng_(s.seed, s.stream),
        diag_(diag_line_count(n)),
        anti_diag_(diag_line_count(n)),
        tail_(std::min(s.random_tail, n)),
        max_tries_(s.max_tries ? s.max_tries : default_max_tries),
        stall_limit_(s.stall_limit ? s.stall_limit : 64 + 4 * n) {
    detail::resize_on_huge_pages(result_.queen_row, n);
    next_check_ = 1;
    std::iota(result_.queen_row.begin(), result_.queen_row.end(), row_t{0});
  }

  solve_result run() {
    while (place() && repair() && pairs_ > 0) {
      ++result_.restarts;
      diag_.clear();
      anti_diag_.clear();
    }
    result_.solved = pairs_ == 0 && !stopped_;
    // A run stopped during placement has counted only the pairs among the columns placed so
    // far; counting the rest would cost as much again as the placement left to do (seconds at
    // 10^8), so it reports how many columns wait instead.
    result_.conflicts = result_.unplaced ? 0 : pairs_;
    result_.seconds = clock_.seconds();
    return std::move(result_);
  }

 private:
  /// Counts one step; false when a limit is reached. The step limit is exact; the clock and
  /// the progress callback are consulted about every millisecond.
  bool step() {
    if (++result_.steps < next_check_) return true;
    const auto& lim = settings_.limits;
    if (lim.max_steps && result_.steps >= lim.max_steps) return stop();
    const double t = clock_.seconds();
    if (lim.time_limit > 0 && t >= lim.time_limit) return stop();
    if (lim.stop && lim.stop->load(std::memory_order_relaxed)) return stop();
    if (progress_ && result_.steps - last_progress_ >= progress_interval) {
      progress_({phase_, fraction_, result_.steps, result_.restarts, t});
      last_progress_ = result_.steps;
    }
    if (t - last_check_ < check_period / 2 && check_stride_ < max_check_interval)
      check_stride_ *= 2;
    else if (t - last_check_ > 2 * check_period && check_stride_ > 1)
      check_stride_ /= 2;
    last_check_ = t;
    next_check_ = result_.steps + check_stride_;
    if (lim.max_steps) next_check_ = std::min(next_check_, lim.max_steps);
    return true;
  }

  bool stop() {
    stopped_ = true;
    return false;
  }

  /// A limit stopped placement before column `col`: the columns from there on hold rows that
  /// are on the board but not on its lines.
  bool stopped_at(index_t col) {
    result_.unplaced = n_ - col;
    return false;
  }

  bool free_square(index_t col, index_t row) const {
    return !diag_.occupied(diag_index(n_, col, row)) &&
           !anti_diag_.occupied(anti_diag_index(col, row));
  }

  index_t add(index_t col, index_t row) {
    return diag_.add(diag_index(n_, col, row)) + anti_diag_.add(anti_diag_index(col, row));
  }

  void remove(index_t col, index_t row) {
    diag_.remove(diag_index(n_, col, row));
    anti_diag_.remove(anti_diag_index(col, row));
  }

  bool attacked(index_t col) const {
    const index_t row = result_.queen_row[col];
    return diag_[diag_index(n_, col, row)] > 1 || anti_diag_[anti_diag_index(col, row)] > 1;
  }

  /// Greedy placement, column by column: draw candidate rows among those not yet used until
  /// one is free of diagonal attacks. The last `tail_` columns take their first candidate, and
  /// a column that finds no free row in `max_tries_` draws takes the last one drawn.
  bool place() {
    phase_ = "placing";
    pairs_ = 0;
    work_.clear();
    // Far from the end, candidates are drawn `depth` steps ahead so that their rows and lines
    // are prefetched; a candidate that falls below the current column by then is skipped.
    const index_t pipelined_end = n_ > pipeline_margin ? n_ - pipeline_margin : 0;
    index_t ring[depth];
    for (auto& j : ring) j = draw_candidate(0);
    unsigned head = 0;
    index_t i = 0;
    for (; i < pipelined_end; ++i) {
      for (unsigned tries = 0;;) {
        const index_t j = ring[head];
        ring[head] = draw_candidate(i);
        prefetch_lines(i, ring[(head + depth / 2) % depth]);
        head = (head + 1) % depth;
        if (!step()) return stopped_at(i);
        if (j >= i && accept(i, j, tries)) break;
      }
      if ((i & 0xFFFFF) == 0) fraction_ = static_cast<double>(i) / static_cast<double>(n_);
    }
    for (; i < n_; ++i) {
      for (unsigned tries = 0;;) {
        const index_t j = i + rng_.below(static_cast<std::uint32_t>(n_ - i));
        if (!step()) return stopped_at(i);
        if (accept(i, j, tries)) break;
      }
    }
    return true;
  }

  index_t draw_candidate(index_t col) {
    const index_t j = col + rng_.below(static_cast<std::uint32_t>(n_ - col));
    __builtin_prefetch(result_.queen_row.data() + j);
    return j;
  }

  void prefetch_lines(index_t col, index_t candidate) const {
    const index_t row = result_.queen_row[candidate];
    __builtin_prefetch(diag_.address_of(diag_index(n_, col, row)));
    __builtin_prefetch(anti_diag_.address_of(anti_diag_index(col, row)));
  }

  /// Places the row held at position j in column col if that square is free, or if col has run
  /// out of tries or lies in the random tail; true when column col is done.
  bool accept(index_t col, index_t j, unsigned& tries) {
    row_t* q = result_.queen_row.data();
    if (!free_square(col, q[j]) && col + tail_ < n_ && ++tries < max_tries_) return false;
    std::swap(q[col], q[j]);
    const index_t created = add(col, q[col]);
    if (created) work_.push_back(col);
    pairs_ += created;
    return true;
  }

  /// Repair: every attacking pair has an endpoint in `work_` (placement records each queen that
  /// arrived on an occupied line). Each attacked queen there tries random partners and keeps
  /// the first swap that lowers the pairs. Returns false only when a limit stops the run.
  bool repair() {
    phase_ = "repairing";
    fraction_ = 0;
    row_t* q = result_.queen_row.data();
    std::uint64_t since_improvement = 0;
    std::size_t next = 0;
    while (pairs_ > 0) {
      if (next == work_.size()) {
        std::erase_if(work_, [&](index_t c) { return !attacked(c); });
        next = 0;
      }
      const index_t a = work_[next];
      if (!attacked(a)) {
        ++next;
        continue;
      }
      const index_t b = rng_.below(static_cast<std::uint32_t>(n_));
      if (!step()) return false;
      const std::int64_t delta = b == a ? 0 : swap_delta(diag_, anti_diag_, n_, a, q[a], b, q[b]);
      if (delta < 0) {
        remove(a, q[a]);
        remove(b, q[b]);
        std::swap(q[a], q[b]);
        add(a, q[a]);
        add(b, q[b]);
        pairs_ -= static_cast<index_t>(-delta);
        if (attacked(b)) work_.push_back(b);
        since_improvement = 0;
        ++next;
      } else if (++since_improvement > stall_limit_) {
        return true;  // stuck in a local minimum: the caller restarts
      }
    }
    return true;
  }

  index_t n_;
  const min_conflicts_settings& settings_;
  const progress_fn& progress_;
  philox_stream rng_;
  detail::bit_lines diag_;
  detail::bit_lines anti_diag_;
  index_t tail_;
  unsigned max_tries_;
  std::uint64_t stall_limit_;
  index_t pairs_ = 0;
  std::vector<index_t> work_;  // columns that may be attacked
  bool stopped_ = false;
  std::uint64_t next_check_ = 0;  // step count at which step() next looks at the limits
  std::uint64_t check_stride_ = 1;
  double last_check_ = 0;
  std::uint64_t last_progress_ = 0;  // step count of the last progress report
  const char* phase_ = "";
  double fraction_ = 0.0;
  detail::stopwatch clock_;
  solve_result result_;
};

}  // namespace

std::uint64_t min_conflicts_memory_bytes(index_t n) {
  const index_t line_bytes = 2 * ((diag_line_count(n) + 63) / 64) * 8;
  return n * sizeof(row_t) + line_bytes + (std::uint64_t{1} << 20);
}

solve_result solve_min_conflicts(index_t n, const min_conflicts_settings& settings,
                                 const progress_fn& progress) {
  if (!solution_exists(n)) return {};
  return min_conflicts_run(n, settings, progress).run();
}

}  // namespace nq
