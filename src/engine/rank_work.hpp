#pragma once
// Work the ranks share (not public): once they have met at the start gate, a failure on one
// rank leaves the others waiting for it, so it ends them all (the face's rank_share::abort says
// why).

#include <exception>
#include <utility>

#include "nqueens/ranks.hpp"

namespace nq::engine {

/// Ends every rank because of `error`: the face's abort, else exit 4.
[[noreturn]] inline void end_ranks(const rank_share& ranks, const std::exception& error) {
  if (ranks.abort) ranks.abort(error);
  abort_ranks(ranks, 4);
}

/// `work()`; where it throws under mpirun, every rank ended (alone, or another rank's
/// failure, the exception passes through).
template <class Work>
auto shared_work(const rank_share& ranks, Work&& work) {
  try {
    return std::forward<Work>(work)();
  } catch (const other_rank_failed&) {
    throw;
  } catch (const std::exception& error) {
    if (!ranks.world) throw;
    end_ranks(ranks, error);
  }
}

}  // namespace nq::engine
