#pragma once
/// @file
/// @brief The CUDA backend as seen from g++-compiled code: no CUDA types cross this header.

#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nqueens/backend.hpp"
#include "nqueens/detail/climb.hpp"
#include "nqueens/config.hpp"
#include "nqueens/detail/constellation.hpp"
#include "nqueens/count.hpp"
#include "nqueens/lattice.hpp"
#include "nqueens/local_search.hpp"
#include "nqueens/placement_solver.hpp"

namespace nq::gpu {

/// @brief Usable CUDA devices; 0 when there is no driver or no device. Never throws. The host
/// execution (kernels built as plain C++ for tests) has one, named "host execution".
int device_count();

/// @brief The device's name, e.g. "NVIDIA H100 80GB HBM3".
std::string device_name(int device = 0);

/// @brief What a benchmark's record says of a device.
struct device_facts {
  std::string name;
  unsigned multiprocessors = 0;
  unsigned clock_mhz = 0;         ///< the SMs' clock; 0 where unknown (the host execution)
  unsigned memory_clock_mhz = 0;  ///< 0 where unknown
  std::uint64_t memory_bytes = 0;
  int major = 0;  ///< compute capability; 0.0 in the host execution
  int minor = 0;
  int driver = 0;   ///< cudaDriverGetVersion (12080 is 12.8); 0 in the host execution
  int runtime = 0;  ///< cudaRuntimeGetVersion; 0 in the host execution
};

/// @brief The facts of `device` (0 .. device_count() - 1).
device_facts facts(int device);

/// @brief In the host execution, makes device_count() `count` (1 to 8; 1 unless set), each
/// device with a stream of its own, so that tests run the multi-device code; returns true.
/// A CUDA build has the devices it has: it changes nothing and returns false.
bool set_host_devices(int count);

/// @brief The calling thread's device (cudaGetDevice), where its GPU work goes: each host
/// thread has its own, device 0 until set. In the host execution, the device it plays.
int current_device();

/// @brief In the host execution, the device memory the played devices hold together, mapped
/// buffers included: an allocation past `bytes` throws the cuda_error a cudaMalloc out of
/// memory does, and device_free_bytes() says what is left; 0 (the default) gives the host's
/// own memory. Returns true. A CUDA build has the memory it has: it changes nothing and
/// returns false.
bool set_host_device_memory(std::uint64_t bytes);

/// @brief What the GPU paths have paid for since the process started, on every host thread and
/// device: counted where the host launches, waits, copies or allocates, in both executions, so
/// that tests hold an operation to a budget without a device (`after - before`). Thrust's
/// temporaries differ: CUDA's Thrust takes them for every sort, scan and reduction, the host
/// execution's only where its sequential algorithm needs them (a sort).
struct gpu_costs {
  std::uint64_t launches = 0;  ///< kernel launches
  /// Blocking waits: synchronize, copies to and from pageable memory, event timings, and each
  /// blocking Thrust call (thrust::device waits for the device at the end of every algorithm;
  /// a call in stream order, par_nosync, does not).
  std::uint64_t syncs = 0;
  std::uint64_t to_host_copies = 0;  ///< device-to-host copies
  /// Bytes those copies brought back (not Thrust's own results, a few bytes a reduction).
  std::uint64_t to_host_bytes = 0;
  std::uint64_t to_device_copies = 0;  ///< host-to-device copies
  std::uint64_t allocations = 0;       ///< device (and pinned host) allocations, Thrust's included
  std::uint64_t allocated_bytes = 0;   ///< bytes those allocations took
  /// Phases of the blocks' bodies (each ends at a block-wide barrier: a block.each, reduction
  /// or scan), summed over the blocks. Counted by the host execution only (counts_phases()):
  /// what a device pays for inside a kernel, where launches and copies do not show it.
  std::uint64_t block_phases = 0;
  /// Thrust algorithms called (each given one of kernels/thrust_policy.cuh's policies).
  std::uint64_t thrust_calls = 0;
  friend gpu_costs operator-(gpu_costs after, const gpu_costs& before) {
    after.launches -= before.launches;
    after.syncs -= before.syncs;
    after.to_host_copies -= before.to_host_copies;
    after.to_host_bytes -= before.to_host_bytes;
    after.to_device_copies -= before.to_device_copies;
    after.allocations -= before.allocations;
    after.allocated_bytes -= before.allocated_bytes;
    after.block_phases -= before.block_phases;
    after.thrust_calls -= before.thrust_calls;
    return after;
  }
};

/// @brief The costs counted so far (gpu_costs).
gpu_costs costs();

/// @brief Whether gpu_costs::block_phases is counted: true in the host execution, false on a
/// device.
bool counts_phases();

/// @brief Whether launches run their blocks, and phases their threads, one at a time in order:
/// the host execution's forward schedule on one host thread (NQ_HOST_ORDER, NQ_HOST_BLOCK_THREADS;
/// kernels/host/schedule.hpp). False on a device, and for the other schedules.
bool runs_in_order();

/// @brief Attacking pairs of a board, counted on the GPU with the shared line logic.
/// Throws usage_error for a row outside 0..n-1, nq::cuda_error (a resource_error) when the GPU
/// fails or lacks memory.
index_t count_attacking_pairs(std::span<const row_t> queen_row);

/// @brief The largest board a thread-per-run chain keeps in registers and local memory.
inline constexpr index_t max_thread_chain_n = 32;
/// @brief The largest board a thread-per-run chain takes with its board in global memory
/// (16-bit line counts; first-choice stays at max_thread_chain_n).
inline constexpr index_t max_global_chain_n = small_climber_n;

/// @brief How a ga or beam run is laid out on the GPU (the records are the same either way).
enum class population_shape : std::uint8_t {
  /// whole_grid (ga and beam alike) when a run's block-per-run workspace exceeds the 160 KiB
  /// of shared memory a block takes and a launch holds fewer than 128 runs; else block_per_run.
  automatic,
  block_per_run,  ///< one block per run, the population in shared memory where it fits
  whole_grid,     ///< one run at a time, the whole grid on its population (or beam)
};

/// @brief How run_thread_chains and run_population_runs run their chains.
struct chain_options {
  std::uint64_t max_steps = 0;        ///< per run; 0 means the algorithm's default
  double time_limit = 0.0;            ///< seconds per run, measured on the device; 0: none
  std::uint64_t runs_per_launch = 0;  ///< 0: as many as fit; tests ask for fewer
  population_shape shape = population_shape::automatic;  ///< ga and beam only
};

/// @brief Runs chains of a single-chain local search (hc ... min-conflicts --variant column),
/// one GPU thread each (one block each for hc, hc-sideways and hc-restart on 33..8192
/// queens): run i, for first <= i < first + count, draws from stream (seed, i) and follows the
/// same NQ_HD step logic as local_workspace::run on the CPU, so its outcome and final board are
/// the CPU's. Boards, when asked for, are n rows per run. `trace` (count = 1 only) receives
/// the CPU's trace rows (step, restarts, cost, temperature; no board). Once `*stop` is set,
/// every run ends at its next check (every 1024 steps), `stopped`. Needs 1 <= n <=
/// max_global_chain_n (max_thread_chain_n for first-choice).
std::vector<chain_outcome> run_thread_chains(index_t n, const local_search_settings& settings,
                                             std::uint64_t seed, std::uint64_t first,
                                             std::uint64_t count, const chain_options& options,
                                             std::vector<row_t>* boards = nullptr,
                                             std::vector<trace_row>* trace = nullptr,
                                             const std::atomic<bool>* stop = nullptr);

/// @brief Whether ga or beam on n queens runs on the GPU (run_population_runs): 1 <= n <=
/// max_global_chain_n, within the memory one run may take.
bool has_population_run(const local_search_settings& settings, index_t n);

/// @brief Runs of ga or beam, one GPU block each, the population in shared memory where it
/// fits, or one at a time on the whole grid (chain_options::shape): run i, for first <= i < first +
/// count, draws from the streams keyed by (seed, i, generation, individual) and follows the same
/// NQ_HD step logic as the CPU reference, so its outcome and best board are the CPU's. `trace`
/// (count = 1 only) receives the CPU's per-generation rows (step, cost, best and mean fitness).
/// Once `*stop` is set, every run ends at its next generation, `stopped`.
std::vector<chain_outcome> run_population_runs(index_t n, const local_search_settings& settings,
                                               std::uint64_t seed, std::uint64_t first,
                                               std::uint64_t count, const chain_options& options,
                                               std::vector<row_t>* boards = nullptr,
                                               std::vector<trace_row>* trace = nullptr,
                                               const std::atomic<bool>* stop = nullptr);

/// @brief The shape `requested` resolves to for a launch of `runs` runs of ga or beam on n
/// queens (block_per_run or whole_grid; run_population_runs launches at most
/// 2 GiB / population_run_bytes runs at once when they do not fit in shared memory).
population_shape resolved_population_shape(
    const local_search_settings& settings, index_t n, std::uint64_t runs,
    population_shape requested = population_shape::automatic);

/// @brief How the GPU batch backend runs.
struct backend_options {
  int device = 0;
  /// Runs a launch holds; 0: the whole job for thread chains without records (one persistent
  /// launch), 2^24 where outcomes are stored (records, block chains, ga and beam).
  std::uint64_t slice_runs = 0;
};

/// @brief The GPU batch backend: thread-per-run chains (see run_thread_chains) and ga and beam,
/// block-per-run or whole-grid (run_population_runs), tallied on the device. Throws cuda_error
/// without a usable device.
std::unique_ptr<batch_backend> make_gpu_backend(const backend_options& options = {});

/// @brief Where gpu::solve_placement plays its passes.
struct placement_split {
  /// Passes of at most this many blocks of columns run on the host, as the insertion always
  /// does: one CPU core plays a round of so few claims faster than one GPU block (an estimate,
  /// docs/gpu-costs.md). 0 runs every pass on the device.
  index_t host_blocks = 8;
};

/// @brief The parallel placement (placement.hpp) on the GPU, each pass in one launch of one
/// block, the last passes (`split`) and the insertion on the host: the same board, steps and
/// restarts as solve_placement on the CPU for the same (seed, n), any thread count.
/// settings.threads is ignored. The step limit stops a run where the CPU's does; the stop flag
/// and the time limit are read every 32 rounds on the device. Throws cuda_error when the GPU
/// fails or lacks memory.
solve_result solve_placement(index_t n, const placement_settings& settings,
                             const placement_split& split = {});

/// @brief Bytes of device memory free now (in the host execution, what set_host_device_memory
/// leaves, or the host's available memory). Throws cuda_error when the GPU fails.
std::uint64_t device_free_bytes();

/// @brief Streaming multiprocessors of `device` (1 in the host execution). Throws cuda_error
/// when the GPU fails.
unsigned multiprocessor_count(int device = 0);

/// @brief Whether gpu::solve_lattice takes the plan's n queens: they are split, or n <=
/// lattice_max_whole_search (solved whole on one GPU thread).
bool has_lattice(const lattice_plan& plan);
/// @brief The same for n queens, planned here.
bool has_lattice(index_t n);

/// @brief Device bytes gpu::solve_lattice needs for the plan's n queens with `slots` classes in
/// flight: the board, the plan, and the larger of the workspaces and the check's bits (5 bits
/// a queen).
std::uint64_t lattice_device_bytes(const lattice_plan& plan, index_t slots = 1);
/// @brief The same for n queens with sub-boards of `sub_board` (0: the default), planned here.
std::uint64_t lattice_device_bytes(index_t n, index_t slots = 1, index_t sub_board = 0);

/// @brief What gpu::solve_lattice did.
struct lattice_gpu_result {
  solve_result result;          ///< queen_row empty unless copied back
  index_t slots = 0;            ///< classes each launch ran at once
  std::uint64_t unsolved = 0;   ///< classes a limit or stop left unsolved
  std::uint64_t clashes = 0;    ///< clashes the device's check found (0: a solution)
  double kernel_seconds = 0.0;  ///< the classes' launches, by CUDA events
};

/// @brief The lattice (lattice.hpp) on the GPU: one thread per class runs the CPU's sub-board
/// search from the same stream (a warp to itself while the classes in flight are at most 16
/// warps an SM, so that they spread over the SMs), so the board is solve_lattice's for the same
/// (seed, n), step counts included. The board stays on the device, is checked there, and is copied
/// back when `copy_board` or when it is no solution (whose pairs are then counted on the CPU with
/// settings.threads). A stop or time limit raises a flag each search reads every
/// qs4_poll_interval steps; classes not started then keep their rows in order, and the pairs
/// of a board left unsolved are not counted (`pairs_counted` false; copied back only when
/// `copy_board`), so that the stop lands within moments at any n. Needs
/// has_lattice(n); `sub_board` as solve_lattice's; `slots` > 0 caps the classes a launch runs
/// (tests; the board does not depend on it). Throws cuda_error (a resource_error) when the GPU
/// fails or lacks memory, before anything runs when the board does not fit.
lattice_gpu_result solve_lattice(index_t n, const placement_settings& settings, bool copy_board,
                                 index_t sub_board = 0, index_t slots = 0);

/// @brief The same for the plan's n, split as `plan` says, which must have been drawn from
/// settings.seed: the engine plans a solve once and hands the plan down.
lattice_gpu_result solve_lattice(const lattice_plan& plan, const placement_settings& settings,
                                 bool copy_board, index_t slots = 0);

/// @brief Rows each counting subproblem fixes on the GPU: hundreds of thousands of
/// subproblems, many more than resident threads.
inline constexpr int count_split_rows(int n) { return n <= 14 ? 5 : 6; }

/// @brief Counts subproblems on the GPU: one thread each, pulled from an atomic counter,
/// running the CPU's count_prefix_completions. Holds the subproblems and the frame table on the
/// device. Throws cuda_error when the GPU fails.
class subproblem_counter {
 public:
  subproblem_counter(int n, const std::vector<count_prefix>& subs,
                     const std::vector<std::uint16_t>& frame_class);
  ~subproblem_counter();
  subproblem_counter(const subproblem_counter&) = delete;
  subproblem_counter& operator=(const subproblem_counter&) = delete;
  /// @brief Counts subs[indices[i]] for every i in one launch. While it runs, `finished` hears
  /// (on the calling thread, several times a second) each subproblem as it completes. Once
  /// `*stop` is set, the kernel gives up within a few milliseconds: the subproblems it had not
  /// finished are never reported.
  void count(const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
             const std::function<void(std::span<const finished_subproblem>)>& finished);
  /// @brief Every subproblem of `indices`, counted to the end: the tallies in order.
  std::vector<count_tally> count(const std::vector<std::uint32_t>& indices);
  /// @brief Seconds in the counting kernels so far (CUDA events).
  double kernel_seconds() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// @brief Free rows a GPU frame piece fixes below its frame (frame_pieces.hpp; frames with a
/// corner queen one more, frame_cut_depth): at n = 15 and 16, 3, so that the largest piece is at
/// most about twice a lane's fair share of the nodes on one H100 (132 SMs x 8 blocks x 128
/// threads): 963,105 pieces at n = 16, the largest 0.96 of the share; 2 elsewhere (pieces of
/// smaller boards are small whatever the cut, and a take per few nodes costs more than the
/// tail): at n = 17 342,923 pieces, 1.87, at n = 18 560,982, 1.19
/// (bench/results/2026-11-27-gpu-counter-model.md).
inline constexpr int frame_piece_depth(int n) {
  return n <= 11 ? 0 : n <= 14 ? 2 : n <= 16 ? 3 : 2;
}

/// @brief Rows past a child's the GPU counter's kernel looks at (the CPU's look 3): 1. Against
/// 3 it tries 19% more nodes at n = 18, each for 57 PTX instructions a warp iteration instead
/// of 68: as many instructions in all (2.2 a node of look-ahead 3's tree), but one 16-byte step
/// load a level instead of two and no spill (bench/results/2026-11-27-gpu-counter-model.md).
/// Estimates: the device check times both (NQ_GPU_LOOK_AHEAD=3).
inline constexpr int frame_kernel_look_ahead = 1;

/// @brief What a frame count on the GPU did, for measurements. The lane figures are counted
/// only when the host execution plays the lanes in lockstep (set_host_frame_lanes); else 0.
struct frame_count_stats {
  std::uint64_t pieces = 0;           ///< pieces of the last count
  std::uint64_t whole_frames = 0;     ///< of them, frames searched whole (fewer than two free rows)
  std::uint64_t blocks = 0;           ///< blocks of the launch (resident at once on the device)
  std::uint64_t look_ahead = 0;       ///< rows of look-ahead the kernel ran (1 or 3)
  std::uint64_t stack_levels = 0;     ///< 16-byte stack entries a lane holds in shared memory
  std::uint64_t shared_bytes = 0;     ///< dynamic shared memory a block takes
  std::uint64_t lane_steps = 0;       ///< turns lanes worked: a queen placed, a piece taken
  std::uint64_t idle_lane_steps = 0;  ///< turns a lane sat idle while its warp worked
  std::uint64_t warps = 0;            ///< warps that took a piece
  std::uint64_t longest_piece_steps = 0;  ///< turns of the longest piece (its nodes tried)
  std::uint64_t take_rows_built = 0;      ///< frame rows the lanes' takes built (frame_row_open)
  std::uint64_t take_row_words = 0;       ///< words of prepared frame rows the lanes' takes read
  std::uint64_t nodes = 0;                ///< queens placed (frame_walk::advance calls)
  std::uint64_t warp_steps = 0;           ///< iterations of a warp with a lane at work
  std::uint64_t take_warp_steps = 0;      ///< of them, with a lane taking a piece
  std::uint64_t plain_warp_steps = 0;     ///< with a lane placing a queen, no board checked
  std::uint64_t fixed_warp_steps = 0;     ///< with a lane placing a queen of a fixed frame
};

/// @brief How the host execution plays the frame counter's lanes (a device always runs them
/// as threads): `threads`, each lane's loop to its end, one after another (the default);
/// `lockstep`, a phase per iteration, every lane one turn, counting per warp of 32 the turns a
/// lane sits idle while another works (frame_count_stats), as a SIMT warp would; `warp_fetch`,
/// the same, but a lane takes a piece only once its whole warp has finished theirs: the
/// schedule of a nested loop (take a piece, search it to its end), which lanes leave at the
/// warp's largest piece. Lockstep plays are slow: for tests of the schedule, on small boards.
enum class frame_lane_play : std::uint8_t { threads, lockstep, warp_fetch };

/// @brief In the host execution, how frame counts play their lanes from now on; returns true.
/// A CUDA build runs them on its device: it changes nothing and returns false.
bool set_host_frame_lanes(frame_lane_play play);

/// @brief Counts canonical frames on the GPU: the CPU's subproblems (split "frames", the same
/// index for the same frame, the same tallies), so a checkpoint moves between the CPU and the
/// GPU. Each frame is cut into pieces (frame_pieces.hpp), frames biggest first with a frame's
/// pieces together, and one persistent launch (every SM as full as its registers and shared
/// memory allow) pulls them from one atomic counter; each thread runs one flat loop that places
/// one queen an iteration on one branch-free path, taking the next piece when its own is done
/// (frame_walk.hpp), its stack in shared memory, and the last free row is counted by popcount.
/// A count uploads its frames, each level's step (built on the host, once a frame) and its
/// pieces in one copy. A frame is reported once its last piece is done,
/// while the launch runs; a stop flag ends every thread within count_stop_interval nodes.
/// Throws cuda_error when the GPU fails.
class frame_counter {
 public:
  /// @brief For n in 4..32, on `device`; `depth` < 0 means frame_piece_depth(n); `look_ahead`
  /// (1 or 3) the rows the kernel looks past a child's, < 0 meaning NQ_GPU_LOOK_AHEAD's
  /// (a measurement setting, docs/gpu-costs.md) or frame_kernel_look_ahead. One counter per
  /// device; several may count at once, each from a host thread of its own.
  explicit frame_counter(int n, int depth = -1, int device = 0, int look_ahead = -1);
  ~frame_counter();
  frame_counter(const frame_counter&) = delete;
  frame_counter& operator=(const frame_counter&) = delete;
  /// @brief The canonical frames, as the CPU lists them (index order of its checkpoints).
  std::size_t frames() const;
  /// @brief Counts frames[indices[i]] for every i in one launch on the counter's device (made
  /// the calling thread's device); `finished` hears each frame
  /// (by its position in `indices`) as its last piece completes, on the calling thread,
  /// several times a second. Once `*stop` is set, the kernel gives up within a few
  /// milliseconds; frames it did not report stay unfinished.
  void count(const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
             const std::function<void(std::span<const finished_subproblem>)>& finished);
  /// @brief Every frame of `indices`, counted to the end: the tallies in order.
  std::vector<count_tally> count(const std::vector<std::uint32_t>& indices);
  /// @brief Seconds in the counting kernels so far (CUDA events).
  double kernel_seconds() const;
  frame_count_stats stats() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace nq::gpu
