#pragma once
// MPI for the life of the process, when mpirun/mpiexec started it. No MPI types here: the rest
// of the code talks to the other ranks through cluster::channel.

#include <memory>

#include "cluster/channel.hpp"

namespace nq::mpi {

/// @brief Whether mpirun or mpiexec started this process (Open MPI's OMPI_COMM_WORLD_SIZE, or
/// PMIX_RANK / PMI_RANK of other launchers). Only then is MPI initialised, so that a plain run
/// neither pays for MPI nor changes.
bool launched();

/// @brief MPI initialised (threads: serialized, one at a time) for as long as it lives, with
/// errors returned rather than fatal; its channel is MPI_COMM_WORLD. Finalises MPI when it
/// ends. Throws resource_error when MPI cannot start.
class world {
 public:
  world(int& argc, char**& argv);
  world(const world&) = delete;
  world& operator=(const world&) = delete;
  ~world();
  /// @brief This process's end of MPI_COMM_WORLD.
  cluster::channel& channel() { return *channel_; }

 private:
  std::unique_ptr<cluster::channel> channel_;
};

}  // namespace nq::mpi
