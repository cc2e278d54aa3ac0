#pragma once
// A whole-grid run's generations, decided on the device (population_grid.cu, beam_grid.cu): one
// thread ends each generation (the history row, the stop checks the CPU's observer makes, the
// time limit on the device's clock, whether the run goes on) and every later launch of the run
// returns at once when it is done. The host queues generations in batches without reading
// anything between them, raises the mapped stop flag while it waits for a batch, and reads the
// mapped done flag after it: one wait per batch, no copy per generation.

#include <atomic>
#include <cstdint>

#include "kernels/device_ops.cuh"
#include "kernels/population.cuh"
#include "kernels/runtime.cuh"

namespace nq::cuda {

/// A run's progress, in device memory (zeroed before the run), written by one thread at a time.
struct run_control {
  std::uint64_t steps;     // generations made
  std::uint64_t start_ns;  // the device's clock when the run started (the time limit)
  std::uint32_t done;      // nothing more: the run's later launches return at once
  std::uint32_t stopped;   // by the stop flag or the time limit
};

/// What the launches of a run see of its control.
struct control_view {
  run_control* control;
  const unsigned* stop;  // mapped, or null
  unsigned* done_flag;   // mapped: raised once the run is done
  std::uint64_t max_steps, time_limit_ns;

  NQ_HD bool done() const { return control->done != 0; }

  /// One thread, in the run's first launch.
  NQ_HD void start() const { control->start_ns = time_limit_ns ? clock_ns() : 0; }

  NQ_HD bool must_stop() const {
    if (stop && stop_raised(stop)) return true;
    return time_limit_ns != 0 && clock_ns() - control->start_ns >= time_limit_ns;
  }

  NQ_HD void finish(bool stopped) const {
    control->stopped = stopped;
    control->done = 1;
    raise_flag(done_flag);
  }

  /// One thread, once generation steps (+ 1 when `made`: a new one) has been summarised with
  /// least key `least`: its history row, then whether the run goes on, as the CPU decides.
  NQ_HD void end_generation(bool made, std::uint64_t least, std::uint64_t fitness_sum,
                            generation_summary* history) const {
    if (made) ++control->steps;
    const std::uint64_t best = least >> 32;
    if (history) history[control->steps] = {best, fitness_sum};
    const bool stopped = must_stop();
    if (best == 0 || stopped || (max_steps != 0 && control->steps >= max_steps)) finish(stopped);
  }

  /// One thread, within a generation (beam): a stop or the time limit drops it, as the CPU's
  /// interrupted beam does.
  NQ_HD void cut() const {
    if (must_stop()) finish(true);
  }
};

/// Generations a batch holds once the batches have grown: a generation queued after the run
/// is done costs its launches and little else, but only up to about 2^25 items of work a
/// batch are put at stake (a wide beam's generation has its own wait).
inline std::uint64_t batch_generations(std::uint64_t work_per_generation) {
  constexpr std::uint64_t most = 32, stake = std::uint64_t{1} << 25;
  const std::uint64_t fit = stake / (work_per_generation ? work_per_generation : 1);
  return fit < 1 ? 1 : fit > most ? most : fit;
}

/// The host's side of a run: the stop flag, the done flag, and the batches. `generation(g,
/// current)` queues generation g (from population `current` to `current ^ 1`).
class generation_driver {
 public:
  explicit generation_driver(const std::atomic<bool>* stop) : stop_(stop), flags_(2) {
    if (stop_ && stop_->load(std::memory_order_relaxed)) raise_flag(flags_.host());
  }
  const unsigned* stop_flag() { return stop_ ? flags_.device() : nullptr; }
  unsigned* done_flag() { return flags_.device() + 1; }

  /// Queues generations in batches of 1, 2, 4, ... up to `most` until the device says done
  /// (or max_steps are queued), waiting once per batch.
  template <class Generation>
  void run(std::uint64_t most, std::uint64_t max_steps, Generation generation) {
    std::uint64_t queued = 0;
    unsigned current = 0;
    for (std::uint64_t batch = 1;; batch = batch * 2 < most ? batch * 2 : most) {
      wait_raising(stop_, flags_.host());  // the start, then the batch before
      // wait_raising raises the flag only while the stream is busy: a stop that came as a batch
      // drained reaches the device here, before the next batch is queued.
      if (stop_ && stop_->load(std::memory_order_relaxed)) raise_flag(flags_.host());
      if (read_flag(flags_.host() + 1) || (max_steps != 0 && queued >= max_steps)) return;
      for (std::uint64_t i = 0; i < batch && (max_steps == 0 || queued < max_steps); ++i) {
        generation(++queued, current);
        current ^= 1;
      }
    }
  }

 private:
  const std::atomic<bool>* stop_;
  mapped_buffer<unsigned> flags_;  // the stop flag, then the done flag
};

}  // namespace nq::cuda
