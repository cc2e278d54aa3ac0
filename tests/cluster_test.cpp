// The protocols of a count and a batch shared by ranks, with the ranks played by threads over
// in-process channels (cluster::memory_world): the same code mpirun runs, here in every build and
// under the sanitizers, without MPI.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "cpu/frame_engine.hpp"
#include "cluster/batch_share.hpp"
#include "cluster/count_cluster.hpp"
#include "cluster/count_protocol.hpp"
#include "cluster/start_gate.hpp"
#include "nqueens/batch.hpp"
#include "oeis.hpp"
#include "scratch.hpp"

namespace nq {
namespace {

using test::a000170;
using test::a002562;

/// A count on `ranks` ranks, rank r counting with engines(r): rank 0 here, the others on
/// threads.
struct shared_count {
  count_result result;
  std::vector<cluster::rank_report> reports;
};

/// With `stop_after`, the stop is raised once that many frames have finished, on any rank:
/// a stop midway whatever the machine's load.
shared_count count_with_engines(int n, int ranks,
                                const std::function<cluster::rank_engines(int)>& engines,
                                const std::string& checkpoint = "",
                                std::atomic<bool>* stop = nullptr, std::uint64_t stop_after = 0) {
  auto world = cluster::memory_world(ranks);
  std::vector<std::thread> others;
  for (int r = 1; r < ranks; ++r)
    others.emplace_back(
        [&, r] { cluster::serve_count(*world[static_cast<std::size_t>(r)], n, engines(r), nullptr); });
  std::atomic<bool> own_stop{false};
  std::atomic<bool>* raised = stop ? stop : &own_stop;
  shared_count out;
  {
    const cluster::rank_engines mine = engines(0);
    cluster::count_leader leader(*world[0], n, mine, raised);
    count_settings settings;
    settings.threads = mine.threads;
    settings.checkpoint = checkpoint;
    settings.checkpoint_interval = 0.01;
    settings.stop = raised;
    const slice_counter_fn shared = leader.counter();
    settings.slice_counters = {[&](const std::vector<std::uint32_t>& indices,
                                   const std::atomic<bool>* halt, const auto& finished) {
      std::uint64_t seen = 0;
      shared(indices, halt, [&](std::span<const finished_subproblem> done) {
        finished(done);
        if (stop_after && (seen += done.size()) >= stop_after) raised->store(true);
      });
    }};
    settings.slice_frames = true;
    settings.slice_size = UINT32_MAX;
    out.result = count_solutions(n, settings);
    out.reports = leader.finish();
  }
  for (auto& t : others) t.join();
  return out;
}

/// A count on `ranks` ranks of `threads` CPU threads each.
shared_count count_on_ranks(int n, int ranks, unsigned threads, const std::string& checkpoint = "",
                            std::atomic<bool>* stop = nullptr, std::uint64_t stop_after = 0) {
  return count_with_engines(
      n, ranks,
      [&](int) {
        return cluster::rank_engines{threads, {}, "auto"};
      },
      checkpoint, stop, stop_after);
}

/// GPUs played by the CPU, as the frame counter's launch behaves to its caller: a batch of
/// frames counted one after another, reported a few at a time by their position in the batch,
/// given up once stopped, each frame taking at least `per_frame`. Records every batch it was
/// given.
class played_gpus {
 public:
  explicit played_gpus(int n, std::chrono::microseconds per_frame = {})
      : n_(n),
        per_frame_(per_frame),
        frames_(n >= 4 ? detail::canonical_frames(n) : decltype(frames_){}) {}
  slice_counter_fn gpu() {
    return [this](const std::vector<std::uint32_t>& batch, const std::atomic<bool>* stop,
                  const std::function<void(std::span<const finished_subproblem>)>& finished) {
      {
        const std::lock_guard lock(mutex_);
        batches_.push_back(batch);
      }
      detail::frame_counter counter(n_, detail::choose_frame_kernels("auto"));
      std::vector<finished_subproblem> done;
      for (std::uint32_t p = 0; p < batch.size(); ++p) {
        ASSERT_LT(batch[p], frames_.size());
        std::this_thread::sleep_for(per_frame_);
        const auto tally = detail::count_frame(n_, frames_[batch[p]], counter, stop);
        if (!tally) break;
        done.push_back({p, *tally});
        if (done.size() == 3) finished(done), done.clear();
      }
      if (!done.empty()) finished(done);
    };
  }
  std::vector<std::vector<std::uint32_t>> batches() const {
    const std::lock_guard lock(mutex_);
    return batches_;
  }
  std::uint64_t frames_given() const {
    std::uint64_t total = 0;
    for (const auto& b : batches()) total += b.size();
    return total;
  }

