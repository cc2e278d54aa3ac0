#pragma once
// Which backend a request's device selects: batch, solve --chains, the placement and the
// lattice (the engine's, not public: the requests that use them are not all typed yet).

#include <memory>
#include <string>
#include <vector>

#include "nqueens/backend.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/lattice.hpp"
#include "nqueens/placement_solver.hpp"

namespace nq {
struct bench_report;
}

namespace nq::engine {

/// The machine and the build, as a benchmark's record says them (devices.cpp): the CPU, its
/// cores and memory, each GPU, the version, commit, build type and CUDA version.
void describe_machine(bench_report& report);

/// The kind of a solve's or a batch's device, which run on the first GPU: GPU numbers, or `all`
/// (the GPUs and the CPU together), are a count's, and a usage_error here.
device_kind single_device(const device_request& device);

/// The backend `device` asks for: the GPU when asked (or, for auto, when one is present and
/// runs the algorithm on n queens), else the CPU with `threads` workers; auto sets `note` to
/// why it fell back, for the caller to print once the command has done its work (a refusal
/// after it would make two lines). --device gpu without a usable GPU is a resource_error
/// (exit 3), and with an algorithm the GPU does not run, a usage_error.
std::unique_ptr<batch_backend> choose_backend(device_kind device,
                                              const local_search_settings& algorithm, index_t n,
                                              unsigned threads, std::string& note);

/// Runs the parallel placement where `device` asks (auto: the GPU when one is present); sets
/// `used` to "cpu" or "gpu", and `note` as choose_backend does. Errors as choose_backend's.
solve_result solve_placement_on(device_kind device, index_t n, const placement_settings& settings,
                                std::string& note, const progress_fn& progress, std::string& used);

/// Runs the lattice of plan.n queens, split as `plan` says (drawn from settings.seed, made
/// once by the solve), where `device` asks: the GPU for gpu, and for auto when one is present,
/// runs n (gpu::has_lattice), has the classes to fill it (lattice_fills_gpu, against the SMs
/// and settings.threads) and has the device memory; else the CPU, setting `note` to why
/// (as choose_backend does). The GPU copies the board back only when `copy_board` (or when
/// unsolved), and a board copied back is checked again on the CPU; without `copy_board`, a CPU
/// run a stop cut short returns no board (solve_lattice's `board_wanted`). Sets `used`, and the
/// kernel seconds when the GPU ran. --device gpu without a device is a device_error, with an n
/// the GPU does not run a usage_error, and without the memory a resource_error.
solve_result solve_lattice_on(device_kind device, const lattice_plan& plan,
                              const placement_settings& settings, bool copy_board,
                              std::string& note, const progress_fn& progress, std::string& used,
                              double* kernel_seconds = nullptr);

}  // namespace nq::engine
