#pragma once
// Messages between the processes that share a count or a batch (the ranks of mpirun): rank 0
// hands out work and merges the results, the others work. An interface without MPI types, so
// that the protocols (count_cluster, batch_share) build everywhere and are tested over threads
// (memory_channel) as well as over MPI (src/mpi/mpi_world).

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <vector>

namespace nq::cluster {

/// @brief One message: who sent it, its kind, and its payload in 64-bit words.
struct message {
  int source = 0;
  int tag = 0;
  std::vector<std::uint64_t> words;
};

/// @brief The traffic one endpoint sent and received (payload bytes, envelopes not counted).
struct traffic {
  std::uint64_t messages_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t messages_received = 0;
  std::uint64_t bytes_received = 0;
};

/// @brief How long a waiting rank sleeps between looks at its inbox. A blocking MPI receive
/// spins a core; on a machine with as many ranks as cores that core is a counting thread's.
inline constexpr std::chrono::microseconds poll_period{250};

/// @brief One process's end of the world of ranks. Used by one thread at a time.
class channel {
 public:
  virtual ~channel() = default;
  /// @brief This process's rank, 0 to size() - 1.
  virtual int rank() const = 0;
  /// @brief How many ranks there are.
  virtual int size() const = 0;
  /// @brief This process's place among the ranks on its own machine, 0 to local_size() - 1
  /// (for sharing the machine's GPUs).
  virtual int local_rank() const = 0;
  /// @brief How many ranks run on this machine.
  virtual int local_size() const = 0;

  /// @brief Sends `words` to rank `to`; returns once they are on their way. Throws
  /// resource_error when the peer cannot be reached.
  void send(int to, int tag, std::span<const std::uint64_t> words) {
    post(to, tag, words);
    ++traffic_.messages_sent;
    traffic_.bytes_sent += words.size_bytes();
  }
  /// @brief The next message that has arrived, from any rank, or none; never waits.
  std::optional<message> try_receive() {
    std::optional<message> got = poll();
    if (got) {
      ++traffic_.messages_received;
      traffic_.bytes_received += got->words.size() * sizeof(std::uint64_t);
    }
    return got;
  }
  /// @brief The next message, waiting for it at most `limit` (sleeping between looks).
  std::optional<message> receive_within(std::chrono::steady_clock::duration limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
      if (auto got = try_receive()) return got;
      if (std::chrono::steady_clock::now() >= until) return std::nullopt;
      std::this_thread::sleep_for(poll_period);
    }
  }
  /// @brief The next message, however long it takes.
  message receive() {
    for (;;)
      if (auto got = receive_within(std::chrono::hours(1))) return std::move(*got);
  }
  /// @brief What this endpoint has sent and received so far.
  const traffic& counted() const { return traffic_; }
  /// @brief Ends every rank at once, with `code`: for a rank that fails while the others wait
  /// for it.
  [[noreturn]] virtual void abort_all(int code) = 0;

 protected:
  virtual void post(int to, int tag, std::span<const std::uint64_t> words) = 0;
  virtual std::optional<message> poll() = 0;

 private:
  traffic traffic_;
};

/// @brief The world this process shares its work with (set by main under mpirun), or null: this
/// process works alone.
inline channel*& process_world() {
  static channel* world = nullptr;
  return world;
}

/// @brief `size` connected endpoints in this process, one per rank, for tests: ranks played by
/// threads. Each endpoint may be used by its own thread.
std::vector<std::unique_ptr<channel>> memory_world(int size);

}  // namespace nq::cluster
