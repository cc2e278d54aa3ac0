// The requests about boards themselves: every solution in order, and a board's check record.

#include <atomic>
#include <nlohmann/json.hpp>

#include "engine/stop_bridge.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"
#include "nqueens/systematic.hpp"

namespace nq {

solutions_report run(const solutions_request& request,
                     const std::function<bool(std::span<const row_t>)>& visit) {
  if (request.n > max_systematic_n)
    throw usage_error("-n " + std::to_string(request.n) + " is above the enumeration limit of " +
                      std::to_string(max_systematic_n));
  search_limits limits = request.limits;
  const engine::stop_bridge stop(request.stop);
  if (stop.given()) limits.stop = stop.given();
  solutions_report report;
  for_each_solution(
      request.n,
      [&](std::span<const row_t> rows) {
        ++report.found;
        return visit(rows) && (request.limit == 0 || report.found < request.limit);
      },
      limits, request.progress, report.stopped);
  return report;
}

std::string to_json(const verify_report& report) {
  nlohmann::ordered_json record;
  record["n"] = report.n;
  record["valid"] = report.valid();
  record["conflicts"] = report.conflicts;
  if (report.first_clash) {
    record["first_clash"] = {{"columns", {report.first_clash->col_a, report.first_clash->col_b}},
                             {"line", line_kind_name(report.first_clash->kind)}};
  } else {
    record["first_clash"] = nullptr;
  }
  return record.dump();
}

}  // namespace nq
