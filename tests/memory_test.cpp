#include "nqueens/detail/memory.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "nqueens/detail/huge_pages.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL
#endif
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

/// This process's resident pages, from /proc/self/statm (zero-page mappings not counted).
std::size_t resident_total() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident;
}

/// Minor page faults of the calling thread so far.
long thread_minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

TEST(PopulatePages, MapsAFreshRangeInOnEveryThreadCountWithoutWritingIt) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  {  // Whether this kernel has it at all (Linux 5.14): asked of one page directly.
    void* probe = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(probe, MAP_FAILED);
    const bool supported = madvise(probe, page, MADV_POPULATE_WRITE) == 0;
    munmap(probe, page);
    if (!supported) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)";
  }
  constexpr std::size_t bytes = std::size_t{200} << 20;  // pieces of 64 MiB at least: 3 at most
  const std::size_t pages = bytes / page;
  for (const unsigned threads : {1u, 2u, 3u, 8u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(data, MAP_FAILED);
    auto* bytes_at = static_cast<unsigned char*>(data);
    bytes_at[5 << 20] = 7;  // one page written before: populate must keep what it holds
    ASSERT_LT(resident_pages(data, bytes), pages);  // untouched: not all there yet
    const std::size_t resident_before = resident_total();
    const long faults_before = thread_minor_faults();
    EXPECT_TRUE(detail::populate_pages(data, bytes, threads));
    const long own_faults = thread_minor_faults() - faults_before;
    EXPECT_EQ(resident_pages(data, bytes), pages);
    // Mapped for writing: pages of their own, not the shared zero page a read would map.
    EXPECT_GE(resident_total() - resident_before, pages - 1);
    // Shared out: this thread faulted in its own piece only (counted as minor faults; with
    // transparent huge pages there are far fewer faults than pages whatever the threads).
    if (threads > 1) {
      EXPECT_LT(own_faults, static_cast<long>(pages * 3 / 4));
    }
    EXPECT_EQ(bytes_at[5 << 20], 7);
    EXPECT_EQ(bytes_at[0], 0);
    EXPECT_EQ(bytes_at[bytes - 1], 0);
    munmap(data, bytes);
  }
}

// A stop ends the mapping between steps of 32 MiB, on every thread: raised from the start,
// nothing is mapped; raised after the first step asked, that step alone.
TEST(PopulatePages, AStopLeavesTheRestUnmapped) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  constexpr std::size_t bytes = std::size_t{200} << 20, step = std::size_t{32} << 20;
  for (const unsigned threads : {1u, 2u}) {
    for (const int allowed : {0, 1}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, " + std::to_string(allowed) + " steps");
      void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      ASSERT_NE(data, MAP_FAILED);
      std::atomic<int> asked{0};
      const bool whole =
          detail::populate_pages(data, bytes, threads, [&] { return asked++ >= allowed; });
      EXPECT_FALSE(whole);
      EXPECT_GE(asked.load(), 1);
      // At most the steps allowed (the range may start mid-page; its first page is then
      // left out, or a huge page may bring a neighbour in).
      EXPECT_LE(resident_pages(data, bytes), allowed * (step / page + 512));
      munmap(data, bytes);
    }
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
