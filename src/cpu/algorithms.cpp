#include "nqueens/algorithms.hpp"

#include <algorithm>
#include <array>

namespace nq {
namespace {

constexpr std::array<algorithm_info, 6> registry{{
    {"min-conflicts",
     "permutation min-conflicts for huge n (Sosic-Gu QS4 style): greedy placement, then "
     "random-partner swaps of attacked queens; restarts when stuck",
     "candidate rows drawn + swaps tried"},
    {"constructive", "the explicit O(n) solution by the classic n mod 6 rule; no search",
     "columns placed"},
    {"backtrack",
     "recursive backtracking, column by column, checking each row against every placed queen "
     "(O(n)); rows in ascending order, or shuffled with --randomize",
     "nodes expanded"},
    {"backtrack-opt", "the same backtracking with row and diagonal occupancy arrays: O(1) checks",
     "nodes expanded"},
    {"dfs", "depth-first search with an explicit stack: the backtracking tree, without recursion",
     "nodes expanded"},
    {"bfs",
     "breadth-first search level by level; reports each level's frontier and stops before it "
     "would exceed --max-memory",
     "nodes expanded"},
}};

}  // namespace

std::span<const algorithm_info> algorithms() { return registry; }

const algorithm_info* find_algorithm(std::string_view name) {
  const auto it = std::find_if(registry.begin(), registry.end(),
                               [&](const algorithm_info& a) { return a.name == name; });
  return it == registry.end() ? nullptr : &*it;
}

}  // namespace nq
