#pragma once
// Large arrays touched at random (boards of millions of queens) run markedly faster on 2 MiB
// pages: one TLB entry covers 512 times more. Linux in "madvise" mode gives them only on request.

#include <cstddef>
#include <vector>

namespace nq::detail {

/// Asks the kernel to back [data, data + bytes) with huge pages; harmless where unsupported.
void advise_huge_pages(void* data, std::size_t bytes);

/// Resizes an empty vector to `size` value-initialised elements on huge pages where possible:
/// the advice must come between allocation and first touch.
template <class T>
void resize_on_huge_pages(std::vector<T>& v, std::size_t size) {
  v.reserve(size);
  advise_huge_pages(v.data(), size * sizeof(T));
  v.resize(size);
}

}  // namespace nq::detail
