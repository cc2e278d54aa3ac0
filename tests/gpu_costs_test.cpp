// The cost counters (gpu::costs) that the budget tests read: each kind counted once where the
// host pays it, in both executions.

#include <gtest/gtest.h>

#include <vector>

#include "gpu_fixture.hpp"
#include "kernels/gpu.hpp"

namespace nq {
namespace {

using GpuCosts = test::gpu_fixture;

// count_attacking_pairs: three buffers, the board copied in, one launch, the bad-column word
// copied back and the reduction, which waits for its value (and no wait of its own before it).
TEST_F(GpuCosts, EachKindIsCountedWhereTheHostPaysIt) {
  const std::vector<row_t> board{1, 3, 0, 2};
  const gpu::gpu_costs before = gpu::costs();
  EXPECT_EQ(gpu::count_attacking_pairs(board), 0u);
  const gpu::gpu_costs spent = gpu::costs() - before;
  EXPECT_EQ(spent.launches, 1u);
  EXPECT_EQ(spent.to_device_copies, 1u);
  EXPECT_EQ(spent.to_host_copies, 1u);
  EXPECT_EQ(spent.to_host_bytes, sizeof(unsigned long long));  // the word, not Thrust's sum
  EXPECT_EQ(spent.syncs, 3u);
  EXPECT_GE(spent.allocations, 3u);  // and Thrust's temporaries, where it takes any
  EXPECT_GE(spent.allocated_bytes, 4 * sizeof(row_t) + (4 + 2 * 7) * 4 + 8);
}

}  // namespace
}  // namespace nq
