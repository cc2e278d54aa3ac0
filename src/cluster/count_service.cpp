// The other ranks' side of a shared count (count_cluster.hpp): frames from rank 0 wait in a
// queue, biggest first; the GPUs take batches (an even share each) from its big end, the CPU
// threads single frames (from its small end when there are GPUs, which then get the bigger
// frames this rank holds, as in a count on one machine with --device all), and what they
// finish goes back to rank 0 in reports.

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>

#include "core/worker_threads.hpp"
#include "cpu/frame_engine.hpp"
#include "cluster/count_cluster.hpp"
#include "cluster/count_protocol.hpp"
#include "nqueens/error.hpp"

namespace nq::cluster {
namespace {

using protocol::clock;
using protocol::seconds_between;

/// One rank's frames and its engines' figures, shared by its engines and its message loop.
struct rank_work {
  rank_work(unsigned engines, clock::time_point start) : busy(engines, 0.0), last(engines, start) {}

  std::mutex mutex;  // guards everything below but halt
  std::condition_variable work, news;
  std::deque<std::uint32_t> queue;  // frames sent, not yet taken: biggest first
  std::vector<std::uint64_t> done;  // report words not yet sent
  std::atomic<bool> halt{false};
  std::exception_ptr failure;
  std::vector<double> busy;             // by engine: the CPU threads, then the GPUs
  std::vector<clock::time_point> last;  // by engine: when it last finished a frame
  std::uint64_t frames_done = 0;

  /// Waits for frames (or the halt) and takes `how_many(queued)` of them (at least one), from
  /// the big end or the small; none once halted.
  template <class HowMany>
  std::vector<std::uint32_t> take(HowMany how_many, bool big_end) {
    std::unique_lock lock(mutex);
    work.wait(lock, [&] { return halt.load() || !queue.empty(); });
    std::vector<std::uint32_t> taken;
    if (halt) return taken;
    const std::size_t most = std::max<std::size_t>(1, how_many(queue.size()));
    while (taken.size() < most && !queue.empty()) {
      taken.push_back(big_end ? queue.front() : queue.back());
      big_end ? queue.pop_front() : queue.pop_back();
    }
    return taken;
  }
  /// Records a finished frame (under the lock).
  void record(std::uint32_t index, const count_tally& tally) {
    done.insert(done.end(), {index, tally.solutions, tally.unique_eighths});
    ++frames_done;
  }
  void fail() {
    const std::lock_guard lock(mutex);
    if (!failure) failure = std::current_exception();
    halt = true;
    news.notify_one();
  }
};

void cpu_engine(rank_work& w, unsigned e, int n, detail::frame_counter& counter,
                const std::vector<detail::canonical_frame>& frames, bool small_end) {
  try {
    for (;;) {
      const std::vector<std::uint32_t> one = w.take([](std::size_t) { return 1; }, !small_end);
      if (one.empty()) return;
      const auto began = clock::now();
      const std::optional<count_tally> tally =
          detail::count_frame(n, frames[one[0]], counter, &w.halt);
      if (!tally) return;
      const auto now = clock::now();
      {
        const std::lock_guard lock(w.mutex);
        w.record(one[0], *tally);
        w.busy[e] += seconds_between(began, now);
        w.last[e] = now;
      }
      w.news.notify_one();
    }
  } catch (...) {
    w.fail();
  }
}

void gpu_engine(rank_work& w, unsigned e, const slice_counter_fn& gpu, unsigned gpus,
                std::uint64_t most) {
  try {
    for (;;) {
      const std::vector<std::uint32_t> batch = w.take(
          [&](std::size_t queued) { return protocol::take_for_gpu(queued, gpus, most); }, true);
      if (batch.empty()) return;
      protocol::count_batch(gpu, batch, &w.halt, [&](auto done, double busy, auto now) {
        {
          const std::lock_guard lock(w.mutex);
          for (const finished_subproblem& f : done) w.record(batch[f.position], f.tally);
          w.busy[e] += busy;
          if (!done.empty()) w.last[e] = now;
        }
        w.news.notify_one();
      });
    }
  } catch (...) {
    w.fail();
  }
}

}  // namespace

std::vector<int> local_share_of_gpus(const std::vector<int>& gpus, int local_rank, int local_size) {
  NQ_EXPECTS(local_size >= 1 && local_rank >= 0 && local_rank < local_size,
             "a local rank among the machine's ranks");
  if (gpus.empty() || local_size == 1) return gpus;
  const auto ranks = static_cast<std::size_t>(local_size),
             mine = static_cast<std::size_t>(local_rank);
  if (gpus.size() < ranks) return {gpus[mine % gpus.size()]};
  std::vector<int> share;
  for (std::size_t g = mine; g < gpus.size(); g += ranks) share.push_back(gpus[g]);
  return share;
}

void serve_count(channel& world, int n, const rank_engines& engines,
                 const std::atomic<bool>* stop) {
  const unsigned threads = protocol::counting_threads(engines);
  const auto gpus = static_cast<unsigned>(engines.gpus.size());
  const detail::frame_kernels& kernels = detail::choose_frame_kernels(engines.simd);
  // Oriented as each is taken (count_frame): no start-up cost on this rank.
  const std::vector<detail::canonical_frame> frames =
      n >= 4 ? detail::canonical_frames(n) : std::vector<detail::canonical_frame>{};
  // Rank 0 sizes the batches from the frames left (a resume has fewer) and keeps no more in
  // flight here; this bound, from all of them, is never the smaller.
  const std::uint64_t most = protocol::gpu_batch(frames.size(), world.size());
  const auto start = clock::now();
  world.send(0, protocol::tag_hello, std::vector<std::uint64_t>{threads, gpus});

  rank_work w(threads + gpus, start);
  std::vector<detail::frame_counter> counters;
  counters.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) counters.emplace_back(n, kernels);
  detail::worker_threads workers(threads + gpus, [&](unsigned e) {
    if (e < threads)
      cpu_engine(w, e, n, counters[e], frames, gpus > 0);
    else
      gpu_engine(w, e, engines.gpus[e - threads], gpus, most);
  });

