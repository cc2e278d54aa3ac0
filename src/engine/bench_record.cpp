// The benchmark's record: written (schema 2), and read back to compare with, every field it
// needs checked before any work.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/bench_parts.hpp"
#include "nqueens/bench.hpp"
#include "nqueens/error.hpp"

namespace nq {

namespace {

using json = nlohmann::ordered_json;

/// Rates are positive and far from the ends of a double: a ratio of two of them is finite.
bool plausible_rate(const json& value) {
  if (!value.is_number()) return false;
  const double rate = value.get<double>();
  return std::isnormal(rate) && rate > 0 && rate < 1e30;
}

/// A positive whole number that fits in 64 bits.
bool whole(const json& value) {
  return value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() > 0);
}

/// A field of a saved record, checked: a usage_error naming the record and the field otherwise.
class record_reader {
 public:
  explicit record_reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void refuse(const std::string& problem) const {
    throw usage_error("--compare: '" + path_ + "' " + problem);
  }

  const json& field(const json& object, const std::string& where, const char* key) const {
    if (!object.contains(key)) refuse("has no field " + where + key);
    return object[key];
  }

  std::string text(const json& object, const std::string& where, const char* key) const {
    const json& value = field(object, where, key);
    if (!value.is_string()) refuse("has " + where + key + " that is not a string");
    return value.get<std::string>();
  }

  /// null or a positive whole number.
  std::optional<std::uint64_t> size(const json& object, const std::string& where,
                                    const char* key) const {
    const json& value = field(object, where, key);
    if (value.is_null()) return std::nullopt;
    if (!whole(value)) refuse("has " + where + key + " that is neither null nor a positive count");
    return value.get<std::uint64_t>();
  }

 private:
  std::string path_;
};

json read_json(const std::string& path, const record_reader& reader) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    reader.refuse("cannot be read" + (error ? " (" + error.message() + ")" : std::string()));
  // A FIFO or a device would be read until its writer stops, perhaps never.
  if (!std::filesystem::is_regular_file(status))
    reader.refuse("is not a regular file (expected a record of nqueens bench -f json)");
  constexpr std::uintmax_t most_bytes = std::uintmax_t{64} << 20;  // thousands of figures
  if (std::filesystem::file_size(path, error) > most_bytes || error)
    reader.refuse("is larger than any record of nqueens bench (64 MiB)");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) reader.refuse("cannot be read");
  try {
    return json::parse(text.str());
  } catch (const json::exception&) {
    reader.refuse("is not JSON (expected a record of nqueens bench -f json)");
  }
}

}  // namespace

namespace engine {

bench_saved_record read_bench_record(const std::string& path) {
  const record_reader reader(path);
  const json record = read_json(path, reader);
  if (!record.is_object() || !record.contains("workload") || record["workload"] != "bench")
    reader.refuse("is not a record of nqueens bench (its -f json)");
  bench_saved_record saved;
  saved.path = path;
  const json& schema = reader.field(record, "", "schema");
  if (!schema.is_number_integer() || (schema != 1 && schema != 2))
    reader.refuse("is a bench record of schema " + schema.dump() + "; this nqueens reads 1 and 2");
  saved.schema = schema.get<int>();
  saved.suite = reader.text(record, "", "suite");
  if (saved.suite != "quick" && saved.suite != "standard" && saved.suite != "full")
    reader.refuse("has suite '" + saved.suite + "' (expected quick, standard or full)");
  saved.started = reader.text(record, "", "started");
  const json& machine = reader.field(record, "", "machine");
  if (!machine.is_object()) reader.refuse("has machine that is not an object");
  saved.cpu = reader.text(machine, "machine.", "cpu");
  const json& figures = reader.field(record, "", "figures");
  if (!figures.is_array()) reader.refuse("has figures that is not a list");
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const json& f = figures[i];
    const std::string where = "figures[" + std::to_string(i) + "].";
    if (!f.is_object())
      reader.refuse("has figures[" + std::to_string(i) + "] that is not an object");
    bench_saved_figure figure;
    figure.workload = reader.text(f, where, "workload");
    figure.on = reader.text(f, where, "on");
    figure.unit = reader.text(f, where, "unit");
    const json& n = reader.field(f, where, "n");
    if (!whole(n)) reader.refuse("has " + where + "n that is not a positive count");
    figure.n = n.get<index_t>();
    const json& ran = reader.field(f, where, "ran");
    if (!ran.is_boolean()) reader.refuse("has " + where + "ran that is neither true nor false");
    figure.ran = ran.get<bool>();
    if (figure.ran) {
      const json& median = reader.field(f, where, "median");
      if (!plausible_rate(median))
        reader.refuse("has " + where + "median " + median.dump() +
                      ", not a positive rate, for a figure that ran");
      figure.median = median.get<double>();
    }
    if (saved.schema >= 2) {
      figure.runs = reader.size(f, where, "runs");
      figure.generations = reader.size(f, where, "generations");
      const std::string quality = reader.text(f, where, "quality");
      if (quality != "steady" && quality != "unsteady" && quality != "indicative")
        reader.refuse("has " + where + "quality '" + quality +
                      "' (expected steady, unsteady or indicative)");
      figure.steady = quality == "steady";
    }
    saved.figures.push_back(std::move(figure));
  }
  return saved;
}

