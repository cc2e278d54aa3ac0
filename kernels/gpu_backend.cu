// The GPU batch backend. Thread-per-run chains run a batch as one persistent launch (per
// slice the caller or backend_options asks for): lanes take runs in order, and a stop ends the
// taking, so up to 32 queens the runs that ran are exactly the first ones, every one finished.
// Each run is tallied on the device (device_tally): the host reads a few kilobytes a launch,
// whatever its runs, and per-run records only when the caller asks for them. Block chains and
// population runs store outcomes, tallied on the device by a second launch. The buffers are
// the backend's, allocated once and grown when a job needs more; no Thrust call, no wait but
// the launch's own (polled every 100 us). Kernel time is the launches' own (kernel_clock).

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kernels/block_chains.cuh"
#include "kernels/chains.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/gpu.hpp"
#include "kernels/population.cuh"
#include "kernels/runtime.cuh"
#include "nqueens/error.hpp"

namespace nq::cuda {
namespace {

/// Runs a launch of block chains or population runs holds when backend_options leaves it open
/// (their outcomes are stored: 40 bytes a run).
constexpr std::uint64_t default_outcome_runs = std::uint64_t{1} << 24;
/// Steps the device's dense bins hold when no bound below 2^22 is known (past them, a list
/// with room for every run of a launch, which then holds at most 2^20 runs).
constexpr std::uint64_t default_bin_steps = std::uint64_t{1} << 16;
constexpr std::uint64_t most_bin_steps = std::uint64_t{1} << 22;
constexpr std::uint64_t listed_launch_runs = std::uint64_t{1} << 20;
/// Runs a launch of chains holds at most: a block's shared bins count 32 bits, below 2^32.
constexpr std::uint64_t most_launch_runs = (std::uint64_t{1} << 32) - 1;
/// How long the runs in flight may run on once a stop has ended the taking (up to 32 queens)
/// before the stop cuts them too, and the launch is dropped.
constexpr auto stop_grace = std::chrono::seconds(1);
constexpr std::uint64_t dropped_launch_runs = std::uint64_t{1} << 20;
constexpr auto progress_period = std::chrono::milliseconds(250);

/// Runs a thread takes at a time: a few where runs are short (fewer claims on one counter).
std::uint32_t claim_chunk(index_t n) { return n <= 16 ? 8 : 1; }

/// The most steps a run can take: the step limit, or less where the chain bounds it itself (a
/// strictly improving climb makes at most as many moves as the start has attacking pairs, with
/// max_sideways sideways moves at most between two of them); 0 when nothing bounds it.
std::uint64_t step_bound(const local_search_settings& s, index_t n, std::uint64_t max_steps) {
  using A = local_algorithm;
  const std::uint64_t pairs = std::uint64_t{n} * (n - 1) / 2;
  std::uint64_t bound = 0;
  if (s.algorithm == A::hc || s.algorithm == A::first_choice)
    bound = pairs;
  else if (s.algorithm == A::hc_sideways && !s.hill.plateau_jump)
    bound = (pairs + 1) * (std::uint64_t{s.hill.max_sideways} + 1);
  if (max_steps != 0 && (bound == 0 || max_steps < bound)) bound = max_steps;
  return bound;
}

/// A device buffer that grows to the largest size asked for and keeps it (the old one freed
/// first).
template <class T>
T* grown(device_buffer<T>& buffer, std::size_t size) {
  if (buffer.size() < size) {
    buffer = device_buffer<T>();
    buffer = device_buffer<T>(size);
  }
  return buffer.data();
}

class gpu_backend final : public batch_backend {
 public:
  explicit gpu_backend(const gpu::backend_options& options)
      : device_(options.device), slice_runs_(options.slice_runs) {
    sms_ = multiprocessors(device_);
    name_ = gpu::device_name(device_);
  }

  std::string_view device() const override { return "gpu"; }
  std::string device_name() const override { return name_; }
  unsigned workers() const override { return sms_; }
  bool supports(const local_search_settings& algorithm, index_t n) const override {
    return has_thread_chain(algorithm, n) || has_population_run(algorithm, n);
  }

  double kernel_seconds() const override { return kernel_seconds_; }
  bool tallies_finished_prefix() const override { return true; }

