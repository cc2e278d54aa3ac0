#pragma once
// How a batch is described: its JSON record and its human summary, shared by `batch`, its
// sweeps and the shell.

#include <nlohmann/json.hpp>
#include <string>

#include "nqueens/batch.hpp"

namespace nq::cli {

/// The JSON record of one batch: n, algorithm, device, runs, solved, success_rate, ... and the
/// algorithm's parameters.
nlohmann::ordered_json batch_record(index_t n, const local_search_settings& algorithm,
                                    const batch_settings& settings, const batch_stats& stats,
                                    const batch_backend& backend);

/// A few lines a person reads.
std::string batch_summary(index_t n, const local_search_settings& algorithm,
                          const batch_stats& stats, const batch_backend& backend);

/// A progress line on stderr, shown on a terminal once a batch has run for a second.
class batch_progress {
 public:
  batch_progress(std::uint64_t runs, bool enabled) : runs_(runs), enabled_(enabled) {}
  ~batch_progress() { finish(); }
  void update(std::uint64_t done, double seconds);
  void finish();

 private:
  std::uint64_t runs_;
  bool enabled_;
  bool shown_ = false;
};

}  // namespace nq::cli
