// Counting a board's attacking pairs on the GPU: one thread per column adds its queen to the
// three line counters, then a reduction sums C(k, 2) over all lines.

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/system_error.h>
#include <thrust/transform_reduce.h>

#include "kernels/cuda_check.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/gpu.hpp"
#include "kernels/launch.cuh"
#include "nqueens/lines.hpp"

namespace nq::cuda {
namespace {

using line_count = unsigned int;  // a line holds at most n < 2^32 queens

__global__ void count_lines(const row_t* queen_row, line_counts_view<line_count> lines) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t col = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; col < lines.n;
       col += stride) {
    const index_t row = queen_row[col];
    atomicAdd(lines.row_count + row, 1u);
    atomicAdd(lines.diag_count + diag_index(lines.n, col, row), 1u);
    atomicAdd(lines.anti_diag_count + anti_diag_index(col, row), 1u);
  }
}

struct pairs_of_line {
  NQ_HD index_t operator()(line_count queens) const { return pairs_on_line(queens); }
};

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

index_t count_attacking_pairs(std::span<const row_t> queen_row) {
  const index_t n = queen_row.size();
  if (n == 0) return 0;
  cuda::device_buffer<row_t> rows(n);
  cuda::device_buffer<cuda::line_count> counts(n + 2 * diag_line_count(n));
  NQ_CUDA_TRY(cudaMemcpy(rows.data(), queen_row.data(), n * sizeof(row_t), cudaMemcpyHostToDevice));
  NQ_CUDA_TRY(cudaMemset(counts.data(), 0, counts.size() * sizeof(cuda::line_count)));
  const line_counts_view<cuda::line_count> lines{counts.data(), counts.data() + n,
                                                 counts.data() + n + diag_line_count(n), n};
  constexpr unsigned block = 256;
  cuda::count_lines<<<cuda::grid_size(n, block), block>>>(rows.data(), lines);
  NQ_CUDA_TRY(cudaGetLastError());
  try {
    const index_t pairs =
        thrust::transform_reduce(thrust::device, counts.data(), counts.data() + counts.size(),
                                 cuda::pairs_of_line{}, index_t{0}, thrust::plus<index_t>{});
    NQ_CUDA_TRY(cudaDeviceSynchronize());
    return pairs;
  } catch (const thrust::system_error& e) {
    throw cuda_error(std::string("CUDA error in the pair reduction: ") + e.what());
  }
}

}  // namespace nq::gpu
