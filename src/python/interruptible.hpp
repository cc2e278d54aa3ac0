#pragma once
// Long calls from Python: the work runs on a worker thread with the GIL released, while the
// calling thread checks for signals every few milliseconds. Ctrl-C raises the work's stop flag
// (which the CPU paths read where they read the clock), waits for it to end, and then raises
// KeyboardInterrupt.

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <type_traits>

#include "nqueens/engine.hpp"

namespace nq::python {

/// How often the calling thread looks for a signal; well under the 0.2 s a user waits.
inline constexpr std::chrono::milliseconds signal_poll_period{20};

/// Waits, without the GIL, until `ready()` holds (checked under `mutex` whenever `changed` is
/// notified); checks for signals between waits. Returns false when a signal handler raised (the
/// Python error is then set), true when ready.
template <class Ready>
bool wait_or_signal(std::mutex& mutex, std::condition_variable& changed, Ready ready) {
  for (;;) {
    {
      pybind11::gil_scoped_release release;
      std::unique_lock lock(mutex);
      if (changed.wait_for(lock, signal_poll_period, ready)) return true;
    }
    if (PyErr_CheckSignals() != 0) return false;
  }
}

/// Runs `work(stop)` to its end on a worker thread, the GIL released meanwhile, and returns what
/// it returned (or rethrows what it threw); `stop` is an engine request's job_stop where work
/// takes one, else a flag. A signal whose handler raises (Ctrl-C) requests the stop, waits for
/// the work to wind down, and throws that Python error.
template <class Result, class Work>
Result run_interruptible(Work&& work) {
  std::atomic<bool> stop{false};
  std::stop_source source;
  std::optional<Result> result;
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable changed;
  bool done = false;
  std::thread worker([&] {
    try {
      if constexpr (std::is_invocable_v<Work, const job_stop&>)
        result.emplace(work(job_stop{source.get_token(), &stop}));
      else
        result.emplace(work(&stop));
    } catch (...) {
      failure = std::current_exception();
    }
    const std::lock_guard lock(mutex);
    done = true;
    changed.notify_all();
  });
  const bool finished = wait_or_signal(mutex, changed, [&] { return done; });
  if (!finished) {
    stop.store(true);
    source.request_stop();
  }
  {
    pybind11::gil_scoped_release release;
    worker.join();
  }
  if (!finished) throw pybind11::error_already_set();
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

}  // namespace nq::python
