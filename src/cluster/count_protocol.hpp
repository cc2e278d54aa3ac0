#pragma once
// What rank 0 and the other ranks of a shared count agree on (count_cluster.hpp has the
// messages): the tags, the pieces messages are sent in, and how many frames a rank holds.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "cluster/channel.hpp"
#include "cluster/count_cluster.hpp"
#include "nqueens/error.hpp"

namespace nq::cluster::protocol {

enum count_tag : int { tag_hello = 1, tag_assign, tag_report, tag_end, tag_final };

using clock = std::chrono::steady_clock;

inline double seconds_between(clock::time_point from, clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

inline std::uint64_t nanoseconds(double seconds) {
  return static_cast<std::uint64_t>(seconds * 1e9);
}

/// Frames one GPU takes in a launch, at most, of a count of `frames` frames (those left, when
/// resumed): a few hundred frames give it thousands of pieces (frame_pieces.hpp), while a
/// quarter of a rank's share of the count keeps the last frames spread over every rank. Rank 0
/// keeps a batch per GPU in flight (frames_in_flight), and a rank's GPUs share what it holds
/// (take_for_gpu).
inline std::uint64_t gpu_batch(std::uint64_t frames, int ranks) {
  return std::clamp<std::uint64_t>(frames / (4 * static_cast<std::uint64_t>(std::max(ranks, 1))),
                                   16, 1024);
}

/// Frames a rank may hold: per CPU thread one in hand and one waiting, and one more, so that a
/// thread that finishes finds its next frame there while the report travels to rank 0; per GPU
/// a batch, which is refilled frame by frame as the launch reports them, so that the next
/// launch finds its batch waiting.
inline std::uint64_t frames_in_flight(unsigned threads, unsigned gpus, std::uint64_t batch) {
  return (threads ? 2 * std::uint64_t{threads} + 1 : 0) + gpus * batch;
}

/// Frames one of a rank's `gpus` GPUs takes from the `queued` it holds: an even share, so that
/// its other GPUs find theirs, and never more than `most`.
inline std::size_t take_for_gpu(std::size_t queued, unsigned gpus, std::uint64_t most) {
  const std::size_t share = (queued + std::max(gpus, 1u) - 1) / std::max(gpus, 1u);
  return static_cast<std::size_t>(std::min<std::uint64_t>(share, most));
}

/// The CPU threads a rank counts with: as asked, and at least one when it has no GPU.
inline unsigned counting_threads(const rank_engines& engines) {
  return engines.gpus.empty() ? std::max(1u, engines.threads) : engines.threads;
}

/// Counts `batch` in one launch of `gpu`: `heard(done, busy, now)` hears each report (`done`,
/// by position in the batch) with the seconds since the launch or the report before, and, once
/// the launch returns, nothing with the seconds since the last report. A launch that returns
/// without reporting every frame while `*halt` is down is an error.
template <class Heard>
void count_batch(const slice_counter_fn& gpu, const std::vector<std::uint32_t>& batch,
                 const std::atomic<bool>* halt, Heard heard) {
  auto since = clock::now();
  std::size_t reported = 0;
  gpu(batch, halt, [&](std::span<const finished_subproblem> done) {
    for (const finished_subproblem& f : done)
      NQ_EXPECTS(f.position < batch.size(), "a GPU reports the frames of its batch");
    reported += done.size();
    const auto now = clock::now();
    heard(done, seconds_between(since, now), now);
    since = now;
  });
  const auto now = clock::now();
  heard(std::span<const finished_subproblem>{}, seconds_between(since, now), now);
  NQ_EXPECTS(reported == batch.size() || halt->load(),
             "a GPU reports every frame of its batch unless stopped");
}

/// Words a message of the count may hold: 2 KiB, under every MPI transport's eager limit (4 KiB
/// for Open MPI's shared memory), so that a send never waits for its receiver. Rank 0 sending
/// an assign while a rank sends it a report would otherwise wait on each other, with hundreds of
/// threads a rank.
constexpr std::size_t piece_words = 255;  // a multiple of 3: a report is (frame, solutions, unique)

inline void send_in_pieces(channel& world, int to, int tag, std::span<const std::uint64_t> words) {
  for (std::size_t at = 0; at < words.size(); at += piece_words)
    world.send(to, tag, words.subspan(at, std::min(piece_words, words.size() - at)));
}

}  // namespace nq::cluster::protocol