  std::string layout(const local_search_settings& algorithm, index_t n,
                     std::uint64_t runs) const override {
    if (!has_population_run(algorithm, n)) return {};
    const std::uint64_t per_launch =
        std::min({slice_runs_ ? slice_runs_ : default_outcome_runs, runs,
                  max_population_runs_per_launch(algorithm, n)});
    return gpu::resolved_population_shape(algorithm, n, per_launch) ==
                   gpu::population_shape::whole_grid
               ? "whole_grid"
               : "block_per_run";
  }

  void run(const batch_job& job, batch_tally& tally, std::vector<chain_outcome>* records,
           const std::function<void(std::uint64_t)>& progress,
           std::vector<row_t>* boards) override {
    use_device(device_);  // the device is the calling thread's, which may not be the creator
    const std::atomic<bool>* halt = job.limits.stop;
    kernel_seconds_ = 0.0;
    kernel_clock clock;  // the launches alone: not the waits and copies around them
    const bool population = has_population_run(job.algorithm, job.n);
    const bool block = !population && has_block_chain(job.algorithm.algorithm, job.n);
    const bool threads = !population && !block;
    // Up to 32 queens a stop ends the taking and every run taken runs to its end: nothing is
    // dropped. Above, runs are long, so the stop cuts them, and the launch it reaches is
    // dropped whole (its runs ran side by side: those that finished are the short ones).
    const bool taking_stops = threads && job.n <= gpu::max_thread_chain_n;
    const bool stores = !threads || records;  // outcomes stored on the device
    const std::uint64_t max_steps =
        job.limits.max_steps ? job.limits.max_steps : default_max_steps(job.algorithm.algorithm);
    const std::uint64_t bound = step_bound(job.algorithm, job.n, max_steps);
    const bool listed = bound == 0 || bound >= most_bin_steps;  // runs may pass the bins
    const std::uint64_t most =
        population ? max_population_runs_per_launch(job.algorithm, job.n)
        : threads && !records && taking_stops ? most_launch_runs
                                              : max_chains_per_launch(job.n);
    // Where the stop drops the launch it reaches, a launch holds at most 2^20 runs; so it does
    // where runs may pass the bins (the list has room for each).
    const std::uint64_t capacity = std::min(
        {slice_runs_ ? slice_runs_ : stores ? default_outcome_runs : job.count, job.count, most,
         (halt && !taking_stops) || listed ? listed_launch_runs : job.count});
    // One shape for every launch, the last (smaller) one included: the one layout() names.
    const gpu::population_shape shape =
        population ? gpu::resolved_population_shape(job.algorithm, job.n, capacity)
                   : gpu::population_shape::automatic;
    // Every run is "never started" until its launch has run.
    chain_outcome not_started;
    not_started.stopped = not_started.interrupted = true;
    if (records) records->assign(job.count, not_started);
    if (records && boards) boards->assign(job.count * job.n, 0);

    chain_launch launch;
    launch.n = job.n;
    launch.settings = job.algorithm;
    if (!launch.settings.genetic.population)
      launch.settings.genetic.population = default_population(job.n);
    launch.seed = job.seed;
    launch.max_steps = max_steps;
    launch.time_limit_ns = limit_ns(job.limits.time_limit);
    launch.outcomes = stores ? grown(outcomes_, capacity) : nullptr;
    launch.boards = records && boards ? grown(boards_, capacity * job.n) : nullptr;
    // One race for the whole job, across its launches.
    if (job.stop_after_first_solved) {
      launch.first_solved = grown(race_, 1);
      fill_bytes(launch.first_solved, 0xFF, 1);
    }
    if (!flags_) flags_ = std::make_unique<host_flags>();
    const device_tally on_device = tally_for(listed ? 0 : bound, listed ? capacity : 0);
    // Up to 32 queens the stop ends the taking, and cuts the runs in flight only once they have
    // had stop_grace to end; above, it cuts them at once, and every run is taken.
    chain_claims claims{.counter = &on_device.words[device_tally::claimed],
                        .stop = halt && taking_stops ? flags_->stop.device() : nullptr,
                        .stopping = &on_device.words[device_tally::stopping],
                        .progress = flags_->progress.device(),
                        .chunk = claim_chunk(job.n)};
    if (threads && halt) {
      launch.stop = flags_->stop.device() + 1;
      launch.stop_at_start = !taking_stops;  // where the taking stops, runs start unasked
    }
    launch.count = capacity;  // the largest launch: its scratch
    unsigned char* scratch = threads ? grown(scratch_, chain_scratch_bytes(launch)) : nullptr;

    for (std::uint64_t done = 0; done < job.count;) {
      if (halt && halt->load()) break;  // the runs left never start
      const std::uint64_t count = std::min(capacity, job.count - done);
      launch.first = job.first + done;
      launch.count = count;
      fill_bytes(on_device.words, 0, on_device.zeroed_words());
      flags_->stop.host()[0] = flags_->stop.host()[1] = 0;
      publish(flags_->progress.host(), 0);
      bool dropped = false;
      {
        const kernel_clock::timing timing(clock);
        if (population || block) {
          if (population)
            launch_population_runs(population_launch{.job = launch, .shape = shape}, halt);
          else
            launch_thread_chains(launch, halt);
          dropped = halt && halt->load();
          if (!dropped) launch_outcome_tally(launch.outcomes, count, on_device);
        } else {
          launch_chain_runs(launch, claims, on_device, scratch);
          dropped = wait_for_runs(halt, taking_stops, done, progress);
        }
      }
      kernel_seconds_ += clock.take_seconds();
      if (dropped && !records) break;  // the tally holds the launches before this one
      const std::uint64_t ran = read_tally(on_device, count,
                                           dropped ? nullptr : &tally, taking_stops);
      if (records) {
        chain_outcome* mine = records->data() + done;
        copy_to_host(mine, launch.outcomes, ran);
        if (dropped)
          for (std::uint64_t i = 0; i < ran; ++i) mine[i].interrupted = true;
        if (boards) copy_to_host(boards->data() + done * job.n, launch.boards, ran * job.n);
        if (dropped) break;
      }
      done += ran;
      if (progress) progress(done);
      if (ran < count) break;  // the stop ended the taking
    }
  }

