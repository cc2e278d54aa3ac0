// The count request: the GPUs it takes, the CPU beside them, and its record.

#include <algorithm>
#include <thread>

#include "core/machine.hpp"
#include "engine/count_engines.hpp"
#include "engine/stop_bridge.hpp"
#include "nqueens/error.hpp"

#if NQ_WITH_CUDA
#include "kernels/gpu.hpp"
#endif

namespace nq {
namespace engine {

std::vector<int> choose_gpus(const count_request& request) {
  const device_kind device = request.device.kind;
  if (device == device_kind::cpu || request.n < 4) return {};
  const bool needed = device == device_kind::gpu || !request.device.ids.empty();
#if NQ_WITH_CUDA
  const int present = gpu::device_count();
  if (present == 0) {
    if (needed) throw device_error("no CUDA device available");
    return {};
  }
  if (request.device.ids.empty()) {
    std::vector<int> every(static_cast<std::size_t>(present));
    for (int d = 0; d < present; ++d) every[static_cast<std::size_t>(d)] = d;
    return every;
  }
  for (const int d : request.device.ids)
    if (d < 0 || d >= present)
      throw usage_error("--devices: there is no CUDA device " + std::to_string(d) +
                        " (this machine has " + std::to_string(present) + ", numbered 0 to " +
                        std::to_string(present - 1) + ")");
  return request.device.ids;
#else
  if (needed) throw device_error("no CUDA device available (this nqueens was built without CUDA)");
  return {};
#endif
}

struct gpu_engines::parts {
#if NQ_WITH_CUDA
  std::vector<std::unique_ptr<gpu::frame_counter>> counters;
  std::vector<std::string> names;
#endif
};

gpu_engines::gpu_engines(int n, const std::vector<int>& gpus) : parts_(std::make_unique<parts>()) {
#if NQ_WITH_CUDA
  for (const int d : gpus) {
    parts_->counters.push_back(std::make_unique<gpu::frame_counter>(n, -1, d));
    parts_->names.push_back(gpu::device_name(d));
  }
#else
  (void)n;
  NQ_EXPECTS(gpus.empty(), "GPUs need a CUDA build");
#endif
}

gpu_engines::~gpu_engines() = default;
gpu_engines::gpu_engines(gpu_engines&&) noexcept = default;

std::size_t gpu_engines::size() const {
#if NQ_WITH_CUDA
  return parts_->counters.size();
#else
  return 0;
#endif
}

std::vector<slice_counter_fn> gpu_engines::counters() const {
  std::vector<slice_counter_fn> out;
#if NQ_WITH_CUDA
  for (const auto& c : parts_->counters)
    out.push_back([counter = c.get()](const std::vector<std::uint32_t>& indices,
                                      const std::atomic<bool>* stop, const auto& finished) {
      counter->count(indices, stop, finished);
    });
#endif
  return out;
}

std::size_t gpu_engines::frames() const {
#if NQ_WITH_CUDA
  if (!parts_->counters.empty()) return parts_->counters.front()->frames();
#endif
  return 0;
}

std::string gpu_engines::name() const {
#if NQ_WITH_CUDA
  const auto& names = parts_->names;
  if (names.size() == 1) return names[0];
  if (!names.empty() &&
      std::all_of(names.begin(), names.end(), [&](const auto& name) { return name == names[0]; }))
    return std::to_string(names.size()) + " x " + names[0];
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
#else
  return "";
#endif
}

double gpu_engines::kernel_seconds() const {
  double seconds = 0.0;
#if NQ_WITH_CUDA
  for (const auto& c : parts_->counters) seconds += c->kernel_seconds();
#endif
  return seconds;
}

count_report count_on(const count_request& request, const gpu_engines& gpus) {
  count_settings settings;
  settings.threads =
      request.threads ? request.threads : std::max(1u, std::thread::hardware_concurrency());
  settings.checkpoint = request.checkpoint;
  settings.checkpoint_interval = request.checkpoint_interval;
  settings.simd = request.simd;
  settings.progress = request.progress;
  const stop_bridge stop(request.stop);
  settings.stop = stop.flag();
  count_report report;
  report.n = request.n;
  report.unique = request.unique;
  report.device_name = cpu_model_name();
  if (!gpus.empty()) {
    // One counter (and host thread) per GPU, all taking frames from one source: a lone GPU
    // takes every frame left in one persistent launch, several take shares, biggest frames
    // first.
    settings.slice_counters = gpus.counters();
    settings.slice_frames = true;
    settings.slice_size = gpus.frames();
    settings.cpu_beside_slices = request.device.kind == device_kind::all;
    report.device = request.device.kind == device_kind::all ? "all" : "gpu";
    report.device_name = gpus.name();
  } else if ((request.device.kind == device_kind::any || request.device.kind == device_kind::all) &&
             request.n >= 4) {
    report.note = "no CUDA device; counted on the CPU";
  }
  report.result = count_solutions(request.n, settings);
  report.kernel_seconds = gpus.kernel_seconds();
  return report;
}

nlohmann::ordered_json count_json(const count_report& report) {
  const count_result& result = report.result;
  nlohmann::ordered_json record;
  record["n"] = report.n;
  record["solutions"] = result.solutions;
  record["unique"] = result.unique;  // counted either way, at no extra cost
  record["seconds"] = result.seconds;
  record["threads"] = result.threads;
  record["device"] = report.device;
  record["device_name"] = report.device_name;
  if (report.device != "cpu") {
    record["devices"] = report.gpus;
    record["kernel_seconds"] = report.kernel_seconds;
    record["subproblems_by_device"] = result.by_slice_counter;
  }
  if (report.device != "gpu") record["simd"] = result.simd;
  if (report.device == "all") record["subproblems_on_cpu"] = result.by_cpu;
  record["subproblems"] = result.subproblems;
  record["resumed_subproblems"] = result.resumed;
  if (!report.by_rank.empty()) add_rank_fields(report, record);
  return record;
}

}  // namespace engine

count_report run(const count_request& request) {
  if (request.ranks.world) {
    check_count_size(request.n);
    return engine::count_with_ranks(request);
  }
  // Alone, the face's outputs open first, as they did before the engine checked anything.
  if (request.ready) request.ready();
  check_count_size(request.n);
  std::vector<int> gpus = engine::choose_gpus(request);
  const engine::gpu_engines engines(request.n, gpus);
  count_report report = engine::count_on(request, engines);
  report.gpus = std::move(gpus);
  return report;
}

std::string to_json(const count_report& report) { return engine::count_json(report).dump(); }

}  // namespace nq
