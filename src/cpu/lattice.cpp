#include "nqueens/lattice.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <thread>

#include "core/deadline.hpp"
#include "core/worker_threads.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/detail/huge_pages.hpp"
#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/error.hpp"
#include "nqueens/min_conflicts.hpp"
#include "nqueens/detail/philox_batch.hpp"
#include "nqueens/detail/qs4.hpp"
#include "nqueens/rng.hpp"
#include "nqueens/verify.hpp"

namespace nq {
namespace {

/// Most classes a worker solves before writing them out together: 64 neighbouring residues put
/// 64 neighbouring columns, 256 bytes of the board, in every row of the lattice. Each row of
/// the lattice is a page of its own (rows lie 4W bytes apart), and its visit costs a page walk
/// whatever is written there: at 10^9 queens, 2 threads, 16 classes a group took 17.3-19.9 s,
/// 32 took 17.1-17.6 s and 64 took 16.4-16.6 s (bench/results/2026-11-26-lattice-probe.md);
/// the group's boards, 16 MiB at 10^9, are read back in order. Fewer when that would leave
/// fewer than 4 groups a thread (the board does not depend on it).
constexpr index_t max_group_classes = 64;
index_t group_classes(index_t classes, unsigned threads) {
  return std::clamp<index_t>(classes / (4 * index_t{threads}), 1, max_group_classes);
}
/// Attacking pairs of a sub-board (byte line counts, as verify's: 5 bytes a queen).
index_t pairs_of(std::span<const row_t> rows) { return verify_board(rows).conflicts; }

/// What the search did on one class of a group.
struct class_outcome {
  bool started = false, solved = false;
  std::uint64_t steps = 0, restarts = 0;
};

/// A worker's memory: its group's sub-boards, one after another, and one search's lines.
struct worker_space {
  std::vector<row_t> rows;
  std::vector<std::uint8_t> diag, anti_diag;
  std::vector<index_t> work;
  std::vector<class_outcome> outcome;
  worker_space(index_t group, index_t m)
      : rows(group * m),
        diag(diag_line_count(m)),
        anti_diag(diag_line_count(m)),
        work(qs4_work_capacity(m)),
        outcome(group) {}
};

/// One run of the lattice: the plan, the board, and what the workers found.
class lattice_run {
 public:
  lattice_run(index_t n, const placement_settings& s, const progress_fn& progress,
              const lattice_plan& plan, bool board_wanted)
      : n_(n), settings_(s), progress_(progress), plan_(plan), board_wanted_(board_wanted) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned asked = s.threads ? s.threads : cores;
    group_ = group_classes(plan_.classes, asked);
    groups_ = (plan_.classes + group_ - 1) / group_;
    threads_ = static_cast<unsigned>(std::min<index_t>(asked, groups_));
    written_.assign(groups_, 0);
  }

  solve_result run() {
    const bool set_up = set_up_board();
    if (set_up) solve_groups();
    // The groups a stop left unwritten keep their rows in order: every queen of a class on
    // one diagonal, m(m - 1) / 2 pairs, counted without looking at the board.
    std::vector<std::pair<index_t, index_t>> unwritten;  // runs of classes [first, last)
    for (index_t g = 0; g < groups_; ++g) {
      if (written_[g]) continue;
      const index_t first = g * group_, last = std::min(plan_.classes, first + group_);
      if (!unwritten.empty() && unwritten.back().second == first)
        unwritten.back().second = last;
      else
        unwritten.emplace_back(first, last);
      for (index_t a = first; a < last; ++a)
        result_.conflicts += plan_.size(a) * (plan_.size(a) - 1) / 2;
    }
    if (!unwritten.empty()) {
      if (board_wanted_) {
        if (!set_up) finish_board();
        write_in_order(unwritten);
      } else {
        std::vector<row_t>().swap(result_.queen_row);  // not whole, and no one to show it to
      }
    }
    result_.solved = result_.conflicts == 0;  // counted exactly, over every class
    result_.seconds = clock_.seconds();
    return std::move(result_);
  }

 private:
  /// Whether a stop or the time limit has come; asked by every thread at once while the board
  /// is set up (a deadline is one thread's).
  bool must_stop() const {
    const auto& lim = settings_.limits;
    return (lim.time_limit > 0 && clock_.seconds() >= lim.time_limit) ||
           (lim.stop && lim.stop->load(std::memory_order_relaxed));
  }