  chain_outcome run_alone(index_t n, const local_search_settings& algorithm, std::uint64_t seed,
                          std::uint64_t stream, const search_limits& limits,
                          std::vector<row_t>& board, const trace_fn& trace) override {
    use_device(device_);
    const gpu::chain_options options{.max_steps = limits.max_steps,
                                     .time_limit = limits.time_limit};
    std::vector<trace_row> rows;
    std::vector<trace_row>* wanted = trace ? &rows : nullptr;
    const chain_outcome out = has_population_run(algorithm, n)
                                  ? gpu::run_population_runs(n, algorithm, seed, stream, 1, options,
                                                             &board, wanted, limits.stop)[0]
                                  : gpu::run_thread_chains(n, algorithm, seed, stream, 1, options,
                                                           &board, wanted, limits.stop)[0];
    for (const trace_row& row : rows) trace(row);
    return out;
  }

 private:
  /// Mapped words the host and a running launch share: the stop, and the runs taken so far.
  /// The stop ending the taking ([0]), the stop cutting the runs ([1]), the runs taken so far.
  struct host_flags {
    mapped_buffer<unsigned> stop{2};
    mapped_buffer<unsigned long long> progress{1};
  };

  /// The device tally for runs of at most `bound` steps (0: none below 2^22): dense bins to
  /// the bound, else to 2^16 and a list of `listed` runs past them.
  device_tally tally_for(std::uint64_t bound, std::uint64_t listed) {
    device_tally t;
    t.bin_steps =
        bound != 0 ? std::max(bound + 1, device_tally::head_steps) : default_bin_steps;
    t.past_capacity = listed;
    try {
      t.words = grown(tally_words_, device_tally::head_words + 2 * t.bin_steps + t.past_capacity);
    } catch (const cuda_error& e) {
      throw cuda_error(std::string(e.what()) + " (the batch's tally)");
    }
    t.past = t.words + device_tally::head_words + 2 * t.bin_steps;
    return t;
  }

