#include "nqueens/placement.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <memory>
#include <thread>

#include "core/worker_threads.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/detail/huge_pages.hpp"
#include "nqueens/detail/restarts.hpp"
#include "nqueens/placement_solver.hpp"

namespace nq {
namespace {

constexpr unsigned prefetch_distance = 8;       // blocks ahead whose candidates are prefetched
constexpr index_t min_blocks_per_thread = 256;  // fewer: the pass runs on fewer threads
constexpr std::uint64_t progress_rounds = 64;   // rounds between progress reports

/// The arrays of one run, on huge pages.
struct placement_arrays {
  std::vector<std::uint64_t> diag, anti_diag, seg_next, seg_prefix, cur, quota, candidate;
  std::vector<std::uint32_t> deferred;
  std::vector<philox_stream> rng;
  std::vector<std::uint8_t> claimed;
  unsigned long long deferred_count = 0;

  placement_arrays(index_t n, index_t segments) {
    detail::resize_on_huge_pages(diag, placement_line_words(n));
    detail::resize_on_huge_pages(anti_diag, placement_line_words(n));
    seg_next.resize(segments);
    seg_prefix.resize(segments + 1);
    cur.resize(segments);
    quota.resize(segments);
    candidate.resize(segments * placement_candidates);
    rng.assign(segments, philox_stream(0, 0));
    claimed.resize(segments);
    deferred.resize(placement_deferred_capacity(n));
  }
};

/// One run on `threads` threads: passes, then insertion, restarting until solved or stopped.
class placement_run : detail::restarts {
 public:
  placement_run(index_t n, const placement_settings& s, const progress_fn& progress)
      : restarts(s.limits),
        n_(n),
        segments_(placement_segments(n)),
        settings_(s),
        progress_(progress),
        threads_(s.threads ? s.threads : std::max(1u, std::thread::hardware_concurrency())),
        arrays_(n, segments_) {
    detail::resize_on_huge_pages(result_.queen_row, n);
  }

  solve_result run() {
    return run_attempts([this] { return attempt(); });
  }

 private:

  /// One try from a fresh board: true when solved.
  bool attempt() {
    initialise();
    arrays_.deferred_count = 0;
    for (unsigned pass = 0;; ++pass) {
      const index_t group = index_t{1} << pass;
      if (!run_pass(pass, group)) {
        result_.unplaced = unplaced();
        return false;
      }
      if (arrays_.deferred_count > arrays_.deferred.size()) return false;
      if (group >= segments_) break;
    }
    const auto count = static_cast<index_t>(arrays_.deferred_count);
    std::sort(arrays_.deferred.begin(), arrays_.deferred.begin() + count);
    return insert(count);
  }

  /// The initial board and free lines, in parallel.
  void initialise() {
    const index_t words = placement_line_words(n_);
    detail::worker_threads workers(threads_, [&](unsigned t) {
      const auto part = [&](index_t size, unsigned i) { return size * i / threads_; };
      for (index_t col = part(n_, t); col < part(n_, t + 1); ++col)
        result_.queen_row[col] = placement_initial_row(n_, segments_, col);
      std::fill(arrays_.diag.data() + part(words, t), arrays_.diag.data() + part(words, t + 1), 0);
      std::fill(arrays_.anti_diag.data() + part(words, t),
                arrays_.anti_diag.data() + part(words, t + 1), 0);
    });
    for (index_t k = 0; k < segments_; ++k)
      arrays_.seg_next[k] = placement_segment_begin(n_, segments_, k);
  }

  placement_view view(index_t group) {
    return {result_.queen_row.data(),
            arrays_.diag.data(),
            arrays_.anti_diag.data(),
            arrays_.seg_next.data(),
            arrays_.seg_prefix.data(),
            arrays_.cur.data(),
            arrays_.quota.data(),
            arrays_.candidate.data(),
            arrays_.rng.data(),
            arrays_.claimed.data(),
            arrays_.deferred.data(),
            &arrays_.deferred_count,
            arrays_.deferred.size(),
            n_,
            segments_,
            group,
            (segments_ + group - 1) / group};
  }

