// Shares of a batch and their exact merge (batch_share.hpp).

#include "cluster/batch_share.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "nqueens/error.hpp"

namespace nq::cluster {
namespace {

enum tag : int { tag_verdict = 20, tag_part, tag_send, tag_records };

/// Runs per records message: 2 MiB, well under MPI's int count.
constexpr std::size_t records_per_message = 1 << 16;

void pack_histogram(const step_histogram& h, std::vector<std::uint64_t>& words) {
  const auto counts = h.counts();
  words.push_back(counts.size());
  for (const auto& [steps, runs] : counts) words.insert(words.end(), {steps, runs});
}

class reader {
 public:
  explicit reader(std::span<const std::uint64_t> words) : words_(words) {}
  std::uint64_t next() {
    if (at_ >= words_.size()) throw std::logic_error("a batch part ends early");
    return words_[at_++];
  }
  void histogram(step_histogram& h) {
    const std::uint64_t entries = next();
    if (entries > words_.size()) throw std::logic_error("a batch part is malformed");
    for (std::uint64_t i = 0; i < entries; ++i) {
      const std::uint64_t steps = next();
      h.add(steps, next());
    }
  }
  bool done() const { return at_ == words_.size(); }

 private:
  std::span<const std::uint64_t> words_;
  std::size_t at_ = 0;
};

message expect(channel& world, int tag, int source) {
  message got = world.receive();
  if (got.tag != tag || got.source != source)
    throw std::logic_error("rank " + std::to_string(world.rank()) + " expected message " +
                           std::to_string(tag) + " from rank " + std::to_string(source) + ", got " +
                           std::to_string(got.tag) + " from rank " + std::to_string(got.source));
  return got;
}

}  // namespace

run_share share_of(std::uint64_t runs, int rank, int ranks) {
  NQ_EXPECTS(ranks >= 1 && rank >= 0 && rank < ranks, "a rank of the world");
  const std::uint64_t r = static_cast<std::uint64_t>(rank), k = static_cast<std::uint64_t>(ranks);
  const std::uint64_t base = runs / k, extra = runs % k;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

std::vector<std::uint64_t> pack_part(const batch_part& part) {
  std::vector<std::uint64_t> words{part.requested,
                                   part.runs,
                                   part.interrupted ? 1u : 0u,
                                   std::bit_cast<std::uint64_t>(part.seconds),
                                   std::bit_cast<std::uint64_t>(part.kernel_seconds),
                                   part.threads,
                                   part.tally.restarts};
  pack_histogram(part.tally.success, words);
  pack_histogram(part.tally.failure, words);
  return words;
}

batch_part unpack_part(std::span<const std::uint64_t> words) {
  reader in(words);
  batch_part part;
  part.requested = in.next();
  part.runs = in.next();
  part.interrupted = in.next() != 0;
  part.seconds = std::bit_cast<double>(in.next());
  part.kernel_seconds = std::bit_cast<double>(in.next());
  part.threads = static_cast<unsigned>(in.next());
  part.tally.restarts = in.next();
  in.histogram(part.tally.success);
  in.histogram(part.tally.failure);
  if (!in.done() || part.runs > part.requested ||
      part.tally.success.runs() + part.tally.failure.runs() != part.runs)
    throw std::logic_error("a batch part is malformed");
  return part;
}

batch_stats merge_parts(const std::vector<batch_part>& parts) {
  batch_tally tally;
  std::uint64_t runs = 0;
  bool interrupted = false;
  for (const batch_part& part : parts) {
    tally.merge(part.tally);
    runs += part.runs;
    // The whole batch's finished prefix ends inside this share: later ones are left out.
    if (part.interrupted || part.runs < part.requested) {
      interrupted = true;
      break;
    }
  }
  return batch_statistics(tally, runs, interrupted);
}

void pack_record(const chain_outcome& run, std::vector<std::uint64_t>& words) {
  const std::uint64_t flags =
      (run.solved ? 1u : 0u) | (run.stopped ? 2u : 0u) | (run.interrupted ? 4u : 0u);
  words.insert(words.end(), {flags, static_cast<std::uint64_t>(run.cost), run.steps, run.restarts});
}

chain_outcome unpack_record(std::span<const std::uint64_t, 4> words) {
  chain_outcome run;
  run.solved = words[0] & 1u;
  run.stopped = words[0] & 2u;
  run.interrupted = words[0] & 4u;
  run.cost = static_cast<index_t>(words[1]);
  run.steps = words[2];
  run.restarts = words[3];
  return run;
}

bool agree(channel& world, bool go_on) {
  if (world.rank() != 0) return expect(world, tag_verdict, 0).words.at(0) != 0;
  for (int r = 1; r < world.size(); ++r)
    world.send(r, tag_verdict, std::vector<std::uint64_t>{go_on ? 1u : 0u});
  return go_on;
}

std::vector<batch_part> gather_parts(
    channel& world, const batch_part& mine, const std::vector<std::uint64_t>& my_records,
    const std::function<void(std::uint64_t first, const std::vector<chain_outcome>&)>& records) {
  if (world.rank() != 0) {
    world.send(0, tag_part, pack_part(mine));
    if (records && mine.requested > 0 && expect(world, tag_send, 0).words.at(0) != 0) {
      // A stop can leave fewer records than runs (slices it kept from starting): what there
      // is, then an empty message to end them.
      const std::size_t count = std::min<std::size_t>(my_records.size(), 4 * mine.requested);
      for (std::size_t at = 0; at < count; at += 4 * records_per_message) {
        const std::size_t end = std::min(count, at + 4 * records_per_message);
        world.send(0, tag_records, std::span(my_records).subspan(at, end - at));
      }
      world.send(0, tag_records, {});
    }
    return {};
  }
  std::vector<batch_part> parts(static_cast<std::size_t>(world.size()));
  std::vector<char> arrived(parts.size(), 0);
  parts[0] = mine;
  for (int missing = world.size() - 1; missing > 0; --missing) {
    message got = world.receive();
    if (got.tag != tag_part || arrived[static_cast<std::size_t>(got.source)])
      throw std::logic_error("rank 0 expected batch parts, got message " + std::to_string(got.tag) +
                             " from rank " + std::to_string(got.source));
    arrived[static_cast<std::size_t>(got.source)] = 1;
    parts[static_cast<std::size_t>(got.source)] = unpack_part(got.words);
  }
  if (!records) return parts;
  // The records the merge describes: every share up to the first one a stop cut short
  // (merge_parts), so that the runs written stay 0..k-1 with no gap; later ranks are told to keep
  // theirs.
  const auto cut = [](const batch_part& p) { return p.interrupted || p.runs < p.requested; };
  bool needed = !cut(mine);
  std::uint64_t start = mine.requested;  // rank r's first run
  for (int r = 1; r < world.size(); ++r) {
    const batch_part& part = parts[static_cast<std::size_t>(r)];
    std::uint64_t first = start;
    start += part.requested;
    if (part.requested > 0) world.send(r, tag_send, std::vector<std::uint64_t>{needed ? 1u : 0u});
    for (std::uint64_t left = part.requested; needed && part.requested > 0;) {
      const message got = expect(world, tag_records, r);
      if (got.words.empty()) break;
      if (got.words.size() % 4 != 0 || got.words.size() / 4 > left)
        throw std::logic_error("rank " + std::to_string(r) + " sent malformed records");
      std::vector<chain_outcome> runs;
      for (std::size_t at = 0; at < got.words.size(); at += 4)
        runs.push_back(unpack_record(std::span<const std::uint64_t, 4>(got.words.data() + at, 4)));
      records(first, runs);
      first += runs.size();
      left -= runs.size();
    }
    needed = needed && !cut(part);
  }
  return parts;
}

}  // namespace nq::cluster
