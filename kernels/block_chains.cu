// Block-per-chain steepest ascent (hc, hc-sideways, hc-restart) for medium boards: the board
// and its lines sit in shared memory, each thread scans a contiguous range of columns, and the
// block reduces to the best delta and numbers the tied moves column by column, rows ascending,
// exactly as steepest_move does on the CPU. Thread 0 owns the Philox stream and makes every
// draw in the CPU's order, so a block's chain is the CPU chain of the same (seed, run).
//
// Thread t scans its columns' rows from a row of its own (row_offset): with P columns a
// thread, lanes read the "\" and "/" counters 2P bytes apart, the same bank 16 ways at P = 32,
// and staggered starts spread them. The least delta and the count of its moves do not depend on
// the order; the chosen move is found by the ascending scan, as on the CPU. Boards below 256
// queens take blocks of 64 or 128 threads (one column each), so more runs share an SM.

#include "kernels/block_chains.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "nqueens/error.hpp"
#include "nqueens/detail/hill_climbing.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned block_threads = 256;  // the most; 64 or 128 below 129 queens

/// Thread t's first row: with P columns a thread, lane t's "\" and "/" counters sit at
/// start_t -+ tP halfwords. Counting a warp's 32 lanes on 32 four-byte banks, starts 2t
/// make every family's stride an odd number of words when P is a multiple of 4 (the 16-way
/// conflicts at P = 32 go, and the 2-way at P = 4); otherwise the plain start (0) is already
/// at most 2-way and no stagger does better.
NQ_HD inline index_t row_offset(unsigned t, index_t per_thread_cols, index_t n) {
  return per_thread_cols % 4 == 0 ? (2 * t) % n : 0;
}

/// What every thread of the block reads between phases; thread 0 alone writes it.
struct climb_state {
  index_t cost;
  std::uint64_t steps;
  std::uint64_t restarts;
  std::uint64_t start_ns;  // when the run began, for its time limit
  std::uint64_t pick;      // the chosen tie, numbered over the whole board
  index_t move_col;
  row_t move_row;
  std::uint32_t sideways;
  std::uint32_t calls;  // the CPU observer's calls: the start, then each step and restart
  bool stopped;         // the time limit, the stop, or a lower-numbered run solved
  bool raced;           // a lower-numbered run had solved before this one started
};

struct block_climb {
  using shared_state = climb_state;
  chain_launch job;
  std::uint32_t max_sideways;
  bool restart;

  /// Thread 0, after each step and restart: whether the run must stop. Checked every 1024
  /// calls, counting the start, as the CPU's observer checks (local_search.cpp).
  NQ_HD bool must_stop(climb_state& s, std::uint64_t run) const {
    if (job.trace) record_trace_row(job, {s.steps, s.restarts, s.cost, -1.0});
    if (++s.calls % 1024 != 0) return false;
    if (job.first_solved && load_relaxed(job.first_solved) < run) return true;
    if (job.stop && stop_raised(job.stop)) return true;
    return job.time_limit_ns != 0 && clock_ns() - s.start_ns >= job.time_limit_ns;
  }

