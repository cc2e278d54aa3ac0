// The yardstick issue 4 measures `nqueens count` against: a plain bitboard counter with mirror
// symmetry only (first-row queen in the left half, doubled), iterative, last row counted by
// population count. Not part of the product; built by `cmake --build build --target
// mirror_baseline` for bench/bench_count.py.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

std::uint64_t count_from(int n, std::uint32_t first) {
  const std::uint32_t board = (1u << n) - 1u;
  std::uint32_t avail[32], cols[32], ld[32], rd[32];
  cols[0] = first, ld[0] = first << 1, rd[0] = first >> 1;
  avail[0] = board & ~(cols[0] | ld[0] | rd[0]);
  const int last = n - 2;  // depth of row n-1
  if (last == 0) return static_cast<std::uint64_t>(__builtin_popcount(avail[0]));
  std::uint64_t total = 0;
  for (int d = 0; d >= 0;) {
    const std::uint32_t a = avail[d];
    if (a == 0) {
      --d;
      continue;
    }
    const std::uint32_t bit = a & (0u - a);
    avail[d] = a ^ bit;
    const std::uint32_t c = cols[d] | bit, l = (ld[d] | bit) << 1, r = (rd[d] | bit) >> 1;
    const std::uint32_t next = board & ~(c | l | r);
    if (d + 1 == last) {
      total += static_cast<std::uint64_t>(__builtin_popcount(next));
    } else if (next != 0) {
      ++d;
      avail[d] = next, cols[d] = c, ld[d] = l, rd[d] = r;
    }
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 0;
  if (n < 2 || n > 31) {
    std::fprintf(stderr, "usage: mirror_baseline N (2..31)\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  for (int c = 0; c < n / 2; ++c) total += 2 * count_from(n, 1u << c);
  if (n % 2) total += count_from(n, 1u << (n / 2));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("{\"n\":%d,\"solutions\":%llu,\"seconds\":%.6f}\n", n,
              static_cast<unsigned long long>(total), seconds);
  return 0;
}
