#pragma once
// A batch's backend, chosen once for a request and run as often as a sweep asks, a batch run
// where its request says (alone, or shared by ranks), and the record of what it ran (not
// public).

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nqueens/engine.hpp"

namespace nq::engine {

/// The backend a batch of `algorithm` on n queens runs on, where `device` says: refuses
/// (resource_error) runs that would not fit in memory on `threads` CPU threads first.
class chosen_backend {
 public:
  chosen_backend(index_t n, const local_search_settings& algorithm, device_kind device,
            unsigned threads);
  batch_backend& backend() { return *backend_; }
  const batch_backend& backend() const { return *backend_; }
  /// Why `any` took the CPU ("" otherwise).
  const std::string& note() const { return note_; }

 private:
  std::unique_ptr<batch_backend> backend_;
  std::string note_;
};

/// What `stats` (runs of `algorithm` on n queens, as `settings` asked, on `backend`) reports.
batch_report batch_report_of(index_t n, const local_search_settings& algorithm,
                             const batch_settings& settings, const batch_stats& stats,
                             const batch_backend& backend);

/// The record to_json prints, as JSON (with the ranks' fields under mpirun).
nlohmann::ordered_json batch_json(const batch_report& report);

/// One batch (or sweep point), and under mpirun what each rank's share came to.
struct batch_outcome {
  batch_stats stats;
  std::vector<batch_rank> by_rank;  ///< on rank 0 under mpirun; else empty
  bool stopped = false;  ///< no more batches: the stop, or (under mpirun) rank 0's verdict
};

/// Runs `algorithm` as `settings` say (its stop set) on `backend`: in this process, or this
/// rank's share when request.ranks has a world (batch_ranks.cpp).
batch_outcome run_where(const batch_request& request, const local_search_settings& algorithm,
                        batch_settings settings, batch_backend& backend);

}  // namespace nq::engine
