#pragma once
// Long calls from Python: the work runs on a worker thread with the GIL released, while the
// calling thread checks for signals every few milliseconds and hands the work's progress to the
// caller's progress= function. Ctrl-C raises the work's stop flag (which the CPU paths read
// where they read the clock), waits for it to end, and then raises KeyboardInterrupt, with what
// the work finished as its `result` where the work reports it (batch, sweep).

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

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

/// One field of a progress snapshot: a whole number or a real one.
struct progress_field {
  const char* name;
  double value;
  bool whole;
};

/// Progress snapshots posted by the work's threads, handed as dicts to a Python function on the
/// calling thread (the latest one at each poll; none are queued, so a slow function slows
/// nothing but itself).
class progress_relay {
 public:
  explicit progress_relay(pybind11::object function) : function_(std::move(function)) {
    if (!function_.is_none() && !PyCallable_Check(function_.ptr()))
      throw pybind11::type_error(
          "progress must be callable (it is called with a dict), not " +
          std::string(pybind11::str(pybind11::type::handle_of(function_).attr("__name__"))));
  }
  bool wanted() const { return !function_.is_none(); }
  /// From any thread.
  void post(std::vector<progress_field> fields) {
    const std::lock_guard lock(mutex_);
    latest_ = std::move(fields);
  }
  /// With the GIL: calls the function with the latest snapshot, if one is new. What the
  /// function raises propagates (error_already_set).
  void deliver() {
    std::optional<std::vector<progress_field>> fields;
    {
      const std::lock_guard lock(mutex_);
      fields.swap(latest_);
    }
    if (!fields || !wanted()) return;
    pybind11::dict snapshot;
    for (const auto& f : *fields) {
      if (f.whole)
        snapshot[f.name] = pybind11::int_(static_cast<std::uint64_t>(f.value));
      else
        snapshot[f.name] = pybind11::float_(f.value);
    }
    function_(snapshot);
  }

 private:
  pybind11::object function_;
  std::mutex mutex_;
  std::optional<std::vector<progress_field>> latest_;
};

/// Sets `make()` as `result` on the pending KeyboardInterrupt (not on another error, such as one
/// a progress function raised), so that an interrupted call hands back what finished; `make`
/// runs with no error pending.
template <class Make>
void attach_to_pending_error(Make make) {
  PyObject* type = nullptr;
  PyObject* value = nullptr;
  PyObject* trace = nullptr;
  PyErr_Fetch(&type, &value, &trace);
  PyErr_NormalizeException(&type, &value, &trace);
  if (value != nullptr && PyErr_GivenExceptionMatches(value, PyExc_KeyboardInterrupt)) {
    try {
      const pybind11::object result = make();
      if (PyObject_SetAttrString(value, "result", result.ptr()) != 0) PyErr_Clear();
    } catch (pybind11::error_already_set&) {
      // The finished part could not be made (a second Ctrl-C, say): raised without it.
    } catch (...) {
      PyErr_Clear();
    }
  }
  PyErr_Restore(type, value, trace);
}

/// Runs `work(stop)` to its end on a worker thread, the GIL released meanwhile, and returns what
/// it returned (or rethrows what it threw); `stop` is an engine request's job_stop where work
/// takes one, else a flag. A signal whose handler raises (Ctrl-C), or a progress function that
/// raises, requests the stop, waits for the work to wind down, and throws that Python error;
/// `keep`, when given, turns what the stopped work returned into the error's `result`.
template <class Result, class Work, class Keep = std::nullptr_t>
Result run_interruptible(Work&& work, progress_relay* progress = nullptr, Keep keep = nullptr) {
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
  // Stops and joins the worker on every way out, an exception's included.
  struct joiner {
    std::thread& worker;
    std::atomic<bool>& stop;
    std::stop_source& source;
    void operator()(bool stopping) {
      if (!worker.joinable()) return;
      if (stopping) {
        stop.store(true);
        source.request_stop();
      }
      pybind11::gil_scoped_release release;
      worker.join();
    }
    ~joiner() { (*this)(true); }
  } join{worker, stop, source};
  // Calls the progress function with the latest snapshot; false when it raised (the error is
  // then pending).
  const auto deliver = [&] {
    if (progress == nullptr) return true;
    try {
      progress->deliver();
      return true;
    } catch (pybind11::error_already_set& raised) {
      raised.restore();  // pending again, raised below once the work has stopped
      return false;
    }
  };
  bool finished = false;
  for (;;) {
    {
      pybind11::gil_scoped_release release;
      std::unique_lock lock(mutex);
      finished = changed.wait_for(lock, signal_poll_period, [&] { return done; });
    }
    if (finished || PyErr_CheckSignals() != 0 || !deliver()) break;
  }
  // Done: the last snapshot, and a signal that came as the work ended still gets the result.
  if (finished && !failure && deliver()) PyErr_CheckSignals();
  const bool stopped = PyErr_Occurred() != nullptr;
  join(stopped);
  if (stopped) {
    if constexpr (!std::is_same_v<Keep, std::nullptr_t>)
      if (result && !failure) attach_to_pending_error([&] { return keep(*result); });
    throw pybind11::error_already_set();
  }
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

}  // namespace nq::python
