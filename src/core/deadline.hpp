#pragma once
// A time limit checked by elapsed time rather than a fixed number of steps: a step of
// backtracking on 5000 queens costs a million times one of min-conflicts, so any fixed step
// count is either far too coarse for one or far too costly for the other.

#include <atomic>
#include <cstdint>

#include "nqueens/detail/stopwatch.hpp"

namespace nq::detail {

/// @brief Says when `limit` seconds (0: none) have passed on `clock`, or `*stop` (may be null)
/// was set, reading both about every `period` seconds whatever a step costs: the steps between
/// reads double while reads come sooner than that, and halve when one comes later.
class deadline {
 public:
  explicit deadline(double limit, const stopwatch& clock, const std::atomic<bool>* stop = nullptr,
                    double period = 0.002)
      : limit_(limit), period_(period), clock_(&clock), stop_(stop) {}

  /// Counts one step of work; true once the limit has passed or the stop was asked for.
  bool passed() {
    if (!active() || --countdown_ > 0) return false;
    return read();
  }
  /// Reads the clock now.
  bool passed_now() { return active() && read(); }

 private:
  bool read() {
    const double now = clock_->seconds();
    const double since = now - last_read_;
    last_read_ = now;
    if (since < period_ / 2 && stride_ < (std::uint64_t{1} << 32)) {
      stride_ *= 2;
    } else if (since > period_ && stride_ > 1) {
      stride_ /= 2;
    }
    countdown_ = stride_;
    return (limit_ > 0 && now >= limit_) || (stop_ && stop_->load(std::memory_order_relaxed));
  }
  bool active() const { return limit_ > 0 || stop_; }

  double limit_, period_;
  const stopwatch* clock_;
  const std::atomic<bool>* stop_;
  double last_read_ = 0;
  std::uint64_t stride_ = 1, countdown_ = 1;
};

}  // namespace nq::detail