  /// Claims for blocks [begin, end), prefetching the candidates' rows and lines ahead.
  static index_t claim_range(const placement_view& v, index_t begin, index_t end) {
    index_t finished = 0;
    const row_t* q = v.queen_row;
    for (index_t j = begin; j < end; ++j) {
      if (j + 2 * prefetch_distance < end) {
        const index_t* c = v.candidate + (j + 2 * prefetch_distance) * placement_candidates;
        for (unsigned i = 0; i < placement_candidates; ++i) __builtin_prefetch(q + c[i]);
      }
      if (j + prefetch_distance < end && v.quota[j + prefetch_distance] > 0) {
        const index_t ahead = j + prefetch_distance;
        const index_t col = v.seg_next[v.cur[ahead]];
        const index_t* c = v.candidate + ahead * placement_candidates;
        for (unsigned i = 0; i < placement_candidates; ++i) {
          const row_t row = q[c[i]];
          __builtin_prefetch(v.diag_state + (diag_index(v.n, col, row) >> 5));
          __builtin_prefetch(v.anti_diag_state + (anti_diag_index(col, row) >> 5));
        }
      }
      finished += placement_claim(v, j);
    }
    return finished;
  }

  /// One pass of rounds, every thread on its own range of blocks; false when a limit stopped it.
  bool run_pass(unsigned pass, index_t group) {
    const placement_view v = view(group);
    index_t open = 0;
    for (index_t k = 0; k < segments_; ++k) {
      arrays_.seg_prefix[k] = open;
      open += placement_segment_begin(n_, segments_, k + 1) - arrays_.seg_next[k];
    }
    arrays_.seg_prefix[segments_] = open;
    std::atomic<index_t> done{0};
    bool over = false;
    std::uint64_t rounds = 0;
    // Runs once per round, when every thread has resolved: the limits and the progress.
    auto end_of_round = [&]() noexcept {
      ++rounds;
      ++result_.steps;
      if (done.load() == v.blocks || limit_reached()) over = true;
      if (progress_ && rounds % progress_rounds == 0)
        progress_({"placing", 1.0 - static_cast<double>(open) / static_cast<double>(n_),
                   result_.steps, result_.restarts, clock_.seconds()});
    };
    // A round of few blocks is shorter than a barrier: such passes run on fewer threads (the
    // board is the same, whoever plays the blocks).
    const auto threads = static_cast<unsigned>(
        std::min<index_t>(threads_, std::max<index_t>(1, v.blocks / min_blocks_per_thread)));
    std::barrier<decltype(end_of_round)> round_end(threads, end_of_round);
    std::barrier<> claimed(threads);
    const std::uint64_t restart = result_.restarts;
    detail::worker_threads workers(threads, [&](unsigned t) {
      const index_t begin = v.blocks * t / threads, end = v.blocks * (t + 1) / threads;
      index_t finished = 0;
      for (index_t j = begin; j < end; ++j)
        finished += placement_start(v, j, settings_.seed, restart, pass);
      done.fetch_add(finished);
      claimed.arrive_and_wait();  // every block started
      if (done.load() == v.blocks) return;
      while (!over) {
        finished = claim_range(v, begin, end);
        claimed.arrive_and_wait();
        for (index_t j = begin; j < end; ++j) finished += placement_resolve(v, j);
        done.fetch_add(finished);
        round_end.arrive_and_wait();
      }
    });
    workers.join();
    return !stopped_;
  }

  /// Queens a stopped run left off free lines: the open columns and the deferred ones.
  index_t unplaced() const {
    return placement_unplaced(n_, segments_, arrays_.seg_next.data(), arrays_.deferred_count,
                              arrays_.deferred.size());
  }

  /// Inserts the deferred queens one by one; false when one cannot be (the run restarts) or a
  /// limit stopped the run.
  bool insert(index_t count) {
    return placement_insert_all(view(1), arrays_.deferred.data(), count, settings_.seed,
                                result_.restarts, result_.steps, result_.unplaced,
                                [this] { return limit_reached(); });
  }

  index_t n_, segments_;
  const placement_settings& settings_;
  const progress_fn& progress_;
  unsigned threads_;
  placement_arrays arrays_;
};

}  // namespace

std::uint64_t placement_memory_bytes(index_t n) {
  const index_t segments = placement_segments(n);
  const index_t per_segment = 4 * 8 + 8 * placement_candidates + sizeof(philox_stream) + 1;
  return n * sizeof(row_t) + 2 * placement_line_words(n) * 8 + (segments + 1) * per_segment +
         placement_deferred_capacity(n) * sizeof(std::uint32_t);
}

solve_result solve_placement(index_t n, const placement_settings& settings,
                             const progress_fn& progress) {
  if (!solution_exists(n)) return {};
  return placement_run(n, settings, progress).run();
}

}  // namespace nq
