// Devices as requests name them, and what this build and machine have.

#include <unistd.h>

#include <algorithm>
#include <string>
#include <thread>

#include "core/machine.hpp"
#include "engine/device_choice.hpp"
#include "nq_git_sha.h"  // generated at each build (src/engine/git_sha.cmake)
#include "nqueens/bench.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"

#if NQ_WITH_CUDA
#include "kernels/gpu.hpp"
#endif

namespace nq {

device_kind parse_device_kind(std::string_view text, bool with_all) {
  for (const device_kind kind : {device_kind::cpu, device_kind::gpu, device_kind::any})
    if (text == device_kind_name(kind)) return kind;
  if (with_all && text == "all") return device_kind::all;
  throw usage_error("unknown --device '" + std::string(text) + "' (expected cpu, gpu" +
                    (with_all ? ", auto or all)" : " or auto)"));
}

std::string_view device_kind_name(device_kind kind) {
  switch (kind) {
    case device_kind::cpu:
      return "cpu";
    case device_kind::gpu:
      return "gpu";
    case device_kind::any:
      return "auto";
    case device_kind::all:
      return "all";
  }
  return "auto";
}

std::vector<int> parse_device_ids(std::string_view text) {
  const std::string bad = "--devices takes device numbers separated by commas, such as 0,2; got '" +
                          std::string(text) + "'";
  std::vector<int> devices;
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item(text.substr(at, comma - at));
    // Up to 4 digits: no machine has 10,000 GPUs, and nothing longer can overflow.
    if (item.empty() || item.size() > 4 ||
        item.find_first_not_of("0123456789") != std::string::npos)
      throw usage_error(bad);
    const int device = std::stoi(item);
    if (std::find(devices.begin(), devices.end(), device) != devices.end())
      throw usage_error("--devices names device " + item + " twice");
    devices.push_back(device);
    if (comma == text.size()) return devices;
    at = comma + 1;
  }
}

bool built_with_cuda() { return NQ_WITH_CUDA; }

int gpu_count() {
#if NQ_WITH_CUDA
  return gpu::device_count();
#else
  return 0;
#endif
}

std::string version_line() {
  std::string line = std::string("nqueens ") + NQ_VERSION + " (" + NQ_BUILD_TYPE + " build";
#if NQ_WITH_CUDA
  const int devices = gpu::device_count();
  line += std::string(", CUDA backend for sm_") + NQ_CUDA_ARCHS + ", " +
          std::to_string(devices) + " device" + (devices == 1 ? "" : "s") + " visible";
  const auto version = [](int v) {
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  };
  for (int d = 0; d < devices; ++d) {
    const gpu::device_facts facts = gpu::facts(d);
    if (d == 0)
      line += " (CUDA runtime " + version(facts.runtime) + ", driver " + version(facts.driver) + ")";
    line += std::string(d == 0 ? ":" : ";") + " gpu" + std::to_string(d) + " " + facts.name +
            ", compute capability " + std::to_string(facts.major) + "." +
            std::to_string(facts.minor);
  }
  return line + ")";
#else
  return line + ", CPU only: built without CUDA)";
#endif
}

namespace engine {

void describe_machine(bench_report& report) {
  const machine_facts host = read_machine_facts();
  report.cpu = host.cpu_model;
  report.cpu_vendor = host.cpu_vendor;
  report.cpu_family = host.cpu_family;
  report.cpu_model = host.cpu_model_number;
  report.cpu_stepping = host.cpu_stepping;
  report.cpu_flags = host.cpu_flags;
  report.cpu_mhz = host.cpu_mhz;
  report.cpu_max_mhz = host.cpu_max_mhz;
  report.os = host.os;
  report.kernel = host.kernel;
  report.arch = host.arch;
  report.compiler = compiler_name();
  report.cores = std::max(1u, std::thread::hardware_concurrency());
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  report.memory_bytes = pages > 0 && page > 0
                            ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                            : 0;
  report.version = NQ_VERSION;
  report.git_sha = NQ_GIT_SHA;
  report.build_type = NQ_BUILD_TYPE;
  report.cuda = NQ_CUDA_VERSION;
#if NQ_WITH_CUDA
  // "12.8" from 12080.
  const auto version = [](int v) {
    return v ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : std::string();
  };
  for (int d = 0; d < gpu::device_count(); ++d) {
    const gpu::device_facts facts = gpu::facts(d);
    bench_report::gpu g;
    g.index = d;
    g.name = facts.name;
    g.multiprocessors = facts.multiprocessors;
    g.clock_mhz = facts.clock_mhz;
    g.memory_clock_mhz = facts.memory_clock_mhz;
    g.memory_bytes = facts.memory_bytes;
    g.compute_capability = std::to_string(facts.major) + "." + std::to_string(facts.minor);
    g.driver = version(facts.driver);
    g.runtime = version(facts.runtime);
    report.gpus.push_back(std::move(g));
  }
#endif
}

}  // namespace engine

}  // namespace nq
