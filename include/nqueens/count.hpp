#pragma once
/// @file
/// @brief Counting every solution of n queens, and the fundamental ones, by splitting the search
/// into subproblems that worker threads pull from a shared counter: on the CPU one per
/// canonical frame (frame_search.hpp), run on the widest vector unit the CPU has; for a slice
/// counter such as the GPU's, the queens of the first rows (constellation.hpp). Host-side API.

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "nqueens/detail/constellation.hpp"

namespace nq {

/// @brief For every frame index (see frame_index), canonical_frame_flag when the frame is valid
/// and canonical, or-ed with its stabiliser. n^4 entries; n in 4..32.
std::vector<std::uint16_t> frame_classes(int n);

/// @brief The largest n whose totals are exact: Q(29) passes 2^64 - 1, the range of the
/// 64-bit tallies (and of checkpoints and MPI messages), so counting stops at 28.
inline constexpr int max_exact_count_n = 28;

/// @brief Throws usage_error, saying why, unless n is in 1..max_exact_count_n.
void check_count_size(std::int64_t n);

/// @brief Rows a slice counter's subproblems fix unless it asks for another number.
inline constexpr int default_split_rows = 3;

/// @brief A slice counter's subproblems, in order: every placement of non-attacking queens in
/// the first `rows` rows, at least 2 (allowed columns only, row-0 queen in the left half).
/// Empty for n < 4.
std::vector<count_prefix> count_subproblems(int n, int rows = default_split_rows);

/// @brief A snapshot for progress displays.
struct count_progress {
  std::uint64_t done = 0;       ///< subproblems finished, resumed ones included
  std::uint64_t total = 0;      ///< subproblems in all
  std::uint64_t resumed = 0;    ///< of `done`, those read from the checkpoint
  std::uint64_t solutions = 0;  ///< counted so far
  double seconds = 0.0;
};

/// @brief A subproblem a slice counter finished: its position in the slice, and its tally.
struct finished_subproblem {
  std::uint32_t position = 0;
  count_tally tally;
};

/// @brief Counts subs[indices[i]] for every i, calling `finished` on the calling thread as
/// subproblems complete, several times a second; once `*stop` (when not null) is set it gives
/// up soon, and the subproblems it did not report stay unfinished.
using slice_counter_fn =
    std::function<void(const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
                       const std::function<void(std::span<const finished_subproblem>)>& finished)>;

struct count_settings {
  /// Worker threads; at most one per subproblem left is started. The counts do not depend on it.
  unsigned threads = 1;
  std::string checkpoint;           ///< "" for none; else resumed from and recorded to this file
  double checkpoint_interval = 10;  ///< seconds between checkpoint writes
  const std::atomic<bool>* stop = nullptr;  ///< when set, stop early (the checkpoint is saved)
  std::uint64_t max_subproblems = 0;        ///< stop after finishing this many more (0: no limit)
  std::function<void(const count_progress&)> progress;  ///< called about 4 times a second
  std::string simd = "auto";  ///< CPU vector kernels: auto (the widest), off, avx2 or avx512
  int split_rows = default_split_rows;  ///< slice mode: rows each subproblem fixes
  /// Slice mode: the subproblems are the CPU's canonical frames (split "frames", the same
  /// indices), not row prefixes, so a checkpoint moves between the CPU and the slice counter.
  bool slice_frames = false;
  /// When not empty, subproblems are counted a slice at a time by these (one per GPU), each
  /// on its own thread, all taking shares, biggest subproblems first, from one source; progress
  /// and checkpoints follow what they report while they run. A counter that throws stops the
  /// others, and count_solutions throws what it threw once every thread has ended.
  std::vector<slice_counter_fn> slice_counters;
  /// At most this many subproblems per slice_counter call. A lone slice counter takes every
  /// subproblem left at once (up to this); several take shares of about 1/(2 * counters) of
  /// the work left, by the frames' estimated sizes, so that they end together.
  std::uint64_t slice_size = 1 << 16;
  /// With slice counters and slice_frames: `threads` CPU workers count frames too, one at a
  /// time from the small end of the same source (nqueens count --device all).
  bool cpu_beside_slices = false;
};

struct count_result {
  std::uint64_t solutions = 0;  ///< all solutions (so far, when incomplete)
  std::uint64_t unique = 0;     ///< solutions distinct under rotations and reflections
  bool complete = false;        ///< false when stopped early
  std::uint64_t subproblems = 0;
  std::uint64_t subproblems_done = 0;
  std::uint64_t resumed = 0;  ///< subproblems taken from the checkpoint
  double seconds = 0.0;
  std::string simd;  ///< the CPU vector kernels that counted ("off" for none); "" in slice mode
  /// Subproblems each slice counter finished in this run (resumed ones not included).
  std::vector<std::uint64_t> by_slice_counter;
  std::uint64_t by_cpu = 0;  ///< subproblems the CPU workers finished in this run
  /// CPU worker threads that counted: `threads`, at most one per subproblem left, 0 when slice
  /// counters count alone.
  unsigned threads = 0;
};

/// @brief Counts the solutions for n in 1..max_exact_count_n. Throws usage_error for n out of
/// range, an unknown `simd`, and a checkpoint that cannot be written, is corrupt or belongs to
/// another count; resource_error when the CPU cannot run the `simd` asked for or a worker thread
/// cannot start; whatever a slice counter throws. The checkpoint keeps what finished before a
/// failure.
count_result count_solutions(int n, const count_settings& settings);

}  // namespace nq
