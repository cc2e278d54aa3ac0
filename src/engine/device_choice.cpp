#include "engine/device_choice.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include "nqueens/detail/memory.hpp"
#include "nqueens/error.hpp"
#include "nqueens/lattice.hpp"
#include "nqueens/verify.hpp"

#if NQ_WITH_CUDA
#include "kernels/gpu.hpp"
#endif

namespace nq::engine {

device_kind single_device(const device_request& device) {
  if (!device.ids.empty())
    throw usage_error(
        "GPU numbers choose a count's GPUs; solve and batch run on the first GPU (choose it "
        "with CUDA_VISIBLE_DEVICES)");
  if (device.kind == device_kind::all)
    throw usage_error(
        "device all (the GPUs and the CPU together) is a count's; solve and batch take cpu, gpu "
        "or auto");
  return device.kind;
}

std::unique_ptr<batch_backend> choose_backend(device_kind device,
                                              const local_search_settings& algorithm, index_t n,
                                              unsigned threads, std::string& note) {
  if (device == device_kind::cpu) return make_cpu_backend(threads);
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
    if (device == device_kind::gpu) throw usage_error(why);
  } else if (device == device_kind::gpu) {
    throw device_error("no CUDA device available");
  }
#else
  (void)algorithm, (void)n;  // only a GPU build asks what the GPU runs
  if (device == device_kind::gpu)
    throw device_error("no CUDA device available (this nqueens was built without CUDA)");
  why += " (built without CUDA)";
#endif
  note = why + "; ran on the CPU";
  return make_cpu_backend(threads);
}

solve_result solve_placement_on(device_kind device, index_t n, const placement_settings& settings,
                                std::string& note, const progress_fn& progress, std::string& used) {
  used = "cpu";
  if (device == device_kind::cpu) return solve_placement(n, settings, progress);
#if NQ_WITH_CUDA
  if (gpu::device_count() > 0) {
    used = "gpu";
    return gpu::solve_placement(n, settings);
  }
  if (device == device_kind::gpu) throw device_error("no CUDA device available");
  const char* why = "no CUDA device";
#else
  if (device == device_kind::gpu)
    throw device_error("no CUDA device available (this nqueens was built without CUDA)");
  const char* why = "no CUDA device (built without CUDA)";
#endif
  note = std::string(why) + "; ran on the CPU";
  return solve_placement(n, settings, progress);
}

#if NQ_WITH_CUDA
namespace {
/// The CPU threads a lattice run would take (0 in the settings: every core).
unsigned cpu_threads(const placement_settings& settings) {
  return settings.threads ? settings.threads : std::max(1u, std::thread::hardware_concurrency());
}
}  // namespace
#endif

solve_result solve_lattice_on(device_kind device, const lattice_plan& plan,
                              const placement_settings& settings, bool copy_board,
                              std::string& note, const progress_fn& progress, std::string& used,
                              double* kernel_seconds) {
  used = "cpu";
  if (device == device_kind::cpu) return solve_lattice(plan, settings, progress, copy_board);
  std::string why;
#if NQ_WITH_CUDA
  const index_t n = plan.n;
  if (gpu::device_count() == 0) {
    if (device == device_kind::gpu) throw device_error("no CUDA device available");
    why = "no CUDA device";
  } else if (!gpu::has_lattice(plan)) {
    why = "n=" + std::to_string(n) + " has no lattice split, and the GPU solves whole boards of " +
          "at most " + std::to_string(lattice_max_whole_search) + " queens";
    if (device == device_kind::gpu) throw usage_error(why);
  } else if (const unsigned sms = gpu::multiprocessor_count(), threads = cpu_threads(settings);
             device == device_kind::any && !lattice_fills_gpu(plan, sms, threads)) {
    // Too few classes: the GPU would run them one thread each, slower than the CPU's cores.
    why = "n=" + std::to_string(n) + " splits into " + std::to_string(plan.classes) +
          " sub-boards, too few for the GPU (auto takes it from " +
          std::to_string(std::max<index_t>(sms, lattice_gpu_class_slowdown * threads)) + ": " +
          std::to_string(lattice_gpu_class_slowdown) + " for each of the " +
          std::to_string(threads) + " CPU threads, and one per SM)";
  } else {
    const std::uint64_t need = gpu::lattice_device_bytes(plan), free = gpu::device_free_bytes();
    if (need <= free) {
      used = "gpu";
      gpu::lattice_gpu_result run = gpu::solve_lattice(plan, settings, copy_board);
      if (kernel_seconds) *kernel_seconds = run.kernel_seconds;
      // What will be written is checked again on the CPU, apart from the device's check.
      if (run.result.solved && !run.result.queen_row.empty() &&
          !verify_board(run.result.queen_row, settings.threads).valid())
        throw std::runtime_error(
            "the GPU lattice's board failed the CPU check after passing "
            "the device's: please report this");
      return std::move(run.result);
    }
    why = "n=" + std::to_string(n) + " needs " + format_bytes(need) + " of GPU memory, and " +
          format_bytes(free) + " is free";
    if (device == device_kind::gpu) throw resource_error(why);
  }
#else
  (void)copy_board, (void)kernel_seconds;
  if (device == device_kind::gpu)
    throw device_error("no CUDA device available (this nqueens was built without CUDA)");
  why = "no CUDA device (built without CUDA)";
#endif
  note = why + "; ran on the CPU";
  return solve_lattice(plan, settings, progress, copy_board);
}

}  // namespace nq::engine
