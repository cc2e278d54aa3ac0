#include "core/memory.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "core/huge_pages.hpp"
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

/// Pages of [data, data + bytes) resident in memory, by mincore.
std::size_t resident_pages(void* data, std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in((bytes + page - 1) / page);
  EXPECT_EQ(mincore(data, bytes, in.data()), 0);
  std::size_t resident = 0;
  for (const unsigned char b : in) resident += b & 1;
  return resident;
}

TEST(PopulatePages, MapsAFreshRangeInOnEveryThreadCountWithoutWritingIt) {
  constexpr std::size_t bytes = std::size_t{200} << 20;  // 4 pieces of 64 MiB at most, 3 here
  for (const unsigned threads : {1u, 2u, 3u, 8u}) {
    void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(data, MAP_FAILED);
    auto* bytes_at = static_cast<unsigned char*>(data);
    bytes_at[5 << 20] = 7;  // one page written before: populate must keep what it holds
    const std::size_t pages = bytes / static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    ASSERT_LT(resident_pages(data, bytes), pages);  // untouched: not all there yet
    if (!detail::populate_pages(data, bytes, threads)) {
      munmap(data, bytes);
      GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)";
    }
    EXPECT_EQ(resident_pages(data, bytes), pages) << threads << " threads";
    EXPECT_EQ(bytes_at[5 << 20], 7);
    EXPECT_EQ(bytes_at[0], 0);
    EXPECT_EQ(bytes_at[bytes - 1], 0);
    munmap(data, bytes);
  }
}

TEST(PopulatePages, ResizesToZeroedElementsOfAnySize) {
  for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{1023},
                                 std::size_t{5} << 20, (std::size_t{20} << 20) + 3}) {
    std::vector<std::uint32_t> v;
    detail::resize_populated(v, size, 2);
    ASSERT_EQ(v.size(), size);
    std::uint64_t sum = 0;
    for (const auto x : v) sum += x;
    EXPECT_EQ(sum, 0u) << size;
  }
}

}  // namespace
}  // namespace nq
