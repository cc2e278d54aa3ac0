#pragma once
/// @file
/// @brief The lattice's sub-board solver (lattice.hpp), shared by CPU threads and the GPU
/// kernel: QS4 (Sosic and Gu) on a workspace view, as min_conflicts.hpp runs it on the CPU,
/// without its prefetch pipeline (a sub-board fits in cache). A random permutation is placed
/// column by column. Where QS4 draws a row from those left for every try, a column here draws
/// once, a position among the rows left, and tries the rows left from there on, in the order
/// they lie (wrapping round), until one is free of diagonal attacks (the last of qs4_max_tries
/// tries is taken anyway). That takes about as many tries (3.14 a queen at 66,358 queens,
/// against 3.07) and one random word a column instead of one a try, and the rows tried lie
/// side by side: at 10^9 queens on 2 threads the lattice took 15.7-17.2 s, 23.2-25.9 s before
/// (bench/results/2026-11-26-lattice-probe.md, with larger write-out groups). The rows left are
/// not in a random order (from a reset, half of them still lie in order at column m/2), so a
/// probe mostly tries neighbouring rows; the tries it takes, measured, are what justify it.
/// Then each attacked queen tries random partners and keeps the first swap that lowers the
/// attacking pairs; a run stalled for 64 + 4m swaps starts again. The same stream gives the same
/// board on either side.
///
/// Lines hold byte counts. A line never takes more than qs4_line_cap queens: a placement that
/// would pass it restarts the run, and a swap that would is not taken. A restart also follows
/// when more columns wait for repair than the work list holds. Neither has been seen; both
/// keep the run exact and deterministic.

#include <cstdint>

#include "nqueens/config.hpp"
#include "nqueens/detail/lines.hpp"
#include "nqueens/rng.hpp"

