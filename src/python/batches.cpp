#include "python/batches.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "nqueens/engine.hpp"
#include "nqueens/settings.hpp"
#include "python/arguments.hpp"
#include "python/interruptible.hpp"

namespace py = pybind11;

namespace nq::python {
namespace {

/// batch and sweep: the engine's batch request from these settings, run on a worker thread.
py::object batch_records(keyword_settings& line, const py::kwargs& settings, const char* function,
                         const std::optional<std::string>& grid, const py::object& progress) {
  line.settings(settings, {"threads", "max-steps", "time-limit"}, function);
  const engine::named_settings given = line.named();
  batch_request request = engine::batch_request_from(given, grid.has_value());
  const std::vector<sweep_axis> axes =
      grid ? engine::sweep_from(*grid, given, request) : std::vector<sweep_axis>{};
  progress_relay relay(progress);
  // A sweep's progress is its point's: done counts that point's runs.
  if (relay.wanted())
    request.settings.progress = [&relay, runs = request.settings.runs](std::uint64_t done,
                                                                     double seconds) {
      relay.post({{"done", static_cast<double>(done), true},
                  {"runs", static_cast<double>(runs), true},
                  {"seconds", seconds, false}});
    };
  const auto records = run_interruptible<nlohmann::ordered_json>(
      [&](const job_stop& stop) {
        sweep_request sweep{request, axes, nullptr};
        sweep.batch.stop = stop;
        auto record = nlohmann::ordered_json::parse(grid ? to_json(run(sweep))
                                                         : to_json(run(sweep.batch)));
        const auto& last = record.is_array() ? record.back() : record;
        if (relay.wanted() && !last.value("interrupted", false))  // the last snapshot: all done
          relay.post({{"done", static_cast<double>(request.settings.runs), true},
                      {"runs", static_cast<double>(request.settings.runs), true},
                      {"seconds", last.value("seconds", 0.0), false}});
        return record;
      },
      &relay, [](const nlohmann::ordered_json& finished) { return to_python(finished); });
  return to_python(records);
}

/// The grid as --sweep writes it: "p=0.05:0.3:0.05,q=1:4", or a dict of name: value, name:
/// "first:last[:step]" or name: (first, last[, step]).
std::string sweep_spec(py::handle grid) {
  if (py::isinstance<py::str>(grid)) return grid.cast<std::string>();
  if (!py::isinstance<py::dict>(grid))
    throw py::type_error("grid must be a string (p=0.05:0.3:0.05,q=1:4) or a dict");
  std::string spec;
  for (const auto& [key, value] : grid.cast<py::dict>()) {
    if (!py::isinstance<py::str>(key))
      throw py::type_error("grid keys are parameter names (str), not " +
                           std::string(py::str(py::type::handle_of(key).attr("__name__"))));
    std::string name = key.cast<std::string>();
    std::replace(name.begin(), name.end(), '_', '-');
    std::string values;
    if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
      for (const auto& part : value.cast<py::sequence>()) {
        if (!values.empty()) values += ':';
        values += keyword_settings::text(name, part);
      }
    } else {
      values = keyword_settings::text(name, value);
    }
    if (!spec.empty()) spec += ',';
    spec += name + "=" + values;
  }
  return spec;
}

}  // namespace

py::object batch(py::handle n, py::handle algo, py::handle runs, py::handle seed,
                 py::handle device, const py::object& progress,
                 const py::kwargs& settings) {
  keyword_settings line;
  line.option("queens", n, "n");
  line.option("algo", algo);
  line.option("runs", runs);
  line.option("seed", seed);
  line.option("device", device);
  return batch_records(line, settings, "batch", std::nullopt, progress);
}

py::object sweep(py::handle n, py::handle algo, py::handle runs, py::handle grid,
                 py::handle seed, py::handle device, const py::object& progress,
                 const py::kwargs& settings) {
  keyword_settings line;
  line.option("queens", n, "n");
  line.option("algo", algo);
  line.option("runs", runs);
  line.option("seed", seed);
  line.option("device", device);
  return batch_records(line, settings, "sweep", sweep_spec(grid), progress);
}

}  // namespace nq::python
