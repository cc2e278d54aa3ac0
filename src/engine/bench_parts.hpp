#pragma once
// The benchmark's parts behind nqueens/bench.hpp: the command a figure stands for, and a saved
// record read back, checked and compared with.

#include <optional>
#include <string>
#include <vector>

#include "nqueens/bench.hpp"

namespace nq::engine {

/// The nqueens command line that does one repeat of `w` on `t`.
std::string bench_command_of(const bench_workload& w, const bench_target& t);

/// A saved record's figure, as much of it as a comparison needs.
struct bench_saved_figure {
  std::string workload, on, unit;
  index_t n = 0;
  std::optional<std::uint64_t> runs, generations;  ///< schema 2 gives them (null: not a batch)
  bool ran = false;
  double median = 0;
  bool steady = false;  ///< schema 2's quality says so
};

/// A saved record (nqueens bench -f json), checked field by field.
struct bench_saved_record {
  std::string path;
  int schema = 0;
  std::string suite, cpu, started;
  std::vector<bench_saved_figure> figures;
};

/// Reads and checks the record at `path` (a regular file): a usage_error naming the file and
/// the first field that is missing or malformed.
bench_saved_record read_bench_record(const std::string& path);

/// Why the figures `planned` (not yet measured) cannot be compared with `saved` as a whole:
/// another suite, a schema without sizes, or a workload with other sizes; "" when they can.
std::string bench_mismatch(const bench_saved_record& saved, bench_suite suite,
                           const std::vector<bench_figure>& planned);

/// Each figure of `now` that ran, beside the saved figure of the same workload, target and
/// sizes (schema 1: workload, target and n), the lowest ratio first.
std::vector<bench_comparison_row> compare_figures(const std::vector<bench_figure>& now,
                                                  const bench_saved_record& saved);

}  // namespace nq::engine
