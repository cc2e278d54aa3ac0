// The leader's hand-out (count_cluster.hpp; the other ranks' service is count_service.cpp).
// Every waiting thread sleeps between looks at its inbox, so that a rank's counting threads
// keep their cores.

#include "cluster/count_cluster.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <span>

#include "core/worker_threads.hpp"
#include "cpu/frame_engine.hpp"
#include "cluster/count_protocol.hpp"
#include "nqueens/error.hpp"

namespace nq::cluster {
namespace {

using protocol::clock;
using protocol::seconds_between;

/// How long rank 0 waits for the others' goodbyes when the count stops: mpirun kills the
/// processes 1 s after it forwards a SIGTERM, and the checkpoint must be saved before that.
constexpr auto stop_answer_limit = std::chrono::milliseconds(600);
/// At the normal end every rank is idle and answers at once; a lost one ends the job anyway.
constexpr auto end_answer_limit = std::chrono::seconds(60);

}  // namespace

class count_leader::state {
 public:
  state(channel& world, int n, rank_engines engines, std::atomic<bool>* raise_stop)
      : world_(world),
        n_(n),
        threads_(protocol::counting_threads(engines)),
        gpus_(std::move(engines.gpus)),
        kernels_(detail::choose_frame_kernels(engines.simd)),
        raise_stop_(raise_stop),
        ranks_(static_cast<std::size_t>(world.size())),
        busy_(threads_ + gpus_.size(), 0.0),
        last_(threads_ + gpus_.size(), clock::now()) {
    for (std::size_t r = 0; r < ranks_.size(); ++r) ranks_[r].report.rank = static_cast<int>(r);
    ranks_[0].ready = true;
    ranks_[0].report.threads = threads_;
    ranks_[0].report.gpus = static_cast<unsigned>(gpus_.size());
  }

  void count_slice(const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
                   const std::function<void(std::span<const finished_subproblem>)>& finished) {
    const auto frames = detail::oriented_frames(n_);
    batch_ = protocol::gpu_batch(indices.size(), world_.size());  // resumed: what is left
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
    back_ = indices.size();
    local_halt_ = false;
    {
      std::vector<detail::frame_counter> counters;
      counters.reserve(threads_);
      for (unsigned t = 0; t < threads_; ++t) counters.emplace_back(n_, kernels_);
      const auto engines = threads_ + static_cast<unsigned>(gpus_.size());
      detail::worker_threads workers(engines, [&](unsigned e) {
        if (e < threads_)
          local_work(e, counters[e], indices, *frames);
        else
          local_gpu_work(e, gpus_[e - threads_], indices);
      });
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
    for (std::size_t e = 0; e < busy_.size(); ++e) {
      busy += busy_[e];
      idle += seconds_between(last_[e], end_);
    }
    mine.busy_seconds = busy / static_cast<double>(busy_.size());
    mine.idle_at_end_seconds = idle / static_cast<double>(busy_.size());
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
          if (local_halt_ || next_ >= back_) return;
          // Beside GPUs, the small end (as a count on one machine with --device all does).
          position = static_cast<std::uint32_t>(gpus_.empty() ? next_++ : --back_);
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

  /// This rank's GPU `e`: the next batch of the slice, biggest first, in one launch, its frames
  /// recorded as the launch reports them.
  void local_gpu_work(unsigned e, const slice_counter_fn& gpu,
                      const std::vector<std::uint32_t>& indices) {
    try {
      std::vector<std::uint32_t> positions, batch;
      for (;;) {
        {
          const std::lock_guard lock(mutex_);
          if (local_halt_ || next_ >= back_) return;
          const std::size_t take = std::min<std::size_t>(batch_, back_ - next_);
          positions.resize(take);
          batch.resize(take);
          for (std::size_t i = 0; i < take; ++i) {
            positions[i] = static_cast<std::uint32_t>(next_++);
            batch[i] = indices[positions[i]];
          }
        }
        protocol::count_batch(gpu, batch, &local_halt_, [&](auto done, double busy, auto now) {
          {
            const std::lock_guard lock(mutex_);
            for (const finished_subproblem& f : done) {
              pending_.push_back({positions[f.position], f.tally});
              ++ranks_[0].report.subproblems;
              ranks_[0].report.solutions += f.tally.solutions;
            }
            busy_[e] += busy;
            if (!done.empty()) last_[e] = now;
          }
          changed_.notify_one();
        });
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
        const std::uint64_t budget =
            protocol::frames_in_flight(rank.report.threads, rank.report.gpus, batch_);
        while (rank.in_flight + frames.size() < budget && next_ < back_)
          frames.push_back((*slice_.indices)[next_++]);
      }
      if (frames.empty()) continue;
      rank.in_flight += frames.size();
      protocol::send_in_pieces(world_, static_cast<int>(r), protocol::tag_assign, frames);
    }
  }

  void handle(const message& got) {
    NQ_EXPECTS(got.source > 0 && got.source < static_cast<int>(ranks_.size()),
               "messages come from the other ranks");
    rank_state& rank = ranks_[static_cast<std::size_t>(got.source)];
    const auto& w = got.words;
    switch (got.tag) {
      case protocol::tag_hello:
        NQ_EXPECTS(w.size() == 2 && w[0] + w[1] >= 1 && w[0] <= UINT32_MAX && w[1] <= UINT32_MAX,
                   "hello says how many threads and GPUs");
        rank.ready = true;
        rank.report.threads = static_cast<unsigned>(w[0]);
        rank.report.gpus = static_cast<unsigned>(w[1]);
        return;
      case protocol::tag_report: {
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
      case protocol::tag_final:
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
        world_.send(static_cast<int>(r), protocol::tag_end, {});
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
  std::vector<slice_counter_fn> gpus_;
  const detail::frame_kernels& kernels_;
  std::atomic<bool>* raise_stop_;
  std::vector<rank_state> ranks_;
  slice_state slice_;
  bool ending_ = false;  ///< end sent, or to be sent: no more frames go out
  bool all_ended_ = false;
  bool counted_ = false;  ///< a slice has run (end_ is its end)
  std::mutex mutex_;      // guards next_, back_, pending_, local_halt_, failure_, the local figures
  std::condition_variable changed_;
  std::size_t next_ = 0;     ///< the next position of the slice to hand out (its big end)
  std::size_t back_ = 0;     ///< one past the last position not handed out (its small end)
  std::uint64_t batch_ = 1;  ///< frames a GPU takes at once (protocol::gpu_batch)
  std::vector<finished_subproblem> pending_;
  std::atomic<bool> local_halt_{false};
  std::exception_ptr failure_;
  std::vector<double> busy_;  ///< by engine: the CPU threads, then the GPUs
  std::vector<clock::time_point> last_;
  clock::time_point end_;
};

count_leader::count_leader(channel& world, int n, rank_engines engines,
                           std::atomic<bool>* raise_stop)
    : state_(std::make_unique<state>(world, n, std::move(engines), raise_stop)) {}

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

}  // namespace nq::cluster