  bool ended = false, stopped = false, said_final = false;
  clock::time_point end = start;
  // Whatever fails here (a bad message, a lost rank 0), the engines are halted before their
  // join, or they would wait for work forever.
  try {
    for (;;) {
      while (auto got = world.try_receive()) {
        NQ_EXPECTS(got->source == 0, "only rank 0 writes to the other ranks");
        if (got->tag == protocol::tag_end) {
          ended = true;
        } else if (got->tag == protocol::tag_assign) {
          const std::lock_guard lock(w.mutex);
          for (const std::uint64_t index : got->words) {
            NQ_EXPECTS(index < frames.size(), "rank 0 sends frames that exist");
            w.queue.push_back(static_cast<std::uint32_t>(index));
          }
          w.work.notify_all();
        } else {
          throw std::logic_error("unknown message tag " + std::to_string(got->tag));
        }
      }
      if (!stopped && (ended || w.halt.load() || (stop && stop->load()))) {
        stopped = true;
        end = clock::now();
        {
          const std::lock_guard lock(w.mutex);
          w.halt = true;
        }
        w.work.notify_all();
        workers.join();
      }
      std::vector<std::uint64_t> report;
      {
        const std::lock_guard lock(w.mutex);
        report.swap(w.done);
      }
      protocol::send_in_pieces(world, 0, protocol::tag_report, report);
      if (stopped && !said_final) {
        if (w.failure) std::rethrow_exception(w.failure);
        double busy_sum = 0.0, idle_sum = 0.0;
        for (std::size_t e = 0; e < w.busy.size(); ++e) {
          busy_sum += w.busy[e];
          idle_sum += seconds_between(w.last[e], end);
        }
        const double engines_count = static_cast<double>(w.busy.size());
        const traffic& sent = world.counted();
        const std::vector<std::uint64_t> final_words{
            w.frames_done,
            protocol::nanoseconds(busy_sum / engines_count),
            protocol::nanoseconds(idle_sum / engines_count),
            threads,
            sent.messages_sent + 1,
            sent.bytes_sent + 6 * sizeof(std::uint64_t)};
        world.send(0, protocol::tag_final, final_words);
        said_final = true;
      }
      if (ended && said_final) return;
      std::unique_lock lock(w.mutex);
      w.news.wait_for(lock, poll_period);
    }
  } catch (...) {
    {
      const std::lock_guard lock(w.mutex);
      w.halt = true;
    }
    w.work.notify_all();
    throw;
  }
}

}  // namespace nq::cluster
