// The nqueens Python module: the CLI's commands as functions over the engine (nqueens/engine.hpp).
// Keywords are read as settings by name by the engine's rules, so checks and messages are the
// command's; results come back as numpy arrays (the solver's own board, not a copy) and dicts
// with the records' JSON fields.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/board_io.hpp"
#include "core/whole_number.hpp"
#include "nqueens/settings.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/bench.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"
#include "nqueens/systematic.hpp"
#include "nqueens/verify.hpp"
#include "python/arguments.hpp"
#include "python/batches.hpp"
#include "python/signatures.hpp"
#include "python/interruptible.hpp"
#include "python/rows.hpp"
#include "python/solutions.hpp"

namespace py = pybind11;

namespace nq::python {
namespace {

/// One row of a trace, as the numpy structured array holds it.
struct trace_record {
  std::uint64_t step;
  std::uint64_t restarts;
  std::uint64_t cost;
  double temperature;   // sa: T; hc-anneal-p: p; else NaN
  double best_fitness;  // beam, ga; else NaN
  double mean_fitness;  // beam, ga; else NaN
};

/// A trace column's value, NaN where the column does not apply (the engine writes -1 there).
double or_nan(double value) { return value < 0 ? std::nan("") : value; }

/// Whether a keyword holds the integer 0 (threads' default: every core); anything else is
/// read and judged as the option's value is.
bool is_zero(py::handle value) {
  return PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr()) &&
         py::reinterpret_borrow<py::int_>(value).equal(py::int_(0));
}

/// The device setting: "auto" leaves the command's default, except that parallel (which runs
/// on the CPU unless told) takes auto as the CLI does.
void add_device(keyword_settings& given, const std::string& device, const std::string& algo) {
  if (device != "auto" || algo == "parallel") given.option("device", device);
}

/// solve(): the report's fields as a dict, which the package's SolveResult holds.
py::dict solve(py::handle n, py::handle algo, py::handle seed, py::handle threads,
               py::handle device, py::handle max_steps, py::handle time_limit,
               py::handle trace_switch, const std::optional<std::vector<row_t>>& start,
               const py::object& progress, const py::kwargs& settings) {
  const bool trace = keyword_settings::switch_value("trace", trace_switch);
  keyword_settings given;
  given.option("queens", n, "n");
  const std::string algorithm = algo.is_none() ? "" : keyword_settings::text("algo", algo);
  if (!algo.is_none()) given.option("algo", algorithm);  // None: the command's default for n
  given.option("seed", seed);
  if (!is_zero(threads)) given.option("threads", threads);
  add_device(given, keyword_settings::text("device", device), algorithm);
  if (!max_steps.is_none()) given.option("max-steps", max_steps);
  if (!time_limit.is_none()) given.option("time-limit", time_limit);
  given.settings(settings, {"chains", "chain", "memory-limit", "max-memory"}, "solve",
                 {"randomize"});
  solve_request request = engine::solve_request_from(given.named(), trace);
  if (trace && !have_numpy()) throw numpy_needed("solve(trace=True)");
  if (start) request.start = *start;
  std::vector<trace_record> rows;
  if (trace)
    request.trace = [&rows](const trace_row& r) {
      rows.push_back({r.step, r.restarts, r.cost, or_nan(r.temperature), or_nan(r.best_fitness),
                      or_nan(r.mean_fitness)});
    };
  progress_relay relay(progress);
  if (relay.wanted())
    request.progress = [&relay](const solve_progress& p) {
      relay.post({{"fraction", p.fraction, false},
                  {"steps", static_cast<double>(p.steps), true},
                  {"restarts", static_cast<double>(p.restarts), true},
                  {"seconds", p.seconds, false}});
    };
  solve_report report = run_interruptible<solve_report>(
      [&](const job_stop& stop) {
        request.stop = stop;
        solve_report done = run(request);
        const solve_result& r = done.result;
        if (relay.wanted() && !stop.token.stop_requested())  // the last snapshot: all of it
          relay.post({{"fraction", 1.0, false},
                      {"steps", static_cast<double>(r.steps), true},
                      {"restarts", static_cast<double>(r.restarts), true},
                      {"seconds", r.seconds, false}});
        return done;
      },
      &relay);
  solve_result& result = report.result;
  py::dict out;
  out["n"] = report.n;
  out["algorithm"] = report.algorithm;
  out["seed"] = report.seed;
  out["solved"] = result.solved;
  // None where the JSON record has null: pairs a stopped run left uncounted, a placement stopped
  // with queens unplaced, and n = 2 or 3, where no board was made.
  const bool no_board = result.queen_row.empty() && !result.solved;
  out["conflicts"] =
      !report.pairs_counted || (report.algorithm == "parallel" && !result.solved) || no_board
          ? py::object(py::none())
          : py::object(py::int_(result.conflicts));
  out["unplaced"] = result.unplaced;
  out["steps"] = result.steps;
  out["restarts"] = result.restarts;
  out["seconds"] = result.seconds;
  out["device"] = report.device;
  out["stop_reason"] = solution_exists(report.n) && !result.solved
                           ? engine::failure_reason(request.limits, report, true)
                           : std::string();
  out["rows"] = rows_object(std::move(result.queen_row));
  out["trace"] = trace ? py::object(owning_array(std::move(rows))) : py::object(py::none());
  return out;
}

std::string path_text(py::handle path, const char* function, const char* keyword);

/// The ValueError for a row off a board of n queens (rows 0-based, columns too).
py::value_error row_outside(std::size_t col, long long row, std::size_t n) {
  return py::value_error("column " + std::to_string(col) + " has row " + std::to_string(row) +
                         ", outside 0.." + std::to_string(n - 1) + " (rows are 0-based)");
}

/// rows as a board: zero-copy when they are already C-contiguous uint32, else converted; a path
/// (str or os.PathLike) names a board file.
py::object verify(py::handle rows_like) {
  if (py::isinstance<py::str>(rows_like) || py::hasattr(rows_like, "__fspath__")) {
    const std::string path = path_text(rows_like, "verify", "rows");
    // npy, raw and one-line positions stream, as in nqueens verify; the rest is held.
    verify_request request;
    request.path = path == "-" ? "./-" : path;  // a file named "-": Python's stdin is sys.stdin
    const verify_report report = run_interruptible<verify_report>(
        [&](const std::atomic<bool>*) { return run(request).report; });
    return py::module_::import("json").attr("loads")(to_json(report));
  }
  // A board is a sequence or an array of rows: None or a number is no board (numpy would make
  // it a 0-d array, refused below as a shape, which names the wrong fault).
  if (!py::isinstance<py::sequence>(rows_like) && !py::hasattr(rows_like, "__array__") &&
      !py::hasattr(rows_like, "__array_interface__"))
    throw py::type_error("verify() takes a board (a sequence or an array of rows) or a path, not " +
                         std::string(py::str(py::type::handle_of(rows_like).attr("__name__"))));
  if (!have_numpy()) {
    // A sequence of ints, read one by one.
    if (!py::isinstance<py::sequence>(rows_like)) throw numpy_needed("verify() of an array");
    const auto items = rows_like.cast<py::sequence>();
    if (items.size() == 0) throw py::value_error("rows is empty: no board to read");
    std::vector<row_t> board;
    board.reserve(items.size());
    for (std::size_t col = 0; col < items.size(); ++col) {
      const py::object item = items[col];
      if (!PyIndex_Check(item.ptr()) || PyBool_Check(item.ptr()))
        throw py::type_error("rows must hold integers, not " +
                             std::string(py::str(py::type::handle_of(item).attr("__name__"))));
      const auto row = item.cast<long long>();
      if (row < 0 || static_cast<unsigned long long>(row) >= items.size())
        throw row_outside(col, row, items.size());
      board.push_back(static_cast<row_t>(row));
    }
    verify_request request;
    request.board = board;
    return py::module_::import("json").attr("loads")(to_json(run(request).report));
  }
  const py::array given = py::module_::import("numpy").attr("asarray")(rows_like);
  if (given.ndim() != 1) throw py::value_error("rows must be one-dimensional (a row per column)");
  // Before the type: numpy makes [] float64.
  if (given.size() == 0) throw py::value_error("rows is empty: no board to read");
  const char kind = given.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error("rows must hold integers, not " + std::string(py::str(given.dtype())));
  py::array_t<row_t, py::array::c_style> rows;
  if (kind == 'i' || given.itemsize() > 4) {
    // Checked as signed 64-bit values first, so -1 or 2^32 is not wrapped into a valid row.
    auto wide = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(given);
    const auto view = wide.unchecked<1>();
    for (py::ssize_t col = 0; col < view.shape(0); ++col)
      if (view(col) < 0 || view(col) >= view.shape(0))
        throw row_outside(static_cast<std::size_t>(col), view(col),
                          static_cast<std::size_t>(view.shape(0)));
    rows = py::array_t<row_t, py::array::c_style | py::array::forcecast>::ensure(wide);
  } else {
    rows = py::array_t<row_t, py::array::c_style | py::array::forcecast>::ensure(given);
  }
  const std::span<const row_t> board(rows.data(), static_cast<std::size_t>(rows.size()));
  for (std::size_t col = 0; col < board.size(); ++col)
    if (board[col] >= board.size()) throw row_outside(col, board[col], board.size());
  verify_request request;
  request.board = board;
  const verify_report report = run_interruptible<verify_report>(
      [&](const std::atomic<bool>*) { return run(request).report; });
  return py::module_::import("json").attr("loads")(to_json(report));
}

/// A path given as str, bytes or os.PathLike, as the file system spells it; anything else (a
/// number would have named a file "5") is a TypeError.
std::string path_text(py::handle path, const char* function, const char* keyword) {
  if (!py::isinstance<py::str>(path) && !py::isinstance<py::bytes>(path) &&
      !py::hasattr(path, "__fspath__"))
    throw py::type_error(std::string(function) + "() " + keyword +
                         " takes a path (str or os.PathLike), not " +
                         std::string(py::str(py::type::handle_of(path).attr("__name__"))));
  return py::module_::import("os").attr("fsencode")(path).cast<std::string>();
}

py::object count(py::handle n, py::handle unique, py::handle threads, py::handle device,
                 py::handle devices, py::handle checkpoint, py::handle checkpoint_interval,
                 py::handle simd, const py::object& progress) {
  // The command line's reading of its options: one set of checks and messages.
  keyword_settings given;
  given.option("queens", n, "n");
  if (keyword_settings::switch_value("unique", unique)) given.option("unique", "true");
  if (!is_zero(threads)) given.option("threads", threads);
  given.option("device", device);
  if (!devices.is_none()) given.option("devices", keyword_settings::list_text("devices", devices));
  if (!checkpoint.is_none())
    given.option("checkpoint", path_text(checkpoint, "count", "checkpoint"));
  given.option("checkpoint-interval", checkpoint_interval);
  given.option("simd", simd);
  count_request request = engine::count_request_from(given.named());
  progress_relay relay(progress);
  if (relay.wanted())
    request.progress = [&relay](const count_progress& p) {
      relay.post({{"done", static_cast<double>(p.done), true},
                  {"total", static_cast<double>(p.total), true},
                  {"resumed", static_cast<double>(p.resumed), true},
                  {"solutions", static_cast<double>(p.solutions), true},
                  {"seconds", p.seconds, false}});
    };
  const auto record = run_interruptible<nlohmann::ordered_json>(
      [&](const job_stop& stop) {
        request.stop = stop;
        const count_report report = run(request);
        nlohmann::ordered_json json = nlohmann::ordered_json::parse(to_json(report));
        json["complete"] = report.result.complete;
        if (relay.wanted() && report.result.complete)  // the last snapshot: every subproblem
          relay.post({{"done", json.value("subproblems", 0.0), true},
                      {"total", json.value("subproblems", 0.0), true},
                      {"resumed", json.value("resumed_subproblems", 0.0), true},
                      {"solutions", json.value("solutions", 0.0), true},
                      {"seconds", json.value("seconds", 0.0), false}});
        return json;
      },
      &relay, [](const nlohmann::ordered_json& counted) { return to_python(counted); });
  return to_python(record);
}

py::object bench(py::handle quick, py::handle suite, py::handle workloads, py::handle device,
                 py::handle time_budget, py::handle threads) {
  // The command line's reading of its options: one set of checks and messages.
  keyword_settings given;
  if (keyword_settings::switch_value("quick", quick)) given.option("quick", "true");
  if (!suite.is_none()) given.option("suite", suite);
  if (!workloads.is_none())
    given.option("workloads", keyword_settings::list_text("workloads", workloads));
  given.option("device", device);
  // 0, the default, is the suite's budget; anything else is read as --time-budget is.
  if (!(PyLong_Check(time_budget.ptr()) || PyFloat_Check(time_budget.ptr())) ||
      PyObject_RichCompareBool(time_budget.ptr(), py::int_(0).ptr(), Py_EQ) != 1)
    given.option("time-budget", time_budget);
  if (!is_zero(threads)) given.option("threads", threads);
  bench_request request = engine::bench_request_from(given.named());
  const std::string record = run_interruptible<std::string>([&](const job_stop& stop) {
    request.stop = stop;
    bench_report report = run(request);
    report.command = "nqueens.bench()";
    return to_json(report);
  });
  return py::module_::import("json").attr("loads")(record);
}

py::list list_algorithms() {
  py::list out;
  for (const auto& a : algorithms()) {
    py::dict entry;
    entry["name"] = std::string(a.name);
    entry["summary"] = std::string(a.summary);
    entry["steps"] = std::string(a.steps);
    out.append(entry);
  }
  return out;
}

std::unique_ptr<solution_stream> solutions(py::handle n, py::handle limit) {
  solutions_request request;
  request.n = detail::parse_board_size(keyword_settings::text("n", n));
  if (!limit.is_none())
    request.limit = detail::parse_positive("--limit", keyword_settings::text("limit", limit));
  if (request.n > max_systematic_n)  // here, not once the stream has started
    throw usage_error("-n " + std::to_string(request.n) + " is above the enumeration limit of " +
                      std::to_string(max_systematic_n));
  return std::make_unique<solution_stream>(request);
}

}  // namespace
}  // namespace nq::python

