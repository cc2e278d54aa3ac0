// solve --chains: the race of C chains on a backend, the choice of one, and its board and trace.

#include "nqueens/chains.hpp"

#include <atomic>
#include <stdexcept>
#include <string>

#include "nqueens/batch.hpp"
#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

/// A record of a run that never started (the race, or the stop, kept it from starting): unsolved
/// with no attacking pair counted. Such a run has no board.
bool never_started(const chain_outcome& r) { return !r.solved && r.cost == 0; }

solve_result to_result(const chain_outcome& r, std::vector<row_t> board) {
  solve_result result;
  result.solved = r.solved;
  result.conflicts = r.cost;
  result.steps = r.steps;
  result.restarts = r.restarts;
  result.queen_row = std::move(board);
  return result;
}

}  // namespace

chains_result solve_chains(index_t n, const local_search_settings& algorithm,
                           const chains_settings& settings, batch_backend& backend) {
  NQ_EXPECTS(settings.chains >= 1, "at least one chain");
  const detail::stopwatch clock;
  chains_result kept;
  std::vector<row_t> board;
  if (settings.chains == 1) {  // one chain: no race, it runs alone, once
    const chain_outcome r =
        backend.run_alone(n, algorithm, settings.seed, 0, settings.limits, board, settings.trace);
    kept.result = to_result(r, std::move(board));
    kept.stopped = r.stopped;
    kept.result.seconds = clock.seconds();
    return kept;
  }
  // The board comes from the batch itself, copied for the best chain as each slice arrives: no
  // chain runs twice, and a stop leaves each chain's board as it was. Keeping every board would
  // take chains x n rows (up to 2^32 chains); the slices hold at most 2^24 rows.
  batch_settings batch;
  batch.runs = settings.chains;
  batch.seed = settings.seed;
  batch.limits = settings.limits;
  batch.stop_after_first_solved = true;
  // The lowest-numbered chain that solved; failing that, the fewest attacking pairs. No chain
  // is stopped early unless one solved (or the stop came), so the second rule sees complete
  // chains, or what each held at the stop.
  chain_outcome best;
  bool any = false;
  batch.on_boards = [&](std::uint64_t first, const std::vector<chain_outcome>& runs,
                        const std::vector<row_t>& boards) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const chain_outcome& r = runs[i];
      if (never_started(r)) continue;
      const bool better =
          !any || (r.solved && !best.solved) || (!r.solved && !best.solved && r.cost < best.cost);
      if (!better) continue;
      kept.chain = first + i, best = r, any = true;
      board.assign(boards.begin() + static_cast<std::ptrdiff_t>(i * n),
                   boards.begin() + static_cast<std::ptrdiff_t>((i + 1) * n));
    }
  };
  run_batch(n, algorithm, batch, backend);
  if (!any) {
    // The stop came before any chain started: chain 0 runs alone, stopped at once, for a board.
    const chain_outcome r =
        backend.run_alone(n, algorithm, settings.seed, 0, settings.limits, board, settings.trace);
    kept.result = to_result(r, std::move(board));
    kept.stopped = true;
    kept.result.seconds = clock.seconds();
    return kept;
  }
  kept.stopped = best.stopped;
  if (!settings.trace) {
    kept.result = to_result(best, std::move(board));
    kept.result.seconds = clock.seconds();
    return kept;
  }
  // A trace is kept for a run alone (a GPU keeps one run's trace, not thousands): the chosen
  // chain runs again, alone, on the same backend, with no clock: as far as it went by itself,
  // or to the step it reached when a limit or the stop ended it (a second signal then ends the
  // process). Its record must be the batch's.
  // The replay never reads the caller's stop: a first signal raised it already (and would end
  // the replay at its start), and the replay is bounded by how far the chain went.
  search_limits limits = settings.limits;
  limits.time_limit = 0.0;
  limits.stop = nullptr;
  std::atomic<bool> at_once{true};
  if (best.stopped && best.steps > 0) limits.max_steps = best.steps;
  if (best.stopped && best.steps == 0) limits.stop = &at_once;  // stopped at its start: so is this
  const chain_outcome r =
      backend.run_alone(n, algorithm, settings.seed, kept.chain, limits, board, settings.trace);
  if (!best.stopped && !r.stopped &&
      (r.steps != best.steps || r.solved != best.solved || r.cost != best.cost))
    throw std::logic_error("chain " + std::to_string(kept.chain) + " on the " +
                           std::string(backend.device()) + " took " + std::to_string(best.steps) +
                           " steps, alone " + std::to_string(r.steps));
  kept.stopped = best.stopped || r.stopped;
  kept.result = to_result(r, std::move(board));
  kept.result.seconds = clock.seconds();
  return kept;
}

}  // namespace nq
