// Counting all solutions: canonical frames pulled by CPU worker threads, slice counters (GPUs),
// or both, from one shared source; finished work recorded in a checkpoint so that a killed
// count resumes exactly.

#include "nqueens/count.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "core/atomic_file.hpp"
#include "core/worker_threads.hpp"
#include "control/count_checkpoint.hpp"
#include "control/count_source.hpp"
#include "cpu/frame_engine.hpp"
#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/error.hpp"
#include "nqueens/detail/frame_pieces.hpp"

namespace nq {

std::vector<std::uint16_t> frame_classes(int n) {
  NQ_EXPECTS(n >= 4 && n <= max_count_n, "frames need n from 4 to 32");
  std::vector<std::uint16_t> table(static_cast<std::size_t>(n) * n * n * n, 0);
  for (int top = 0; top < n; ++top)
    for (int bottom = 0; bottom < n; ++bottom)
      for (int left = 0; left < n; ++left)
        for (int right = 0; right < n; ++right) {
          const frame f{static_cast<std::uint8_t>(top), static_cast<std::uint8_t>(bottom),
                        static_cast<std::uint8_t>(left), static_cast<std::uint8_t>(right)};
          if (!frame_is_valid(n, f)) continue;
          std::uint16_t entry = canonical_frame_flag;
          for (int g = 0; g < symmetry_count; ++g) {
            const frame image = transform_frame(n, f, g);
            if (frame_less(image, f)) entry = 0;
            if (image == f && entry) entry |= static_cast<std::uint16_t>(1u << g);
          }
          table[frame_index(n, top, bottom, left, right)] = entry;
        }
  return table;
}

std::vector<count_prefix> count_subproblems(int n, int rows) {
  NQ_EXPECTS(n >= 1 && n <= max_count_n, "counting supports n from 1 to 32");
  std::vector<count_prefix> subs;
  if (n < 4) return subs;
  rows = std::clamp(rows, 2, std::min(n - 1, max_prefix_rows));
  count_prefix prefix;
  prefix.rows = static_cast<std::uint8_t>(rows);
  // Depth-first over the first rows, in column order, so the list is the same on every run.
  const auto place = [&](auto&& self, int row, std::uint32_t c, std::uint32_t l,
                         std::uint32_t r) -> void {
    if (row == rows) {
      subs.push_back(prefix);
      return;
    }
    std::uint32_t free = allowed_columns(n, prefix.col[0], prefix.col[1], row) & ~(c | l | r);
    for (; free != 0; free &= free - 1) {
      const std::uint32_t bit = free & (0u - free);
      prefix.col[row] = static_cast<std::uint8_t>(lowest_bit_index(bit));
      self(self, row + 1, c | bit, (l | bit) << 1, (r | bit) >> 1);
    }
  };
  for (int top = 0; top <= (n - 1) / 2; ++top) {
    prefix.col[0] = static_cast<std::uint8_t>(top);
    const std::uint32_t bit = 1u << top;
    place(place, 1, bit, bit << 1, bit >> 1);
  }
  return subs;
}

namespace {

/// Shared state of one counting job: workers (CPU threads counting frames, and slice counters
/// each on a thread of its own) take subproblems from one source and record what they finish
/// in `checkpoint_` (saved to disk only when asked); the caller's thread watches, reports and
/// saves.
class count_run {
 public:
  count_run(int n, const count_settings& settings)
      : n_(n),
        settings_(settings),
        slices_(static_cast<unsigned>(settings.slice_counters.size())),
        cpu_threads_(slices_ == 0 || (settings.cpu_beside_slices && settings.slice_frames)
                         ? std::max(1u, settings.threads)
                         : 0u),
        kernels_(cpu_threads_ ? &detail::choose_frame_kernels(settings.simd) : nullptr),
        // The GPU's pieces and a share biggest first need every frame's image at the start
        // (oriented once a process); CPU threads alone orient each frame as they take it, so
        // such a count starts at once.
        frames_(n < 4 || !(cpu_threads_ || settings.slice_frames)
                    ? std::vector<detail::canonical_frame>{}
                : slices_ && settings.slice_frames ? *detail::oriented_frames(n)
                                                   : detail::canonical_frames(n)),
        units_(slices_ && !settings.slice_frames ? count_subproblems(n, settings.split_rows).size()
                                                 : frames_.size()),
        finished_(units_, 0),
        by_slice_(slices_, 0) {
    checkpoint_.n = n;
    checkpoint_.split = slices_ && !settings.slice_frames
                            ? "rows-" + std::to_string(settings.split_rows)
                            : "frames";
    checkpoint_.subproblems = units_;
    if (!settings_.checkpoint.empty()) {
      detail::read_count_checkpoint(settings_.checkpoint, n, checkpoint_.split, units_,
                                    checkpoint_);
      for (const auto& [index, counted] : checkpoint_.done) {
        finished_[index] = 1;
        solutions_ += counted.solutions;
      }
      resumed_ = checkpoint_.done.size();
      // Fails early if unwritable; the checkpoint itself appears once it holds finished work.
      atomic_file probe(settings_.checkpoint);
    }
    // No more CPU workers than subproblems left to count: a thousand threads asked for at
    // n = 8 (78 frames) would only be started and joined.
    const std::uint64_t left = std::max<std::uint64_t>(1, units_ - resumed_);
    cpu_threads_ = static_cast<unsigned>(std::min<std::uint64_t>(cpu_threads_, left));
  }

