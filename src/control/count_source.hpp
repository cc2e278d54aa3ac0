#pragma once
// The subproblems a count has left, shared by every worker of the count: slice counters (one
// per GPU) take shares from the big end, CPU threads one subproblem at a time from the small
// end (or, counting alone, from the big end), so that near the end no CPU thread holds a big
// subproblem while the GPUs wait. Both ends live in one atomic word: taking is a
// compare-and-swap, no lock, and no subproblem is handed out twice.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "nqueens/error.hpp"

namespace nq::detail {

class subproblem_source {
 public:
  enum class end { big, small };

  /// `order`: subproblem indices, biggest first; `weight[i]`: the estimated size of order[i]
  /// (any positive unit). A share is about 1/`parts` of the weight left (1: everything), and at
  /// most `max_share` subproblems.
  subproblem_source(std::vector<std::uint32_t> order, const std::vector<std::uint64_t>& weight,
                    unsigned parts, std::uint64_t max_share)
      : order_(std::move(order)),
        prefix_(order_.size() + 1, 0),
        parts_(std::max(1u, parts)),
        max_share_(std::max<std::uint64_t>(1, max_share)) {
    NQ_EXPECTS(weight.size() == order_.size(), "a weight per subproblem");
    NQ_EXPECTS(order_.size() < (std::uint64_t{1} << 32), "positions fit 32 bits");
    for (std::size_t i = 0; i < order_.size(); ++i)
      prefix_[i + 1] = prefix_[i] + std::max<std::uint64_t>(1, weight[i]);
    ends_.store(pack(0, order_.size()), std::memory_order_relaxed);
  }

  /// The next share from the big end: order[first, last), empty once nothing is left.
  std::span<const std::uint32_t> take_share() {
    std::uint64_t ends = ends_.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t first = ends >> 32, last = ends & low_mask;
      if (first >= last) return {};
      const std::uint64_t target = (prefix_[last] - prefix_[first] + parts_ - 1) / parts_;
      // The fewest subproblems from `first` on that weigh at least the target.
      auto reach = std::lower_bound(prefix_.begin() + static_cast<std::ptrdiff_t>(first + 1),
                                    prefix_.begin() + static_cast<std::ptrdiff_t>(last + 1),
                                    prefix_[first] + target);
      std::uint64_t end = static_cast<std::uint64_t>(reach - prefix_.begin());
      // last - first, not first + max_share_, which overflows for a max_share_ near 2^64.
      end = std::clamp<std::uint64_t>(end, first + 1, first + std::min(last - first, max_share_));
      if (ends_.compare_exchange_weak(ends, pack(end, last), std::memory_order_relaxed))
        return {order_.data() + first, static_cast<std::size_t>(end - first)};
    }
  }

  /// One subproblem from the given end, or none once nothing is left.
  std::optional<std::uint32_t> take_one(end from) {
    std::uint64_t ends = ends_.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t first = ends >> 32, last = ends & low_mask;
      if (first >= last) return std::nullopt;
      const std::uint64_t taken = from == end::big ? first : last - 1;
      const std::uint64_t next = from == end::big ? pack(first + 1, last) : pack(first, last - 1);
      if (ends_.compare_exchange_weak(ends, next, std::memory_order_relaxed)) return order_[taken];
    }
  }

  std::size_t size() const { return order_.size(); }

 private:
  static constexpr std::uint64_t low_mask = 0xFFFFFFFFu;
  static std::uint64_t pack(std::uint64_t first, std::uint64_t last) { return first << 32 | last; }

  const std::vector<std::uint32_t> order_;
  std::vector<std::uint64_t> prefix_;  ///< prefix_[i]: the weight of order[0, i)
  const std::uint64_t parts_, max_share_;
  std::atomic<std::uint64_t> ends_;  ///< first << 32 | last: order[first, last) is left
};

}  // namespace nq::detail