  template <class Block>
  NQ_HD void operator()(Block& block, climb_state& s) const {
    const index_t n = job.n;
    auto* queen_row = reinterpret_cast<row_t*>(block.shared());
    auto* lines = reinterpret_cast<std::int16_t*>(block.shared() + n * sizeof(row_t));
    const climber_view<std::int16_t> b{queen_row, lines, lines + n, lines + 3 * n - 1, n};
    const std::uint64_t i = block.index();
    const std::uint64_t run = job.first + i;
    const index_t per_thread_cols = (n + Block::threads - 1) / Block::threads;
    const auto first_col = [&](unsigned t) {
      return n < t * per_thread_cols ? n : t * per_thread_cols;
    };
    const auto end_col = [&](unsigned t) {
      const index_t end = first_col(t) + per_thread_cols;
      return end < n ? end : n;
    };
    philox_stream rng(job.seed, run);  // drawn from by thread 0 only

    bool started = true;  // uniform: false when a lower-numbered run had already solved
    block.each([&](unsigned t) {
      if (t != 0) return;
      s.raced = job.first_solved && load_relaxed(job.first_solved) < run;
      s.stopped = s.raced;
      s.steps = s.restarts = 0;
      s.sideways = 0;
      s.calls = 1;
      s.start_ns = job.time_limit_ns ? clock_ns() : 0;
      s.cost = s.stopped ? 1 : random_board(b, rng);
      if (job.trace && !s.stopped) record_trace_row(job, {0, 0, s.cost, -1.0});
      // A stop raised before the run, or a time limit already past, ends it at its start (the
      // start counted as the observer's first call), as the CPU's deadline does: it reads both
      // at the first call.
      if (!s.stopped && ((job.stop && stop_raised(job.stop)) ||
                         (job.time_limit_ns != 0 && clock_ns() - s.start_ns >= job.time_limit_ns)))
        s.stopped = true;
    });
    started = !s.raced;

    per_thread<std::int32_t, Block::copies> least_delta;
    per_thread<std::uint64_t, Block::copies> ties, before;
    for (;;) {
      // Uniform: s was last written in a phase that ended at a barrier.
      if (s.cost == 0 || s.stopped || (job.max_steps != 0 && s.steps >= job.max_steps)) break;
      const std::int32_t acceptable = s.sideways < max_sideways ? 0 : -1;
      block.each([&](unsigned t) {  // this thread's columns: the least delta, and its moves
        std::int32_t mine = INT32_MAX;
        std::uint64_t my_ties = 0;
        const index_t start = row_offset(t, per_thread_cols, n);
        for (index_t col = first_col(t); col < end_col(t); ++col) {
          const std::int32_t least = nq::detail::least_load_from(b, col, start);
          const std::int32_t delta = least - queen_pairs(b, col);
          if (delta > mine) continue;
          if (delta < mine) mine = delta, my_ties = 0;
          my_ties += nq::detail::squares_with_load_from(b, col, least, start);
        }
        least_delta[t] = mine;
        ties[t] = my_ties;
      });
      const std::int32_t best = block.min([&](unsigned t) { return least_delta[t]; });
      if (best > acceptable) {  // stuck: every thread sees the same
        if (!restart) break;
        block.each([&](unsigned t) {
          if (t != 0) return;
          s.cost = random_board(b, rng);
          ++s.restarts;
          s.sideways = 0;
          s.stopped = must_stop(s, run);
        });
        continue;
      }
      const auto counted = [&](unsigned t) -> std::uint64_t {
        return least_delta[t] == best ? ties[t] : 0;
      };
      const std::uint64_t total = block.exclusive_sum(counted, before);
      block.each([&](unsigned t) {  // one draw unless the move is unique or the first is wanted, as
                                    // on the CPU
        if (t == 0)
          s.pick = job.settings.hill.ties == tie_rule::first || total == 1 ? 0
                   : job.settings.hill.ties == tie_rule::last
                       ? total - 1
                       : rng.below(static_cast<std::uint32_t>(total));
      });
      block.each([&](unsigned t) {  // the thread whose ties hold the pick finds the move
        if (counted(t) == 0 || s.pick < before[t] || s.pick >= before[t] + counted(t)) return;
        std::uint64_t pick = s.pick - before[t];
        for (index_t col = first_col(t); col < end_col(t); ++col) {
          const std::int32_t least = nq::detail::least_load(b, col);
          if (least - queen_pairs(b, col) != best) continue;
          const std::uint32_t here = nq::detail::squares_with_load(b, col, least);
          if (pick < here) {
            s.move_col = col;
            s.move_row = static_cast<row_t>(nth_row_with_load(b, col, least, pick));
            return;
          }
          pick -= here;
        }
      });
      block.each([&](unsigned t) {
        if (t != 0) return;
        if (best == 0)
          ++s.sideways;
        else if (!job.settings.hill.total_sideways)
          s.sideways = 0;
        relocate(b, s.move_col, s.move_row);
        s.cost = static_cast<index_t>(static_cast<std::int64_t>(s.cost) + best);
        if (best == 0 && job.settings.hill.plateau_jump) s.cost = random_jumps(b, rng, 1, s.cost);
        ++s.steps;
        s.stopped = must_stop(s, run);
      });
    }
    block.each([&](unsigned t) {
      if (t == 0) {
        chain_outcome out;
        out.stopped = s.stopped;
        if (started) {
          out.solved = s.cost == 0;
          out.cost = s.cost;
          out.steps = s.steps;
          out.restarts = s.restarts;
          if (job.first_solved && out.solved)
            atomic_min(job.first_solved, static_cast<unsigned long long>(run));
        }
        job.outcomes[i] = out;
      }
      if (job.boards && started)
        for (index_t col = t; col < n; col += Block::threads)
          job.boards[i * n + col] = queen_row[col];
    });
  }
};

}  // namespace

bool has_block_chain(local_algorithm algorithm, index_t n) {
  const bool climber = algorithm == local_algorithm::hc ||
                       algorithm == local_algorithm::hc_sideways ||
                       algorithm == local_algorithm::hc_restart;
  return climber && n > 32 && n <= max_block_chain_n;
}

std::size_t block_chain_shared_bytes(index_t n) {
  return n * sizeof(row_t) + (n + 2 * (2 * n - 1)) * sizeof(std::int16_t);
}

void launch_block_chains(const chain_launch& job) {
  NQ_EXPECTS(has_block_chain(job.settings.algorithm, job.n), "a block chain");
  NQ_EXPECTS(job.count >= 1 && job.count <= max_grid_blocks, "one block per run");
  const local_algorithm a = job.settings.algorithm;
  const std::uint32_t sideways = a == local_algorithm::hc ? 0 : job.settings.hill.max_sideways;
  const block_climb body{job, sideways, a == local_algorithm::hc_restart};
  const auto blocks = static_cast<unsigned>(job.count);
  const std::size_t shared = block_chain_shared_bytes(job.n);
  // A thread per column where the board has fewer than 256: the chain is the same (the moves
  // are numbered by column whatever the split), and 4 or 2 times the runs fit on an SM.
  if (job.n <= 64)
    launch_blocks<64>("block_climb", blocks, shared, body);
  else if (job.n <= 128)
    launch_blocks<128>("block_climb", blocks, shared, body);
  else
    launch_blocks<block_threads>("block_climb", blocks, shared, body);
}

}  // namespace nq::cuda
