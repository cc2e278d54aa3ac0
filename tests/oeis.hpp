#pragma once
// The published counts every counting test checks against, n = 1..20: OEIS A000170 (all
// solutions) and A002562 (fundamental solutions, one per class under the board's symmetries).
// Index n - 1.

#include <cstdint>

namespace nq::test {

inline constexpr std::uint64_t a000170[] = {
    1,    0,     0,     2,      10,      4,        40,       92,        352,        724,
    2680, 14200, 73712, 365596, 2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884};
inline constexpr std::uint64_t a002562[] = {
    1,   0,    0,    1,     2,      1,       6,        12,       46,        92,
    341, 1787, 9233, 45752, 285053, 1846955, 11977939, 83263591, 621012754, 4878666808};

}  // namespace nq::test
