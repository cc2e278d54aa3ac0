#pragma once
// A batch shared by the ranks of a world (mpirun): rank r runs a contiguous share of the runs,
// with the same (seed, run) streams as one process would, and rank 0 merges the shares' exact
// tallies into the statistics of the whole.
//
// Messages (64-bit words), for each batch (each point of a sweep):
//   verdict  0 -> r  [go on]        after each batch (no stop): every rank goes on, or none
//                                   (before the first, the ranks meet at the start gate)
//   part     r -> 0  batch_part     the share's tally, finished runs and timings
//   send     0 -> r  [wanted]       with --runs-csv: rank 0 is ready for r's records (0: they
//                                   follow a share a stop cut short, and are not written)
//   records  r -> 0  [4 words a run]...  the share's records, in run order, in pieces, then
//                                   an empty one (a stop can leave fewer than the share's runs)
// Rank 0 asks for records one rank at a time, so that no rank blocks in a large send.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cluster/channel.hpp"
#include "nqueens/batch.hpp"

namespace nq::cluster {

/// @brief Runs first..first + count - 1 of a batch: one rank's share.
struct run_share {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

/// @brief Rank `rank`'s share of `runs` runs among `ranks`: contiguous, in rank order, the
/// first runs % ranks ranks one run more.
run_share share_of(std::uint64_t runs, int rank, int ranks);

/// @brief What one rank's share came to.
struct batch_part {
  batch_tally tally;            ///< of the runs it describes
  std::uint64_t requested = 0;  ///< runs in the share
  std::uint64_t runs = 0;       ///< the share's finished prefix (all of it unless interrupted)
  bool interrupted = false;
  double seconds = 0.0;
  double kernel_seconds = 0.0;
  unsigned threads = 0;
};

std::vector<std::uint64_t> pack_part(const batch_part& part);
/// @brief Throws std::logic_error when the words are not a packed part.
batch_part unpack_part(std::span<const std::uint64_t> words);

/// @brief The statistics of the whole batch, from every rank's part in rank order: the shares
/// before the first one interrupted, and that one's finished prefix, i.e. runs 0..k-1 of the
/// whole, as one process would describe them. Timings and threads are left to the caller.
batch_stats merge_parts(const std::vector<batch_part>& parts);

/// @brief A run's record as four words, and back.
void pack_record(const chain_outcome& run, std::vector<std::uint64_t>& words);
chain_outcome unpack_record(std::span<const std::uint64_t, 4> words);

/// @brief Rank 0 tells every other rank whether to go on, and they wait to hear it (sleeping):
/// the value rank 0 gave, on every rank.
bool agree(channel& world, bool go_on);

/// @brief After a batch: the other ranks send rank 0 their part and, when `records` is set,
/// their share's records (`my_records`, packed). On rank 0, every part in rank order (`mine`
/// first), the others' records handed to `records` rank by rank in run order; on the others,
/// an empty list.
std::vector<batch_part> gather_parts(
    channel& world, const batch_part& mine, const std::vector<std::uint64_t>& my_records,
    const std::function<void(std::uint64_t first, const std::vector<chain_outcome>&)>& records);

}  // namespace nq::cluster
