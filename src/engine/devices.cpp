// Devices as requests name them, and what this build and machine have.

#include <algorithm>
#include <string>

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

}  // namespace nq