  count_result run() {
    // A stop raised before the count started (a signal while it was being set up) ends it at once.
    if (settings_.stop && settings_.stop->load(std::memory_order_relaxed))
      halt_.store(true, std::memory_order_relaxed);
    detail::subproblem_source source = make_source();
    // Each CPU worker's level buffers are allocated here, where running out of memory is an
    // error the caller sees rather than the end of the process.
    std::vector<detail::frame_counter> counters;
    counters.reserve(cpu_threads_);
    for (unsigned t = 0; t < cpu_threads_; ++t) counters.emplace_back(n_, *kernels_);
    const auto from =
        slices_ ? detail::subproblem_source::end::small : detail::subproblem_source::end::big;
    {
      detail::worker_threads workers(slices_ + cpu_threads_, [&](unsigned t) {
        guarded([&] {
          if (t < slices_)
            slice_work(t, source);
          else
            cpu_work(counters[t - slices_], source, from);
        });
      });
      try {
        watch();
      } catch (...) {  // a checkpoint that cannot be written: stop the workers before saying so
        halt_.store(true, std::memory_order_relaxed);
        throw;
      }
      workers.join();
    }
    save();
    if (failure_) std::rethrow_exception(failure_);
    return result();
  }

 private:
  /// The unfinished subproblems, at most max_subproblems of them. With slice counters and
  /// frames, biggest first, by frame_size_estimate (frames differ in size 83-fold at n = 16;
  /// bench/frame_tree_stats.cpp); else in index order, all alike.
  detail::subproblem_source make_source() const {
    std::vector<std::uint32_t> order;
    for (std::size_t i = 0; i < units_; ++i)
      if (!finished_[i]) order.push_back(static_cast<std::uint32_t>(i));
    std::vector<std::uint64_t> weight(order.size(), 1);
    if (slices_ && settings_.slice_frames) {
      std::vector<std::uint64_t> nodes(units_, 0);
      for (const std::uint32_t i : order) nodes[i] = frames_[i].size;
      std::stable_sort(order.begin(), order.end(),
                       [&](std::uint32_t a, std::uint32_t b) { return nodes[a] > nodes[b]; });
      for (std::size_t p = 0; p < order.size(); ++p) weight[p] = nodes[order[p]];
    }
    if (settings_.max_subproblems && order.size() > settings_.max_subproblems) {
      order.resize(settings_.max_subproblems);
      weight.resize(settings_.max_subproblems);
    }
    // A lone slice counter takes everything at once; several (or CPU threads beside one)
    // share, each taking about half its part of what is left.
    const unsigned parts = slices_ == 1 && cpu_threads_ == 0 ? 1 : 2 * slices_;
    return detail::subproblem_source(std::move(order), weight, parts, settings_.slice_size);
  }

  /// Runs a worker's loop; its exception, the first of any worker's, stops every worker and
  /// is thrown by run() once all have ended.
  template <class Work>
  void guarded(Work work) {
    try {
      work();
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      halt_.store(true, std::memory_order_relaxed);
    }
    const std::lock_guard lock(mutex_);
    if (++workers_done_ == slices_ + cpu_threads_) all_done_.notify_all();
  }

  /// Slice counter t's loop: a share at a time until the source is empty or the count stops.
  void slice_work(unsigned t, detail::subproblem_source& source) {
    while (!halted()) {
      const std::span<const std::uint32_t> share = source.take_share();
      if (share.empty()) return;
      const std::vector<std::uint32_t> slice(share.begin(), share.end());
      std::size_t reported = 0;
      settings_.slice_counters[t](slice, &halt_, [&](std::span<const finished_subproblem> done) {
        const std::lock_guard lock(mutex_);
        for (const finished_subproblem& f : done) {
          NQ_EXPECTS(f.position < slice.size() && !finished_[slice[f.position]],
                     "a slice counter reports each subproblem of its slice once");
          record(slice[f.position], f.tally);
        }
        reported += done.size();
        by_slice_[t] += done.size();
        // A stop the caller raised by now reaches the counter at once, not at the watcher's
        // next look: a launch with little left would otherwise finish first.
        if (settings_.stop && settings_.stop->load(std::memory_order_relaxed))
          halt_.store(true, std::memory_order_relaxed);
      });
      NQ_EXPECTS(reported == slice.size() || halted(),
                 "a slice counter reports every subproblem of its slice unless stopped");
    }
  }

