#include "core/memory.hpp"

#include <gtest/gtest.h>

#include "nqueens/error.hpp"

namespace nq {
namespace {

TEST(ByteSize, ParsesPlainAndSuffixedSizes) {
  EXPECT_EQ(parse_byte_size("0"), 0u);
  EXPECT_EQ(parse_byte_size("1048576"), 1u << 20);
  EXPECT_EQ(parse_byte_size("512K"), 512u << 10);
  EXPECT_EQ(parse_byte_size("64M"), 64u << 20);
  EXPECT_EQ(parse_byte_size("8G"), 8ull << 30);
  EXPECT_EQ(parse_byte_size("8g"), 8ull << 30);
  EXPECT_EQ(parse_byte_size("2GiB"), 2ull << 30);
  EXPECT_EQ(parse_byte_size("2GB"), 2ull << 30);
  EXPECT_EQ(parse_byte_size("1T"), 1ull << 40);
}

TEST(ByteSize, TakesDecimalSizes) {
  EXPECT_EQ(parse_byte_size("1.5G"), 3ull << 29);
  EXPECT_EQ(parse_byte_size("0.5M"), 512u << 10);
  EXPECT_EQ(parse_byte_size("2.25GiB"), 9ull << 28);
  EXPECT_EQ(parse_byte_size("1.1K"), 1126u);  // 1126.4 bytes, rounded down
}

TEST(ByteSize, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "abc", "-5", "12X", "1.5", "1.G", ".5G", "1.2.3G", "8Gbytes",
                          "99999999999999T", "G", "1e9"})
    EXPECT_THROW(parse_byte_size(bad), usage_error) << bad;
}

TEST(ByteSize, FormatsForPeople) {
  EXPECT_EQ(format_bytes(12), "12 bytes");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(3ull << 30), "3.00 GiB");
}

TEST(AvailableMemory, IsReadOnLinux) {
  const auto available = available_memory_bytes();
  ASSERT_TRUE(available.has_value());
  EXPECT_GT(*available, 0u);
}

}  // namespace
}  // namespace nq
