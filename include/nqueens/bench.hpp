#pragma once
/// @file
/// @brief The benchmark (nqueens bench): a fixed suite of the engine's requests, each timed on
/// one CPU thread, on every CPU thread and on each GPU, repeated until three repeats agree, and
/// one record of the machine, the build and every figure, marked steady, unsteady or indicative.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "nqueens/engine.hpp"

namespace nq {

/// @brief Which workloads, at which sizes: quick (each once, small: seconds in all), standard
/// (minutes on two cores) or full (adds 10^9 queens and counts of 18 to 21).
enum class bench_suite { quick, standard, full };

/// @brief "quick", "standard" or "full"; anything else is a usage_error naming --suite.
bench_suite parse_bench_suite(std::string_view text);

/// @brief The suite's name as parse_bench_suite reads it and the record holds it.
const char* bench_suite_name(bench_suite suite);

/// @brief Where a figure is measured: one CPU thread, every CPU thread, or one GPU.
struct bench_target {
  std::string on;  ///< one-core, all-cores, gpu0, gpu1, ...
  unsigned threads = 0;
  int gpu = -1;  ///< the GPU's number, or -1 on the CPU
};

/// @brief A workload of a suite, sized for each kind of target.
struct bench_workload {
  std::string name;  ///< e.g. "count-16", "batch-hc", "solve-1e8"
  std::string kind;  ///< solve, batch, population or count
  std::string unit;  ///< queens/s, runs/s, generations/s or solutions/s
  index_t n = 0;
  std::string algorithm;       ///< solve: "" (the default); batch, population: the local search
  std::uint64_t runs = 0;      ///< batch, population: runs per repeat on the CPU
  std::uint64_t gpu_runs = 0;  ///< the same on a GPU, sized for one (0: as on the CPU)
  std::uint64_t steps = 0;     ///< population: generations per run (the step limit)
  bool on_one_core = true;     ///< false: too long for one CPU thread (count-19)
  bool on_cpu = true;          ///< false: sized for a GPU alone (count-20, count-21)

  /// @brief Runs per repeat on `target` (batch, population; 0 otherwise).
  std::uint64_t runs_on(const bench_target& target) const {
    return target.gpu >= 0 && gpu_runs ? gpu_runs : runs;
  }
};

/// @brief The workloads of `suite`, in the order they run.
std::vector<bench_workload> bench_workloads(bench_suite suite);

/// @brief How far a figure's repeats can be trusted. steady: three of them agreed within 5%
/// (max - min of the three against their median); unsteady: three or more repeats, no three
/// agreeing, before the figure's share of the time budget ran out; indicative: fewer than three
/// repeats (--quick runs each once).
enum class bench_quality { steady, unsteady, indicative };

/// @brief "steady", "unsteady" or "indicative".
const char* bench_quality_name(bench_quality quality);

/// @brief The quality of a figure whose timed repeats gave `rates`: steady when some three of
/// them lie within 5% of their median, indicative with fewer than three.
bench_quality classify_repeats(const std::vector<double>& rates);

/// @brief One figure: a workload on a target, as a rate in the workload's unit.
struct bench_figure {
  bench_workload workload;
  bench_target target;
  std::string command;  ///< the nqueens command that does one repeat of this work
  bool ran = false;
  std::string why_not;  ///< when !ran: why (no memory, the GPU does not run it, stopped)
  double work = 0;      ///< units per repeat (queens, runs, generations, solutions)
  unsigned repeats = 0;
  double median = 0, min = 0, max = 0;  ///< rates over the timed repeats (units per second)
  double seconds_median = 0;            ///< a repeat's wall time, the median
  bench_quality quality = bench_quality::indicative;
  double spread = 0;  ///< (max - min) / median over every timed repeat
  /// The CPU's vector path the figure used: count avx512, avx2 or off (its --simd); a lattice
  /// solve avx2 or sse2 (its Philox words); batches and populations off (scalar code). "" on a
  /// GPU.
  std::string simd;
  /// On a GPU, where the request reports it: a repeat's time in the kernels (CUDA events
  /// around the launches alone), the median; -1 where none is reported.
  double kernel_seconds_median = -1;
  double kernel_median = 0;  ///< work / kernel_seconds_median (0 without a kernel time)