  void cpu_work(detail::frame_counter& counter, detail::subproblem_source& source,
                detail::subproblem_source::end from) {
    while (!halted()) {
      const std::optional<std::uint32_t> index = source.take_one(from);
      if (!index) return;
      const std::optional<count_tally> found =
          detail::count_frame(n_, frames_[*index], counter, &halt_);
      if (!found) return;  // stopped midway: the frame stays unfinished
      const std::lock_guard lock(mutex_);
      record(*index, *found);
      ++by_cpu_;
    }
  }

  /// A finished subproblem. Under mutex_.
  void record(std::uint32_t index, const count_tally& counted) {
    finished_[index] = 1;
    checkpoint_.done.emplace(index, counted);
    solutions_ += counted.solutions;
  }

  bool halted() const { return halt_.load(std::memory_order_relaxed); }

  /// Until the workers finish: passes the caller's stop on to them (within 50 ms), progress
  /// about 4 times a second, checkpoints at the interval.
  void watch() {
    double last_save = clock_.seconds(), last_progress = 0.0;
    std::unique_lock lock(mutex_);
    while (workers_done_ < slices_ + cpu_threads_) {
      all_done_.wait_for(lock, std::chrono::milliseconds(50));
      if (settings_.stop && settings_.stop->load(std::memory_order_relaxed))
        halt_.store(true, std::memory_order_relaxed);
      if (settings_.progress && clock_.seconds() - last_progress >= 0.25) {
        const count_progress now{checkpoint_.done.size(), units_, resumed_, solutions_,
                                 clock_.seconds()};
        lock.unlock();  // the callback may take its time, and may raise the stop
        settings_.progress(now);
        last_progress = clock_.seconds();
        lock.lock();
      }
      if (!settings_.checkpoint.empty() && !checkpoint_.done.empty() &&
          clock_.seconds() - last_save >= settings_.checkpoint_interval) {
        const detail::count_checkpoint snapshot = checkpoint_;
        lock.unlock();
        detail::write_count_checkpoint(settings_.checkpoint, snapshot);
        last_save = clock_.seconds();
        lock.lock();
      }
    }
  }

  /// Nothing finished, nothing to record: no file (a resume would start afresh all the same).
  void save() {
    if (!settings_.checkpoint.empty() && !checkpoint_.done.empty())
      detail::write_count_checkpoint(settings_.checkpoint, checkpoint_);
  }

  count_result result() const {
    count_result out;
    out.subproblems = units_;
    out.resumed = resumed_;
    out.subproblems_done = checkpoint_.done.size();
    for (const auto& [index, counted] : checkpoint_.done) {
      out.solutions += counted.solutions;
      out.unique += counted.unique_eighths;
    }
    out.unique /= symmetry_count;
    out.complete = out.subproblems_done == units_;
    out.simd = kernels_ ? kernels_->name : "";
    out.seconds = clock_.seconds();
    out.by_slice_counter = by_slice_;
    out.by_cpu = by_cpu_;
    out.threads = cpu_threads_;
    return out;
  }

  int n_;
  const count_settings& settings_;
  unsigned slices_;                       ///< slice counters, one thread each
  unsigned cpu_threads_;                  ///< CPU workers counting frames
  const detail::frame_kernels* kernels_;  ///< null without CPU workers
  std::vector<detail::canonical_frame> frames_;
  std::size_t units_;           ///< frames, or the slice counters' row prefixes
  std::vector<char> finished_;  // written under mutex_, or before the workers start
  detail::count_checkpoint checkpoint_;
  std::atomic<bool> halt_{false};  ///< the workers' stop: the caller's, or a worker's failure
  std::mutex mutex_;
  std::condition_variable all_done_;
  unsigned workers_done_ = 0;
  std::uint64_t resumed_ = 0, solutions_ = 0, by_cpu_ = 0;
  std::vector<std::uint64_t> by_slice_;
  std::exception_ptr failure_;
  detail::stopwatch clock_;
};

}  // namespace

void check_count_size(std::int64_t n) {
  if (n < 1 || n > max_exact_count_n)
    throw usage_error("counting supports n from 1 to " + std::to_string(max_exact_count_n) +
                      ", got " + std::to_string(n) +
                      (n > max_exact_count_n ? " (from n = 29 the solutions outnumber 2^64, past "
                                               "what the exact 64-bit totals can hold)"
                                             : ""));
}

count_result count_solutions(int n, const count_settings& settings) {
  check_count_size(n);
  count_run job(n, settings);
  count_result result = job.run();
  if (n < 4) {  // too small for frames: 1 solution for n = 1, none for n = 2 and 3
    result.solutions = result.unique = n == 1 ? 1 : 0;
    result.complete = true;
  }
  return result;
}

}  // namespace nq
