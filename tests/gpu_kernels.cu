#include "gpu_kernels.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/device_buffer.cuh"
#include "nqueens/construction.hpp"
#include "nqueens/lines.hpp"
#include "nqueens/rng.hpp"

namespace nq::test {
namespace {

__global__ void draws_kernel(std::uint64_t seed, std::uint64_t stream, std::uint32_t bound,
                             std::uint32_t* out, int count) {
  philox_stream rng(seed, stream);
  for (int i = 0; i < count; ++i) out[i] = rng.below(bound);
}

__global__ void construction_kernel(index_t n, row_t* out) {
  for (index_t col = 0; col < n; ++col) out[col] = static_cast<row_t>(constructive_row(n, col));
}

__global__ void deltas_kernel(row_t* rows, line_counts_view<std::uint32_t> lines, const move* moves,
                              int count, std::int64_t* out) {
  recount(lines, rows);
  for (int i = 0; i < count; ++i) {
    const move m = moves[i];
    if (m.a == m.b) {
      out[i] = move_delta(lines, m.a, rows[m.a], m.row);
      remove_queen(lines, m.a, rows[m.a]);
      rows[m.a] = static_cast<row_t>(m.row);
      add_queen(lines, m.a, rows[m.a]);
    } else {
      out[i] = swap_delta(lines, m.a, rows[m.a], m.b, rows[m.b]);
      remove_queen(lines, m.a, rows[m.a]);
      remove_queen(lines, m.b, rows[m.b]);
      const row_t held = rows[m.a];
      rows[m.a] = rows[m.b];
      rows[m.b] = held;
      add_queen(lines, m.a, rows[m.a]);
      add_queen(lines, m.b, rows[m.b]);
    }
  }
}

template <class T>
std::vector<T> copy_back(const cuda::device_buffer<T>& buffer) {
  std::vector<T> host(buffer.size());
  NQ_CUDA_TRY(
      cudaMemcpy(host.data(), buffer.data(), buffer.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

template <class T>
cuda::device_buffer<T> copy_to_device(const std::vector<T>& host) {
  cuda::device_buffer<T> buffer(host.size());
  NQ_CUDA_TRY(
      cudaMemcpy(buffer.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return buffer;
}

/// Steepest moves on a climber, walking: each chosen move is applied before the next choice.
__global__ void steepest_kernel(climber_view<std::int16_t> b, std::uint64_t seed, int steps,
                                queen_move* out) {
  recount(b);
  philox_stream rng(seed, 0);
  for (int i = 0; i < steps; ++i) {
    out[i] = steepest_move(b, rng, 2);
    relocate(b, out[i].col, out[i].row);
  }
}

}  // namespace

std::vector<std::uint32_t> device_draws(std::uint64_t seed, std::uint64_t stream,
                                        std::uint32_t bound, int count) {
  cuda::device_buffer<std::uint32_t> out(count);
  draws_kernel<<<1, 1>>>(seed, stream, bound, out.data(), count);
  NQ_CUDA_TRY(cudaGetLastError());
  return copy_back(out);
}

std::vector<row_t> device_construction(index_t n) {
  cuda::device_buffer<row_t> out(n);
  construction_kernel<<<1, 1>>>(n, out.data());
  NQ_CUDA_TRY(cudaGetLastError());
  return copy_back(out);
}

std::vector<std::int64_t> device_deltas(std::vector<row_t> rows, const std::vector<move>& moves) {
  const index_t n = rows.size();
  auto d_rows = copy_to_device(rows);
  auto d_moves = copy_to_device(moves);
  cuda::device_buffer<std::uint32_t> counts(n + 2 * diag_line_count(n));
  cuda::device_buffer<std::int64_t> out(moves.size());
  const line_counts_view<std::uint32_t> lines{counts.data(), counts.data() + n,
                                              counts.data() + n + diag_line_count(n), n};
  deltas_kernel<<<1, 1>>>(d_rows.data(), lines, d_moves.data(), static_cast<int>(moves.size()),
                          out.data());
  NQ_CUDA_TRY(cudaGetLastError());
  return copy_back(out);
}

std::vector<queen_move> device_steepest_walk(std::vector<row_t> rows, std::uint64_t seed,
                                             int steps) {
  const index_t n = rows.size();
  auto d_rows = copy_to_device(rows);
  cuda::device_buffer<std::int16_t> lines(n + 2 * diag_line_count(n));
  cuda::device_buffer<queen_move> out(static_cast<std::size_t>(steps));
  const climber_view<std::int16_t> b{d_rows.data(), lines.data(), lines.data() + n,
                                     lines.data() + n + diag_line_count(n), n};
  steepest_kernel<<<1, 1>>>(b, seed, steps, out.data());
  NQ_CUDA_TRY(cudaGetLastError());
  return copy_back(out);
}

}  // namespace nq::test
