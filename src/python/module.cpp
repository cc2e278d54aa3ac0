// The nqueens Python module: the CLI's commands as functions over the engine (nqueens/engine.hpp).
// Keywords are read as settings by name by the engine's rules, so checks and messages are the
// command's; results come back as numpy arrays (the solver's own board, not a copy) and dicts
// with the records' JSON fields.

#include <pybind11/eval.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cerrno>
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
  double temperature;   // sa: T; hc-anneal-p: p; else -1
  double best_fitness;  // beam, ga; else -1
  double mean_fitness;  // beam, ga; else -1
};

/// What solve returns.
struct solve_outcome {
  py::object rows;  // numpy's uint32 array, or array.array('I') without numpy
  bool solved = false;
  py::object conflicts;  // None where the CLI's JSON has null: the pairs were not counted
  index_t unplaced = 0;
  std::uint64_t steps = 0;
  std::uint64_t restarts = 0;
  double seconds = 0.0;
  std::string device;
  py::object trace;  // None unless asked for
  std::string stop_reason;
};

/// The device setting: "auto" leaves the command's default, except that parallel (which runs
/// on the CPU unless told) takes auto as the CLI does.
void add_device(keyword_settings& given, const std::string& device, const std::string& algo) {
  if (device != "auto" || algo == "parallel") given.option("device", device);
}

solve_outcome solve(py::handle n, const std::optional<std::string>& algo, py::handle seed,
                    unsigned threads, const std::string& device, py::handle max_steps,
                    py::handle time_limit, py::handle trace_switch, const py::kwargs& settings) {
  const bool trace = keyword_settings::switch_value("trace", trace_switch);
  keyword_settings given;
  given.option("queens", n, "n");
  if (algo) given.option("algo", *algo);  // None: the command's default for n
  given.option("seed", seed);
  if (threads) given.option("threads", std::to_string(threads));
  add_device(given, device, algo.value_or(""));
  if (!max_steps.is_none()) given.option("max-steps", max_steps);
  if (!time_limit.is_none()) given.option("time-limit", time_limit);
  given.settings(settings, {"chains", "chain", "memory-limit", "max-memory"}, "solve",
                 {"randomize"});
  solve_request request = engine::solve_request_from(given.named(), trace);
  if (trace && !have_numpy()) throw numpy_needed("solve(trace=True)");
  std::vector<trace_record> rows;
  if (trace)
    request.trace = [&rows](const trace_row& r) {
      rows.push_back({r.step, r.restarts, r.cost, r.temperature, r.best_fitness, r.mean_fitness});
    };
  solve_report report = run_interruptible<solve_report>([&](const job_stop& stop) {
    request.stop = stop;
    return run(request);
  });
  solve_outcome out;
  solve_result& result = report.result;
  out.solved = result.solved;
  out.unplaced = result.unplaced;
  // None where the JSON record has null: pairs a stopped run left uncounted, a placement stopped
  // with queens unplaced, and n = 2 or 3, where no board was made.
  const bool no_board = result.queen_row.empty() && !result.solved;
  out.conflicts =
      !report.pairs_counted || (report.algorithm == "parallel" && !result.solved) || no_board
          ? py::object(py::none())
          : py::object(py::int_(result.conflicts));
  out.steps = result.steps;
  out.restarts = result.restarts;
  out.seconds = result.seconds;
  out.device = report.device;
  if (solution_exists(report.n) && !result.solved)
    out.stop_reason = engine::failure_reason(request.limits, report, true);
  out.rows = rows_object(std::move(result.queen_row));
  out.trace = trace ? py::object(owning_array(std::move(rows))) : py::none();
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
    request.path = path;
    const verify_report report = run_interruptible<verify_report>(
        [&](const std::atomic<bool>*) { return run(request).report; });
    return py::module_::import("json").attr("loads")(to_json(report));
  }
  // A board is a sequence or an array of rows: None or a number is no board (numpy would make
  // it a 0-d array, refused below as a shape, which names the wrong fault).
  if (!py::isinstance<py::sequence>(rows_like) && !py::hasattr(rows_like, "__array__") &&
      !py::hasattr(rows_like, "__array_interface__"))
    throw py::type_error("verify() takes a board (a sequence or an array of rows) or a path, not " +
                         std::string(py::str(rows_like.get_type().attr("__name__"))));
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
                             std::string(py::str(item.get_type().attr("__name__"))));
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
                         std::string(py::str(path.get_type().attr("__name__"))));
  return py::module_::import("os").attr("fsencode")(path).cast<std::string>();
}

