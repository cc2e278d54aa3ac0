#pragma once
// Under mpirun every rank reads the command line and makes its own preparations (memory, GPU,
// outputs) before any rank waits for another. The start gate is where they meet: each says
// whether it is ready, and then either every rank starts or none does, with one message for
// the user, from rank 0. Without the gate, a rank that failed alone left the others waiting
// for it forever.
//
// Messages (64-bit words): ready r -> 0 [code, text]; verdict 0 -> r [code, rank, text].

#include <exception>
#include <string>

#include "cluster/channel.hpp"

namespace nq::cluster {

/// @brief What the ranks agreed at the gate.
struct start_verdict {
  int code = 0;      ///< 0: every rank is ready; else the exit code of every rank
  int rank = 0;      ///< whose failure it is: rank 0's own if it failed, else the lowest rank's
  std::string what;  ///< that rank's message
};

/// @brief Every rank calls this once, before its first other message; `code` 0 is ready, else
/// the exit code of this rank's failure and `what` its message. Rank 0 hears from every rank,
/// then tells each the verdict. Marks the gate passed.
start_verdict pass_start_gate(channel& world, int code, const std::string& what);

/// @brief Whether this process has passed the gate.
bool start_gate_passed();

/// @brief Thrown on a rank that was ready when another was not.
class other_rank_failed : public std::exception {
 public:
  explicit other_rank_failed(start_verdict verdict) : verdict_(std::move(verdict)) {}
  const char* what() const noexcept override { return verdict_.what.c_str(); }
  const start_verdict& verdict() const { return verdict_; }

 private:
  start_verdict verdict_;
};

/// @brief For a command, once its rank is ready: passes the gate, or throws other_rank_failed.
void start_together(channel& world);

}  // namespace nq::cluster
