#pragma once
// The solve record without its rows, for the command to stream a huge board's rows after it
// (not public), and the memory a request needs.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "nqueens/engine.hpp"

namespace nq::engine {

/// Every field of to_json's record but the rows, in order.
nlohmann::ordered_json solve_json_head(const solve_report& report);

/// Bytes a solve as `request` holds at its peak, the process included.
std::uint64_t solve_memory_bytes(const solve_request& request);

/// solve_memory_bytes(request), refused (resource_error) past its memory limit or what is
/// available.
std::uint64_t check_solve_memory(const solve_request& request);

/// The local search `algorithm` names, with the variant the request's settings give.
std::optional<local_algorithm> solve_local_algorithm(const solve_request& request,
                                                     const std::string& algorithm);

/// The algorithm a request runs: its own, or the default for its n.
std::string solve_algorithm(const solve_request& request);

/// A failure names the board's first clash up to this many queens (a check of O(n) memory).
inline constexpr index_t max_clash_check_n = 10000000;

/// Why `report`'s unsolved run of a request with `limits` stopped, in a phrase: "no solution
/// found within the step limit (...)". `why_climbers_stop`: say why a hill climber stopped by
/// itself (a local minimum, the sideways limit), as the shell's --verbose and Python do.
std::string failure_reason(const search_limits& limits, const solve_report& report,
                           bool why_climbers_stop);

}  // namespace nq::engine
