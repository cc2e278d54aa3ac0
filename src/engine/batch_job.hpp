#pragma once
// A batch's backend, chosen once for a request and run as often as a sweep or the cluster
// shares ask, and the record of what it ran (not public: the command's sweeps and ranks need
// them).

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "nqueens/engine.hpp"

namespace nq::engine {

/// The backend a batch of `algorithm` on n queens runs on, where `device` says: refuses
/// (resource_error) runs that would not fit in memory on `threads` CPU threads first.
class batch_job {
 public:
  batch_job(index_t n, const local_search_settings& algorithm, device_kind device,
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

/// The record to_json prints, as JSON, for the command to add the ranks' fields to.
nlohmann::ordered_json batch_json(const batch_report& report);

}  // namespace nq::engine
