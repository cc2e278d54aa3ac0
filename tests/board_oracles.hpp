#pragma once
// Test oracles independent of the code under test: O(n^2) pair counting straight from the
// rules of chess, and seeded random boards.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "nqueens/detail/lines.hpp"
#include "nqueens/rng.hpp"

namespace nq::test {

/// True when the queens of columns a and b attack each other.
inline bool attack(const std::vector<row_t>& rows, index_t a, index_t b) {
  const auto ra = static_cast<std::int64_t>(rows[a]), rb = static_cast<std::int64_t>(rows[b]);
  const auto dc = static_cast<std::int64_t>(b) - static_cast<std::int64_t>(a);
  return ra == rb || ra - rb == dc || rb - ra == dc;
}

inline index_t brute_force_pairs(const std::vector<row_t>& rows) {
  index_t pairs = 0;
  for (index_t b = 0; b < rows.size(); ++b)
    for (index_t a = 0; a < b; ++a) pairs += attack(rows, a, b);
  return pairs;
}

/// The attacking pair with the smallest b, then the smallest a.
inline std::optional<std::pair<index_t, index_t>> brute_force_first_clash(
    const std::vector<row_t>& rows) {
  for (index_t b = 0; b < rows.size(); ++b)
    for (index_t a = 0; a < b; ++a)
      if (attack(rows, a, b)) return std::pair{a, b};
  return std::nullopt;
}

/// Any row in any column (rows may repeat).
inline std::vector<row_t> random_board(index_t n, std::uint64_t seed) {
  philox_stream rng(seed, 0);
  std::vector<row_t> rows(n);
  for (auto& r : rows) r = rng.below(static_cast<std::uint32_t>(n));
  return rows;
}

/// A uniformly random permutation (Fisher-Yates).
inline std::vector<row_t> random_permutation(index_t n, std::uint64_t seed) {
  philox_stream rng(seed, 1);
  std::vector<row_t> rows(n);
  for (index_t i = 0; i < n; ++i) rows[i] = static_cast<row_t>(i);
  for (index_t i = n; i > 1; --i)
    std::swap(rows[i - 1], rows[rng.below(static_cast<std::uint32_t>(i))]);
  return rows;
}

/// True when the board uses every row exactly once.
inline bool is_permutation_of_rows(std::vector<row_t> rows) {
  std::sort(rows.begin(), rows.end());
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i] != i) return false;
  return true;
}

/// A board size and seed for parameterised tests; prints itself in test names and failures.
struct board_case {
  index_t n;
  std::uint64_t seed;
  friend std::ostream& operator<<(std::ostream& os, const board_case& c) {
    return os << "n=" << c.n << " seed=" << c.seed;
  }
};

/// A gtest-safe name for a parameterised case, e.g. "n8_s7927".
inline std::string case_name(const board_case& c) {
  std::ostringstream name;
  name << 'n' << c.n << "_s" << c.seed;
  return name.str();
}

/// Sizes that stress the edges: tiny, primes, powers of two, and one large.
inline std::vector<board_case> edge_cases(std::uint64_t seeds = 3) {
  std::vector<board_case> cases;
  for (index_t n : {1, 2, 3, 4, 5, 8, 13, 16, 31, 32, 61, 64, 97, 1000})
    for (std::uint64_t s = 1; s <= seeds; ++s) cases.push_back({n, s * 7919 + n});
  return cases;
}

/// Every n in 1..64 (two seeds each), then primes and a large size: for the cheap tests.
inline std::vector<board_case> small_and_edge_cases() {
  std::vector<board_case> cases;
  for (index_t n = 1; n <= 64; ++n)
    for (std::uint64_t s = 1; s <= 2; ++s) cases.push_back({n, s * 104729 + n});
  for (index_t n : {97, 127, 251, 1000}) cases.push_back({n, n});
  return cases;
}

}  // namespace nq::test
