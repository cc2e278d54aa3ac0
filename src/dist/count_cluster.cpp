// The leader's hand-out and the other ranks' service (count_cluster.hpp). Every waiting thread
// sleeps between looks at its inbox, so that a rank's counting threads keep their cores.

#include "dist/count_cluster.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <span>

#include "core/worker_threads.hpp"
#include "cpu/frame_engine.hpp"
#include "nqueens/error.hpp"

namespace nq::dist {
namespace {

enum tag : int { tag_hello = 1, tag_assign, tag_report, tag_end, tag_final };

using clock = std::chrono::steady_clock;

/// How long rank 0 waits for the others' goodbyes when the count stops: mpirun kills the
/// processes 1 s after it forwards a SIGTERM, and the checkpoint must be saved before that.
constexpr auto stop_answer_limit = std::chrono::milliseconds(600);
/// At the normal end every rank is idle and answers at once; a lost one ends the job anyway.
constexpr auto end_answer_limit = std::chrono::seconds(60);

double seconds_between(clock::time_point from, clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

std::uint64_t nanoseconds(double seconds) { return static_cast<std::uint64_t>(seconds * 1e9); }

/// Frames a rank may hold: one in hand and one waiting per thread, and one more, so that a
/// thread that finishes finds its next frame there while the report travels to rank 0.
std::uint64_t frames_in_flight(unsigned threads) { return 2 * std::uint64_t{threads} + 1; }

/// Words a message of the count may hold: 2 KiB, under every MPI transport's eager limit (4 KiB
/// for Open MPI's shared memory), so that a send never waits for its receiver. Rank 0 sending
/// an assign while a rank sends it a report would otherwise wait on each other, with hundreds of
/// threads a rank.
constexpr std::size_t piece_words = 255;  // a multiple of 3: a report is (frame, solutions, unique)

void send_in_pieces(channel& world, int to, int tag, std::span<const std::uint64_t> words) {
  for (std::size_t at = 0; at < words.size(); at += piece_words)
    world.send(to, tag, words.subspan(at, std::min(piece_words, words.size() - at)));
}

}  // namespace

class count_leader::state {
 public:
  state(channel& world, int n, unsigned threads, const std::string& simd,
        std::atomic<bool>* raise_stop)
      : world_(world),
        n_(n),
        threads_(std::max(1u, threads)),
        kernels_(detail::choose_frame_kernels(simd)),
        raise_stop_(raise_stop),
        ranks_(static_cast<std::size_t>(world.size())),
        busy_(threads_, 0.0),
        last_(threads_, clock::now()) {
    for (std::size_t r = 0; r < ranks_.size(); ++r) ranks_[r].report.rank = static_cast<int>(r);
    ranks_[0].ready = true;
    ranks_[0].report.threads = threads_;
  }

  void count_slice(const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
                   const std::function<void(std::span<const finished_subproblem>)>& finished) {
    const auto frames = detail::oriented_frames(n_);
    // However this returns, the slice's pointers (to the caller's objects) go with it: the
    // destructor's end_quietly still reads the reports.
    struct forget_slice {
      slice_state& slice;
      ~forget_slice() { slice = {}; }
    } forget{slice_};
    slice_.indices = &indices;
    slice_.position.assign(frames->size(), UINT32_MAX);
    slice_.reported.assign(indices.size(), 0);
    for (std::size_t p = 0; p < indices.size(); ++p)
      slice_.position[indices[p]] = static_cast<std::uint32_t>(p);
    slice_.finished = &finished;
    slice_.count = 0;
    next_ = 0;
    local_halt_ = false;
    {
      std::vector<detail::frame_counter> counters;
      counters.reserve(threads_);
      for (unsigned t = 0; t < threads_; ++t) counters.emplace_back(n_, kernels_);
      detail::worker_threads workers(
          threads_, [&](unsigned t) { local_work(t, counters[t], indices, *frames); });
      try {
        drive(stop);
      } catch (...) {
        halt_local();
        throw;
      }
      halt_local();
      workers.join();
    }
    end_ = clock::now();
    counted_ = true;
    flush();
    if (failure_) std::rethrow_exception(failure_);
    if (ending_) end_ranks(stop_answer_limit);
  }

