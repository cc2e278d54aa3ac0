// Counting a board's attacking pairs on the GPU: one thread per column adds its queen to the
// three line counters, then a reduction sums C(k, 2) over all lines.

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "kernels/thrust_policy.cuh"
#include "nqueens/detail/lines.hpp"

namespace nq::cuda {
namespace {

using line_count = unsigned int;  // a line holds at most n < 2^32 queens
constexpr unsigned long long no_column = ~0ull;

/// Adds every queen to its lines; a row outside the board is left out, and the lowest column
/// holding one is kept in `bad_col`.
struct count_lines {
  const row_t* queen_row;
  line_counts_view<line_count> lines;
  unsigned long long* bad_col;
  NQ_HD void operator()(thread_id id) const {
    for (index_t col = id.global(); col < lines.n; col += id.grid_threads()) {
      const index_t row = queen_row[col];
      if (row >= lines.n) {
        atomic_min(bad_col, static_cast<unsigned long long>(col));
        continue;
      }
      atomic_add(lines.row_count + row, 1u);
      atomic_add(lines.diag_count + diag_index(lines.n, col, row), 1u);
      atomic_add(lines.anti_diag_count + anti_diag_index(col, row), 1u);
    }
  }
};

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
  cuda::device_buffer<unsigned long long> bad_col(1);
  cuda::copy_to_device(rows.data(), queen_row.data(), n);
  cuda::fill_bytes(counts.data(), 0, counts.size());
  cuda::fill_bytes(bad_col.data(), 0xFF, 1);
  const line_counts_view<cuda::line_count> lines{counts.data(), counts.data() + n,
                                                 counts.data() + n + diag_line_count(n), n};
  constexpr unsigned block = 256;
  cuda::launch_threads("count_lines", cuda::grid_size(n, block), block,
                       cuda::count_lines{rows.data(), lines, bad_col.data()});
  unsigned long long bad = 0;
  cuda::copy_to_host(&bad, bad_col.data(), 1);
  if (bad != cuda::no_column)
    throw usage_error("column " + std::to_string(bad) + " has its queen on row " +
                      std::to_string(queen_row[bad]) + ", outside 0.." + std::to_string(n - 1));
  return cuda::thrust_step("summing the pairs", [&] {
    return thrust::transform_reduce(cuda::on_device(), counts.data(), counts.data() + counts.size(),
                                    cuda::pairs_of_line{}, index_t{0}, thrust::plus<index_t>{});
  });
}

}  // namespace nq::gpu