PYBIND11_MODULE(_native, m) {
  using namespace nq::python;
  using py::arg;
  m.doc() = "The nqueens package's native half: the engine's requests from keywords. Call the "
            "package's functions (nqueens.solve, ...), which check and document their keywords.";
  // The trace's dtype where numpy is (the module imports without it: rows_object).
  if (have_numpy()) {
    PYBIND11_NUMPY_DTYPE(trace_record, step, restarts, cost, temperature, best_fitness,
                         mean_fitness);
  }

  // The CLI's exit codes 2 and 3, as Python exceptions, their options named as keywords.
  // Registered before DeviceError, whose translator (registered later) is tried first.
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const nq::setting_error& e) {
      // The setting as a keyword: checkpoint_interval, not --checkpoint-interval.
      const std::string message =
          keyword_settings::keyword_message(keyword_settings::python_name(e.setting()) + " " + e.problem());
      PyErr_SetString(PyExc_ValueError, message.c_str());
    } catch (const nq::usage_error& e) {
      PyErr_SetString(PyExc_ValueError, keyword_settings::keyword_message(e.what()).c_str());
    } catch (const nq::resource_error& e) {
      PyErr_SetString(PyExc_MemoryError, keyword_settings::keyword_message(e.what()).c_str());
    }
  });
  py::register_exception<nq::device_error>(m, "DeviceError", PyExc_RuntimeError);

  m.attr("__version__") = NQ_VERSION;
  m.def("settings", &setting_table,
        "The algorithms' settings as keywords: (name, help, kind), kind switch, word or number.");
  m.def("solve", &solve, arg("n"), arg("algo") = py::none(), arg("seed") = 1, arg("threads") = 0,
        arg("device") = "auto", arg("max_steps") = py::none(), arg("time_limit") = py::none(),
        arg("trace") = false, arg("start") = py::none(), arg("progress") = py::none(),
        "A solve from keywords (settings as **kwargs): a dict of the report.");
  m.def("verify", &verify, arg("rows"), "A verify of a board or a board file: verify --json's.");
  m.def("count", &count, arg("n"), arg("unique") = true, arg("threads") = 0,
        arg("device") = "auto", arg("devices") = py::none(), arg("checkpoint") = py::none(),
        arg("checkpoint_interval") = 10.0, arg("simd") = "auto", arg("progress") = py::none(),
        "A count from keywords: count -f json's record, plus complete.");
  m.def("bench", &bench, arg("quick") = false, arg("suite") = py::none(),
        arg("workloads") = py::none(), arg("device") = "all", arg("time_budget") = 0.0,
        arg("threads") = 0, "A benchmark from keywords: bench -f json's record.");
  m.def("batch", &batch, arg("n"), arg("algo"), arg("runs") = 1000, arg("seed") = 1,
        arg("device") = "auto", arg("progress") = py::none(),
        "A batch from keywords (settings as **kwargs): batch -f json's record.");
  m.def("sweep", &sweep, arg("n"), arg("algo"), arg("runs"), arg("grid"), arg("seed") = 1,
        arg("device") = "auto", arg("progress") = py::none(),
        "A sweep from keywords (settings as **kwargs): a batch record per point.");
  m.def("solutions", &solutions, arg("n"), arg("limit") = py::none(),
        "Every solution (or the first `limit`) in lexicographic order, lazily, as uint32 arrays.");
  m.def("algorithms", &list_algorithms, "The algorithms, as `nqueens algorithms`.");
  bind_solution_stream(m);
}