  /// @brief Batch, population: runs per repeat on this target; 0 for other workloads.
  std::uint64_t runs() const {
    return workload.kind == "batch" || workload.kind == "population" ? workload.runs_on(target) : 0;
  }
};

/// @brief A GPU's speed-up on a workload: its median rate over the CPU's.
struct bench_speedup {
  std::string workload;
  std::string on;  ///< gpu0, ...
  std::optional<double> over_all_cores, over_one_core;
  bool steady = false;  ///< the GPU's figure and those it is set over were all steady
};

/// @brief One row of a comparison with a saved record: a figure measured now and then.
struct bench_comparison_row {
  std::string workload, on, unit;
  double before = 0, now = 0, ratio = 0;  ///< rates; ratio = now / before
  bool steady = false;                    ///< steady both times (false if the record does not say)
};

/// @brief What `nqueens bench` runs.
struct bench_request {
  bench_suite suite = bench_suite::standard;
  std::vector<std::string> workloads;     ///< names from the suite; empty: every one
  device_kind device = device_kind::all;  ///< cpu, gpu (each GPU), all (the CPU and each GPU)
  /// Seconds the whole benchmark may take: each figure's repeats share what is left equally
  /// (a figure stops repeating once its share is spent, with at least one repeat), and a repeat
  /// that would run past four shares (at least 30 s) or past the whole is cut, its row saying
  /// so. 0: the suite's (standard 240, full 1200; quick: none, each workload once).
  double time_budget = 0;
  unsigned threads = 0;  ///< the all-cores figures' threads; 0: every core
  /// A saved record (-f json) to compare each figure with, read and checked before any work;
  /// "" for none. A record of another suite, or whose workloads had other sizes, is refused
  /// (usage_error) unless `compare_shared`, which compares the rows both have at equal sizes.
  std::string compare_with;
  bool compare_shared = false;
  /// After each figure: how many of `total` are done, and the one just measured.
  std::function<void(std::size_t done, std::size_t total, const std::string& what)> progress;
  job_stop stop;  ///< once raised, the figure running ends soon and no other starts
};

/// @brief The machine, the build and every figure.
struct bench_report {
  bench_suite suite = bench_suite::standard;
  std::string started;  ///< UTC, ISO 8601
  double seconds = 0;
  std::string cpu;  ///< the CPU's model name
  std::string cpu_vendor;
  int cpu_family = -1, cpu_model = -1, cpu_stepping = -1;  ///< -1 where not given
  std::vector<std::string> cpu_flags;                      ///< as /proc/cpuinfo lists them
  double cpu_mhz = 0;      ///< the first CPU's clock when the run started (0: unreadable)
  double cpu_max_mhz = 0;  ///< its highest clock (cpufreq; 0: unreadable, as in most VMs)
  unsigned cores = 0;
  std::uint64_t memory_bytes = 0;
  std::string os, kernel, arch;  ///< e.g. "Debian GNU/Linux 12 (bookworm)", "Linux 6.1.0", x86_64
  struct gpu {
    int index = 0;
    std::string name;
    unsigned multiprocessors = 0, clock_mhz = 0, memory_clock_mhz = 0;
    std::uint64_t memory_bytes = 0;
    std::string compute_capability, driver, runtime;
  };
  std::vector<gpu> gpus;
  std::string version, git_sha, build_type, cuda;  ///< cuda: "" without the CUDA backend
  std::string compiler;  ///< the C++ compiler and its version, e.g. "GCC 12.2.0"
  std::vector<bench_figure> figures;
  std::vector<bench_speedup> speedups;
  bool stopped = false;  ///< the stop came: figures after it did not run
  std::string command;   ///< set by the caller: the command line that made the record
  /// With compare_with: the record's path, its machine and date, and each figure in common,
  /// the lowest ratio first.
  std::string compared_with, compared_cpu, compared_started;
  std::vector<bench_comparison_row> comparison;
};

/// @brief Runs the suite as `request` says. Throws usage_error for an unknown workload or a
/// record to compare with that cannot be read, is malformed or is not comparable (before any
/// work), device_error for `gpu` without a CUDA device.
bench_report run(const bench_request& request);

/// @brief The record (schema 2, docs/bench.md), one line without the newline.
std::string to_json(const bench_report& report);

/// @brief The table nqueens bench prints: the machine and build, each figure's median (with SI
/// prefixes: "35.3 M runs/s"), range, repeats, quality, kernel rate, per-core rate and vector
/// path, a note on unsteady and indicative figures, the speed-ups and any comparison.
std::string to_text(const bench_report& report);

}  // namespace nq