namespace nq {

/// @brief Rows a column tries before it takes an attacked square.
inline constexpr unsigned qs4_max_tries = 64;
/// @brief Most queens a line may hold (its count is a byte).
inline constexpr unsigned qs4_line_cap = 250;
/// @brief Steps between calls of the stop test (the step limit is exact).
inline constexpr std::uint64_t qs4_poll_interval = 1024;

/// @brief Columns awaiting repair a run can hold: placement leaves tens to hundreds attacked
/// on 65,536 queens.
NQ_HD constexpr index_t qs4_work_capacity(index_t m) { return m / 16 + 256; }

/// @brief Bytes of one workspace for m queens: rows, both line families, the work list.
NQ_HD constexpr std::uint64_t qs4_workspace_bytes(index_t m) {
  return m * sizeof(row_t) + 2 * diag_line_count(m) + qs4_work_capacity(m) * sizeof(index_t);
}

/// @brief One sub-board's workspace: m rows (a permutation, kept across restarts), the
/// queens on each diagonal and anti-diagonal, and the columns that may be attacked. Each array
/// aligned to its type (`work` to 8 bytes: a device faults on a misaligned access).
struct qs4_view {
  row_t* queen_row;         ///< m
  std::uint8_t* diag;       ///< 2m - 1
  std::uint8_t* anti_diag;  ///< 2m - 1
  index_t* work;            ///< work_capacity
  index_t m;
  index_t work_capacity;  ///< qs4_work_capacity(m), the same on every side (tests take less)
};

/// @brief What a run has done: steps (rows tried + partners drawn), restarts, and the
/// attacking pairs among the queens on its lines.
struct qs4_state {
  std::uint64_t steps = 0;
  std::uint64_t restarts = 0;
  index_t pairs = 0;
  index_t placed = 0;    ///< columns on the lines (m once placement is done)
  bool started = false;  ///< false when solve_sub_board found the stop already raised
};

namespace detail {

/// Counts a step; false once the step limit is reached or, checked every qs4_poll_interval
/// steps, stop() says so.
template <class Stop>
NQ_HD bool qs4_step(qs4_state& s, std::uint64_t max_steps, Stop& stop) {
  ++s.steps;
  if (max_steps && s.steps >= max_steps) return false;
  return s.steps % qs4_poll_interval != 0 || !stop();
}

NQ_HD inline bool qs4_attacked(const qs4_view& v, index_t col) {
  const index_t row = v.queen_row[col];
  return v.diag[diag_index(v.m, col, row)] > 1 || v.anti_diag[anti_diag_index(col, row)] > 1;
}

NQ_HD inline void qs4_clear(const qs4_view& v) {
  for (index_t i = 0; i < diag_line_count(v.m); ++i) v.diag[i] = v.anti_diag[i] = 0;
}

#ifdef __CUDA_ARCH__
#define NQ_QS4_HOST_NOINLINE
#else
#define NQ_QS4_HOST_NOINLINE [[gnu::noinline]]
#endif
/// Placement (the phase above). 1: placed; 0: a limit stopped it; 2: restart. The same code on
/// the host's threads and on the device. Its counters, the view's fields and (on the host) the
/// stream are locals while it runs: read through `s`, `v` and `rng`, each would be read again
/// after every byte stored to the lines (a byte store may alias anything), and wait on it: 10^7
/// queens on one thread took 0.69 s of CPU that way, 0.39 s with locals
/// (bench/results/2026-11-26-lattice-fast.md). On the device the stream stays where it is (a
/// copy would be a second stream state in local memory: ptxas, solve_classes' stack 48 -> 88
/// bytes); there the locals cost no register (78 either way, the probe's position included).
/// Not inlined on the host: inlined in the lattice's worker, gcc kept its bases on the stack
/// and reloaded them every try (10^8 queens on one thread, alternated: 3.4-4.1 s inlined,
/// 3.2-3.9 s not; the ranges overlap, but not inlined was faster in each of 4 pairs).
template <class Rng, class Stop>
NQ_QS4_HOST_NOINLINE NQ_HD int qs4_place(const qs4_view& v, Rng& rng, std::uint64_t max_steps,
                                         qs4_state& s, index_t& work_size, Stop& stop) {
  const index_t m = v.m, capacity = v.work_capacity;
  row_t* const q = v.queen_row;
  std::uint8_t* const diag = v.diag;
  std::uint8_t* const anti_diag = v.anti_diag;
  index_t* const work = v.work;
#ifdef __CUDA_ARCH__
  Rng& r = rng;  // a copy would be a second stream state in local memory
#else
  Rng r = rng;
#endif
  std::uint64_t steps = s.steps;
  index_t pairs = 0, listed = 0, col = 0;
  int end = 1;
  for (; col < m; ++col) {
    index_t j = col + r.below(static_cast<std::uint32_t>(m - col));
    for (unsigned tries = 0;; j = j + 1 == m ? col : j + 1) {
      ++steps;  // qs4_step's tests, on the locals
      if ((max_steps && steps >= max_steps) ||
          (steps % qs4_poll_interval == 0 && (s.steps = steps, stop()))) {
        end = 0;
        break;
      }
      const row_t row = q[j];
      const index_t d = diag_index(m, col, row), a = anti_diag_index(col, row);
      const unsigned on_diag = diag[d], on_anti = anti_diag[a];
      if ((on_diag | on_anti) != 0 && ++tries < qs4_max_tries) continue;
      if (on_diag >= qs4_line_cap || on_anti >= qs4_line_cap) {
        end = 2;
        break;
      }
      q[j] = q[col];
      q[col] = row;
      diag[d] = static_cast<std::uint8_t>(on_diag + 1);
      anti_diag[a] = static_cast<std::uint8_t>(on_anti + 1);
      const index_t created = index_t{on_diag} + on_anti;
      if (created) {
        if (listed == capacity) {
          end = 2;
          break;
        }
        work[listed++] = col;
      }
      pairs += created;
      break;
    }
    if (end != 1) break;
  }
#ifndef __CUDA_ARCH__
  rng = r;
#endif
  s.steps = steps;
  s.pairs = pairs;
  s.placed = col;
  work_size = listed;
  return end;
}
#undef NQ_QS4_HOST_NOINLINE

/// Repair (the phase above). 1: no pairs left; 0: a limit stopped it; 2: stalled, restart.
template <class Rng, class Stop>
NQ_HD int qs4_repair(const qs4_view& v, Rng& rng, std::uint64_t max_steps, qs4_state& s,
                     index_t work_size, Stop& stop) {
  const index_t m = v.m, capacity = v.work_capacity;
  const std::uint64_t stall_limit = 64 + 4 * std::uint64_t{m};
  row_t* q = v.queen_row;
  std::uint64_t since_improvement = 0;
  index_t next = 0;
  while (s.pairs > 0) {
    if (next == work_size) {  // keep the columns still attacked
      index_t kept = 0;
      for (index_t i = 0; i < work_size; ++i)
        if (qs4_attacked(v, v.work[i])) v.work[kept++] = v.work[i];
      work_size = kept;
      next = 0;
    }
    const index_t a = v.work[next];
    if (!qs4_attacked(v, a)) {
      ++next;
      continue;
    }
    const index_t b = rng.below(static_cast<std::uint32_t>(m));
    if (!qs4_step(s, max_steps, stop)) return 0;
    const index_t ra = q[a], rb = q[b];
    const index_t to_diag[2] = {diag_index(m, a, rb), diag_index(m, b, ra)};
    const index_t to_anti[2] = {anti_diag_index(a, rb), anti_diag_index(b, ra)};
    const bool room = v.diag[to_diag[0]] < qs4_line_cap && v.diag[to_diag[1]] < qs4_line_cap &&
                      v.anti_diag[to_anti[0]] < qs4_line_cap &&
                      v.anti_diag[to_anti[1]] < qs4_line_cap;
    const std::int64_t delta =
        b == a || !room ? 0 : swap_delta(v.diag, v.anti_diag, m, a, ra, b, rb);
    if (delta < 0) {
      --v.diag[diag_index(m, a, ra)], --v.anti_diag[anti_diag_index(a, ra)];
      --v.diag[diag_index(m, b, rb)], --v.anti_diag[anti_diag_index(b, rb)];
      q[a] = static_cast<row_t>(rb);
      q[b] = static_cast<row_t>(ra);
      ++v.diag[to_diag[0]], ++v.anti_diag[to_anti[0]];
      ++v.diag[to_diag[1]], ++v.anti_diag[to_anti[1]];
      s.pairs -= static_cast<index_t>(-delta);
      if (qs4_attacked(v, b)) {
        if (work_size == capacity) {  // make room: drop the columns no longer attacked
          index_t kept = 0;
          for (index_t i = 0; i < work_size; ++i)
            if (i == next || qs4_attacked(v, v.work[i])) {
              if (i == next) next = kept;
              v.work[kept++] = v.work[i];
            }
          work_size = kept;
          if (work_size == capacity) return 2;
        }
        v.work[work_size++] = b;
      }
      since_improvement = 0;
      ++next;
    } else if (++since_improvement > stall_limit) {
      return 2;
    }
  }
  return 1;
}

}  // namespace detail

/// @brief Sets the workspace's rows to 0..m-1 in order: the start of a run.
NQ_HD inline void qs4_reset(const qs4_view& v) {
  for (index_t i = 0; i < v.m; ++i) v.queen_row[i] = static_cast<row_t>(i);
}

/// @brief Solves the m-queens sub-board in `v` (rows as qs4_reset left them) from `rng`,
/// restarting until it is solved or stopped: by max_steps (steps counted as in min_conflicts;
/// 0: none) or by stop(), a callable asked every qs4_poll_interval steps. Returns true when
/// solved. A stopped run leaves its rows as they stand (a permutation) and `s.pairs` the pairs
/// among the first `s.placed` columns only (callers that need all of them recount). m = 2 and
/// 3 return false at once; m >= 1, work_capacity >= 1.
template <class Rng, class Stop>
NQ_HD bool qs4_solve(const qs4_view& v, Rng& rng, std::uint64_t max_steps, qs4_state& s,
                     Stop stop) {
  if (v.m == 2 || v.m == 3) return false;
  for (;; ++s.restarts) {
    detail::qs4_clear(v);
    index_t work_size = 0;
    int end = detail::qs4_place(v, rng, max_steps, s, work_size, stop);
    if (end == 1) end = detail::qs4_repair(v, rng, max_steps, s, work_size, stop);
    if (end == 0) return false;
    if (end == 1) return true;
  }
}

/// @brief A sub-board's whole run, as the CPU threads and the GPU kernel both make it: the rows
/// set to 0..m-1, then, unless stop() already holds (the run is then not started and its rows
/// stay in order), qs4_solve from stream (seed, stream). Returns true when solved. Rng draws
/// philox_stream's words: philox_stream itself, or on the host philox_batch (the same words,
/// computed blocks at a time).
template <class Rng = philox_stream, class Stop>
NQ_HD bool solve_sub_board(const qs4_view& v, std::uint64_t seed, std::uint64_t stream,
                           std::uint64_t max_steps, qs4_state& s, Stop stop) {
  qs4_reset(v);
  if (stop()) return false;
  s.started = true;
  Rng rng(seed, stream);
  return qs4_solve(v, rng, max_steps, s, stop);
}

}  // namespace nq
