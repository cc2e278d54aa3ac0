#include "core/compact_lines.hpp"

#include <algorithm>

#include "nqueens/detail/huge_pages.hpp"

namespace nq::detail {

bit_lines::bit_lines(index_t lines) { resize_on_huge_pages(bits_, (lines + 63) / 64); }

byte_lines::byte_lines(index_t lines) { resize_on_huge_pages(count_, lines); }

index_t bit_lines::remove(index_t line) {
  const auto it = extra_.find(line);
  if (it == extra_.end()) {
    bits_[line >> 6] &= ~(std::uint64_t{1} << (line & 63));
    return 0;
  }
  const index_t remaining = it->second;  // queens beyond the first before removal = after, total
  if (--it->second == 0) extra_.erase(it);
  return remaining;
}

void bit_lines::clear() {
  std::fill(bits_.begin(), bits_.end(), std::uint64_t{0});
  extra_.clear();
}

}  // namespace nq::detail
