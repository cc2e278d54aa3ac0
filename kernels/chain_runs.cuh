#pragma once
// The body of the thread-per-run chain kernels (chains.cu launches it; register_chains.cu its
// register-resident variant): persistent threads taking runs in order from a counter, each run
// tallied on the device. Included by the kernel files only.

#include <algorithm>

#include "kernels/chains.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/detail/local_chain.hpp"
#include "nqueens/detail/philox_registers.hpp"
#include "nqueens/detail/register_climb.hpp"
#include "nqueens/detail/register_stochastic.hpp"

namespace nq::cuda {
namespace {

constexpr int max_chain_n = static_cast<int>(gpu::max_thread_chain_n);
constexpr unsigned chain_block = 128;
constexpr std::uint32_t check_every = 1024;  // observer calls between checks, as on the CPU
constexpr std::uint64_t scratch_budget = std::uint64_t{2} << 30;  // bytes of boards in flight
using A = local_algorithm;

/// Stops a chain at its time limit, or once a lower-numbered run has solved (solve --chains),
/// checked every 1024 observer calls as the CPU reference does.
struct device_observer {
  const chain_launch* job;
  std::uint64_t run;
  std::uint64_t start_ns;
  std::uint32_t calls = 0;
  NQ_HD bool operator()(const chain_state& state) {
    if (job->trace) record_trace_row(*job, state);
    // A stop raised before the run, or a time limit already past, ends it at its start, as
    // the CPU's deadline does (it reads both at the first step).
    if (calls == 0 && ((job->stop && job->stop_at_start && stop_raised(job->stop)) ||
                       (job->time_limit_ns != 0 && clock_ns() - start_ns >= job->time_limit_ns)))
      return false;
    if (++calls % check_every != 0) return true;
    if (job->first_solved && load_relaxed(job->first_solved) < run) return false;
    if (job->stop && stop_raised(job->stop)) return false;
    return job->time_limit_ns == 0 || clock_ns() - start_ns < job->time_limit_ns;
  }
};

/// Runs chain i of `job` on `b`: its outcome; `started` false for a run numbered above one
/// already solved, which does not start (stopped, no steps, the board untouched). A solving run
/// joins the race.
template <A Algorithm>
NQ_HD chain_outcome run_one(climber_view<std::int16_t> b, std::uint32_t* order,
                            const chain_launch& job, std::uint64_t i, bool& started) {
  const std::uint64_t run = job.first + i;
  chain_outcome out;
  started = !(job.first_solved && load_relaxed(job.first_solved) < run);
  if (!started) {
    out.stopped = true;
    return out;
  }
  philox_stream rng(job.seed, run);
  const device_observer observe{&job, run, job.time_limit_ns ? clock_ns() : 0};
  out = run_chain_of<Algorithm>(b, order, rng, job.settings, true, job.max_steps, observe);
  if (job.first_solved && out.solved)
    atomic_min(job.first_solved, static_cast<unsigned long long>(run));
  return out;
}

/// Whether chain_runs<A, true, n> may run `job` in registers: hc, hc-sideways, hc-restart, sa or
/// random on 4..16 queens whose runs need no observer but the stop that cuts them (stop_poll): no time
/// limit, trace or race, and no stop read as a run starts.
inline bool register_chain_eligible(const chain_launch& job) {
  const A a = job.settings.algorithm;
  const bool held = ((a == A::hc || a == A::hc_sideways || a == A::hc_restart) &&
                     register_climb_supports(job.settings.hill, job.n)) ||
                    register_stochastic_supports(job.settings, job.n);
  return held && job.time_limit_ns == 0 && !job.trace && !job.first_solved &&
         (!job.stop || !job.stop_at_start);
}

/// Adds a run past the block's shared bins to the tally's words: its bin, or the list past
/// the bins.
NQ_HD inline void tally_globally(const device_tally& tally, std::uint64_t steps, bool solved) {
  if (steps < tally.bin_steps) {
    atomic_add(&tally.bins()[2 * steps + (solved ? 1 : 0)], 1ull);
    return;
  }
  const auto slot = atomic_add(&tally.words[device_tally::past_bins], 1ull);
  if (slot < tally.past_capacity)
    tally.past[slot] = (solved ? std::uint64_t{1} << 63 : 0) | steps;
}

/// Persistent threads, each taking runs from the claims' counter until none is left (or the
/// host's stop ends the claims), each run tallied in the block's shared bins (steps below
/// shared_steps) or the tally's words, the shared bins added to the words once at the end.
/// Up to 32 queens a thread's board is its own arrays; above, its slice of global scratch
/// (scratch_per_chain bytes), reused for each run it takes. With N (hc, hc-sideways,
/// hc-restart, sa and random on N = 4..16 queens, no observer needed:
/// register_chain_eligible), the whole chain is in registers (register_climb.hpp,
/// register_stochastic.hpp) and the thread has no arrays at all.
/// A register chain's poll of the stop that cuts runs (null: none).
struct stop_poll {
  const unsigned* stop;
  NQ_HD bool operator()() const { return stop && stop_raised(stop); }
};

/// The blocks an SM must hold of a register climb's kernel (block_entry reads it): 6 of 128
/// threads, at most 80 registers a thread (ptxas's allocation steps under 85), which every
/// climb up to 8 queens fits without spilling (sa there would spill: it takes what it needs).
template <A Algorithm, int N>
struct register_residency {};
template <A Algorithm, int N>
  requires(N > 0 && N <= 8 &&
           (Algorithm == A::hc || Algorithm == A::hc_sideways || Algorithm == A::hc_restart))
struct register_residency<Algorithm, N> {
  static constexpr unsigned resident_blocks = 6;
};

template <A Algorithm, bool Local, int N = 0>
struct chain_runs : register_residency<Algorithm, N> {
  static constexpr std::uint64_t shared_steps = 64;
  struct shared_state {
    unsigned bins[2 * shared_steps];  // [2 * steps + solved]; a launch holds < 2^32 runs
    unsigned long long restarts, most;
  };
  chain_launch job;
  chain_claims claims;
  device_tally tally;      // words null: no tally
  unsigned char* scratch;  // above 32 queens