 private:
  int n_;
  std::chrono::microseconds per_frame_;
  std::vector<detail::canonical_frame> frames_;
  mutable std::mutex mutex_;
  std::vector<std::vector<std::uint32_t>> batches_;
};

TEST(SharedCount, OneTwoAndThreeRanksGiveTheOeisCounts) {
  for (int ranks = 1; ranks <= 3; ++ranks)
    for (int n = 4; n <= 12; ++n) {
      const shared_count c = count_on_ranks(n, ranks, 1);
      EXPECT_EQ(c.result.solutions, a000170[n - 1]) << "n=" << n << " ranks=" << ranks;
      EXPECT_EQ(c.result.unique, a002562[n - 1]) << "n=" << n << " ranks=" << ranks;
      EXPECT_TRUE(c.result.complete);
      ASSERT_EQ(c.reports.size(), static_cast<std::size_t>(ranks));
      std::uint64_t frames = 0, solutions = 0;
      for (const auto& r : c.reports) {
        EXPECT_TRUE(r.answered);
        frames += r.subproblems;
        solutions += r.solutions;
      }
      EXPECT_EQ(frames, c.result.subproblems) << "every frame counted once, by one rank";
      EXPECT_EQ(solutions, c.result.solutions);
    }
}

TEST(SharedCount, TooSmallForFramesStillEndsEveryRank) {
  for (int n = 1; n <= 3; ++n) {
    const shared_count c = count_on_ranks(n, 3, 1);
    EXPECT_EQ(c.result.solutions, n == 1 ? 1u : 0u);
    EXPECT_EQ(c.reports.size(), 3u);
  }
}

TEST(SharedCount, EveryRankCountsAtN14) {
  // Rank 0 on a slow played GPU, so that it cannot count everything before the others say
  // hello; ranks 1 and 2 on two threads each.
  played_gpus slow(14, std::chrono::microseconds(200));
  const shared_count c = count_with_engines(14, 3, [&](int r) {
    return r == 0 ? cluster::rank_engines{0, {slow.gpu()}, "auto"} : cluster::rank_engines{2, {}, "auto"};
  });
  EXPECT_EQ(c.result.solutions, a000170[13]);
  EXPECT_EQ(c.result.unique, a002562[13]);
  for (const auto& r : c.reports) {
    EXPECT_EQ(r.threads, r.rank == 0 ? 0u : 2u);
    EXPECT_GT(r.subproblems, 0u) << "rank " << r.rank << " counted nothing";
  }
  EXPECT_GT(c.reports[1].messages_sent, 0u);
  EXPECT_GT(c.reports[0].bytes_sent, 0u);
}

/// Runs `count(checkpoint, stop, 20)` (n = 17), which stops once 20 frames have finished, then
/// resumes the checkpoint with a plain count: the published totals, from exactly the frames the
/// stopped count finished. The stopped count's result.
shared_count stop_then_resume(
    const std::function<shared_count(const std::string&, std::atomic<bool>*, std::uint64_t)>&
        count) {
  test::scratch_dir dir;
  const std::string path = (dir / "ck.json").string();
  std::atomic<bool> stop{false};
  const shared_count stopped = count(path, &stop, 20);
  EXPECT_FALSE(stopped.result.complete) << "finished before the stop";
  count_settings plain;
  plain.threads = 2;
  plain.checkpoint = path;
  const count_result resumed = count_solutions(17, plain);
  EXPECT_EQ(resumed.resumed, stopped.result.subproblems_done);
  EXPECT_EQ(resumed.solutions, a000170[16]);
  EXPECT_EQ(resumed.unique, a002562[16]);
  return stopped;
}

// A stop midway: the checkpoint keeps what finished on every rank; a plain count resumes it.
// n = 17: about a second on 3 threads, long enough to be stopped midway (n = 16 was not).
TEST(SharedCount, AStoppedCountResumesWithoutRanks) {
  stop_then_resume([](const std::string& path, std::atomic<bool>* stop, std::uint64_t after) {
    return count_on_ranks(17, 3, 1, path, stop, after);
  });
}

// A plain count's checkpoint, resumed by ranks.
TEST(SharedCount, APlainCheckpointResumesOnRanks) {
  test::scratch_dir dir;
  const std::string path = (dir / "ck.json").string();
  count_settings part;
  part.checkpoint = path;
  part.max_subproblems = 200;
  ASSERT_FALSE(count_solutions(13, part).complete);
  const shared_count c = count_on_ranks(13, 2, 1, path);
  EXPECT_EQ(c.result.resumed, 200u);
  EXPECT_EQ(c.result.solutions, a000170[12]);
  EXPECT_EQ(c.result.unique, a002562[12]);
}

// A rank stopped on its own (its signal) stops the whole count.
TEST(SharedCount, ARankStoppedAloneStopsEveryRank) {
  auto world = cluster::memory_world(2);
  std::atomic<bool> rank_stop{true};  // stopped from the start
  std::thread other([&] {
    cluster::serve_count(*world[1], 16, cluster::rank_engines{1, {}, "auto"}, &rank_stop);
  });
  std::atomic<bool> stop{false};
  cluster::count_leader leader(*world[0], 16, cluster::rank_engines{1, {}, "auto"}, &stop);
  count_settings settings;
  settings.stop = &stop;
  settings.slice_counters = {leader.counter()};
  settings.slice_frames = true;
  settings.slice_size = UINT32_MAX;
  const count_result result = count_solutions(16, settings);
  leader.finish();
  other.join();
  EXPECT_TRUE(stop.load());
  EXPECT_FALSE(result.complete);
}

// Every rank on its GPUs alone (--device gpu): one or two each, on one to three ranks.
TEST(SharedCount, GpusAloneOnEveryRankGiveTheOeisCounts) {
  for (int ranks = 1; ranks <= 3; ++ranks)
    for (const unsigned per_rank : {1u, 2u})
      for (int n = 4; n <= 12; n += 2) {
        played_gpus gpus(n);
        const shared_count c = count_with_engines(n, ranks, [&](int) {
          cluster::rank_engines e{0, {}, "auto"};
          for (unsigned g = 0; g < per_rank; ++g) e.gpus.push_back(gpus.gpu());
          return e;
        });
        const std::string where = "n=" + std::to_string(n) + " ranks=" + std::to_string(ranks) +
                                  " gpus=" + std::to_string(per_rank);
        EXPECT_EQ(c.result.solutions, a000170[n - 1]) << where;
        EXPECT_EQ(c.result.unique, a002562[n - 1]) << where;
        ASSERT_TRUE(c.result.complete) << where;
        EXPECT_EQ(gpus.frames_given(), c.result.subproblems) << where << ": no frame twice";
        ASSERT_EQ(c.reports.size(), static_cast<std::size_t>(ranks));
        std::uint64_t frames = 0;
        for (const auto& r : c.reports) {
          EXPECT_EQ(r.threads, 0u) << where;
          EXPECT_EQ(r.gpus, per_rank) << where;
          frames += r.subproblems;
        }
        EXPECT_EQ(frames, c.result.subproblems) << where;
      }
}

// A GPU takes frames in batches of at most gpu_batch; beside CPU threads (--device all) both
// count, on every rank.
TEST(SharedCount, GpusTakeBatchesBesideTheThreads) {
  constexpr int n = 16, ranks = 2;
  std::vector<std::unique_ptr<played_gpus>> by_rank;
  // Slow GPUs, so that each rank's thread surely finds frames beside them.
  for (int r = 0; r < ranks; ++r)
    by_rank.push_back(std::make_unique<played_gpus>(n, std::chrono::microseconds(100)));
  const shared_count c = count_with_engines(n, ranks, [&](int r) {
    return cluster::rank_engines{1, {by_rank[static_cast<std::size_t>(r)]->gpu()}, "auto"};
  });
  EXPECT_EQ(c.result.solutions, a000170[n - 1]);
  EXPECT_EQ(c.result.unique, a002562[n - 1]);
  const std::uint64_t frames = detail::canonical_frames(n).size();
  const std::uint64_t most = cluster::protocol::gpu_batch(frames, ranks);
  ASSERT_GT(most, 1u);
  for (int r = 0; r < ranks; ++r) {
    const auto batches = by_rank[static_cast<std::size_t>(r)]->batches();
    ASSERT_FALSE(batches.empty()) << "rank " << r << "'s GPU counted nothing";
    std::size_t largest = 0;
    for (const auto& b : batches) {
      EXPECT_LE(b.size(), most) << "rank " << r;
      largest = std::max(largest, b.size());
    }
    EXPECT_GT(largest, 1u) << "rank " << r << ": frames one by one, not in batches";
    const cluster::rank_report& report = c.reports[static_cast<std::size_t>(r)];
    EXPECT_EQ(report.threads, 1u);
    EXPECT_EQ(report.gpus, 1u);
    EXPECT_GT(report.subproblems, by_rank[static_cast<std::size_t>(r)]->frames_given())
        << "rank " << r << "'s CPU thread counted nothing beside its GPU";
  }
}

// A stop while GPUs count: the checkpoint keeps what they finished; a plain count resumes it.
TEST(SharedCount, AStopWhileGpusCountResumesExactly) {
  played_gpus gpus(17);
  const shared_count stopped =
      stop_then_resume([&](const std::string& path, std::atomic<bool>* stop, std::uint64_t after) {
        return count_with_engines(
            17, 2,
            [&](int) {
              return cluster::rank_engines{0, {gpus.gpu()}, "auto"};
            },
            path, stop, after);
      });
  // Stopped after 20 frames, with batches of hundreds in the GPUs' hands.
  EXPECT_LT(stopped.result.subproblems_done, gpus.frames_given())
      << "the frames in the GPUs' hands when stopped stay unfinished";
}

// Every rank's GPUs get frames: rank 0 keeps a batch per GPU in flight on each rank. Slow GPUs,
// so that rank 0's own cannot count everything before the others say hello.
TEST(SharedCount, EveryRanksGpusCount) {
  played_gpus gpus(14, std::chrono::microseconds(200));
  const shared_count c = count_with_engines(14, 3, [&](int) {
    return cluster::rank_engines{0, {gpus.gpu(), gpus.gpu()}, "auto"};
  });
  EXPECT_EQ(c.result.solutions, a000170[13]);
  for (const auto& r : c.reports) {
    EXPECT_EQ(r.gpus, 2u);
    EXPECT_GT(r.subproblems, 0u) << "rank " << r.rank << "'s GPUs counted nothing";
  }
}

// A resumed count's frames left are spread over every rank's GPU too: the batches are sized
// from what is left, not from the whole count.
TEST(SharedCount, AResumedCountSpreadsWhatIsLeft) {
  test::scratch_dir dir;
  const std::string path = (dir / "ck.json").string();
  const std::uint64_t frames = detail::canonical_frames(16).size(), left = 300;
  count_settings part;
  part.checkpoint = path;
  part.max_subproblems = frames - left;
  ASSERT_FALSE(count_solutions(16, part).complete);
  played_gpus gpus(16, std::chrono::microseconds(500));
  const shared_count c = count_with_engines(
      16, 2,
      [&](int) {
        return cluster::rank_engines{0, {gpus.gpu()}, "auto"};
      },
      path);
  EXPECT_EQ(c.result.solutions, a000170[15]);
  EXPECT_EQ(c.result.resumed, frames - left);
  for (const auto& r : c.reports) EXPECT_GT(r.subproblems, 0u) << "rank " << r.rank;
  for (const auto& b : gpus.batches())
    EXPECT_LE(b.size(), cluster::protocol::gpu_batch(left, 2)) << "a batch sized from the whole count";
}

// A machine's GPUs split among its ranks.
TEST(LocalShare, RanksOnOneMachineSplitItsGpus) {
  const std::vector<int> four{0, 1, 2, 3};
  EXPECT_EQ(cluster::local_share_of_gpus(four, 0, 1), four);
  EXPECT_EQ(cluster::local_share_of_gpus(four, 0, 2), (std::vector<int>{0, 2}));
  EXPECT_EQ(cluster::local_share_of_gpus(four, 1, 2), (std::vector<int>{1, 3}));
  for (int r = 0; r < 4; ++r) EXPECT_EQ(cluster::local_share_of_gpus(four, r, 4), std::vector<int>{r});
  EXPECT_EQ(cluster::local_share_of_gpus({0, 1, 2}, 1, 2), std::vector<int>{1});
  EXPECT_EQ(cluster::local_share_of_gpus({0, 1, 2}, 0, 2), (std::vector<int>{0, 2}));
  EXPECT_EQ(cluster::local_share_of_gpus({5, 7}, 2, 3), std::vector<int>{5});  // fewer GPUs: shared
  EXPECT_EQ(cluster::local_share_of_gpus({5}, 1, 4), std::vector<int>{5});
  EXPECT_TRUE(cluster::local_share_of_gpus({}, 1, 2).empty());
  for (int size = 1; size <= 5; ++size) {  // every GPU taken by some rank
    std::vector<int> taken;
    for (int r = 0; r < size; ++r)
      for (const int g : cluster::local_share_of_gpus(four, r, size)) taken.push_back(g);
    std::sort(taken.begin(), taken.end());
    taken.erase(std::unique(taken.begin(), taken.end()), taken.end());
    EXPECT_EQ(taken, four) << size << " ranks";
  }
}

TEST(BatchShare, SharesCoverTheRunsInOrder) {
  for (const std::uint64_t runs : {1u, 2u, 3u, 10u, 1000u, 1001u})
    for (int ranks = 1; ranks <= 5; ++ranks) {
      std::uint64_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const cluster::run_share s = cluster::share_of(runs, r, ranks);
        EXPECT_EQ(s.first, next);
        EXPECT_LE(s.count, runs / ranks + 1);
        next += s.count;
      }
      EXPECT_EQ(next, runs);
    }
}

/// The shares of a batch run one after another, each as a rank would run it.
std::vector<cluster::batch_part> run_in_shares(index_t n, const local_search_settings& algorithm,
                                            batch_settings settings, int ranks) {
  std::vector<cluster::batch_part> parts;
  const std::uint64_t runs = settings.runs;
  for (int r = 0; r < ranks; ++r) {
    const cluster::run_share share = cluster::share_of(runs, r, ranks);
    cluster::batch_part part;
    part.requested = share.count;
    settings.first_run = share.first;
    settings.runs = share.count;
    settings.tally = &part.tally;
    const batch_stats stats = run_batch(n, algorithm, settings);
    part.runs = stats.runs;
    part.interrupted = stats.interrupted;
    // Through the wire format, as the parts travel.
    parts.push_back(cluster::unpack_part(cluster::pack_part(part)));
  }
  return parts;
}

TEST(BatchShare, MergedSharesHaveTheStatisticsOfTheWholeBatch) {
  local_search_settings algorithm;
  algorithm.algorithm = local_algorithm::hc_restart;
  batch_settings settings;
  settings.runs = 3001;
  settings.seed = 42;
  settings.threads = 2;
  const batch_stats whole = run_batch(12, algorithm, settings);
  const batch_stats merged = cluster::merge_parts(run_in_shares(12, algorithm, settings, 3));
  EXPECT_EQ(merged.runs, whole.runs);
  EXPECT_EQ(merged.solved, whole.solved);
  EXPECT_EQ(merged.success_rate, whole.success_rate);
  EXPECT_EQ(merged.success_low, whole.success_low);
  EXPECT_EQ(merged.success_high, whole.success_high);
  EXPECT_EQ(merged.success.mean, whole.success.mean);
  EXPECT_EQ(merged.success.median, whole.success.median);
  EXPECT_EQ(merged.failure.mean, whole.failure.mean);
  EXPECT_EQ(merged.failure.median, whole.failure.median);
  EXPECT_EQ(merged.failure.max, whole.failure.max);
  EXPECT_EQ(merged.restarts, whole.restarts);
  EXPECT_FALSE(merged.interrupted);
}

TEST(BatchShare, AnInterruptedShareEndsThePrefix) {
  std::vector<cluster::batch_part> parts(3);
  for (auto& p : parts) {
    p.requested = 10;
    p.runs = 10;
    for (int i = 0; i < 10; ++i) p.tally.failure.add(5);
  }
  parts[1].runs = 4;
  parts[1].interrupted = true;
  parts[1].tally = {};
  for (int i = 0; i < 4; ++i) parts[1].tally.success.add(3);
  const batch_stats merged = cluster::merge_parts(parts);
  EXPECT_TRUE(merged.interrupted);
  EXPECT_EQ(merged.runs, 14u);  // share 0 whole, then share 1's prefix; share 2 left out
  EXPECT_EQ(merged.solved, 4u);
}

TEST(BatchShare, GatherHandsRank0EveryPartAndRecordInOrder) {
  auto world = cluster::memory_world(3);
  std::vector<std::uint64_t> seen;
  std::vector<std::thread> others;
  for (int r = 1; r < 3; ++r)
    others.emplace_back([&, r] {
      cluster::channel& mine = *world[static_cast<std::size_t>(r)];
      ASSERT_TRUE(cluster::agree(mine, false));
      cluster::batch_part part;
      part.requested = part.runs = 2;
      std::vector<std::uint64_t> records;
      for (int i = 0; i < 2; ++i) {
        chain_outcome run;
        run.steps = static_cast<std::uint64_t>(10 * r + i);
        part.tally.add(run);
        cluster::pack_record(run, records);
      }
      cluster::gather_parts(mine, part, records, [](std::uint64_t, const auto&) {});
      EXPECT_FALSE(cluster::agree(mine, true));
    });
  ASSERT_TRUE(cluster::agree(*world[0], true));
  cluster::batch_part mine;
  mine.requested = mine.runs = 1;
  mine.tally.failure.add(1);
  const auto parts = cluster::gather_parts(
      *world[0], mine, {}, [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
        for (std::size_t i = 0; i < runs.size(); ++i) {
          EXPECT_EQ(first + i, 1 + seen.size());
          seen.push_back(runs[i].steps);
        }
      });
  cluster::agree(*world[0], false);
  for (auto& t : others) t.join();
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].tally.failure.nth(1), 21u);
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{10, 11, 20, 21}));
}

