// The one file that includes <mpi.h>: MPI_COMM_WORLD as a cluster::channel.

#include "mpi/mpi_world.hpp"

// The C interface alone: the deprecated C++ bindings would need a library of their own.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdlib>
#include <string>

#include "nqueens/error.hpp"
#include "nqueens/ranks.hpp"

namespace nq::mpi {
namespace {

std::string describe(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

class mpi_channel final : public cluster::channel {
 public:
  mpi_channel() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // The ranks that share this machine's memory, and so its GPUs.
    MPI_Comm node = MPI_COMM_NULL;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node) ==
            MPI_SUCCESS &&
        node != MPI_COMM_NULL) {
      MPI_Comm_rank(node, &local_rank_);
      MPI_Comm_size(node, &local_size_);
      MPI_Comm_free(&node);
    }
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  [[noreturn]] void abort_all(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
  }

 protected:
  void post(int to, int tag, std::span<const std::uint64_t> words) override {
    // MPI_Send copies small messages out at once; larger ones (batch records) wait for the
    // receiver, which is always listening.
    const int code = MPI_Send(words.data(), static_cast<int>(words.size()), MPI_UINT64_T, to, tag,
                              MPI_COMM_WORLD);
    if (code != MPI_SUCCESS)
      throw resource_error("cannot send to MPI rank " + std::to_string(to) + ": " + describe(code));
  }
  std::optional<cluster::message> poll() override {
    int arrived = 0;
    MPI_Status status;
    int code = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
    if (code != MPI_SUCCESS) throw resource_error("MPI failed: " + describe(code));
    if (!arrived) return std::nullopt;
    int words = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &words);
    cluster::message got{status.MPI_SOURCE, status.MPI_TAG,
                      std::vector<std::uint64_t>(static_cast<std::size_t>(words))};
    code = MPI_Recv(got.words.data(), words, MPI_UINT64_T, status.MPI_SOURCE, status.MPI_TAG,
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (code != MPI_SUCCESS)
      throw resource_error("cannot receive from MPI rank " + std::to_string(status.MPI_SOURCE) +
                           ": " + describe(code));
    return got;
  }

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;  // without the split: as if alone on the machine
  int local_size_ = 1;
};

}  // namespace

bool launched() { return launched_by_mpirun(); }

world::world(int& argc, char**& argv) {
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    throw resource_error("MPI could not start");
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw resource_error(
        "this MPI cannot be called from more than one thread (not even one at "
        "a time); nqueens needs MPI_THREAD_SERIALIZED");
  }
  // A lost peer becomes an exception, so rank 0 can still save what has finished.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  channel_ = std::make_unique<mpi_channel>();
  cluster::process_world() = channel_.get();
}

world::~world() {
  cluster::process_world() = nullptr;
  channel_.reset();
  MPI_Finalize();
}

}  // namespace nq::mpi

namespace nq {

struct rank_world::state {
  state(int& argc, char**& argv) : world(argc, argv) {}
  mpi::world world;
};

rank_world::rank_world(int& argc, char**& argv) : state_(std::make_unique<state>(argc, argv)) {}

rank_world::~rank_world() = default;

}  // namespace nq
