// count and bench requests from their settings by name: one reading, with its checks and
// messages, for the command line's options and Python's keywords.

#include <algorithm>
#include <sstream>
#include <thread>

#include "core/whole_number.hpp"
#include "cpu/frame_engine.hpp"
#include "nqueens/settings.hpp"
#include "nqueens/bench.hpp"
#include "nqueens/count.hpp"
#include "nqueens/error.hpp"

namespace nq::engine {

namespace {

/// --threads: 1 to 1024, every core when not given.
unsigned threads_from(const named_settings& given) {
  const std::string cores = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  const std::uint64_t threads =
      detail::parse_positive("--threads", given.value_or("threads", cores));
  if (threads > 1024)
    throw setting_error("threads", "must be at most 1024, got " + std::to_string(threads));
  return static_cast<unsigned>(threads);
}

/// A file a setting names: an empty name is refused, so that it is not taken for none.
std::string file_from(const named_settings& given, const char* setting) {
  const std::string& path = given.at(setting);
  if (path.empty()) throw setting_error(setting, "needs a file name");
  return path;
}

}  // namespace

count_request count_request_from(const named_settings& given) {
  if (!given.has("queens")) throw usage_error("missing -n: how many queens? (see --help)");
  count_request request;
  const index_t n = detail::parse_board_size(given.at("queens"));
  check_count_size(static_cast<std::int64_t>(n));
  request.n = static_cast<int>(n);
  request.unique = given.has("unique");
  request.threads = threads_from(given);
  if (given.has("checkpoint")) request.checkpoint = file_from(given, "checkpoint");
  request.checkpoint_interval =
      detail::parse_seconds("--checkpoint-interval", given.value_or("checkpoint-interval", "10"));
  request.device.kind = parse_device_kind(given.value_or("device", "auto"), true);
  if (given.has("devices")) {
    request.device.ids = parse_device_ids(given.at("devices"));
    if (request.device.kind == device_kind::cpu)
      throw usage_error("--devices needs --device gpu, all or auto");
  }
  request.simd = given.value_or("simd", "auto");
  detail::choose_frame_kernels(request.simd);  // an unknown name, or one this CPU cannot run
  return request;
}

bench_request bench_request_from(const named_settings& given) {
  bench_request request;
  if (given.has("quick") && given.has("suite"))
    throw usage_error("--quick is a suite of its own: give --quick or --suite");
  request.suite = given.has("quick")   ? bench_suite::quick
                  : given.has("suite") ? parse_bench_suite(given.at("suite"))
                                       : bench_suite::standard;
  if (given.has("workloads")) {
    std::stringstream list(given.at("workloads"));
    for (std::string name; std::getline(list, name, ',');) request.workloads.push_back(name);
    if (request.workloads.empty()) throw setting_error("workloads", "is empty");
  }
  const std::string device = given.value_or("device", "all");
  if (device != "cpu" && device != "gpu" && device != "all")
    throw setting_error("device", "must be cpu, gpu or all, got '" + device + "'");
  request.device = parse_device_kind(device, true);
  if (given.has("time-budget"))
    request.time_budget = detail::parse_seconds("--time-budget", given.at("time-budget"));
  if (given.has("threads")) request.threads = threads_from(given);
  if (given.has("compare")) {
    request.compare_with = file_from(given, "compare");
    request.compare_shared = given.has("compare-shared");
  } else if (given.has("compare-shared")) {
    throw usage_error("--compare-shared goes with --compare FILE");
  }
  return request;
}

}  // namespace nq::engine
