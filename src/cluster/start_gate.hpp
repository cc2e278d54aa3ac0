#pragma once
// Under mpirun every rank reads the command line and makes its own preparations (memory, GPU,
// outputs) before any rank waits for another. The start gate is where they meet: each says
// whether it is ready, and then either every rank starts or none does, with one message for
// the user, from rank 0. Without the gate, a rank that failed alone left the others waiting
// for it forever.
//
// Messages (64-bit words): ready r -> 0 [code, text]; verdict 0 -> r [code, rank, text].

#include <string>

#include "cluster/channel.hpp"
#include "nqueens/ranks.hpp"

namespace nq::cluster {

using nq::other_rank_failed;  // nqueens/ranks.hpp
using nq::start_verdict;

/// @brief Every rank calls this once, before its first other message; `code` 0 is ready, else
/// the exit code of this rank's failure and `what` its message. Rank 0 hears from every rank,
/// then tells each the verdict. Marks the gate passed.
start_verdict pass_start_gate(channel& world, int code, const std::string& what);

/// @brief Whether this process has passed the gate.
bool start_gate_passed();

/// @brief For a command, once its rank is ready: passes the gate, or throws other_rank_failed.
void start_together(channel& world);

}  // namespace nq::cluster