  template <class Block>
  NQ_HD void operator()(Block& block, shared_state& shared) const {
    const bool tallied = tally.words != nullptr;  // the same for every thread
    if (tallied)
      block.each([&](unsigned t) {
        for (unsigned k = t; k < 2 * shared_steps; k += Block::threads) shared.bins[k] = 0;
        if (t == 0) shared.restarts = shared.most = 0;
      });
    block.each([&](unsigned t) { lane(std::uint64_t{block.index()} * Block::threads + t, shared); });
    if (tallied)
      block.each([&](unsigned t) {
        for (unsigned k = t; k < 2 * shared_steps; k += Block::threads)
          if (shared.bins[k] != 0)
            atomic_add(&tally.bins()[k], static_cast<unsigned long long>(shared.bins[k]));
        if (t != 0) return;
        if (shared.restarts != 0)
          atomic_add(&tally.words[device_tally::restarts], shared.restarts);
        if (shared.most != 0) atomic_max(&tally.words[device_tally::most_steps], shared.most);
      });
  }

  /// Thread `slot` of the grid: its board, then its runs.
  NQ_HD void lane(std::uint64_t slot, shared_state& shared) const {
    if constexpr (N > 0) {
      register_runs(shared);
    } else if constexpr (Local) {
      row_t queen_row[max_chain_n];
      std::int16_t rows[max_chain_n], diag[2 * max_chain_n - 1], anti[2 * max_chain_n - 1];
      // Only first-choice reads the move order; the others leave it unallocated.
      constexpr int order_size =
          Algorithm == A::first_choice ? max_chain_n * (max_chain_n - 1) : 1;
      std::uint32_t order[order_size];
      runs({queen_row, rows, diag, anti, job.n}, order, shared);
    } else {
      const index_t n = job.n;
      unsigned char* mine = scratch + slot * scratch_per_chain(n);
      auto* queen_row = reinterpret_cast<row_t*>(mine);
      auto* lines = reinterpret_cast<std::int16_t*>(mine + n * sizeof(row_t));
      runs({queen_row, lines, lines + n, lines + 3 * n - 1, n}, nullptr, shared);
    }
  }