namespace {

std::optional<std::uint64_t> runs_of(const bench_figure& f) {
  return f.runs() ? std::optional<std::uint64_t>(f.runs()) : std::nullopt;
}
std::optional<std::uint64_t> generations_of(const bench_figure& f) {
  return f.workload.steps ? std::optional<std::uint64_t>(f.workload.steps) : std::nullopt;
}
std::string size_text(index_t n, const std::optional<std::uint64_t>& runs,
                      const std::optional<std::uint64_t>& generations) {
  std::string text = "n = " + std::to_string(n);
  if (runs) text += ", " + std::to_string(*runs) + " runs";
  if (generations) text += ", " + std::to_string(*generations) + " generations";
  return text;
}

bool same_sizes(const bench_figure& now, const bench_saved_figure& saved, int schema) {
  return now.workload.n == saved.n &&
         (schema < 2 || (runs_of(now) == saved.runs && generations_of(now) == saved.generations));
}

}  // namespace

std::string bench_mismatch(const bench_saved_record& saved, bench_suite suite,
                           const std::vector<bench_figure>& planned) {
  if (saved.suite != bench_suite_name(suite))
    return "is a record of the " + saved.suite + " suite, this run the " + bench_suite_name(suite) +
           " suite";
  if (saved.schema < 2) return "is of schema 1, which does not give its workloads' sizes";
  for (const bench_figure& p : planned)
    for (const bench_saved_figure& s : saved.figures)
      if (s.workload == p.workload.name && s.on == p.target.on && !same_sizes(p, s, saved.schema))
        return "measured " + s.workload + " on " + s.on + " at " +
               size_text(s.n, s.runs, s.generations) + ", this run at " +
               size_text(p.workload.n, runs_of(p), generations_of(p));
  return {};
}

std::vector<bench_comparison_row> compare_figures(const std::vector<bench_figure>& now,
                                                  const bench_saved_record& saved) {
  std::vector<bench_comparison_row> rows;
  for (const bench_figure& f : now) {
    if (!f.ran) continue;
    for (const bench_saved_figure& s : saved.figures) {
      if (s.workload != f.workload.name || s.on != f.target.on || !s.ran ||
          !same_sizes(f, s, saved.schema))
        continue;
      rows.push_back({f.workload.name, f.target.on, f.workload.unit, s.median, f.median,
                      f.median / s.median, s.steady && f.quality == bench_quality::steady});
      break;
    }
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.ratio < b.ratio; });
  return rows;
}

}  // namespace engine

