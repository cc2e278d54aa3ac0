// The ranks as the faces see them (nqueens/ranks.hpp), over the cluster's channel and gate.

#include "nqueens/ranks.hpp"

#include <cstdio>
#include <cstdlib>

#include "cluster/channel.hpp"
#include "cluster/start_gate.hpp"

namespace nq {

bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

int rank_share::rank() const { return world ? world->rank() : 0; }

int rank_share::size() const { return world ? world->size() : 1; }

rank_share process_ranks() {
  rank_share ranks;
  ranks.world = cluster::process_world();
  return ranks;
}

start_verdict meet_ranks_at_start(const rank_share& ranks, int code, const std::string& what) {
  if (!ranks.world) return start_verdict{code, 0, what};
  return cluster::pass_start_gate(*ranks.world, code, what);
}

bool start_gate_passed() { return cluster::start_gate_passed(); }

void abort_ranks(const rank_share& ranks, int code) {
  if (ranks.world) ranks.world->abort_all(code);
  std::abort();
}

int end_among_ranks(const rank_share& ranks, int code, const std::string& what,
                    const std::function<void(int rank, const std::string& text)>& say) {
  const bool failed = !what.empty();
  if (!ranks.shared()) {
    if (failed) say(0, what);
    return code;
  }
  if (!start_gate_passed()) {
    try {
      const start_verdict verdict = meet_ranks_at_start(ranks, failed ? code : 0, what);
      if (ranks.leader() && verdict.code) say(verdict.rank, verdict.what);
      return verdict.code ? verdict.code : code;
    } catch (const std::exception& e) {
      say(ranks.rank(), e.what());
      std::fflush(stderr);
      abort_ranks(ranks, 4);
    }
  }
  if (!failed) return code;
  say(ranks.rank(), what);
  if (!ranks.leader()) {
    std::fflush(stderr);
    abort_ranks(ranks, code);
  }
  return code;
}

}  // namespace nq