  NQ_HD void runs(climber_view<std::int16_t> b, std::uint32_t* order,
                  shared_state& shared) const {
    for (std::uint64_t begin = claim(); begin < job.count; begin = claim()) {
      const std::uint64_t end = begin + claims.chunk < job.count ? begin + claims.chunk : job.count;
      for (std::uint64_t i = begin; i < end; ++i) {
        bool started = true;
        const chain_outcome out = run_one<Algorithm>(b, order, job, i, started);
        if (job.outcomes) job.outcomes[i] = out;
        if (job.boards && started)
          for (index_t col = 0; col < job.n; ++col) job.boards[i * job.n + col] = b.queen_row[col];
        if (tally.words) add(out, shared);
      }
    }
  }

  /// The runs of a thread whose chain is in registers: the same draws, moves and outcome as
  /// run_one's (the register climb's equality tests), the board, when kept, from its rows.
  NQ_HD void register_runs(shared_state& shared) const {
    for (std::uint64_t begin = claim(); begin < job.count; begin = claim()) {
      const std::uint64_t end = begin + claims.chunk < job.count ? begin + claims.chunk : job.count;
      for (std::uint64_t i = begin; i < end; ++i) {
        philox_register_stream rng(job.seed, job.first + i);
        std::uint64_t rows = 0;  // always asked for: a pointer only sometimes given is a stack slot
        chain_outcome out;
        if constexpr (Algorithm == A::sa || Algorithm == A::random)
          out = register_stochastic_chain_of<Algorithm, N>(rng, job.settings, job.max_steps, &rows,
                                                           stop_poll{job.stop});
        else
          out = register_chain_of<Algorithm, N>(rng, job.settings, job.max_steps, &rows,
                                                stop_poll{job.stop});
        if (job.outcomes) job.outcomes[i] = out;
        if (job.boards)
          for (int col = 0; col < N; ++col)
            job.boards[i * N + col] = static_cast<row_t>((rows >> (4 * col)) & 15u);
        if (tally.words) add(out, shared);
      }
    }
  }

  /// Tallies a run: in the block's shared bins, or the tally's words past them. (Kept in shared
  /// memory rather than the thread's registers, which the chain needs.)
  NQ_HD void add(const chain_outcome& out, shared_state& shared) const {
    if (out.restarts != 0)
      atomic_add(&shared.restarts, static_cast<unsigned long long>(out.restarts));
    if (out.steps < shared_steps) {
      shared_add(&shared.bins[2 * out.steps + (out.solved ? 1 : 0)], 1u);
      return;
    }
    if (out.steps >= device_tally::head_steps && out.steps < tally.bin_steps)
      atomic_max(&shared.most, static_cast<unsigned long long>(out.steps));
    tally_globally(tally, out.steps, out.solved);
  }

  /// The first of the next claims.chunk runs, or job.count when none is left or the host has
  /// stopped the claims. The claim of each check_runs-th run reads the host's stop and
  /// publishes the progress.
  NQ_HD std::uint64_t claim() const {
    if (claims.stop && load_relaxed(claims.stopping) != 0) return job.count;
    const auto begin = static_cast<std::uint64_t>(
        atomic_add(claims.counter, static_cast<unsigned long long>(claims.chunk)));
    if (begin >= job.count) return job.count;
    if (begin % chain_claims::check_runs < claims.chunk) {
      if (claims.progress) publish(claims.progress, begin);
      if (claims.stop && stop_raised(claims.stop)) store_relaxed(claims.stopping, 1ull);
    }
    return begin;  // taken before the stop was seen: it runs
  }
};

/// Blocks of chain_runs<Algorithm, Local, N> for `job` (chunk runs a claim): persistent, so as
/// many as the device holds at once (the occupancy calculator's), none without a claim, and
/// above 32 queens their boards within the scratch budget.
template <A Algorithm, bool Local, int N = 0>
unsigned runs_blocks(const chain_launch& job, std::uint32_t chunk) {
  const std::uint64_t wanted =
      grid_size((job.count + chunk - 1) / chunk, chain_block, max_grid_blocks);
  const std::uint64_t resident = std::uint64_t{multiprocessors(gpu::current_device())} *
                                 resident_blocks<chain_block, chain_runs<Algorithm, Local, N>>(0);
  const std::uint64_t budget =
      Local ? resident : scratch_budget / (chain_block * scratch_per_chain(job.n));
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min({wanted, resident, budget})));
}

}  // namespace
}  // namespace nq::cuda
