// Counting all solutions: canonical frames pulled by worker threads from a shared counter (or
// subproblems handed to a slice counter), finished work recorded in a checkpoint so that a
// killed count resumes exactly.

#include "nqueens/count.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/stopwatch.hpp"
#include "core/worker_threads.hpp"
#include "cpu/count_checkpoint.hpp"
#include "cpu/frame_engine.hpp"
#include "nqueens/error.hpp"

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

/// Shared state of one counting job: workers record finished subproblems in `checkpoint_`
/// (saved to disk only when asked), the caller's thread watches, reports and saves.
class count_job {
 public:
  count_job(int n, const count_settings& settings)
      : n_(n),
        settings_(settings),
        kernels_(settings.slice_counter ? nullptr : &detail::choose_frame_kernels(settings.simd)),
        frames_(n >= 4 && !settings.slice_counter ? detail::canonical_frames(n)
                                                  : std::vector<detail::canonical_frame>{}),
        units_(units(n, settings, frames_)),
        threads_(std::max(1u, settings.threads)),
        finished_(units_, 0) {
    checkpoint_.n = n;
    checkpoint_.split = settings.slice_counter && !settings.slice_frames
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
      detail::write_count_checkpoint(settings_.checkpoint,
                                     checkpoint_);  // fails early if unwritable
    }
  }

  count_result run() {
    if (settings_.slice_counter) return run_slices();
    // Each worker's level buffers are allocated here, where running out of memory is an
    // error the caller sees rather than the end of the process.
    std::vector<detail::frame_counter> counters;
    counters.reserve(threads_);
    for (unsigned t = 0; t < threads_; ++t) counters.emplace_back(n_, *kernels_);
    detail::worker_threads workers(threads_, [this, &counters](unsigned t) { work(counters[t]); });
    watch();
    workers.join();
    save();
    return result();
  }

 private:
  /// Subproblems in all: frames (whether the CPU or a slice counter counts them), or row
  /// prefixes.
  static std::size_t units(int n, const count_settings& settings,
                           const std::vector<detail::canonical_frame>& frames) {
    if (!settings.slice_counter) return frames.size();
    if (settings.slice_frames) return n >= 4 ? detail::canonical_frames(n).size() : 0;
    return count_subproblems(n, settings.split_rows).size();
  }

  /// The slice counter's loop: the unfinished subproblems in slices, each recorded as the
  /// counter reports it; progress and checkpoints while it runs.
  count_result run_slices() {
    std::vector<std::uint32_t> pending;
    for (std::size_t i = 0; i < units_; ++i)
      if (!finished_[i]) pending.push_back(static_cast<std::uint32_t>(i));
    double last_save = clock_.seconds(), last_progress = -1.0;
    const auto report = [&](bool now) {
      if (settings_.progress && (now || clock_.seconds() - last_progress >= 0.25)) {
        settings_.progress(
            {checkpoint_.done.size(), units_, resumed_, solutions_, clock_.seconds()});
        last_progress = clock_.seconds();
      }
      if (!settings_.checkpoint.empty() &&
          clock_.seconds() - last_save >= settings_.checkpoint_interval) {
        save();
        last_save = clock_.seconds();
      }
    };
    std::uint64_t started = 0;
    for (std::size_t at = 0; at < pending.size() && !stop_requested();) {
      std::uint64_t take = std::min<std::uint64_t>(settings_.slice_size, pending.size() - at);
      if (settings_.max_subproblems) {
        if (started >= settings_.max_subproblems) break;
        take = std::min(take, settings_.max_subproblems - started);
      }
      const std::vector<std::uint32_t> slice(pending.begin() + at, pending.begin() + at + take);
      settings_.slice_counter(slice, settings_.stop,
                              [&](std::span<const finished_subproblem> done) {
                                for (const finished_subproblem& f : done) record(slice, f);
                                report(false);
                              });
      at += take;
      started += take;
      report(true);
    }
    save();
    return result();
  }

  /// A subproblem of `slice` the slice counter finished.
  void record(const std::vector<std::uint32_t>& slice, const finished_subproblem& f) {
    NQ_EXPECTS(f.position < slice.size() && !finished_[slice[f.position]],
               "a slice counter reports each subproblem of its slice once");
    const std::uint32_t index = slice[f.position];
    finished_[index] = 1;
    checkpoint_.done.emplace(index, f.tally);
    solutions_ += f.tally.solutions;
  }

  bool stop_requested() const {
    return settings_.stop && settings_.stop->load(std::memory_order_relaxed);
  }

  void work(detail::frame_counter& counter) {
    for (;;) {
      if (stop_requested()) break;
      const std::size_t index = next_.fetch_add(1, std::memory_order_relaxed);
      if (index >= units_) break;
      if (finished_[index]) continue;
      if (settings_.max_subproblems &&
          started_.fetch_add(1, std::memory_order_relaxed) >= settings_.max_subproblems)
        break;
      const std::optional<count_tally> found =
          detail::count_frame(n_, frames_[index], counter, settings_.stop);
      if (!found) break;  // stopped midway: the frame stays unfinished
      const count_tally counted = *found;
      std::lock_guard lock(mutex_);
      finished_[index] = 1;
      checkpoint_.done.emplace(index, counted);
      solutions_ += counted.solutions;
    }
    std::lock_guard lock(mutex_);
    if (++workers_done_ == threads_) all_done_.notify_all();
  }

  /// Until the workers finish: progress about 4 times a second, checkpoints at the interval.
  void watch() {
    double last_save = clock_.seconds();
    std::unique_lock lock(mutex_);
    while (workers_done_ < threads_) {
      all_done_.wait_for(lock, std::chrono::milliseconds(250));
      if (settings_.progress)
        settings_.progress(
            {checkpoint_.done.size(), units_, resumed_, solutions_, clock_.seconds()});
      if (!settings_.checkpoint.empty() &&
          clock_.seconds() - last_save >= settings_.checkpoint_interval) {
        const detail::count_checkpoint snapshot = checkpoint_;
        lock.unlock();
        detail::write_count_checkpoint(settings_.checkpoint, snapshot);
        last_save = clock_.seconds();
        lock.lock();
      }
    }
  }

  void save() {
    if (!settings_.checkpoint.empty())
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
    return out;
  }

  int n_;
  const count_settings& settings_;
  const detail::frame_kernels* kernels_;  ///< null in slice mode
  std::vector<detail::canonical_frame> frames_;
  std::size_t units_;  ///< frames, or the slice counter's subproblems
  unsigned threads_;
  std::vector<char> finished_;  // written under mutex_, or before the workers start
  detail::count_checkpoint checkpoint_;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::uint64_t> started_{0};
  std::mutex mutex_;
  std::condition_variable all_done_;
  unsigned workers_done_ = 0;
  std::uint64_t resumed_ = 0, solutions_ = 0;
  detail::stopwatch clock_;
};

}  // namespace

count_result count_solutions(int n, const count_settings& settings) {
  if (n < 1 || n > max_count_n)
    throw usage_error("counting supports n from 1 to " + std::to_string(max_count_n) + ", got " +
                      std::to_string(n));
  count_job job(n, settings);
  count_result result = job.run();
  if (n < 4) {  // too small for frames: 1 solution for n = 1, none for n = 2 and 3
    result.solutions = result.unique = n == 1 ? 1 : 0;
    result.complete = true;
  }
  return result;
}

}  // namespace nq