  /// Waits for a launch of chain runs, reporting the runs taken so far (after `done`) every
  /// 250 ms. Once `*halt` is set it raises the stop that ends the taking and, at once (or,
  /// `taking`, stop_grace later while runs are still in flight), the one that cuts the runs;
  /// returns whether it raised that one, which drops the launch.
  bool wait_for_runs(const std::atomic<bool>* halt, bool taking, std::uint64_t done,
                     const std::function<void(std::uint64_t)>& progress) {
    using clock_t = std::chrono::steady_clock;
    note_wait_begins();  // the polling below is the host's time, not the kernels'
    auto report_at = clock_t::now() + progress_period;
    std::uint64_t taken = 0;  // lanes publish out of order: the most seen
    std::optional<clock_t::time_point> cut_at;
    bool cut = false;
    while (!stream_idle()) {
      if (halt && !cut_at && halt->load(std::memory_order_relaxed)) {
        raise_flag(flags_->stop.host());
        cut_at = clock_t::now() + (taking ? clock_t::duration(stop_grace) : clock_t::duration{});
      }
      if (cut_at && !cut && clock_t::now() >= *cut_at) {
        raise_flag(flags_->stop.host() + 1);
        cut = true;
      }
      if (progress && clock_t::now() >= report_at) {
        taken = std::max<std::uint64_t>(taken, read_published(flags_->progress.host()));
        progress(done + taken);
        report_at += progress_period;
      }
      std::this_thread::sleep_for(poll_period);
    }
    synchronize();
    return cut;
  }

  /// Reads a launch's tally back and adds it to `tally` (unless null); returns the runs that
  /// ran: those taken when `taken` (the stop may have ended the taking), else all `count`.
  std::uint64_t read_tally(const device_tally& t, std::uint64_t count, batch_tally* tally,
                           bool taken) {
    head_.resize(device_tally::head_read_words);
    copy_to_host(head_.data(), t.words, head_.size());
    const std::uint64_t ran = taken ? std::min<std::uint64_t>(head_[device_tally::claimed], count)
                                    : count;
    if (!tally) return ran;
    const std::uint64_t most = head_[device_tally::most_steps];
    const std::uint64_t past = head_[device_tally::past_bins];
    NQ_EXPECTS(past <= t.past_capacity, "the list has room for every run past the bins");
    std::vector<unsigned long long> bins(head_.begin() + device_tally::head_words, head_.end());
    if (most >= device_tally::head_steps) {
      bins.resize(2 * (most + 1));
      copy_to_host(bins.data() + 2 * device_tally::head_steps,
                   t.bins() + 2 * device_tally::head_steps,
                   2 * (most + 1 - device_tally::head_steps));
    }
    for (std::uint64_t steps = 0; 2 * steps < bins.size(); ++steps) {
      if (bins[2 * steps] != 0) tally->failure.add(steps, bins[2 * steps]);
      if (bins[2 * steps + 1] != 0) tally->success.add(steps, bins[2 * steps + 1]);
    }
    if (past != 0) {
      std::vector<unsigned long long> keys(past);
      copy_to_host(keys.data(), t.past, past);
      constexpr std::uint64_t solved_bit = std::uint64_t{1} << 63;
      for (const unsigned long long key : keys)
        (key & solved_bit ? tally->success : tally->failure).add(key & ~solved_bit);
    }
    tally->restarts += head_[device_tally::restarts];
    return ran;
  }

  int device_;
  std::uint64_t slice_runs_;  // 0: a launch a job (chains) or 2^24 runs (stored outcomes)
  unsigned sms_ = 0;
  std::string name_;
  double kernel_seconds_ = 0.0;
  // Allocated at first use and grown, never shrunk: a job allocates nothing its
  // predecessors did not.
  device_buffer<unsigned long long> tally_words_, race_;
  device_buffer<chain_outcome> outcomes_;
  device_buffer<row_t> boards_;
  device_buffer<unsigned char> scratch_;
  std::unique_ptr<host_flags> flags_;
  std::vector<unsigned long long> head_;
};

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

std::unique_ptr<batch_backend> make_gpu_backend(const backend_options& options) {
  return std::make_unique<cuda::gpu_backend>(options);
}

}  // namespace nq::gpu
