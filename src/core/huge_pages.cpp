#include "nqueens/detail/huge_pages.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace nq::detail {

void advise_huge_pages(void* data, std::size_t bytes) {
#if defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (start + huge - 1) & ~(huge - 1);
  const std::uintptr_t last = (start + bytes) & ~(huge - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

bool populate_pages(void* data, std::size_t bytes, unsigned threads,
                    const std::function<bool()>& stop) {
#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
  constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14; older kernels answer EINVAL
#endif
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));  // 4, 16, 64 KiB
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (start + page - 1) & ~(page - 1);
  const std::uintptr_t last = (start + bytes) & ~(page - 1);
  if (last <= first) return true;
  const std::uintptr_t pages = (last - first) / page;
  // Pieces of at least 64 MiB: below that a thread's start costs more than it saves.
  const std::uintptr_t min_piece = (std::uintptr_t{64} << 20) / page;
  const auto pieces = static_cast<unsigned>(
      std::clamp<std::uintptr_t>(pages / min_piece, 1, std::max(1u, threads)));
  // Each piece is mapped in steps of 32 MiB (tens of milliseconds), the stop read before each.
  const std::uintptr_t step = (std::uintptr_t{32} << 20) / page * page;
  std::vector<char> done(pieces, 0);
  const auto populate = [&](unsigned k) {
    const std::uintptr_t from = first + pages * k / pieces * page;
    const std::uintptr_t to = first + pages * (k + 1) / pieces * page;
    bool mapped = true;
    for (std::uintptr_t at = from; at < to && mapped; at += step) {
      if (stop && stop()) return;
      mapped =
          madvise(reinterpret_cast<void*>(at), std::min(step, to - at), MADV_POPULATE_WRITE) == 0;
    }
    done[k] = mapped;
  };
  std::vector<std::thread> helpers;
  try {
    for (unsigned k = 1; k < pieces; ++k) helpers.emplace_back(populate, k);
  } catch (...) {  // no thread: the pieces left fault in at first touch
  }
  populate(0);
  for (auto& helper : helpers) helper.join();
  return std::all_of(done.begin(), done.end(), [](char d) { return d != 0; });
#else
  (void)data;
  (void)bytes;
  (void)threads;
  (void)stop;
  return false;
#endif
}

}  // namespace nq::detail
