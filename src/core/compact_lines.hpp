#pragma once
// Queens per line for boards of up to 2^32 queens, in far less than 8 bytes per line.
// bit_lines: 1 bit per line, exact counts beyond the first queen in a side table. For solvers,
//   which ask "is this line empty?" and keep crowded lines rare: the bits stay in cache.
// byte_lines: 1 byte per line, a side table only beyond 255. For any board (verify), where
//   crowded lines may be the norm.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "nqueens/config.hpp"

namespace nq::detail {

class bit_lines {
 public:
  explicit bit_lines(index_t lines);

  bool occupied(index_t line) const { return (bits_[line >> 6] >> (line & 63)) & 1; }

  /// Queens on `line`.
  index_t operator[](index_t line) const {
    if (!occupied(line)) return 0;
    const auto it = extra_.find(line);
    return it == extra_.end() ? 1 : 1 + it->second;
  }

  /// Adds a queen to `line`; returns how many were there before.
  index_t add(index_t line) {
    if (!occupied(line)) {
      bits_[line >> 6] |= std::uint64_t{1} << (line & 63);
      return 0;
    }
    return ++extra_[line];
  }

  /// Removes a queen from `line`, which must hold one; returns how many remain.
  index_t remove(index_t line);

  void clear();

  const void* address_of(index_t line) const { return bits_.data() + (line >> 6); }

  std::uint64_t bytes() const { return bits_.size() * sizeof(std::uint64_t); }

 private:
  std::vector<std::uint64_t> bits_;
  std::unordered_map<index_t, index_t> extra_;  // queens beyond the first, per crowded line
};

class byte_lines {
 public:
  explicit byte_lines(index_t lines);

  /// Adds a queen to `line`; returns how many were there before.
  index_t add(index_t line) {
    std::uint8_t& count = count_[line];
    if (count < 255) return count++;
    return 255 + extra_[line]++;
  }

 private:
  std::vector<std::uint8_t> count_;
  std::unordered_map<index_t, index_t> extra_;  // queens beyond 255, per very crowded line
};

}  // namespace nq::detail
