#pragma once
// Large arrays touched at random (boards of millions of queens) run markedly faster on 2 MiB
// pages: one TLB entry covers 512 times more. Linux in "madvise" mode gives them only on request.

#include <cstddef>
#include <functional>
#include <vector>

namespace nq::detail {

/// Asks the kernel to back [data, data + bytes) with huge pages; harmless where unsupported.
void advise_huge_pages(void* data, std::size_t bytes);

/// Maps [data, data + bytes) in, writable, on `threads` threads at once, without writing to it
/// (MADV_POPULATE_WRITE): a later serial fill then finds its pages present, and the page faults
/// (most of the cost of a first touch of gigabytes, in system time) are shared by the cores.
/// Harmless where unsupported (the pages then fault in at first touch, as before). `stop`, when
/// given, is asked (from every thread at once) before each 32 MiB: once it says so, the pages
/// left fault in at first touch, so that a stop lands within moments on gigabytes. Whether the
/// kernel mapped every whole page of the range in.
bool populate_pages(void* data, std::size_t bytes, unsigned threads,
                    const std::function<bool()>& stop = {});

/// Resizes an empty vector to `size` zeroed elements, its pages mapped in by `threads` threads
/// first (populate_pages): only the fill itself is serial.
template <class T>
void resize_populated(std::vector<T>& v, std::size_t size, unsigned threads) {
  v.reserve(size);
  populate_pages(v.data(), size * sizeof(T), threads);
  v.resize(size);
}

/// Resizes an empty vector to `size` value-initialised elements on huge pages where possible:
/// the advice must come between allocation and first touch.
template <class T>
void resize_on_huge_pages(std::vector<T>& v, std::size_t size) {
  v.reserve(size);
  advise_huge_pages(v.data(), size * sizeof(T));
  v.resize(size);
}

}  // namespace nq::detail