  std::vector<rank_report> finish() {
    if (!counted_) end_ = clock::now();
    ending_ = true;
    end_ranks(end_answer_limit);
    rank_report& mine = ranks_[0].report;
    double busy = 0.0, idle = 0.0;
    for (unsigned t = 0; t < threads_; ++t) {
      busy += busy_[t];
      idle += seconds_between(last_[t], end_);
    }
    mine.busy_seconds = busy / threads_;
    mine.idle_at_end_seconds = idle / threads_;
    mine.messages_sent = world_.counted().messages_sent;
    mine.bytes_sent = world_.counted().bytes_sent;
    std::vector<rank_report> reports;
    for (const auto& r : ranks_) reports.push_back(r.report);
    return reports;
  }

  /// For the destructor after an error: every other rank told to end, briefly waited for.
  void end_quietly() noexcept {
    try {
      ending_ = true;
      end_ranks(stop_answer_limit);
    } catch (...) {  // nothing more to do: the error that got us here is what the user sees
    }
  }

  bool ended() const { return all_ended_; }

 private:
  struct rank_state {
    rank_report report;
    bool ready = false;     ///< said hello
    bool told_end = false;  ///< sent end
    bool said_final = false;
    std::uint64_t in_flight = 0;  ///< frames sent and not yet reported
  };
  struct slice_state {
    const std::vector<std::uint32_t>* indices = nullptr;
    std::vector<std::uint32_t> position;  ///< by frame index: its position in the slice
    std::vector<char> reported;           ///< by position
    const std::function<void(std::span<const finished_subproblem>)>* finished = nullptr;
    std::size_t count = 0;  ///< positions reported
  };

  /// This rank's threads: the next frame of the slice, biggest first, as the others'.
  void local_work(unsigned t, detail::frame_counter& counter,
                  const std::vector<std::uint32_t>& indices,
                  const std::vector<detail::canonical_frame>& frames) {
    try {
      for (;;) {
        std::uint32_t position = 0;
        {
          const std::lock_guard lock(mutex_);
          if (local_halt_ || next_ >= indices.size()) return;
          position = static_cast<std::uint32_t>(next_++);
        }
        const auto start = clock::now();
        const std::optional<count_tally> tally =
            detail::count_frame(n_, frames[indices[position]], counter, &local_halt_);
        if (!tally) return;  // stopped midway: the frame stays unfinished
        const auto now = clock::now();
        {
          const std::lock_guard lock(mutex_);
          pending_.push_back({position, *tally});
          busy_[t] += seconds_between(start, now);
          last_[t] = now;
          ++ranks_[0].report.subproblems;
          ranks_[0].report.solutions += tally->solutions;
        }
        changed_.notify_one();
      }
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      local_halt_ = true;
      changed_.notify_one();
    }
  }

  void halt_local() {
    {
      const std::lock_guard lock(mutex_);
      local_halt_ = true;
    }
    changed_.notify_all();
  }

  /// Until the slice is reported whole, or the count stops.
  void drive(const std::atomic<bool>* stop) {
    for (;;) {
      while (auto got = world_.try_receive()) handle(*got);
      refill();
      flush();
      {
        const std::lock_guard lock(mutex_);
        if (failure_) return;
      }
      if (slice_.count == slice_.indices->size()) return;
      if (ending_ || (stop && stop->load(std::memory_order_relaxed))) {
        ending_ = true;
        return;
      }
      std::unique_lock lock(mutex_);
      changed_.wait_for(lock, poll_period);
    }
  }

  /// Tops up every ready rank to frames_in_flight, from the big end of what is left.
  void refill() {
    if (ending_) return;
    for (std::size_t r = 1; r < ranks_.size(); ++r) {
      rank_state& rank = ranks_[r];
      if (!rank.ready || rank.said_final) continue;
      std::vector<std::uint64_t> frames;
      {
        const std::lock_guard lock(mutex_);
        while (rank.in_flight + frames.size() < frames_in_flight(rank.report.threads) &&
               next_ < slice_.indices->size())
          frames.push_back((*slice_.indices)[next_++]);
      }
      if (frames.empty()) continue;
      rank.in_flight += frames.size();
      send_in_pieces(world_, static_cast<int>(r), tag_assign, frames);
    }
  }

