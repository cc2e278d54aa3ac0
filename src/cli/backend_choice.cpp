#include "cli/backend_choice.hpp"

#include <algorithm>
#include <cstdio>

#include "nqueens/error.hpp"

#if NQ_WITH_CUDA
#include "kernels/gpu.hpp"
#endif

namespace nq::cli {

std::string parse_device(const std::string& text, bool with_all) {
  if (text != "cpu" && text != "gpu" && text != "auto" && (!with_all || text != "all"))
    throw usage_error("unknown --device '" + text + "' (expected cpu, gpu" +
                      (with_all ? ", auto or all)" : " or auto)"));
  return text;
}

std::vector<int> parse_device_list(const std::string& text) {
  const std::string bad =
      "--devices takes device numbers separated by commas, such as 0,2; got '" + text + "'";
  std::vector<int> devices;
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
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

std::unique_ptr<batch_backend> choose_backend(const std::string& device,
                                              const local_search_settings& algorithm, index_t n,
                                              unsigned threads, bool quiet, const char* command) {
  if (device == "cpu") return make_cpu_backend(threads);
  std::string why = "no CUDA device";
#if NQ_WITH_CUDA
  if (gpu::device_count() > 0) {
    auto gpu = gpu::make_gpu_backend();
    if (gpu->supports(algorithm, n)) return gpu;
    why = std::string(algorithm_name(algorithm.algorithm)) + " on n=" + std::to_string(n) +
          " has no GPU path yet (GPU chains: the single-chain algorithms, n up to " +
          std::to_string(gpu::max_global_chain_n) + "; first-choice up to " +
          std::to_string(gpu::max_thread_chain_n) + "; ga and beam up to " +
          std::to_string(gpu::max_global_chain_n) + ", within 1 GiB per run)";
    if (device == "gpu") throw usage_error(why);
  } else if (device == "gpu") {
    throw device_error("no CUDA device available");
  }
#else
  (void)algorithm, (void)n;  // only a GPU build asks what the GPU runs
  if (device == "gpu")
    throw device_error("no CUDA device available (this nqueens was built without CUDA)");
  why += " (built without CUDA)";
#endif
  if (!quiet) std::fprintf(stderr, "nqueens %s: %s; running on the CPU\n", command, why.c_str());
  return make_cpu_backend(threads);
}

solve_result solve_placement_on(const std::string& device, index_t n,
                                const placement_settings& settings, bool quiet,
                                const progress_fn& progress, std::string& used) {
  used = "cpu";
  if (device == "cpu") return solve_placement(n, settings, progress);
#if NQ_WITH_CUDA
  if (gpu::device_count() > 0) {
    used = "gpu";
    return gpu::solve_placement(n, settings);
  }
  if (device == "gpu") throw device_error("no CUDA device available");
  const char* why = "no CUDA device";
#else
  if (device == "gpu")
    throw device_error("no CUDA device available (this nqueens was built without CUDA)");
  const char* why = "no CUDA device (built without CUDA)";
#endif
  if (!quiet) std::fprintf(stderr, "nqueens solve: %s; running on the CPU\n", why);
  return solve_placement(n, settings, progress);
}

}  // namespace nq::cli
