#pragma once
/// @file
/// Ranks: under mpirun, the processes that share a count, a batch or a sweep. The engine shares
/// the work among them (src/cluster, over src/mpi); a face joins the world when it starts
/// (rank_world), puts `process_ranks()` on its request, and, when it ends before its work
/// starts, meets the others at the start gate so that no rank waits for one that has gone.

#include <exception>
#include <functional>
#include <memory>
#include <string>

namespace nq {

namespace cluster {
class channel;
}

/// @brief Whether mpirun or mpiexec started this process (Open MPI's OMPI_COMM_WORLD_SIZE, or
/// PMIX_RANK / PMI_RANK of other launchers). Built without MPI: false.
bool launched_by_mpirun();

/// @brief MPI for the life of the process (a build with MPI, started by mpirun), its world the
/// process's ranks (process_ranks). Throws resource_error when MPI cannot start.
class rank_world {
 public:
  rank_world(int& argc, char**& argv);
  rank_world(const rank_world&) = delete;
  rank_world& operator=(const rank_world&) = delete;
  ~rank_world();

 private:
  struct state;
  std::unique_ptr<state> state_;
};

/// @brief This process's place among the ranks that share a request's work.
struct rank_share {
  cluster::channel* world = nullptr;  ///< the ranks (src/cluster/channel.hpp); null: alone
  /// Once the ranks have met, a failure on one leaves the others waiting for it: the engine
  /// calls this with the failure, and it must end every rank (it does not return; the command
  /// line says the failure and ends them with its exit code). Unset: every rank ends with 4.
  std::function<void(const std::exception&)> abort;

  int rank() const;  ///< 0 alone
  int size() const;  ///< 1 alone
  bool leader() const { return rank() == 0; }
  bool shared() const { return size() > 1; }
};

/// @brief The ranks this process shares its work with: the world rank_world joined, else alone.
rank_share process_ranks();

/// @brief What the ranks agreed at the start gate.
struct start_verdict {
  int code = 0;      ///< 0: every rank is ready; else the exit code of every rank
  int rank = 0;      ///< whose failure it is: rank 0's own if it failed, else the lowest rank's
  std::string what;  ///< that rank's message
};

/// @brief Thrown on a rank that was ready when another was not.
class other_rank_failed : public std::exception {
 public:
  explicit other_rank_failed(start_verdict verdict) : verdict_(std::move(verdict)) {}
  const char* what() const noexcept override { return verdict_.what.c_str(); }
  const start_verdict& verdict() const { return verdict_; }

 private:
  start_verdict verdict_;
};

/// @brief For a rank that ends, or fails, before its request's work started: meets the others at
/// the start gate with `code` (0: it ended well) and its message. Every rank gets rank 0's
/// verdict.
start_verdict meet_ranks_at_start(const rank_share& ranks, int code, const std::string& what);

/// @brief Whether this process has passed the start gate (its request's work began).
bool start_gate_passed();

/// @brief Ends every rank at once with `code`, for a rank that fails while others wait for it.
[[noreturn]] void abort_ranks(const rank_share& ranks, int code);

/// @brief How a command ends among the ranks, with its exit code and, for a failure, `what`
/// (empty: it ended without one: help, no solution); `say(rank, text)` writes one line. Alone:
/// says the failure, returns `code`. Under mpirun, before the start gate: meets the others
/// there, rank 0 saying the first failure of any rank, and returns the verdict's code (or
/// `code` when every rank was ready); past it: says this rank's failure, and a rank other than
/// 0 ends every rank, since the others may be waiting for it.
int end_among_ranks(const rank_share& ranks, int code, const std::string& what,
                    const std::function<void(int rank, const std::string& text)>& say);

}  // namespace nq
