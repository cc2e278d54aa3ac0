#pragma once
// The count's engines (not public): the GPUs a request takes, a frame counter on each, the count
// shared by ranks, and the record.

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nqueens/engine.hpp"

namespace nq::engine {

/// The GPUs a count runs on: request.device.ids, else every one; none for cpu, or for any and
/// all without a GPU. Boards below 4 have no subproblems and stay on the CPU. gpu or ids without
/// a GPU: device_error; a device number past the last: usage_error.
std::vector<int> choose_gpus(const count_request& request);

/// A frame counter on each of `gpus` (none without CUDA), each a slice counter taking the
/// CPU's frames (so a checkpoint moves between the CPU and the GPU) from a host thread of its
/// own; made before the count (or, under mpirun, the start gate), so that a GPU that fails
/// fails there.
class gpu_engines {
 public:
  gpu_engines(int n, const std::vector<int>& gpus);
  ~gpu_engines();
  gpu_engines(gpu_engines&&) noexcept;
  bool empty() const { return size() == 0; }
  std::size_t size() const;
  std::vector<slice_counter_fn> counters() const;
  std::size_t frames() const;     ///< the frames each counter holds (0 for none)
  std::string name() const;       ///< "NAME", "2 x NAME", or the names in turn
  double kernel_seconds() const;  ///< summed over the GPUs

 private:
  struct parts;
  std::unique_ptr<parts> parts_;
};

/// Counts as `request` says on `gpus` (choose_gpus's, made into engines) and the CPU, raising
/// `stop` (the request's token raises it too) to end early.
count_report count_on(const count_request& request, const gpu_engines& gpus);

/// The record to_json prints, as JSON (with the ranks' fields under mpirun).
nlohmann::ordered_json count_json(const count_report& report);

/// Under mpirun (request.ranks.world): this rank's part of the count (count_ranks.cpp); on rank
/// 0 the whole, with by_rank.
count_report count_with_ranks(const count_request& request);

/// The ranks' fields of rank 0's record: every rank's threads, by_rank in place of the one
/// machine's devices.
void add_rank_fields(const count_report& report, nlohmann::ordered_json& record);

}  // namespace nq::engine
