#include "core/compact_lines.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "nqueens/rng.hpp"

namespace nq {
namespace {

// Random adds and removes over few lines, so that lines get crowded, checked against plain
// counters after every operation.
TEST(BitLines, MatchPlainCountersUnderRandomUpdates) {
  for (const index_t lines : {1, 3, 64, 65, 1000}) {
    detail::bit_lines compact(lines);
    std::vector<index_t> plain(lines);
    philox_stream rng(lines, 0);
    for (int op = 0; op < 20000; ++op) {
      const index_t line = rng.below(static_cast<std::uint32_t>(lines));
      if (rng.below(3) != 0 || plain[line] == 0) {
        ASSERT_EQ(compact.add(line), plain[line]++);
      } else {
        ASSERT_EQ(compact.remove(line), --plain[line]);
      }
      ASSERT_EQ(compact[line], plain[line]);
      ASSERT_EQ(compact.occupied(line), plain[line] > 0);
    }
    for (index_t line = 0; line < lines; ++line) ASSERT_EQ(compact[line], plain[line]);
    compact.clear();
    for (index_t line = 0; line < lines; ++line) ASSERT_EQ(compact[line], 0u);
  }
}

TEST(ByteLines, CountPastTheByteLimit) {
  detail::byte_lines lines(4);
  for (index_t k = 0; k < 1000; ++k) ASSERT_EQ(lines.add(2), k);
  EXPECT_EQ(lines.add(1), 0u);
  EXPECT_EQ(lines.add(1), 1u);
  EXPECT_EQ(lines.add(2), 1000u);
}

}  // namespace
}  // namespace nq
