// Thread-per-run chains: each thread owns one board and runs the same NQ_HD chain as the CPU
// reference, from the same Philox stream. Up to 32 queens the board and its lines sit in the
// thread's local memory; above, in a slice of global scratch per thread.

#include "kernels/block_chains.cuh"
#include "kernels/chains.cuh"
#include "kernels/cuda_check.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/gpu.hpp"
#include "kernels/launch.cuh"
#include "nqueens/error.hpp"
#include "nqueens/local_chain.hpp"

namespace nq::cuda {
namespace {

constexpr int max_chain_n = static_cast<int>(gpu::max_thread_chain_n);
using A = local_algorithm;

/// Stops a chain once a lower-numbered run has solved (solve --chains), checked every 1024
/// steps; without a race it never stops.
struct race_observer {
  const unsigned long long* first_solved;  // null: no race
  std::uint64_t run;
  std::uint32_t calls = 0;
  __device__ bool operator()(const chain_state&) {
    if (!first_solved || ++calls % 1024 != 0) return true;
    return *static_cast<const volatile unsigned long long*>(first_solved) >= run;
  }
};

/// Runs chain `run`, or skips it (stopped) when a lower-numbered run already solved, and
/// publishes a solution to the race.
template <A Algorithm>
__device__ chain_outcome race_chain(climber_view<std::int16_t> b, std::uint32_t* order,
                                    std::uint64_t seed, std::uint64_t run,
                                    const local_search_settings& s, std::uint64_t max_steps,
                                    unsigned long long* first_solved) {
  chain_outcome out;
  if (first_solved && *static_cast<volatile unsigned long long*>(first_solved) < run) {
    out.stopped = true;
    return out;
  }
  philox_stream rng(seed, run);
  out =
      run_chain_of<Algorithm>(b, order, rng, s, true, max_steps, race_observer{first_solved, run});
  if (first_solved && out.solved) atomicMin(first_solved, static_cast<unsigned long long>(run));
  return out;
}

template <A Algorithm>
__global__ void thread_chains(int n, local_search_settings settings, std::uint64_t seed,
                              std::uint64_t first, std::uint64_t count, std::uint64_t max_steps,
                              chain_outcome* outcomes, row_t* boards,
                              unsigned long long* first_solved) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  row_t queen_row[max_chain_n];
  std::int16_t rows[max_chain_n], diag[2 * max_chain_n - 1], anti[2 * max_chain_n - 1];
  // Only first-choice reads the move order; the others leave it unallocated.
  constexpr int order_size = Algorithm == A::first_choice ? max_chain_n * (max_chain_n - 1) : 1;
  std::uint32_t order[order_size];
  const climber_view<std::int16_t> b{queen_row, rows, diag, anti, static_cast<index_t>(n)};
  outcomes[i] = race_chain<Algorithm>(b, order, seed, first + i, settings, max_steps, first_solved);
  if (boards)
    for (int col = 0; col < n; ++col) boards[i * n + col] = queen_row[col];
}

/// Bytes of global scratch one chain on n queens needs: its rows, then its three line families.
NQ_HD constexpr std::uint64_t scratch_per_chain(std::uint64_t n) {
  return n * sizeof(row_t) + (n + 2 * (2 * n - 1)) * sizeof(std::int16_t);
}

template <A Algorithm>
__global__ void global_chains(int n, local_search_settings settings, std::uint64_t seed,
                              std::uint64_t first, std::uint64_t count, std::uint64_t max_steps,
                              chain_outcome* outcomes, row_t* boards, unsigned char* scratch,
                              unsigned long long* first_solved) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const auto size = static_cast<index_t>(n);
  unsigned char* mine = scratch + i * scratch_per_chain(size);
  auto* queen_row = reinterpret_cast<row_t*>(mine);
  auto* lines = reinterpret_cast<std::int16_t*>(mine + size * sizeof(row_t));
  const climber_view<std::int16_t> b{queen_row, lines, lines + size, lines + 3 * size - 1, size};
  outcomes[i] =
      race_chain<Algorithm>(b, nullptr, seed, first + i, settings, max_steps, first_solved);
  if (boards)
    for (int col = 0; col < n; ++col) boards[i * n + col] = queen_row[col];
}

