#pragma once
// A request's stop (job_stop) as the one flag the CPU and GPU work reads: the caller's flag, or
// one of the bridge's own, raised too when the request's token fires.

#include <atomic>
#include <functional>
#include <stop_token>

#include "nqueens/engine.hpp"

namespace nq::engine {

class stop_bridge {
 public:
  explicit stop_bridge(const job_stop& stop)
      : flag_(stop.flag ? stop.flag : &own_),
        given_(stop.flag || stop.token.stop_possible()),
        raise_(stop.token, [flag = flag_] { flag->store(true); }) {}
  stop_bridge(const stop_bridge&) = delete;
  stop_bridge& operator=(const stop_bridge&) = delete;

  /// The flag to hand the work.
  std::atomic<bool>* flag() const { return flag_; }
  /// The flag, or null when the request gave neither a flag nor a token that can fire (the
  /// work's own limits then keep whatever stop they had).
  std::atomic<bool>* given() const { return given_ ? flag_ : nullptr; }

 private:
  std::atomic<bool> own_{false};
  std::atomic<bool>* flag_;
  bool given_;
  std::stop_callback<std::function<void()>> raise_;
};

}  // namespace nq::engine
