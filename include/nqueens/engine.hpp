#pragma once
/// @file
/// @brief The engine under the command line, the Python module and C++ programs: a typed request
/// in, a typed result out, the device a field of the request. No CUDA type appears here: a build
/// without CUDA answers a request for the GPU with a device_error and runs `any` on the CPU.

#include <atomic>
#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "nqueens/batch.hpp"
#include "nqueens/count.hpp"
#include "nqueens/local_search.hpp"
#include "nqueens/ranks.hpp"
#include "nqueens/verify.hpp"

namespace nq {

/// @brief Where a job runs.
enum class device_kind {
  cpu,  ///< the CPU only
  gpu,  ///< the GPUs only: a device_error where there are none
  any,  ///< the GPUs where present and able to run the job, else the CPU ("auto")
  all,  ///< the GPUs and the CPU together, where a job can share (count)
};

/// @brief A job's device and, for the GPU, which ones: every request's `device`. Its default,
/// `any`, is the GPU where one is present and runs the job, else the CPU.
struct device_request {
  device_kind kind = device_kind::any;
  /// A count's GPUs, by number, each once; empty: every one. solve and batch run on the first
  /// GPU (choose it with CUDA_VISIBLE_DEVICES): ids, or `all`, are a usage_error there.
  std::vector<int> ids;
};

/// @brief A setting's value as a record holds it: a number, a switch, or a word (a setting
/// that takes one of a few, e.g. ties "first", as its option takes it).
using setting_value = std::variant<double, bool, std::string>;

/// @brief "cpu", "gpu", "auto" or (where `with_all`) "all"; anything else is a usage_error.
device_kind parse_device_kind(std::string_view text, bool with_all = false);

/// @brief The name parse_device_kind reads: cpu, gpu, auto or all.
std::string_view device_kind_name(device_kind kind);

/// @brief Device numbers separated by commas ("0,2"), each at most once; anything else is a
/// usage_error naming --devices. Whether the devices exist is checked when a job runs.
std::vector<int> parse_device_ids(std::string_view text);

/// @brief Whether this build of the library has the CUDA backend.
bool built_with_cuda();

/// @brief The CUDA devices this process sees (0 without CUDA, or without a device).
int gpu_count();

/// @brief What nqueens --version prints (without the newline): the version, the build type,
/// and the CUDA backend's architectures and the devices it sees, or "CPU only".
std::string version_line();

/// @brief How a job is stopped early: by its token (from a std::stop_source), or by a flag a
/// signal handler may raise (a std::atomic<bool> store is async-signal-safe, a stop_source's
/// request is not). A stop token that fires raises the flag too.
struct job_stop {
  std::stop_token token;
  std::atomic<bool>* flag = nullptr;
};

/// @brief What nqueens count does: every solution of n queens, and the fundamental ones.
struct count_request {
  int n = 0;                        ///< 1 to max_exact_count_n
  bool unique = false;              ///< the text gives unique too (the record always has it)
  unsigned threads = 0;             ///< CPU worker threads; 0: every core
  std::string checkpoint;           ///< "" for none; else resumed from and recorded to this file
  double checkpoint_interval = 10;  ///< seconds between checkpoint writes
  device_request device;            ///< all: the GPUs and `threads` CPU threads together
  std::string simd = "auto";        ///< CPU vector kernels: auto, off, avx2 or avx512
  std::function<void(const count_progress&)> progress;  ///< about 4 times a second
  job_stop stop;  ///< once raised, the count ends soon, incomplete (its checkpoint saved)
  /// Under mpirun (ranks.world set): every rank runs the same request; rank 0 hands out the
  /// frames, keeps the checkpoint and the progress, and reports the whole; the others count what
  /// it sends. Without device ids, the ranks on one machine split its GPUs.
  rank_share ranks;
  /// Called once the request is checked and its devices taken, before the ranks meet and the
  /// count starts: where a face opens its outputs, so that a bad path fails before any work.
  std::function<void()> ready;
};

/// @brief Under mpirun, what one rank did in a count.
struct count_rank {
  int rank = 0;
  unsigned threads = 0;
  unsigned gpus = 0;
  std::uint64_t subproblems = 0;   ///< frames it finished in this run
  std::uint64_t solutions = 0;     ///< what they contributed
  double busy_seconds = 0.0;       ///< counting, per thread or GPU
  double idle_at_end_seconds = 0;  ///< from each one's last frame to the end, per thread or GPU
  std::uint64_t messages_sent = 0;
  std::uint64_t bytes_sent = 0;
  bool answered = true;  ///< false: it did not answer the end in time (lost?); its frames are
                         ///< left for the resume
};

/// @brief What a count found, and where it ran.
struct count_report {
  int n = 0;
  bool unique = false;  ///< as asked: whether the text reports `unique` (the record always does)
  count_result result;
  std::string device = "cpu";  ///< cpu, gpu, or all (the GPUs and CPU threads)
  std::string device_name;     ///< the CPU's model, or the GPUs' names
  std::vector<int> gpus;       ///< the GPUs that counted
  double kernel_seconds = 0;   ///< in the GPUs' kernels, summed over the GPUs
  /// Why a count that could have used a GPU ran on the CPU ("" when none could be or it did):
  /// for a caller to tell the user once the result is out.
  std::string note;
  /// Under mpirun, on rank 0: every rank's part, by rank (empty alone, and on the other ranks,
  /// whose report says nothing else).
  std::vector<count_rank> by_rank;
};

/// @brief Counts as `request` says (every request type has its `run`). Throws usage_error for an n
/// out of range, an unknown simd, a GPU number past the last, or a checkpoint that is corrupt or
/// another count's; device_error for `gpu` (or device ids) without a CUDA device; resource_error
/// when a worker or the GPU fails.
count_report run(const count_request& request);

/// @brief The JSON record of a count (nqueens count -f json), one line without the newline.
std::string to_json(const count_report& report);

/// @brief The count as a person reads it (nqueens count's line, with its newline).
std::string to_text(const count_report& report);

/// @brief What nqueens solve does: one board of n queens by one algorithm (any of
/// `nqueens algorithms`), on the CPU or, for --chains, parallel and lattice, where `device` says.
struct solve_request {
  index_t n = 0;
  /// The algorithm's name; "" for the default: lattice from 2^20 queens, min-conflicts below.
  std::string algorithm;
  /// A local search's settings (its `algorithm` is the one `algorithm` names, with its
  /// variant): sideways, p, cooling, ... (local_search.hpp).
  local_search_settings local;
  std::uint64_t seed = 1;
  search_limits limits;      ///< its `stop` is the engine's to set from `stop` when that is given
  unsigned threads = 0;      ///< parallel and lattice: CPU threads; 0: every core
  std::uint64_t chains = 0;  ///< local search: run this many chains and keep the best; 0: one
  std::uint64_t chain = 0;   ///< local search, one chain: the stream it runs
  /// chains, parallel and lattice: cpu, gpu or any (lattice: the GPU only where its sub-boards
  /// fill it); a single chain and the other algorithms run on the CPU whatever it says. The
  /// command's default is cpu (engine::solve_request_from's, without a device).
  device_request device;
  bool randomize = false;  ///< backtrack, backtrack-opt, dfs: shuffled rows
  std::uint64_t max_memory = std::uint64_t{1} << 30;  ///< bfs: the frontier's bound
  std::optional<std::uint64_t> memory_limit;  ///< refuse boards past this (default: available)
  /// Keep the board where keeping it costs (a GPU lattice's copy back, a stopped CPU lattice's
  /// completion); an unsolved run keeps its board anyway.
  bool keep_board = true;
  std::span<const row_t> start;  ///< one chain of a local search starts here (empty: random)
  trace_fn trace;                ///< local search: called after every step of the kept chain
  progress_fn progress;          ///< min-conflicts, parallel, lattice: a few times a second
  /// bfs: called as each level of the frontier is reached (level, partial boards).
  std::function<void(index_t level, std::uint64_t frontier)> bfs_level;
  job_stop stop;  ///< once raised, the run ends soon, unsolved, with the board it holds
};

/// @brief The board a solve found (or was left with), and how and where it ran.
struct solve_report {
  index_t n = 0;
  std::string algorithm;  ///< as run (the default resolved)
  std::uint64_t seed = 0;
  solve_result result;
  bool local = false;  ///< a local search (its settings below)
  /// A local search run as a chain (all but min-conflicts' permutation variant): `chain` says
  /// which.
  bool chain_search = false;
  local_search_settings settings;  ///< the local search's, as run
  std::uint64_t chains = 0;        ///< as asked
  std::uint64_t chain = 0;         ///< the chain run, or with chains the one kept
  bool threaded = false;           ///< parallel or lattice
  std::string device = "cpu";      ///< where it ran: cpu or gpu
  std::string device_name;         ///< with chains: the CPU's model or the GPU's name
  unsigned threads = 0;            ///< parallel and lattice on the CPU: the threads it ran on
  double kernel_seconds = -1;      ///< lattice on the GPU: its launches, by CUDA events
  /// A run stopped while placing queens (parallel, or min-conflicts before its repair): the
  /// queens left to place are in result.unplaced, and its attacking pairs were never counted.
  bool stopped_placing = false;
  bool pairs_counted = true;  ///< false: result.conflicts means nothing (JSON's null)
  std::string note;           ///< why `any` ran on the CPU, for the caller to tell
};

/// @brief Solves as `request` says. n = 2 and 3 have no solution: answered at once, unsolved,
/// with no board. Throws usage_error for an unknown algorithm or settings it does not take,
/// device_error for `gpu` without a CUDA device, resource_error when the board does not fit
/// in memory (before it starts, or when the system refuses the memory).
solve_report run(const solve_request& request);

/// @brief The JSON record of a solve (nqueens solve -f json), rows included, without the
/// newline. For huge boards the command streams the rows instead.
std::string to_json(const solve_report& report);

/// @brief The solve as a person reads it (nqueens solve's summary line, with its newline).
std::string to_text(const solve_report& report);

/// @brief What nqueens batch does: many independent runs of one local search (run i from
/// stream (seed, i)), and their statistics.
struct batch_request {
  index_t n = 0;  ///< 1 or 4 and up, within the algorithm's limit (check_local_size)
  local_search_settings algorithm;
  /// Runs, threads (0: every core), seed, per-run limits, progress and records (batch.hpp);
  /// `limits.stop` is the engine's to set from `stop` when that is given.
  batch_settings settings;
  device_request device;  ///< cpu, gpu or any
  job_stop stop;  ///< once raised, runs end soon; the statistics describe those that finished
  /// Under mpirun (ranks.world set): every rank runs the same request, rank r a contiguous
  /// share of the runs with the same (seed, run) streams as one process; rank 0 merges the
  /// shares' tallies, and alone gets `settings.progress` (its share, scaled to the whole) and
  /// `settings.on_records` (every rank's records, in run order).
  rank_share ranks;
  /// Called once the request is checked and its backend chosen, before the ranks meet and the
  /// runs start: where a face opens its outputs, so that a bad path fails before any work.
  std::function<void()> ready;
};

/// @brief Under mpirun, what one rank's share of a batch came to.
struct batch_rank {
  std::uint64_t runs = 0;  ///< finished runs of its share
  double seconds = 0;
  unsigned threads = 0;
};

/// @brief What a batch found, and where it ran.
struct batch_report {
  index_t n = 0;
  local_search_settings algorithm;
  std::uint64_t seed = 0;
  std::uint64_t runs_requested = 0;
  std::uint64_t max_steps = 0;  ///< the per-run step limit the runs had (the default resolved)
  batch_stats stats;
  std::string device;       ///< cpu or gpu
  std::string device_name;  ///< the CPU's model or the GPU's name
  std::string layout;       ///< the GPU's ga and beam: block_per_run or whole_grid; else ""
  /// The algorithm's settings by name, with the values the runs used.
  std::vector<std::pair<std::string, setting_value>> parameters;
  std::string note;  ///< why `any` ran on the CPU, for the caller to tell once the result is out
  std::vector<batch_rank> by_rank;  ///< under mpirun, on rank 0: each rank's share; else empty
};

/// @brief Runs the batch. Throws usage_error for a board with no solution, past the
/// algorithm's limit, or an algorithm the GPU does not run when `gpu` is asked; device_error
/// for `gpu` without a CUDA device; resource_error when the runs would not fit in memory.
batch_report run(const batch_request& request);

/// @brief The JSON record of a batch (nqueens batch -f json), one line without the newline.
std::string to_json(const batch_report& report);

/// @brief The batch as a person reads it (nqueens batch's summary, a few lines).
std::string to_text(const batch_report& report);

/// @brief One swept setting and the values it takes, as text the settings' table reads.
struct sweep_axis {
  std::string name;
  std::vector<std::string> values;
};

/// @brief What nqueens batch --sweep does: one batch per point of a grid of settings, the first
/// axis varying slowest, on one backend; a stop ends the sweep after the point it cut short.
struct sweep_request {
  batch_request batch;  ///< every point's batch, before the point sets its axes' values
  std::vector<sweep_axis> axes;  ///< nq::engine::sweep_from (nqueens/settings.hpp) checks them
  /// Each point's values (in axis order) and report, as it finishes (on rank 0 under mpirun).
  std::function<void(const std::vector<std::string>& values, const batch_report&)> on_point;
};

/// @brief One point of a sweep: its values, in axis order, and its batch.
struct sweep_point {
  std::vector<std::string> values;
  batch_report report;
};

/// @brief The points that ran, in grid order.
struct sweep_report {
  index_t n = 0;
  local_algorithm algorithm = local_algorithm::hc;
  std::uint64_t runs_per_point = 0;
  std::vector<std::string> axes;  ///< the swept settings' names
  std::vector<sweep_point> points;
  std::string note;  ///< why `any` ran on the CPU
};

/// @brief Runs the sweep. Throws as run(batch_request) does.
sweep_report run(const sweep_request& request);

/// @brief The JSON records of a sweep: an array of batch records, on one line, or indented by
/// `indent` spaces a level.
std::string to_json(const sweep_report& report, int indent = -1);

/// @brief The sweep as a table, a row a point under a heading; and one point's row.
std::string to_text(const sweep_report& report);
std::string to_text(const sweep_point& point);

/// @brief What nqueens solutions does: every solution of n queens (or the first `limit`) in
/// lexicographic order.
struct solutions_request {
  index_t n = 0;            ///< up to max_systematic_n
  std::uint64_t limit = 0;  ///< stop after this many; 0: every one
  search_limits limits;     ///< the time limit; its `stop` is the engine's to set from `stop`
  progress_fn progress;     ///< every 65,536 nodes: steps the nodes, restarts the solutions
  job_stop stop;
};

/// @brief How many solutions were visited, and whether a limit or a stop ended the walk first.
struct solutions_report {
  std::uint64_t found = 0;
  bool stopped = false;
};

/// @brief Calls `visit` with each solution (rows per column) until it returns false, the limit
/// is reached, or the walk ends. Throws usage_error for n above max_systematic_n.
solutions_report run(const solutions_request& request,
                     const std::function<bool(std::span<const row_t>)>& visit);

/// @brief What nqueens verify does: a board's attacking pairs, the board read from a file in any
/// layout nqueens writes (or standard input), or given in memory.
struct verify_request {
  std::string path;  ///< the board's file; "-": standard input; "": `board`
  std::span<const row_t> board;  ///< a board the caller holds (rows 0-based), when `path` is ""
  std::string format = "auto";   ///< auto, positions, grid, matrix, json, npy or raw
  /// One board per line (positions or JSON lines, as solutions writes): a report per board,
  /// each handed to `on_board` as it is read.
  bool each = false;
  std::optional<std::uint64_t> memory_limit;  ///< bytes the check may take; none: what is free
  unsigned threads = 0;  ///< counting a board of 2^20 queens or more (at most 1024); 0: every core
  std::function<void(const verify_report&)> on_board;
};

/// @brief What verify found: the board's report (with `each`, the last one's), the boards read,
/// and whether every one was valid.
struct verify_outcome {
  verify_report report;
  std::uint64_t boards = 0;
  bool all_valid = true;
};

/// @brief Checks the board (or, with `each`, every board of the file). A file of npy, raw or
/// positions on one line streams (about a bit a line); other input is held whole. Throws
/// usage_error for a file that cannot be opened or is not a board (naming the file, and the
/// line with `each`), resource_error past the memory limit.
verify_outcome run(const verify_request& request);

/// @brief The JSON record of a board's check (nqueens verify --json), without the newline.
std::string to_json(const verify_report& report);

/// @brief The check as a person reads it: "n=8: valid, ..." with its newline.
std::string to_text(const verify_report& report);

}  // namespace nq
