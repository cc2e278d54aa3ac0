#pragma once
// A count shared by the ranks of a world (mpirun): rank 0 runs count_solutions with one slice
// counter, the leader's, which hands the slice's frames out biggest first to every rank's
// threads (its own included) and merges what they finish; the checkpoint, the progress and the
// stop stay count_solutions' own, on rank 0 alone. The other ranks serve: they count the frames
// they are sent until rank 0 ends the count.
//
// Every rank counts with its CPU threads, a frame at a time, and its GPUs, a batch of frames a
// launch (up to cluster::protocol::gpu_batch), which they report frame by frame as it runs.
//
// Messages (64-bit words):
//   hello  r -> 0  [threads, gpus]                    a rank is ready
//   assign 0 -> r  [frame index]...                   frames to count
//   report r -> 0  [frame index, solutions, unique eighths]...   frames finished
//   end    0 -> r  []                                 drop what is in hand, say goodbye
//   final  r -> 0  [frames, busy ns, idle-at-end ns, threads, messages sent, bytes sent]
//                  (busy and idle: the mean over the rank's threads and GPUs)
// A rank stopped by a signal reports what it finished, says final and waits for end; a final
// that comes before end stops the whole count.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cluster/channel.hpp"
#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"

namespace nq::cluster {

/// @brief What a rank counts with.
struct rank_engines {
  unsigned threads = 1;  ///< CPU threads, each counting a frame at a time (0: its GPUs alone)
  /// One per GPU, each called from a thread of its own with a batch of frame indices (the
  /// canonical frames' order), reporting them by their position in the batch.
  std::vector<slice_counter_fn> gpus;
  std::string simd = "auto";  ///< the CPU threads' frame kernels
};

/// @brief What one rank did in a count (nqueens/engine.hpp).
using rank_report = nq::count_rank;

/// @brief The GPUs of `gpus` (a machine's, in order) that the rank `local_rank` of the
/// `local_size` ranks on that machine counts on: every local_size-th one from its own place, so
/// that the ranks split the GPUs; with fewer GPUs than ranks, one each, ranks sharing them in
/// turn.
std::vector<int> local_share_of_gpus(const std::vector<int>& gpus, int local_rank, int local_size);

/// @brief Rank 0's side of a shared count.
class count_leader {
 public:
  /// `raise_stop`: the count's stop (count_settings::stop), raised when another rank was
  /// stopped, so that every rank stops.
  count_leader(channel& world, int n, rank_engines engines, std::atomic<bool>* raise_stop);
  ~count_leader();  // ends the other ranks if finish() was not called (an error)
  count_leader(const count_leader&) = delete;
  count_leader& operator=(const count_leader&) = delete;

  /// @brief The slice counter for count_settings::slice_counters (with slice_frames).
  slice_counter_fn counter();
  /// @brief Ends every other rank once the count has returned; every rank's report, by rank.
  std::vector<rank_report> finish();

 private:
  class state;
  std::unique_ptr<state> state_;
};

/// @brief Another rank's side: counts the frames rank 0 sends with `engines` until rank 0 ends
/// the count. `stop` (a signal) stops this rank early; rank 0 then stops the count.
void serve_count(channel& world, int n, const rank_engines& engines, const std::atomic<bool>* stop);

}  // namespace nq::cluster
