#pragma once
/// @file
/// @brief The lattice solver for huge n: the board split into W interleaved sub-boards that
/// share no line, each solved by QS4 (qs4.hpp), on every core. Host-side API.
///
/// Columns c = a + W i (class a) take only rows r = p(a) + W j, where p is a permutation of the
/// residues 0..W-1 with p(a) - a and p(a) + a both distinct mod W (a solution of W queens on a
/// torus, which exists only for W prime to 6). The queens of class a then sit on the diagonals
/// r - c = p(a) - a (mod W) and the antidiagonals r + c = p(a) + a (mod W), which no other class
/// uses, so class a is a board of its own: (i, j) attack each other exactly as queens of an
/// m-queens board do. Solving every class's board solves the whole board, and each class is
/// solved alone, on any core, from its own stream: the board depends on (seed, n) only, never
/// on the thread count. W is prime to 6 and divides n, n - 1 or n + 1 (the one whose sub-boards
/// come nearest the aimed size), so at most one class has a queen more or less than the others;
/// p(a) = k (a - a0) + b0 mod W, with k, k - 1 and k + 1 prime to W and drawn from the seed,
/// keeps that class on its own rows. With no such W (no sub-board of 64 queens or more), the
/// board is solved whole. Each sub-board is solved by QS4 (qs4.hpp) from stream (seed, a), the
/// same search on CPU threads and on the GPU (gpu::solve_lattice), so both give the same board.

#include <cstdint>
#include <vector>

#include "nqueens/placement_solver.hpp"
#include "nqueens/solver.hpp"

namespace nq {

/// @brief Sub-board size the lattice aims for: its lines and rows (about 9 bytes a queen) stay
/// in a core's L2 cache.
inline constexpr index_t lattice_default_sub_board = index_t{1} << 16;

/// @brief Boards with no split up to this size are solved whole by the sub-board search (the
/// GPU's too); larger ones by min-conflicts, on the CPU only.
inline constexpr index_t lattice_max_whole_search = index_t{1} << 20;

/// @brief How a board of n queens is split.
struct lattice_plan {
  index_t n = 0;
  std::uint64_t seed = 0;          ///< the seed p was drawn from
  index_t classes = 1;             ///< W: 1 means the board is solved whole
  index_t wide = 0;                ///< e = n mod W: classes below it have one column more
  std::vector<index_t> row_class;  ///< p: class a takes the rows p(a) + W j
  index_t size(index_t a) const {  ///< columns (and rows) of class a
    return n / classes + (a < wide ? 1 : 0);
  }
};

/// @brief The split of n queens for `seed`: W as above, with sub-boards nearest sub_board
/// queens (0 means lattice_default_sub_board) on a log scale, and k (and b0, when every class
/// has the same size) drawn from the seed; W = 1 when no W fits. Precondition: 1 <= n <= max_n.
/// A solve makes its plan once and hands it down (the memory check, the device's choice, the
/// run).
lattice_plan plan_lattice(index_t n, std::uint64_t seed, index_t sub_board = 0);

namespace detail {
/// @brief Plans plan_lattice has made in this process: what the tests count to see that a
/// solve makes one.
std::uint64_t lattice_plans_made();
}  // namespace detail

/// @brief Whether `plan` is a valid split: p is a permutation, maps the wide classes onto
/// themselves, and takes every class to distinct diagonals and antidiagonals mod W.
bool lattice_plan_is_valid(const lattice_plan& plan);

/// @brief How many times longer a sub-board search takes on one GPU thread than on a CPU
/// core, as estimated in docs/gpu-costs.md (an estimate, not a measurement): each QS4 step is
/// a chain of dependent loads, about 0.3 to 0.6 us from a GPU thread's global memory against
/// about 10 ns from a core's L2 cache, 30 to 60 times; rounded up, so that a guess keeps the CPU.
inline constexpr index_t lattice_gpu_class_slowdown = 64;

/// @brief Whether `--device auto` runs the lattice of n queens (sub-boards of `sub_board`, 0:
/// the default) on a GPU of `multiprocessors` SMs rather than on `cpu_threads` CPU threads.
/// Each class is one serial search, one GPU thread each, so the GPU finishes its classes in
/// about one class's time, slowed lattice_gpu_class_slowdown times, while the CPU takes
/// classes / cpu_threads classes' time: the GPU pays off from lattice_gpu_class_slowdown
/// classes a CPU thread, and only with a class for every SM (a device it fills). So: classes
/// >= max(multiprocessors, lattice_gpu_class_slowdown * cpu_threads). At 10^6 queens (13
/// classes) that is the CPU everywhere; at 10^8 (1,507) the GPU beside up to 23 CPU threads; at
/// 10^9 (15,625) beside up to 244. An estimate, to be checked against device timings
/// (docs/gpu-costs.md).
bool lattice_fills_gpu(const lattice_plan& plan, unsigned multiprocessors, unsigned cpu_threads);
/// @brief The same for n queens with sub-boards of `sub_board` (0: the default), planned here.
bool lattice_fills_gpu(index_t n, unsigned multiprocessors, unsigned cpu_threads,
                       index_t sub_board = 0);

/// @brief Peak bytes the lattice solver allocates for plan.n queens on `threads` threads (0:
/// every core): the board, and each thread's sub-boards and their search (or min-conflicts').
std::uint64_t lattice_memory_bytes(const lattice_plan& plan, unsigned threads);

/// @brief Solves n queens by the lattice split with settings.threads threads (0: every core);
/// n = 2 and 3 return unsolved at once. The board depends on (seed, n, sub_board) alone.
/// Steps and restarts add up those of the sub-boards; --max-steps bounds each sub-board's own.
/// A run a limit or stop ends returns the whole board it holds (sub-boards never started keep
/// rows in order) with its attacking pairs counted exactly (`unplaced` stays 0), but for a board
/// with no split above lattice_max_whole_search, solved whole by min-conflicts: stopped while
/// placing, it reports its queens `unplaced` as min-conflicts does.
/// The board's set-up reads the stop too, so a stop lands within moments at any n; with
/// `board_wanted` false such a run returns no board (queen_row empty) unless it was whole, its
/// pairs still counted. Throws std::bad_alloc when memory runs out.
solve_result solve_lattice(index_t n, const placement_settings& settings,
                           const progress_fn& progress = {}, index_t sub_board = 0,
                           bool board_wanted = true);

/// @brief The same for the plan's n, split as `plan` says, which must have been drawn from
/// settings.seed (the board would not be the seed's otherwise).
solve_result solve_lattice(const lattice_plan& plan, const placement_settings& settings,
                           const progress_fn& progress = {}, bool board_wanted = true);

}  // namespace nq