py::object count(int n, py::handle unique, unsigned threads, const std::string& device,
                 const std::optional<std::vector<int>>& devices, py::handle checkpoint,
                 py::handle checkpoint_interval, const std::string& simd) {
  // The command line's reading of its options: one set of checks and messages.
  keyword_settings given;
  given.option("queens", std::to_string(n));
  if (keyword_settings::switch_value("unique", unique)) given.option("unique", "true");
  if (threads) given.option("threads", std::to_string(threads));
  given.option("device", device);
  if (devices) {
    std::string list;
    for (const int d : *devices) {
      if (!list.empty()) list += ',';
      list += std::to_string(d);
    }
    given.option("devices", list);
  }
  if (!checkpoint.is_none())
    given.option("checkpoint", path_text(checkpoint, "count", "checkpoint"));
  given.option("checkpoint-interval", checkpoint_interval);
  given.option("simd", simd);
  count_request request = engine::count_request_from(given.named());
  const auto record = run_interruptible<nlohmann::ordered_json>([&](const job_stop& stop) {
    request.stop = stop;
    const count_report report = run(request);
    nlohmann::ordered_json json = nlohmann::ordered_json::parse(to_json(report));
    json["complete"] = report.result.complete;
    return json;
  });
  return to_python(record);
}

py::object bench(py::handle quick, const std::optional<std::string>& suite,
                 const std::optional<std::vector<std::string>>& workloads,
                 const std::string& device, py::handle time_budget, unsigned threads) {
  // The command line's reading of its options: one set of checks and messages.
  keyword_settings given;
  if (keyword_settings::switch_value("quick", quick)) given.option("quick", "true");
  if (suite) given.option("suite", *suite);
  if (workloads) {
    std::string list;
    for (const auto& w : *workloads) {
      if (!list.empty()) list += ',';
      list += w;
    }
    given.option("workloads", list);
  }
  given.option("device", device);
  // 0, the default, is the suite's budget; anything else is read as --time-budget is.
  if (!(PyLong_Check(time_budget.ptr()) || PyFloat_Check(time_budget.ptr())) ||
      PyObject_RichCompareBool(time_budget.ptr(), py::int_(0).ptr(), Py_EQ) != 1)
    given.option("time-budget", time_budget);
  if (threads) given.option("threads", std::to_string(threads));
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

PYBIND11_MODULE(nqueens, m) {
  using namespace nq::python;
  using py::arg;
  m.doc() = "N-Queens solvers, counters and statistics: the nqueens command's work as functions";
  // The trace's dtype where numpy is (the module imports without it: rows_object).
  if (have_numpy()) {
    PYBIND11_NUMPY_DTYPE(trace_record, step, restarts, cost, temperature, best_fitness,
                         mean_fitness);
  }

  // The CLI's exit codes 2 and 3, as Python exceptions. Registered before DeviceError, whose
  // translator (registered later) is tried first.
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const nq::setting_error& e) {
      // The setting as a keyword: checkpoint_interval, not --checkpoint-interval.
      const std::string message = keyword_settings::python_name(e.setting()) + " " + e.problem();
      PyErr_SetString(PyExc_ValueError, message.c_str());
    } catch (const nq::usage_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const nq::resource_error& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    }
  });
  py::register_exception<nq::device_error>(m, "DeviceError", PyExc_RuntimeError);

  py::class_<solve_outcome>(m, "SolveResult", "What solve() found: the board and how.")
      .def_readonly("rows", &solve_outcome::rows,
                    "the row of each column's queen: a uint32 numpy array (array.array('I') in "
                    "an interpreter without numpy)")
      .def_readonly("solved", &solve_outcome::solved)
      .def_readonly("conflicts", &solve_outcome::conflicts,
                    "attacking pairs left; None where not counted (as JSON's null)")
      .def_readonly("unplaced", &solve_outcome::unplaced, "parallel: queens a stop left out")
      .def_readonly("steps", &solve_outcome::steps)
      .def_readonly("restarts", &solve_outcome::restarts)
      .def_readonly("seconds", &solve_outcome::seconds)
      .def_readonly("device", &solve_outcome::device, "cpu or gpu")
      .def_readonly("trace", &solve_outcome::trace, "with trace=True: a row per step")
      .def_readonly("stop_reason", &solve_outcome::stop_reason, "why an unsolved run stopped")
      .def("__repr__", [](const solve_outcome& r) {
        return "<nqueens.SolveResult n=" + std::to_string(py::len(r.rows)) +
               (r.solved ? " solved" : " unsolved") + " steps=" + std::to_string(r.steps) +
               " device=" + r.device + ">";
      });

  m.def("_solve", &solve, arg("n"), arg("algo") = py::none(), arg("seed") = 1, arg("threads") = 0,
        arg("device") = "auto", arg("max_steps") = py::none(), arg("time_limit") = py::none(),
        arg("trace") = false, "solve() without its typed keywords: settings as **kwargs.");
  m.def(
      "verify", &verify, arg("rows"),
      "Attacking pairs and the first clash of a board (0-based rows), or of a board file (a path: "
      "text, npy or raw, detected), as `nqueens verify --json`.");
  m.def("count", &count, arg("n"), arg("unique") = true, arg("threads") = 0, arg("device") = "auto",
        arg("devices") = py::none(), arg("checkpoint") = py::none(),
        arg("checkpoint_interval") = 10.0, arg("simd") = "auto",
        "Count every solution of n queens (1 to 28) and the fundamental ones, as `nqueens count "
        "-f json`: threads (0: every core), device cpu, gpu, all or auto, devices (GPU numbers), "
        "checkpoint (a path to resume from and record to), checkpoint_interval (seconds), simd "
        "(auto, off, avx2 or avx512).");
  m.def("bench", &bench, py::kw_only(), arg("quick") = false, arg("suite") = py::none(),
        arg("workloads") = py::none(), arg("device") = "all", arg("time_budget") = 0.0,
        arg("threads") = 0,
        "Time the benchmark suite as `nqueens bench -f json` does and return its record (a dict, "
        "schema in docs/bench.md): quick (each workload once, small), suite (standard or full), "
        "workloads (names from the suite), device (cpu, gpu or all), time_budget (seconds for "
        "the whole run; 0: the suite's), threads (the all-cores figures'; 0: every core).");
  m.def("_batch", &batch, arg("n"), arg("algo"), arg("runs") = 1000, arg("seed") = 1,
        arg("device") = "auto", "batch() without its typed keywords: settings as **kwargs.");
  m.def("_sweep", &sweep, arg("n"), arg("algo"), arg("runs"), arg("grid"), arg("seed") = 1,
        arg("device") = "auto", "sweep() without its typed keywords: settings as **kwargs.");
  // solve, batch and sweep with a keyword for every setting they take (help() and an editor
  // show them), written in Python from the engine's table of settings.
  const std::vector<keyword_doc> batch_own = {
      {"threads", "worker threads (default: every core); the statistics do not depend on them"},
      {"max_steps", "per run: give up after this many steps (default: the algorithm's)"},
      {"time_limit", "per run: give up after this many seconds"}};
  const std::string code =
      typed_function("solve",
                     "n, algo=None, seed=1, threads=0, device=\"auto\", "
                     "max_steps=None, time_limit=None, trace=False",
                     "n, algo, seed, threads, device, max_steps, time_limit, trace", "_solve",
                     "Solve one board, as `nqueens solve`: a SolveResult. algo None: the "
                     "command's default, lattice on every core from 2^20 queens, min-conflicts "
                     "below.",
                     {{"chains", "local search: run C chains at once and keep the best"},
                      {"chain", "local search: run chain I alone (its replay)"},
                      {"memory_limit", "refuse boards needing more memory than this, e.g. \"8G\""},
                      {"max_memory", "bfs: the frontier's bound, e.g. \"512M\" (default 1G)"},
                      {"randomize", "backtrack, backtrack-opt, dfs: shuffle each node's rows"}}) +
      typed_function("batch", "n, algo, runs=1000, seed=1, device=\"auto\"",
                     "n, algo, runs, seed, device", "_batch",
                     "Many independent runs and their statistics: the record of `nqueens batch -f "
                     "json`.",
                     batch_own) +
      typed_function("sweep", "n, algo, runs, grid, seed=1, device=\"auto\"",
                     "n, algo, runs, grid, seed, device", "_sweep",
                     "A batch per grid point (grid as --sweep writes it, or a dict name: value or "
                     "(first, last, step)): a list of batch records.",
                     batch_own);
  py::exec(code, m.attr("__dict__"));
  m.def("solutions", &solutions, arg("n"), arg("limit") = py::none(),
        "Every solution (or the first `limit`) in lexicographic order, lazily, as uint32 arrays.");
  m.def("algorithms", &list_algorithms, "The algorithms solve() takes, as `nqueens algorithms`.");
  bind_solution_stream(m);
}