  /// The board's pages mapped in by every thread at once, then zeroed, in pieces between which
  /// the stop is read: at 4 x 10^9 queens this takes seconds. False when a stop came first (the
  /// board is then shorter than n). No huge pages: their faults compact memory synchronously
  /// (defrag=madvise), which cost 0.1 to 1 s of system time at 10^8 queens, and the strided
  /// write-out gained nothing from them (10^8 on 2 threads: 3.22-3.91 s without, 3.74-4.09 s
  /// with, alternated).
  bool set_up_board() {
    auto& board = result_.queen_row;
    board.reserve(n_);
    detail::populate_pages(board.data(), n_ * sizeof(row_t), threads_,
                           [this] { return must_stop(); });
    constexpr index_t piece = index_t{1} << 24;  // 64 MiB
    while (board.size() < n_) {
      if (must_stop()) return false;
      board.resize(std::min(n_, board.size() + piece));
    }
    return true;
  }

  /// The rest of a board whose set-up a stop cut short, for a caller that shows it.
  void finish_board() {
    auto& board = result_.queen_row;
    detail::populate_pages(board.data() + board.size(), (n_ - board.size()) * sizeof(row_t),
                           threads_);
    board.resize(n_);
  }

  void solve_groups() {
    detail::worker_threads workers(threads_, [&](unsigned) {
      try {
        worker_space space(group_, plan_.size(0));  // class 0 is among the longest
        for (index_t g = next_++; g < groups_ && !failed_.load(); g = next_++)
          if (!solve_group(g, space)) break;  // stopped: the groups left stay unwritten
      } catch (...) {
        const std::lock_guard lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
        failed_.store(true);
      }
    });
    workers.join();
    if (failure_) std::rethrow_exception(failure_);
  }

  /// Writes the classes of `runs` with their rows in order, every thread a share of the
  /// lattice's rows: row i holds columns W i .. W i + W - 1, so the runs are written as they
  /// lie in memory, not a column of each class at a time.
  void write_in_order(const std::vector<std::pair<index_t, index_t>>& runs) {
    const index_t w = plan_.classes, full_rows = n_ / w, rows = plan_.size(0);
    row_t* out = result_.queen_row.data();
    detail::worker_threads workers(threads_, [&](unsigned t) {
      for (index_t i = rows * t / threads_; i < rows * (t + 1) / threads_; ++i)
        for (const auto& [first, runs_last] : runs) {
          const index_t last = i < full_rows ? runs_last : std::min(runs_last, plan_.wide);
          for (index_t a = first; a < last; ++a)
            out[a + w * i] = static_cast<row_t>(plan_.row_class[a] + w * i);
        }
    });
    workers.join();
  }

  /// Solves the classes of group g (the same search as the GPU's, lattice.cu) and writes them;
  /// false when a limit or stop came first.
  bool solve_group(index_t g, worker_space& space) {
    const index_t first = g * group_, last = std::min(plan_.classes, first + group_);
    const index_t m0 = plan_.size(0);
    const auto& lim = settings_.limits;
    detail::deadline limit(lim.time_limit, clock_, lim.stop);
    const auto stop = [&] { return limit.passed_now(); };
    bool started = false;
    for (index_t a = first; a < last; ++a) {
      const index_t m = plan_.size(a);
      const qs4_view v{space.rows.data() + (a - first) * m0,
                       space.diag.data(),
                       space.anti_diag.data(),
                       space.work.data(),
                       m,
                       qs4_work_capacity(m)};
      qs4_state state;
      class_outcome& out = space.outcome[a - first];
      out.solved = solve_sub_board<philox_batch>(v, settings_.seed, a, lim.max_steps, state, stop);
      out.started = state.started;
      out.steps = state.steps, out.restarts = state.restarts;
      started = started || state.started;
    }
    if (!started) return false;
    write_group(g, space);
    return true;
  }

  /// Writes group g's boards into the whole board (a class not started: rows in order), and
  /// adds up their work and pairs.
  void write_group(index_t g, const worker_space& space) {
    const index_t w = plan_.classes, first = g * group_;
    const index_t last = std::min(w, first + group_), m0 = plan_.size(0);
    std::uint64_t steps = 0, restarts = 0;
    index_t pairs = 0, unsolved = 0;
    std::vector<const row_t*> rows(last - first, nullptr);  // none: the rows in order
    for (index_t a = first; a < last; ++a) {
      const index_t m = plan_.size(a);
      const class_outcome& mine = space.outcome[a - first];
      if (mine.started) {
        rows[a - first] = space.rows.data() + (a - first) * m0;
        steps += mine.steps, restarts += mine.restarts;
        if (!mine.solved) ++unsolved, pairs += pairs_of({rows[a - first], m});
      } else {  // rows in order: every queen on one diagonal
        ++unsolved, pairs += m * (m - 1) / 2;
      }
    }
    // Row by row of the lattice, so that the group's neighbouring columns are written together.
    // Rows lie 4W bytes apart, too far for the hardware to see the stream: each is asked for
    // a few rows ahead.
    row_t* out = result_.queen_row.data();
    constexpr index_t ahead = 16;
    for (index_t i = 0; i < m0; ++i) {
      if (i + ahead < m0) __builtin_prefetch(out + first + w * (i + ahead), 1);
      for (index_t a = first; a < last; ++a)
        if (i < plan_.size(a)) {
          const row_t* r = rows[a - first];
          out[a + w * i] = static_cast<row_t>(plan_.row_class[a] + w * (r ? r[i] : i));
        }
    }
    const std::lock_guard lock(mutex_);
    result_.steps += steps;
    result_.restarts += restarts;
    result_.conflicts += pairs;
    unsolved_ += unsolved;
    finished_ += last - first;
    written_[g] = 1;
    if (progress_)
      progress_({"sub-boards", static_cast<double>(finished_) / static_cast<double>(w),
                 result_.steps, result_.restarts, clock_.seconds()});
  }