template <A Algorithm>
void launch(int n, const local_search_settings& s, std::uint64_t seed, std::uint64_t first,
            std::uint64_t count, std::uint64_t max_steps, chain_outcome* outcomes, row_t* boards,
            unsigned long long* first_solved) {
  constexpr unsigned block = 128;
  const auto blocks = static_cast<unsigned>((count + block - 1) / block);
  if (n <= max_chain_n) {
    thread_chains<Algorithm>
        <<<blocks, block>>>(n, s, seed, first, count, max_steps, outcomes, boards, first_solved);
    return;
  }
  if constexpr (Algorithm != A::first_choice) {  // its move order is n(n-1) entries: refused
    device_buffer<unsigned char> scratch(count * scratch_per_chain(static_cast<index_t>(n)));
    global_chains<Algorithm><<<blocks, block>>>(n, s, seed, first, count, max_steps, outcomes,
                                                boards, scratch.data(), first_solved);
    NQ_CUDA_TRY(cudaGetLastError());
    NQ_CUDA_TRY(cudaDeviceSynchronize());  // before the scratch is freed
  }
}

}  // namespace

bool has_thread_chain(const local_search_settings& settings, index_t n) {
  const A a = settings.algorithm;
  if (!is_single_chain(a) || n < 1) return false;
  return n <= gpu::max_thread_chain_n || (a != A::first_choice && n <= gpu::max_global_chain_n);
}

std::uint64_t max_chains_per_launch(index_t n) {
  constexpr std::uint64_t most = std::uint64_t{1} << 24;
  constexpr std::uint64_t scratch_budget = std::uint64_t{2} << 30;  // bytes of boards in flight
  if (n <= gpu::max_thread_chain_n) return most;
  return std::max<std::uint64_t>(1, std::min(most, scratch_budget / scratch_per_chain(n)));
}

void launch_thread_chains(index_t n, const local_search_settings& settings, std::uint64_t seed,
                          std::uint64_t first, std::uint64_t count, std::uint64_t max_steps,
                          chain_outcome* outcomes, row_t* boards,
                          unsigned long long* first_solved) {
  if (has_block_chain(settings.algorithm, n)) {
    launch_block_chains(n, settings, seed, first, count, max_steps, outcomes, boards);
    return;
  }
  const int size = static_cast<int>(n);
  switch (settings.algorithm) {
#define NQ_CHAIN_CASE(name)                                                          \
  case A::name:                                                                      \
    launch<A::name>(size, settings, seed, first, count, max_steps, outcomes, boards, \
                    first_solved);                                                   \
    break;
    NQ_CHAIN_CASE(hc)
    NQ_CHAIN_CASE(hc_sideways)
    NQ_CHAIN_CASE(hc_restart)
    NQ_CHAIN_CASE(first_choice)
    NQ_CHAIN_CASE(min_conflicts_column)
    NQ_CHAIN_CASE(sa)
    NQ_CHAIN_CASE(random)
    NQ_CHAIN_CASE(random_opt)
    NQ_CHAIN_CASE(hc_random_p)
    NQ_CHAIN_CASE(hc_anneal_p)
    NQ_CHAIN_CASE(hc_memory)
#undef NQ_CHAIN_CASE
    default:
      throw usage_error(std::string(algorithm_name(settings.algorithm)) +
                        " has no thread-per-run GPU chain");
  }
  NQ_CUDA_TRY(cudaGetLastError());
}

}  // namespace nq::cuda

namespace nq::gpu {

std::vector<chain_outcome> run_thread_chains(index_t n, const local_search_settings& settings,
                                             std::uint64_t seed, std::uint64_t first,
                                             std::uint64_t count, std::uint64_t max_steps,
                                             std::vector<row_t>* boards) {
  if (!cuda::has_thread_chain(settings, n))
    throw usage_error(std::string(algorithm_name(settings.algorithm)) +
                      " on n=" + std::to_string(n) + " has no thread-per-run GPU chain");
  NQ_EXPECTS(count < (std::uint64_t{1} << 31) * 128, "too many runs for one call");
  std::vector<chain_outcome> outcomes(count);
  if (count == 0) return outcomes;
  if (max_steps == 0) max_steps = default_max_steps(settings.algorithm);
  cuda::device_buffer<chain_outcome> d_outcomes(count);
  cuda::device_buffer<row_t> d_boards(boards ? count * n : 0);
  const std::uint64_t per_launch = cuda::max_chains_per_launch(n);
  for (std::uint64_t done = 0; done < count; done += per_launch)
    cuda::launch_thread_chains(n, settings, seed, first + done, std::min(per_launch, count - done),
                               max_steps, d_outcomes.data() + done,
                               boards ? d_boards.data() + done * n : nullptr);
  NQ_CUDA_TRY(cudaMemcpy(outcomes.data(), d_outcomes.data(), count * sizeof(chain_outcome),
                         cudaMemcpyDeviceToHost));
  if (boards) {
    boards->resize(count * n);
    NQ_CUDA_TRY(cudaMemcpy(boards->data(), d_boards.data(), count * n * sizeof(row_t),
                           cudaMemcpyDeviceToHost));
  }
  return outcomes;
}

}  // namespace nq::gpu
