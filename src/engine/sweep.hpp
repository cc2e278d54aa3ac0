#pragma once
// A sweep's grid ("p=0.05:0.30:0.05,q=1:4"): its axes read, and each point's values set by name
// as the command line sets them (not public: run(sweep_request) walks it).

#include <string>
#include <vector>

#include "nqueens/engine.hpp"

namespace nq::engine {

/// "p=0.05:0.30:0.05,q=1:4": name=value, or name=first:last[:step] (step 1 by default). Values
/// of q may be shares of n ("q=10%:30%:5%"); they keep their "%" until the point is set. At
/// most 10,000 points; anything else is a usage_error naming --sweep.
std::vector<sweep_axis> parse_sweep(const std::string& spec);

/// The settings a sweep sets on the batch's runs rather than on the algorithm.
bool is_limit_axis(const std::string& name);

/// Sets one point's value of a swept setting: a limit of every run, or an algorithm parameter
/// (q as a share of n rounds to the nearest whole queen, at least 1).
void set_sweep_value(local_search_settings& algorithm, search_limits& limits, index_t n,
                     const std::string& name, const std::string& value);

/// Every point of the grid, the first axis varying slowest.
std::vector<std::vector<std::string>> grid_points(const std::vector<sweep_axis>& axes);

}  // namespace nq::engine