// A stop can leave a share with fewer records than runs (slices it kept from starting). Rank 0
// takes what that rank has, and no records from the ranks after it (the merge leaves them out:
// the runs written must stay 0..k-1); none of them waits forever.
TEST(BatchShare, GatherAfterAStopTakesTheCutShareAndNoLaterOne) {
  auto world = cluster::memory_world(4);
  std::vector<std::thread> others;
  for (int r = 1; r < 4; ++r)
    others.emplace_back([&, r] {
      cluster::batch_part part;
      part.requested = 5;
      part.runs = r == 2 ? 2 : 5;  // rank 2's stop came after two runs, before its last slice
      part.interrupted = r == 2;
      std::vector<std::uint64_t> records;
      for (std::uint64_t i = 0; i < part.runs; ++i) {
        chain_outcome run;
        run.steps = 100 * static_cast<std::uint64_t>(r) + i;
        part.tally.add(run);
        cluster::pack_record(run, records);
      }
      cluster::gather_parts(*world[static_cast<std::size_t>(r)], part, records,
                         [](std::uint64_t, const auto&) {});
    });
  cluster::batch_part mine;
  mine.requested = mine.runs = 5;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;  // (run, steps)
  const auto parts = cluster::gather_parts(
      *world[0], mine, {}, [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
        for (std::size_t i = 0; i < runs.size(); ++i) seen.emplace_back(first + i, runs[i].steps);
      });
  for (auto& t : others) t.join();
  ASSERT_EQ(parts.size(), 4u);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected{
      {5, 100}, {6, 101}, {7, 102}, {8, 103}, {9, 104}, {10, 200}, {11, 201}};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(cluster::merge_parts(parts).runs, 12u);
}

