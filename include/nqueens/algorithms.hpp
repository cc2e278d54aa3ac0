#pragma once
/// @file
/// @brief The algorithms the CLI offers, and the solvers without settings of their own.

#include <atomic>
#include <span>
#include <string_view>

#include "nqueens/solver.hpp"

namespace nq {

/// @brief One entry of `nqueens algorithms`.
struct algorithm_info {
  std::string_view name;     ///< as given to --algo
  std::string_view summary;  ///< one line for users
  std::string_view steps;    ///< what the algorithm counts as a step
};

/// @brief Every algorithm, in the order `nqueens algorithms` lists them.
std::span<const algorithm_info> algorithms();

/// @brief The entry named `name`, or null.
const algorithm_info* find_algorithm(std::string_view name);

/// @brief The explicit n mod 6 construction: O(n), one step per column; unsolved for n = 2, 3.
/// `*stop` (may be null) is read every 2^20 columns: once set, the run ends unsolved, with no
/// board and the columns left as `unplaced`.
solve_result solve_constructive(index_t n, const std::atomic<bool>* stop = nullptr);

}  // namespace nq
