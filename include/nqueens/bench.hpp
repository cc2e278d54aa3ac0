#pragma once
/// @file
/// @brief The benchmark (nqueens bench): a fixed suite of the engine's requests, each timed on
/// one CPU thread, on every CPU thread and on each GPU, repeated until its figure is steady, and
/// one record of the machine, the build and every figure.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "nqueens/engine.hpp"

namespace nq {

/// @brief Which workloads, at which sizes: quick (each once, small: seconds in all), standard
/// (minutes on two cores) or full (adds 10^9 queens and counts of 18 and 20).
enum class bench_suite { quick, standard, full };

/// @brief "quick", "standard" or "full"; anything else is a usage_error naming --suite.
bench_suite parse_bench_suite(std::string_view text);

/// @brief The suite's name as parse_bench_suite reads it and the record holds it.
const char* bench_suite_name(bench_suite suite);

/// @brief A workload of a suite.
struct bench_workload {
  std::string name;  ///< e.g. "count-16", "batch-hc", "solve-1e8"
  std::string kind;  ///< solve, batch, population or count
  std::string unit;  ///< queens/s, runs/s, generations/s or solutions/s
  index_t n = 0;
  std::string algorithm;    ///< solve: "" (the default); batch, population: the local search
  std::uint64_t runs = 0;   ///< batch, population: runs per repeat
  std::uint64_t steps = 0;  ///< population: generations per run (the step limit)
};

/// @brief The workloads of `suite`, in the order they run.
std::vector<bench_workload> bench_workloads(bench_suite suite);

/// @brief Where a figure is measured: one CPU thread, every CPU thread, or one GPU.
struct bench_target {
  std::string on;  ///< one-core, all-cores, gpu0, gpu1, ...
  unsigned threads = 0;
  int gpu = -1;  ///< the GPU's number, or -1 on the CPU
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
  /// After each figure: how many of `total` are done, and the one just measured.
  std::function<void(std::size_t done, std::size_t total, const std::string& what)> progress;
  job_stop stop;  ///< once raised, the figure running ends soon and no other starts
};

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
};

/// @brief A GPU's speed-up on a workload: its median rate over the CPU's.
struct bench_speedup {
  std::string workload;
  std::string on;  ///< gpu0, ...
  std::optional<double> over_all_cores, over_one_core;
};

/// @brief The machine, the build and every figure.
struct bench_report {
  bench_suite suite = bench_suite::standard;
  std::string started;  ///< UTC, ISO 8601
  double seconds = 0;
  std::string cpu;
  unsigned cores = 0;
  std::uint64_t memory_bytes = 0;
  struct gpu {
    int index = 0;
    std::string name;
    unsigned multiprocessors = 0, clock_mhz = 0, memory_clock_mhz = 0;
    std::uint64_t memory_bytes = 0;
    std::string compute_capability, driver, runtime;
  };
  std::vector<gpu> gpus;
  std::string version, git_sha, build_type, cuda;  ///< cuda: "" without the CUDA backend
  std::vector<bench_figure> figures;
  std::vector<bench_speedup> speedups;
  bool stopped = false;  ///< the stop came: figures after it did not run
  std::string command;   ///< set by the caller: the command line that made the record
};

/// @brief Runs the suite as `request` says. Throws usage_error for an unknown workload,
/// device_error for `gpu` without a CUDA device.
bench_report run(const bench_request& request);

/// @brief The record (schema 1, docs/bench.md), one line without the newline.
std::string to_json(const bench_report& report);

}  // namespace nq
