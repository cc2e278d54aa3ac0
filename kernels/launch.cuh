#pragma once
// Launch dimensions, computed once where the work is sized.

#include <algorithm>

#include "nqueens/config.hpp"

namespace nq::cuda {

/// Blocks for `work` items at `block` threads each, capped for grid-stride loops.
inline unsigned grid_size(index_t work, unsigned block, unsigned max_blocks = 1u << 16) {
  const index_t blocks = (work + block - 1) / block;
  return static_cast<unsigned>(std::clamp<index_t>(blocks, 1, max_blocks));
}

}  // namespace nq::cuda
