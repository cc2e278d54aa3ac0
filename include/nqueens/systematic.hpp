#pragma once
/// @file
/// @brief Systematic search on the incremental formulation: queens are added column by column,
/// each on a row of the leftmost empty column that no queen placed so far attacks. Every solver
/// counts the nodes it expands (partial boards whose children it generates) as `steps`.
/// Host-side API.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "nqueens/error.hpp"
#include "nqueens/solver.hpp"

namespace nq {

/// @brief The largest n the systematic solvers take: they explore exponentially many partial
/// boards, and the recursive ones go one call deeper per column.
inline constexpr index_t max_systematic_n = 5000;

/// @brief Refuses (usage_error) n above max_systematic_n, saying why; the CLI asks before it
/// checks memory, so a huge n hears of this limit rather than of its memory.
inline void check_systematic_n(index_t n) {
  if (n > max_systematic_n)
    throw usage_error(
        "systematic search explores exponentially many boards: n=" + std::to_string(n) +
        " is above its limit of " + std::to_string(max_systematic_n) + " (use min-conflicts)");
}

struct systematic_settings {
  bool randomize = false;  ///< shuffle each node's row order from `seed` (not for bfs)
  std::uint64_t seed = 1;  ///< used only with `randomize`; stream 0 of Philox
  search_limits limits;    ///< max_steps counts expanded nodes
  std::uint64_t max_memory = std::uint64_t{1} << 30;  ///< bfs: stop before the frontier needs more
  /// bfs: called after each level with the level (queens placed) and the frontier's size.
  std::function<void(index_t level, std::uint64_t frontier)> level_fn;
};

/// @brief Recursive backtracking with an O(n) safety check against every placed queen. Rows in
/// ascending order, so its first solution is the lexicographically first.
solve_result solve_backtrack(index_t n, const systematic_settings& settings);

/// @brief The same search with row, diagonal and anti-diagonal occupancy (O(1) checks).
solve_result solve_backtrack_opt(index_t n, const systematic_settings& settings);

/// @brief The same search with an explicit stack instead of recursion.
solve_result solve_dfs(index_t n, const systematic_settings& settings);

/// @brief Breadth-first, level by level; throws resource_error before the frontier would need
/// more than settings.max_memory. Its first solution is the lexicographically first.
solve_result solve_bfs(index_t n, const systematic_settings& settings);

/// @brief Whether `name` is a systematic solver: backtrack, backtrack-opt, dfs or bfs.
bool is_systematic(std::string_view name);

/// @brief The systematic solver named `name` (precondition: is_systematic(name)).
solve_result solve_systematic(std::string_view name, index_t n,
                              const systematic_settings& settings);

/// @brief Calls `visit` with every solution in lexicographic order (rows per column) until it
/// returns false; returns how many it visited. Precondition: n <= max_systematic_n.
std::uint64_t for_each_solution(index_t n,
                                const std::function<bool(std::span<const row_t>)>& visit);

/// @brief As above, within `limits`; `progress` (if set) hears about every 65,536 nodes, with
/// `steps` the nodes expanded and `restarts` the solutions visited. `stopped` is set when a
/// limit ended the walk before the last solution.
std::uint64_t for_each_solution(index_t n, const std::function<bool(std::span<const row_t>)>& visit,
                                const search_limits& limits, const progress_fn& progress,
                                bool& stopped);

}  // namespace nq
