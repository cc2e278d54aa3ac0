#pragma once
/// @file
/// @brief solve --chains: C chains of one local search on a batch backend, and the chain kept,
/// with its board and trace from the backend's own run. Host-side API.

#include "nqueens/backend.hpp"
#include "nqueens/solver.hpp"

namespace nq {

/// @brief How the chains run.
struct chains_settings {
  std::uint64_t chains = 1;  ///< chain i draws from stream (seed, i), as run i of a batch
  std::uint64_t seed = 1;
  search_limits limits;  ///< per chain; once `*limits.stop` is set, every chain ends
  trace_fn trace;        ///< receives the kept chain's trace; may be empty
};

/// @brief The chain kept and what it did.
struct chains_result {
  std::uint64_t chain = 0;  ///< the stream kept: replay it with solve --chain
  /// Its record and final board: what solve --chain `chain` gives on the CPU (its seconds:
  /// the whole search's), unless a time limit or the stop ended it.
  solve_result result;
  bool stopped = false;  ///< a time limit or the stop ended the kept chain
};

/// @brief Runs `settings.chains` chains of `algorithm` (a local search `backend` supports on
/// n queens) and keeps the lowest-numbered one that solves or, when none does, the one left
/// with the fewest attacking pairs (of those a stop left unfinished, the board each holds).
chains_result solve_chains(index_t n, const local_search_settings& algorithm,
                           const chains_settings& settings, batch_backend& backend);

}  // namespace nq
