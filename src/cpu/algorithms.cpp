#include "nqueens/algorithms.hpp"

#include <algorithm>
#include <array>

namespace nq {
namespace {

constexpr std::array<algorithm_info, 2> registry{{
    {"min-conflicts",
     "permutation min-conflicts for huge n (Sosic-Gu QS4 style): greedy placement, then "
     "random-partner swaps of attacked queens; restarts when stuck",
     "candidate rows drawn + swaps tried"},
    {"constructive", "the explicit O(n) solution by the classic n mod 6 rule; no search",
     "columns placed"},
}};

}  // namespace

std::span<const algorithm_info> algorithms() { return registry; }

const algorithm_info* find_algorithm(std::string_view name) {
  const auto it = std::find_if(registry.begin(), registry.end(),
                               [&](const algorithm_info& a) { return a.name == name; });
  return it == registry.end() ? nullptr : &*it;
}

}  // namespace nq
