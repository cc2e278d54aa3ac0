// The thread-per-run chains of hc, hc-sideways, hc-restart, sa and random on 4..16 queens with
// the whole chain in registers (register_climb.hpp, register_stochastic.hpp): chain_runs<A,
// true, N>, one kernel for each algorithm and board, launched where no run needs an observer
// (register_chain_eligible).

#include "kernels/chain_runs.cuh"
#include "kernels/chains.cuh"
#include "nqueens/error.hpp"

namespace nq::cuda {
namespace {

template <A Algorithm, int N>
void launch_registers(const chain_launch& job, const chain_claims& claims,
                      const device_tally& tally) {
  launch_blocks<chain_block>("register_chain_runs", runs_blocks<Algorithm, true, N>(job, claims.chunk),
                             0, chain_runs<Algorithm, true, N>{{}, job, claims, tally, nullptr});
}

/// launch_registers<Algorithm, N> for N = job.n.
template <A Algorithm, int... N>
void launch_sized(const chain_launch& job, const chain_claims& claims, const device_tally& tally,
                  std::integer_sequence<int, N...>) {
  const bool launched =
      ((job.n == static_cast<index_t>(N + min_register_climb_n)
            ? (launch_registers<Algorithm, N + static_cast<int>(min_register_climb_n)>(job, claims,
                                                                                       tally),
               true)
            : false) ||
       ...);
  NQ_EXPECTS(launched, "a board the register chains take");
}

}  // namespace

void launch_register_runs(const chain_launch& job, const chain_claims& claims,
                          const device_tally& tally) {
  NQ_EXPECTS(register_chain_eligible(job), "a chain the registers hold");
  constexpr int sizes = static_cast<int>(max_register_climb_n - min_register_climb_n + 1);
  const auto each = std::make_integer_sequence<int, sizes>{};
  switch (job.settings.algorithm) {
    case A::hc:
      return launch_sized<A::hc>(job, claims, tally, each);
    case A::hc_sideways:
      return launch_sized<A::hc_sideways>(job, claims, tally, each);
    case A::sa:
      return launch_sized<A::sa>(job, claims, tally, each);
    case A::random:
      return launch_sized<A::random>(job, claims, tally, each);
    default:
      return launch_sized<A::hc_restart>(job, claims, tally, each);
  }
}

}  // namespace nq::cuda