  void handle(const message& got) {
    NQ_EXPECTS(got.source > 0 && got.source < static_cast<int>(ranks_.size()),
               "messages come from the other ranks");
    rank_state& rank = ranks_[static_cast<std::size_t>(got.source)];
    const auto& w = got.words;
    switch (got.tag) {
      case tag_hello:
        NQ_EXPECTS(w.size() == 1 && w[0] >= 1, "hello says how many threads");
        rank.ready = true;
        rank.report.threads = static_cast<unsigned>(w[0]);
        return;
      case tag_report: {
        NQ_EXPECTS(w.size() % 3 == 0, "a report lists frames, three words each");
        if (!slice_.indices) {  // after a failure ended the slice: left for the resume
          rank.in_flight -= std::min<std::uint64_t>(rank.in_flight, w.size() / 3);
          return;
        }
        const std::lock_guard lock(mutex_);
        for (std::size_t i = 0; i < w.size(); i += 3) {
          NQ_EXPECTS(w[i] < slice_.position.size() && slice_.position[w[i]] != UINT32_MAX,
                     "a rank reports frames of the slice");
          const std::uint32_t position = slice_.position[w[i]];
          NQ_EXPECTS(!slice_.reported[position] && rank.in_flight > 0,
                     "a rank reports each frame it was sent once");
          pending_.push_back({position, count_tally{w[i + 1], w[i + 2]}});
          --rank.in_flight;
          ++rank.report.subproblems;
          rank.report.solutions += w[i + 1];
        }
        return;
      }
      case tag_final:
        NQ_EXPECTS(w.size() == 6, "a goodbye carries six figures");
        rank.said_final = true;
        rank.report.busy_seconds = static_cast<double>(w[1]) * 1e-9;
        rank.report.idle_at_end_seconds = static_cast<double>(w[2]) * 1e-9;
        rank.report.threads = static_cast<unsigned>(w[3]);
        rank.report.messages_sent = w[4];
        rank.report.bytes_sent = w[5];
        if (!ending_) {  // it was stopped (a signal): so is everyone
          ending_ = true;
          if (raise_stop_) raise_stop_->store(true);
        }
        return;
      default:
        throw std::logic_error("unknown message tag " + std::to_string(got.tag) + " from rank " +
                               std::to_string(got.source));
    }
  }

  /// Hands what finished to the count, on the slice's thread.
  void flush() {
    std::vector<finished_subproblem> done;
    {
      const std::lock_guard lock(mutex_);
      done.swap(pending_);
    }
    if (!slice_.finished) {
      NQ_EXPECTS(done.empty(), "frames finish within a slice");
      return;
    }
    for (const auto& f : done) slice_.reported[f.position] = 1;
    slice_.count += done.size();
    // Called even with nothing: the count then sees a stop raised here at once.
    if (!done.empty() || ending_) (*slice_.finished)(done);
  }

  /// Sends end to every rank not told yet, then waits up to `limit` for their goodbyes,
  /// recording the frames they report meanwhile.
  void end_ranks(clock::duration limit) {
    if (all_ended_) return;
    for (std::size_t r = 1; r < ranks_.size(); ++r)
      if (!ranks_[r].told_end) {
        ranks_[r].told_end = true;
        world_.send(static_cast<int>(r), tag_end, {});
      }
    const auto until = clock::now() + limit;
    const auto missing = [&] {
      for (std::size_t r = 1; r < ranks_.size(); ++r)
        if (!ranks_[r].said_final) return true;
      return false;
    };
    while (missing() && clock::now() < until) {
      if (auto got = world_.receive_within(until - clock::now())) handle(*got);
      flush();
    }
    for (std::size_t r = 1; r < ranks_.size(); ++r)
      ranks_[r].report.answered = ranks_[r].said_final;
    all_ended_ = true;
  }