/// Every rank at the gate with `codes[r]` (0: ready): the verdict each rank got.
std::vector<cluster::start_verdict> gate(const std::vector<int>& codes) {
  const int ranks = static_cast<int>(codes.size());
  auto world = cluster::memory_world(ranks);
  std::vector<cluster::start_verdict> verdicts(codes.size());
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      const auto i = static_cast<std::size_t>(r);
      verdicts[i] = cluster::pass_start_gate(*world[i], codes[i],
                                          codes[i] ? "rank " + std::to_string(r) + " failed" : "");
    });
  for (auto& t : threads) t.join();
  return verdicts;
}

// Either every rank starts or none does, and every rank hears the same failure: rank 0's own
// if it failed (it is the one the user would see alone), else the lowest failing rank's.
TEST(StartGate, EveryRankStartsOrNoneWithOneFailure) {
  struct gate_case {
    std::vector<int> codes;
    int code, rank;
  };
  const gate_case cases[] = {{{0}, 0, 0},          {{0, 0, 0}, 0, 0}, {{0, 0, 3}, 3, 2},
                             {{0, 2, 3}, 2, 1},    {{4, 2, 3}, 4, 0}, {{0, 0, 0, 0, 1}, 1, 4},
                             {{0, 3, 0, 2}, 3, 1}, {{2}, 2, 0}};
  for (const auto& c : cases) {
    const auto verdicts = gate(c.codes);
    for (std::size_t r = 0; r < verdicts.size(); ++r) {
      SCOPED_TRACE("ranks " + std::to_string(c.codes.size()) + ", rank " + std::to_string(r));
      EXPECT_EQ(verdicts[r].code, c.code);
      if (c.code == 0) continue;
      EXPECT_EQ(verdicts[r].rank, c.rank);
      EXPECT_EQ(verdicts[r].what, "rank " + std::to_string(c.rank) + " failed");
    }
  }
  // A long message arrives whole, byte for byte.
  auto world = cluster::memory_world(2);
  std::string long_text(1001, 'x');
  long_text[1000] = '!';
  cluster::start_verdict at_0;
  std::thread other([&] { cluster::pass_start_gate(*world[1], 3, long_text); });
  at_0 = cluster::pass_start_gate(*world[0], 0, "");
  other.join();
  EXPECT_EQ(at_0.what, long_text);
  EXPECT_TRUE(cluster::start_gate_passed());
}

}  // namespace
}  // namespace nq