std::string to_json(const bench_report& report) {
  const auto or_null = [](const std::string& text) { return text.empty() ? json() : json(text); };
  const auto positive_or_null = [](double value) { return value > 0 ? json(value) : json(); };
  json record;
  record["workload"] = "bench";
  record["schema"] = 2;
  record["suite"] = bench_suite_name(report.suite);
  record["command"] = or_null(report.command);
  record["started"] = report.started;
  record["seconds"] = report.seconds;
  record["stopped"] = report.stopped;
  const auto or_unknown = [](int value) { return value >= 0 ? json(value) : json(); };
  record["machine"] = {{"cpu", report.cpu},
                       {"cpu_vendor", or_null(report.cpu_vendor)},
                       {"cpu_family", or_unknown(report.cpu_family)},
                       {"cpu_model", or_unknown(report.cpu_model)},
                       {"cpu_stepping", or_unknown(report.cpu_stepping)},
                       {"cpu_flags", report.cpu_flags},
                       {"cpu_mhz", positive_or_null(report.cpu_mhz)},
                       {"cpu_max_mhz", positive_or_null(report.cpu_max_mhz)},
                       {"cores", report.cores},
                       {"memory_bytes", report.memory_bytes},
                       {"os", or_null(report.os)},
                       {"kernel", or_null(report.kernel)},
                       {"arch", or_null(report.arch)}};
  json gpus = json::array();
  for (const auto& g : report.gpus)
    gpus.push_back({{"index", g.index},
                    {"name", g.name},
                    {"multiprocessors", g.multiprocessors},
                    {"clock_mhz", g.clock_mhz},
                    {"memory_clock_mhz", g.memory_clock_mhz},
                    {"memory_bytes", g.memory_bytes},
                    {"compute_capability", g.compute_capability},
                    {"driver", or_null(g.driver)},
                    {"runtime", or_null(g.runtime)}});
  record["gpus"] = std::move(gpus);
  record["build"] = {{"version", report.version},
                     {"git_sha", report.git_sha},
                     {"build_type", or_null(report.build_type)},
                     {"compiler", or_null(report.compiler)},
                     {"cuda", or_null(report.cuda)}};
  json figures = json::array();
  for (const auto& f : report.figures) {
    const bench_workload& w = f.workload;
    json row;
    row["workload"] = w.name;
    row["kind"] = w.kind;
    row["n"] = w.n;
    row["runs"] = f.runs() ? json(f.runs()) : json();
    row["generations"] = w.steps ? json(w.steps) : json();
    row["unit"] = w.unit;
    row["on"] = f.target.on;
    row["device"] = f.target.gpu >= 0 ? "gpu" : "cpu";
    row["threads"] = f.target.gpu >= 0 ? json() : json(f.target.threads);
    row["gpu"] = f.target.gpu >= 0 ? json(f.target.gpu) : json();
    row["command"] = f.command;
    row["ran"] = f.ran;
    row["why_not"] = or_null(f.why_not);
    const auto number = [&](double value) { return f.ran ? json(value) : json(); };
    row["work"] = number(f.work);
    row["repeats"] = f.repeats;
    row["quality"] = f.ran ? json(bench_quality_name(f.quality)) : json();
    row["median"] = number(f.median);
    row["min"] = number(f.min);
    row["max"] = number(f.max);
    row["spread"] = number(f.spread);
    row["seconds_median"] = number(f.seconds_median);
    row["kernel_seconds_median"] =
        f.ran && f.kernel_seconds_median >= 0 ? json(f.kernel_seconds_median) : json();
    row["kernel_median"] = f.ran && f.kernel_seconds_median >= 0 ? json(f.kernel_median) : json();
    row["simd"] = f.ran ? or_null(f.simd) : json();
    row["per_core"] =
        f.ran && f.target.gpu < 0 ? json(f.median / std::max(1u, f.target.threads)) : json();
    figures.push_back(std::move(row));
  }
  record["figures"] = std::move(figures);
  json speedups = json::array();
  for (const auto& s : report.speedups)
    speedups.push_back({{"workload", s.workload},
                        {"on", s.on},
                        {"over_all_cores", s.over_all_cores ? json(*s.over_all_cores) : json()},
                        {"over_one_core", s.over_one_core ? json(*s.over_one_core) : json()},
                        {"steady", s.steady}});
  record["speedups"] = std::move(speedups);
  if (!report.compared_with.empty()) {
    json rows = json::array();
    for (const auto& r : report.comparison)
      rows.push_back({{"workload", r.workload},
                      {"on", r.on},
                      {"unit", r.unit},
                      {"before", r.before},
                      {"now", r.now},
                      {"ratio", r.ratio},
                      {"steady", r.steady}});
    record["compared_with"] = {{"path", report.compared_with},
                               {"cpu", report.compared_cpu},
                               {"started", report.compared_started}};
    record["comparison"] = std::move(rows);
  }
  return record.dump();
}

}  // namespace nq
