#pragma once
// Local beam search and the genetic algorithm on the CPU: searches over many states at once,
// drawing from streams keyed by (seed, run, generation, individual) (nqueens/detail/population.hpp).
// Steps are generations; the observer sees one trace row per generation (and one for the
// starting states) and may stop the search.

#include <functional>
#include <vector>

#include "nqueens/local_search.hpp"
#include "nqueens/detail/population.hpp"

namespace nq::detail {

using population_observer = std::function<bool(const trace_row&)>;

/// Attacking pairs of a whole board, O(n) with scratch line counters.
class board_cost {
 public:
  explicit board_cost(index_t n) : n_(n), rows_(n), diag_(2 * n - 1), anti_(2 * n - 1) {}
  index_t operator()(const row_t* queen_row);

 private:
  index_t n_;
  std::vector<std::uint32_t> rows_, diag_, anti_;
};

/// The trace row of a population: its best cost, best and mean fitness.
trace_row population_row(index_t n, const std::vector<index_t>& cost, std::uint64_t step);

/// beam: `best` receives the final best state. `interrupted`, when given, is asked during a
/// generation (once per column of successors); true drops that generation and stops the run.
chain_outcome beam_search(index_t n, const beam_settings& settings, std::uint64_t seed,
                          std::uint64_t run, const row_t* start, std::uint64_t max_steps,
                          const population_observer& observe, std::vector<row_t>& best,
                          const std::function<bool()>& interrupted = {});

/// ga: `best` receives the final best individual. `interrupted`, when given, is asked after
/// each individual of the first population (true keeps those made and stops the run) and of
/// each generation (true drops that generation and stops the run).
chain_outcome genetic_search(index_t n, const genetic_settings& settings, std::uint64_t seed,
                             std::uint64_t run, const row_t* start, std::uint64_t max_steps,
                             const population_observer& observe, std::vector<row_t>& best,
                             const std::function<bool()>& interrupted = {});

}  // namespace nq::detail