  index_t n_;
  placement_settings settings_;
  const progress_fn& progress_;
  const lattice_plan& plan_;
  bool board_wanted_;
  index_t group_ = 1, groups_ = 0;  // classes a group, groups
  unsigned threads_ = 1;
  detail::stopwatch clock_;
  std::atomic<index_t> next_{0};
  std::atomic<bool> failed_{false};
  std::mutex mutex_;  // guards what follows
  std::exception_ptr failure_;
  solve_result result_;
  index_t unsolved_ = 0, finished_ = 0;
  std::vector<char> written_;  // per group, set under the lock
};

}  // namespace

std::uint64_t lattice_memory_bytes(const lattice_plan& plan, unsigned threads) {
  const index_t n = plan.n;
  // The board solved whole: by the sub-board search, whose pairs are counted when a limit
  // stopped it, or by min-conflicts, whose own count is kept.
  if (plan.classes == 1)
    return n <= lattice_max_whole_search ? qs4_workspace_bytes(n) + verify_memory_bytes(n)
                                         : min_conflicts_memory_bytes(n);
  const index_t m = plan.size(0);  // the widest class
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned asked = threads ? threads : cores;
  const std::uint64_t group = group_classes(plan.classes, asked);
  const std::uint64_t workers = std::min<std::uint64_t>(asked, (plan.classes + group - 1) / group);
  // Per worker: its group's boards, one search's lines, and the line counts of an unsolved
  // board's pairs.
  const std::uint64_t per_worker = group * m * sizeof(row_t) + qs4_workspace_bytes(m) -
                                   m * sizeof(row_t) + verify_memory_bytes(m) +
                                   group * sizeof(class_outcome);
  return n * sizeof(row_t) + workers * per_worker +
         plan.classes * (sizeof(index_t) + sizeof(std::uint8_t));
}

solve_result solve_lattice(index_t n, const placement_settings& settings,
                           const progress_fn& progress, index_t sub_board, bool board_wanted) {
  if (!solution_exists(n)) return {};
  return solve_lattice(plan_lattice(n, settings.seed, sub_board), settings, progress, board_wanted);
}

solve_result solve_lattice(const lattice_plan& plan, const placement_settings& settings,
                           const progress_fn& progress, bool board_wanted) {
  NQ_EXPECTS(plan.seed == settings.seed, "a lattice plan drawn from the run's seed");
  const index_t n = plan.n;
  if (!solution_exists(n)) return {};
  if (plan.classes == 1 && n <= lattice_max_whole_search) {  // one class, the shared search
    const detail::stopwatch clock;
    const auto& lim = settings.limits;
    solve_result result;
    result.queen_row.resize(n);
    std::vector<std::uint8_t> diag(diag_line_count(n)), anti_diag(diag_line_count(n));
    std::vector<index_t> work(qs4_work_capacity(n));
    const qs4_view v{result.queen_row.data(), diag.data(), anti_diag.data(), work.data(), n,
                     qs4_work_capacity(n)};
    detail::deadline limit(lim.time_limit, clock, lim.stop);
    qs4_state state;
    // A stop already raised: not searched, as on the GPU (a board of one is still solved).
    result.solved = solve_sub_board<philox_batch>(v, settings.seed, 0, lim.max_steps, state,
                                                  [&] { return limit.passed_now(); });
    result.steps = state.steps;
    result.restarts = state.restarts;
    if (!result.solved) {
      result.conflicts = verify_board(result.queen_row).conflicts;
      result.solved = result.conflicts == 0;
    }
    result.seconds = clock.seconds();
    return result;
  }
  if (plan.classes == 1) {  // no split fits: the board is one class
    // A run stopped while placing reports the queens not yet placed, as min-conflicts does:
    // counting the pairs of 10^8 queens or more would take seconds after the stop.
    min_conflicts_settings mc;
    mc.seed = settings.seed;
    mc.limits = settings.limits;
    return solve_min_conflicts(n, mc, progress);
  }
  return lattice_run(n, settings, progress, plan, board_wanted).run();
}

}  // namespace nq
