#include "python/solutions.hpp"

#include "python/interruptible.hpp"
#include "python/rows.hpp"

namespace py = pybind11;

namespace nq::python {

solution_stream::solution_stream(const solutions_request& request)
    : request_(request), producer_([this] { produce(); }) {}

solution_stream::~solution_stream() { close(); }

void solution_stream::produce() {
  try {
    request_.stop.flag = &stop_;
    run(request_, [this](std::span<const row_t> rows) {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return closed_ || queue_.size() < queue_capacity; });
      if (closed_) return false;
      queue_.emplace_back(rows.begin(), rows.end());
      changed_.notify_all();
      return true;
    });
  } catch (...) {
    const std::lock_guard lock(mutex_);
    failure_ = std::current_exception();
  }
  const std::lock_guard lock(mutex_);
  finished_ = true;
  changed_.notify_all();
}

void solution_stream::close() {
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }
  stop_.store(true);
  if (producer_.joinable()) {
    py::gil_scoped_release release;
    producer_.join();
  }
}

py::object solution_stream::next() {
  if (!wait_or_signal(mutex_, changed_, [&] { return finished_ || !queue_.empty(); })) {
    close();
    throw py::error_already_set();
  }
  std::unique_lock lock(mutex_);
  if (queue_.empty()) {
    if (failure_) {
      auto failure = std::exchange(failure_, nullptr);
      lock.unlock();
      std::rethrow_exception(failure);
    }
    throw py::stop_iteration();
  }
  std::vector<row_t> rows = std::move(queue_.front());
  queue_.pop_front();
  changed_.notify_all();
  lock.unlock();
  return rows_object(std::move(rows));
}

void bind_solution_stream(py::module_& m) {
  py::class_<solution_stream>(m, "SolutionIterator", "Solutions in lexicographic order, lazily.")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &solution_stream::next);
}

}  // namespace nq::python