  channel& world_;
  int n_;
  unsigned threads_;
  const detail::frame_kernels& kernels_;
  std::atomic<bool>* raise_stop_;
  std::vector<rank_state> ranks_;
  slice_state slice_;
  bool ending_ = false;  ///< end sent, or to be sent: no more frames go out
  bool all_ended_ = false;
  bool counted_ = false;  ///< a slice has run (end_ is its end)
  std::mutex mutex_;      // guards next_, pending_, local_halt_, failure_, the local figures
  std::condition_variable changed_;
  std::size_t next_ = 0;  ///< the next position of the slice to hand out
  std::vector<finished_subproblem> pending_;
  std::atomic<bool> local_halt_{false};
  std::exception_ptr failure_;
  std::vector<double> busy_;
  std::vector<clock::time_point> last_;
  clock::time_point end_;
};

count_leader::count_leader(channel& world, int n, unsigned threads, const std::string& simd,
                           std::atomic<bool>* raise_stop)
    : state_(std::make_unique<state>(world, n, threads, simd, raise_stop)) {}

count_leader::~count_leader() {
  if (!state_->ended()) state_->end_quietly();
}

slice_counter_fn count_leader::counter() {
  return [this](const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
                const std::function<void(std::span<const finished_subproblem>)>& finished) {
    state_->count_slice(indices, stop, finished);
  };
}

std::vector<rank_report> count_leader::finish() { return state_->finish(); }

void serve_count(channel& world, int n, unsigned threads, const std::string& simd,
                 const std::atomic<bool>* stop) {
  threads = std::max(1u, threads);
  const detail::frame_kernels& kernels = detail::choose_frame_kernels(simd);
  // Oriented as each is taken (count_frame): no start-up cost on this rank.
  const std::vector<detail::canonical_frame> frames =
      n >= 4 ? detail::canonical_frames(n) : std::vector<detail::canonical_frame>{};
  const auto start = clock::now();
  world.send(0, tag_hello, std::vector<std::uint64_t>{threads});

  std::mutex mutex;
  std::condition_variable work, news;
  std::deque<std::uint32_t> queue;
  std::vector<std::uint64_t> done;  // report words not yet sent
  std::atomic<bool> halt{false};
  std::exception_ptr failure;
  std::vector<double> busy(threads, 0.0);
  std::vector<clock::time_point> last(threads, start);
  std::uint64_t frames_done = 0;
  std::vector<detail::frame_counter> counters;
  counters.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) counters.emplace_back(n, kernels);
  detail::worker_threads workers(threads, [&](unsigned t) {
    try {
      for (;;) {
        std::uint32_t index = 0;
        {
          std::unique_lock lock(mutex);
          work.wait(lock, [&] { return halt.load() || !queue.empty(); });
          if (halt) return;
          index = queue.front();
          queue.pop_front();
        }
        const auto began = clock::now();
        const std::optional<count_tally> tally =
            detail::count_frame(n, frames[index], counters[t], &halt);
        if (!tally) return;
        const auto now = clock::now();
        {
          const std::lock_guard lock(mutex);
          done.insert(done.end(), {index, tally->solutions, tally->unique_eighths});
          busy[t] += seconds_between(began, now);
          last[t] = now;
          ++frames_done;
        }
        news.notify_one();
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      halt = true;
      news.notify_one();
    }
  });

  bool ended = false, stopped = false, said_final = false;
  clock::time_point end = start;
  // Whatever fails here (a bad message, a lost rank 0), the threads are halted before their
  // join, or they would wait for work forever.
  try {
    for (;;) {
      while (auto got = world.try_receive()) {
        NQ_EXPECTS(got->source == 0, "only rank 0 writes to the other ranks");
        if (got->tag == tag_end) {
          ended = true;
        } else if (got->tag == tag_assign) {
          const std::lock_guard lock(mutex);
          for (const std::uint64_t index : got->words) {
            NQ_EXPECTS(index < frames.size(), "rank 0 sends frames that exist");
            queue.push_back(static_cast<std::uint32_t>(index));
          }
          work.notify_all();
        } else {
          throw std::logic_error("unknown message tag " + std::to_string(got->tag));
        }
      }
      if (!stopped && (ended || halt.load() || (stop && stop->load()))) {
        stopped = true;
        end = clock::now();
        {
          const std::lock_guard lock(mutex);
          halt = true;
        }
        work.notify_all();
        workers.join();
      }
      std::vector<std::uint64_t> report;
      {
        const std::lock_guard lock(mutex);
        report.swap(done);
      }
      send_in_pieces(world, 0, tag_report, report);
      if (stopped && !said_final) {
        if (failure) std::rethrow_exception(failure);
        double busy_sum = 0.0, idle_sum = 0.0;
        for (unsigned t = 0; t < threads; ++t) {
          busy_sum += busy[t];
          idle_sum += seconds_between(last[t], end);
        }
        const traffic& sent = world.counted();
        const std::vector<std::uint64_t> final_words{frames_done,
                                                     nanoseconds(busy_sum / threads),
                                                     nanoseconds(idle_sum / threads),
                                                     threads,
                                                     sent.messages_sent + 1,
                                                     sent.bytes_sent + 6 * sizeof(std::uint64_t)};
        world.send(0, tag_final, final_words);
        said_final = true;
      }
      if (ended && said_final) return;
      std::unique_lock lock(mutex);
      news.wait_for(lock, poll_period);
    }
  } catch (...) {
    {
      const std::lock_guard lock(mutex);
      halt = true;
    }
    work.notify_all();
    throw;
  }
}

}  // namespace nq::dist
