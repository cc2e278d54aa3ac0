// The lattice (lattice.hpp) on the GPU: one thread per class runs the NQ_HD QS4 of qs4.hpp on
// its sub-board, from the CPU's stream (seed, class), and writes it into the board, which stays
// on the device. The board is then checked there (a bit per line, set atomically: a bit found
// set is a clash) and copied back only when asked for, or when it is not a solution.

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/construction.hpp"
#include "nqueens/detail/memory.hpp"
#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/lattice.hpp"
#include "nqueens/detail/qs4.hpp"
#include "nqueens/verify.hpp"

namespace nq::cuda {
namespace {

/// One warp a block: few threads, each a long chain of dependent loads, so blocks (and the SMs
/// they land on) are what spreads the classes over the device.
constexpr unsigned block_threads = 32;
/// A class has a warp to itself while the classes in flight fit this many warps an SM (all
/// resident at once at 78 registers a thread: 25 warps of 32 an SM), so that its search shares
/// neither an SM's issue slots nor a warp's branches with another class; past that, one thread
/// each (the board is the same either way: one thread runs each class).
constexpr index_t warps_per_sm_for_classes = 16;
/// Most classes in flight: 2^16 workspaces of 65,536 queens are 36 GB.
constexpr index_t max_slots = index_t{1} << 16;

/// The workspaces of the classes in flight, slot after slot.
struct slot_space {
  row_t* rows;
  std::uint8_t* diag;
  std::uint8_t* anti_diag;
  index_t* work;
  index_t m0;  ///< the widest class
  NQ_HD qs4_view view(index_t slot, index_t m) const {
    const index_t lines = diag_line_count(m0);
    return {rows + slot * m0,
            diag + slot * lines,
            anti_diag + slot * lines,
            work + slot * qs4_work_capacity(m0),
            m,
            qs4_work_capacity(m)};
  }
};

/// Stops a search once the host raises the flag (a stop or the time limit).
struct flag_stop {
  const unsigned* flag;
  NQ_HD bool operator()() const { return stop_raised(flag); }
};

/// Classes first..first+count-1, one thread each, the first of `lanes` (1 or a warp: the
/// grid's threads are a multiple of it, so a thread's place in its group never changes). A
/// class the flag finds raised at its start is not searched: its rows stay in order, as on the
/// CPU. Totals: steps, restarts, unsolved.
struct solve_classes {
  row_t* board;
  const index_t* row_class;
  slot_space space;
  index_t n, classes, wide, first, count, lanes;
  std::uint64_t seed, max_steps;
  const unsigned* flag;
  unsigned long long* totals;
  NQ_HD void operator()(thread_id id) const {
    if (id.global() % lanes != 0) return;
    for (index_t t = id.global() / lanes; t < count; t += id.grid_threads() / lanes) {
      const index_t a = first + t, m = n / classes + (a < wide ? 1 : 0);
      const qs4_view v = space.view(t, m);
      qs4_state state;
      const bool solved = solve_sub_board(v, seed, a, max_steps, state, flag_stop{flag});
      const index_t p = row_class[a];
      for (index_t i = 0; i < m; ++i)
        board[a + classes * i] = static_cast<row_t>(p + classes * v.queen_row[i]);
      atomic_add(totals, static_cast<unsigned long long>(state.steps));
      atomic_add(totals + 1, static_cast<unsigned long long>(state.restarts));
      if (!solved) atomic_add(totals + 2, 1ull);
    }
  }
};

/// Sets bit `line` of `bits`; true when it was set already.
NQ_HD inline bool set_bit(unsigned* bits, index_t line) {
  const unsigned mask = 1u << (line % 32);
  return (device_atomic<unsigned>(bits[line / 32]).fetch_or(mask, order::memory_order_relaxed) &
          mask) != 0;
}

/// The check: every queen sets the bits of its row and diagonals; each bit found set, or row
/// off the board, is a clash.
struct check_lines {
  const row_t* board;
  unsigned* rows;
  unsigned* diag;
  unsigned* anti_diag;
  index_t n;
  unsigned long long* clashes;
  NQ_HD void operator()(thread_id id) const {
    unsigned long long found = 0;
    for (index_t col = id.global(); col < n; col += id.grid_threads()) {
      const index_t row = board[col];
      if (row >= n) {
        ++found;
        continue;
      }
      found += set_bit(rows, row) + set_bit(diag, diag_index(n, col, row)) +
               set_bit(anti_diag, anti_diag_index(col, row));
    }
    if (found) atomic_add(clashes, found);
  }
};

index_t bit_words(index_t bits) { return (bits + 31) / 32; }

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

bool has_lattice(const lattice_plan& plan) {
  return plan.n <= lattice_max_whole_search || plan.classes > 1;
}

bool has_lattice(index_t n) {
  return n <= lattice_max_whole_search || has_lattice(plan_lattice(n, 1));
}

std::uint64_t lattice_device_bytes(const lattice_plan& plan, index_t slots) {
  const index_t n = plan.n;
  const std::uint64_t check_words =
      cuda::bit_words(n) + 2 * cuda::bit_words(diag_line_count(n)) + 3;
  return n * sizeof(row_t) + plan.classes * sizeof(index_t) + 8 * sizeof(unsigned long long) +
         std::max<std::uint64_t>(slots * qs4_workspace_bytes(plan.size(0)),
                                 check_words * sizeof(unsigned));
}

std::uint64_t lattice_device_bytes(index_t n, index_t slots, index_t sub_board) {
  // W, and so the sizes, do not depend on the seed.
  return lattice_device_bytes(plan_lattice(n, 1, sub_board), slots);
}

lattice_gpu_result solve_lattice(index_t n, const placement_settings& settings, bool copy_board,
                                 index_t sub_board, index_t slots) {
  if (!solution_exists(n)) return {};
  return solve_lattice(plan_lattice(n, settings.seed, sub_board), settings, copy_board, slots);
}

lattice_gpu_result solve_lattice(const lattice_plan& plan, const placement_settings& settings,
                                 bool copy_board, index_t slots) {
  using namespace nq::cuda;
  NQ_EXPECTS(plan.seed == settings.seed, "a lattice plan drawn from the run's seed");
  lattice_gpu_result out;
  solve_result& result = out.result;
  const index_t n = plan.n;
  if (!solution_exists(n)) return out;
  const nq::detail::stopwatch clock;
  NQ_EXPECTS(plan.classes > 1 || n <= lattice_max_whole_search,
             "the GPU lattice needs a split, or at most 2^20 queens");
  const index_t w = plan.classes, m0 = plan.size(0);
  // Classes in flight: all, or as many as half the memory left beside one does (the board
  // does not depend on it).
  const std::uint64_t free = device_free_bytes(), base = lattice_device_bytes(plan, 1);
  if (base > free)
    throw cuda_error("the GPU lattice needs " + format_bytes(base) + " of device memory for " +
                     std::to_string(n) + " queens; " + format_bytes(free) + " is free");
  const std::uint64_t fit = 1 + (free - base) / 2 / qs4_workspace_bytes(m0);
  out.slots = static_cast<index_t>(std::min<std::uint64_t>({w, max_slots, fit}));
  if (slots) out.slots = std::min(out.slots, slots);

  const index_t sms = multiprocessors(current_device());
  device_buffer<row_t> board(n);
  device_buffer<index_t> row_class(w);
  device_buffer<unsigned long long> totals(4);  // steps, restarts, unsolved, clashes
  mapped_buffer<unsigned> flag(1);
  copy_to_device(row_class.data(), plan.row_class.data(), w);
  fill_bytes(totals.data(), 0, totals.size());
  const auto& lim = settings.limits;
  const auto must_stop = [&] {
    return (lim.time_limit > 0 && clock.seconds() >= lim.time_limit) ||
           (lim.stop && lim.stop->load(std::memory_order_relaxed));
  };
  bool stopped = false;  // the flag raised: some classes may not have been searched
  // The workspaces, and after them the check's bits, in one allocation.
  const index_t lines = diag_line_count(m0),
                check_words = bit_words(n) + 2 * bit_words(diag_line_count(n));
  const std::uint64_t space_bytes = out.slots * qs4_workspace_bytes(m0);
  device_buffer<unsigned> scratch(std::max<std::uint64_t>(
      (space_bytes + sizeof(unsigned) - 1) / sizeof(unsigned), check_words));
  {
    // The work lists first (8-byte items, the allocation's own alignment), then the rows
    // (4-byte), then the byte counts: every array aligned to its type whatever slots and m0.
    auto* bytes = reinterpret_cast<unsigned char*>(scratch.data());
    auto* work = reinterpret_cast<index_t*>(bytes);
    auto* rows = reinterpret_cast<row_t*>(work + out.slots * qs4_work_capacity(m0));
    auto* diag = reinterpret_cast<std::uint8_t*>(rows + out.slots * m0);
    const slot_space laid{rows, diag, diag + out.slots * lines, work, m0};
    cuda_event start, end;
    start.record();
    for (index_t first = 0; first < w; first += out.slots) {
      if (!stopped && must_stop()) raise_flag(flag.host()), stopped = true;
      const index_t count = std::min(out.slots, w - first);
      const index_t lanes = count <= warps_per_sm_for_classes * sms ? block_threads : 1;
      launch_threads(
          "lattice_classes", grid_size(count * lanes, block_threads), block_threads,
          solve_classes{board.data(), row_class.data(), laid, n, w, plan.wide, first, count, lanes,
                        settings.seed, lim.max_steps, flag.device(), totals.data()});
      // Raises the flag for a stop or the time limit while the launch runs.
      while (!stream_idle()) {
        if (!stopped && must_stop()) raise_flag(flag.host()), stopped = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      synchronize();
    }
    end.record();
    out.kernel_seconds = elapsed_seconds(start, end);
  }
  // The check, in the same memory.
  unsigned* bits = scratch.data();
  fill_bytes(bits, 0, check_words);
  launch_threads(
      "lattice_check", grid_size(n, 256), 256,
      check_lines{board.data(), bits, bits + bit_words(n),
                  bits + bit_words(n) + bit_words(diag_line_count(n)), n, totals.data() + 3});
  unsigned long long host[4];
  copy_to_host(host, totals.data(), 4);
  result.steps = host[0];
  result.restarts = host[1];
  out.unsolved = host[2];
  out.clashes = host[3];
  result.solved = out.clashes == 0;
  // The pairs of a board that is no solution, counted exactly on the CPU; not after a stop,
  // which would then wait seconds on a huge board (the copy and the count).
  const bool count_pairs = !result.solved && !stopped;
  if (copy_board || count_pairs) {
    result.queen_row.resize(n);
    copy_to_host(result.queen_row.data(), board.data(), n);
  }
  if (count_pairs) {
    const unsigned threads =
        settings.threads ? settings.threads : std::max(1u, std::thread::hardware_concurrency());
    result.conflicts = verify_board(result.queen_row, threads).conflicts;
  }
  result.pairs_counted = result.solved || count_pairs;
  result.seconds = clock.seconds();
  return out;
}

}  // namespace nq::gpu
