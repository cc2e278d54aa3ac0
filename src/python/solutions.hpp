#pragma once
// solutions(): a lazy iterator over `nqueens solutions`. The search runs on its own thread and
// hands solutions over through a short queue, waiting while the queue is full, so only what
// Python takes is searched for (plus the queue). Errors in the arguments surface at the first
// next(), as with a generator.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "nqueens/config.hpp"
#include "nqueens/engine.hpp"

namespace nq::python {

class solution_stream {
 public:
  explicit solution_stream(const solutions_request& request);
  ~solution_stream();
  solution_stream(const solution_stream&) = delete;
  solution_stream& operator=(const solution_stream&) = delete;

  /// The next solution; StopIteration at the end; KeyboardInterrupt on Ctrl-C (which ends the
  /// stream).
  pybind11::object next();  ///< a board's rows (python/rows.hpp)

 private:
  void produce();
  void close();

  static constexpr std::size_t queue_capacity = 256;
  solutions_request request_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<row_t>> queue_;
  bool finished_ = false;  // the search ended (or failed)
  bool closed_ = false;    // Python no longer wants solutions
  std::exception_ptr failure_;
  std::thread producer_;
};

void bind_solution_stream(pybind11::module_& m);

}  // namespace nq::python
