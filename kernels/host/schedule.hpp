#pragma once
// How the host execution plays a grid. A device runs a launch's blocks in any order and side by
// side, and a block's threads in any interleaving between two barriers; plain loops (blocks in
// order, threads 0, 1, 2, ...) are the one schedule that hides a missing barrier, a result that
// depends on thread order, or two blocks sharing a word. So the schedule is chosen, process-wide:
// - the order of a phase's threads and of a grid's blocks: forward, reverse, or shuffled from a
//   seed (NQ_HOST_ORDER=forward|reverse|shuffled[:SEED]);
// - how many host threads run a grid's blocks side by side (NQ_HOST_BLOCK_THREADS, 1 to 64).
// Only the host execution includes this.

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "kernels/cuda_check.cuh"

namespace nq::cuda::host {

enum class run_order { forward, reverse, shuffled };

struct schedule {
  run_order order = run_order::forward;  ///< of a phase's threads, and of a grid's blocks
  std::uint64_t seed = 0;                ///< shuffled: every permutation is drawn from it
  unsigned block_threads = 1;            ///< host threads that run a grid's blocks
};

/// "forward", "reverse", "shuffled:SEED", with ", 2 block threads" when blocks run side by side.
inline std::string describe(const schedule& s) {
  std::string text = s.order == run_order::forward   ? "forward"
                     : s.order == run_order::reverse ? "reverse"
                                                     : "shuffled:" + std::to_string(s.seed);
  if (s.block_threads > 1) text += ", " + std::to_string(s.block_threads) + " block threads";
  return text;
}

/// The schedule NQ_HOST_ORDER and NQ_HOST_BLOCK_THREADS name (forward, 1 thread when unset);
/// throws cuda_error for a value it cannot read, so a mistyped CI setting fails loudly.
inline schedule schedule_from_environment() {
  schedule s;
  if (const char* order = std::getenv("NQ_HOST_ORDER"); order && *order) {
    const std::string text = order;
    if (text == "forward") {
      s.order = run_order::forward;
    } else if (text == "reverse") {
      s.order = run_order::reverse;
    } else if (text.rfind("shuffled", 0) == 0) {
      s.order = run_order::shuffled;
      const std::string seed = text.size() > 9 && text[8] == ':' ? text.substr(9) : "";
      if (text.size() > 8 && (text[8] != ':' || seed.empty() ||
                              seed.find_first_not_of("0123456789") != std::string::npos))
        throw cuda_error("NQ_HOST_ORDER must be forward, reverse or shuffled[:SEED], got " + text);
      s.seed = seed.empty() ? 0 : std::strtoull(seed.c_str(), nullptr, 10);
    } else {
      throw cuda_error("NQ_HOST_ORDER must be forward, reverse or shuffled[:SEED], got " + text);
    }
  }
  if (const char* threads = std::getenv("NQ_HOST_BLOCK_THREADS"); threads && *threads) {
    const std::string text = threads;
    const bool digits =
        text.size() <= 2 && text.find_first_not_of("0123456789") == std::string::npos;
    const unsigned count = digits ? static_cast<unsigned>(std::stoul(text)) : 0;
    if (count < 1 || count > 64)
      throw cuda_error("NQ_HOST_BLOCK_THREADS must be a number from 1 to 64, got " + text);
    s.block_threads = count;
  }
  return s;
}

namespace detail {
inline std::mutex& schedule_mutex() {
  static std::mutex mutex;
  return mutex;
}
inline schedule& schedule_slot() {
  static schedule slot = schedule_from_environment();
  return slot;
}
}  // namespace detail

/// The schedule launches take now (read when a launch is queued).
inline schedule current_schedule() {
  const std::lock_guard lock(detail::schedule_mutex());
  return detail::schedule_slot();
}

/// Sets the schedule for the launches queued from now on (tests that compare orders).
inline void set_schedule(const schedule& s) {
  const std::lock_guard lock(detail::schedule_mutex());
  detail::schedule_slot() = s;
}

/// splitmix64's finaliser: mixes a key into well-spread bits.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// A key for one kernel's permutations: its name's bytes (names are the launch's string
/// literals, so the key is the same in every run).
inline std::uint64_t name_key(const char* name) {
  std::uint64_t key = 0xCBF29CE484222325ull;  // FNV-1a
  for (; *name; ++name) key = (key ^ static_cast<unsigned char>(*name)) * 0x100000001B3ull;
  return key;
}

/// The order in which `count` items (a phase's threads, a grid's blocks) run under a schedule:
/// item i of the run is order[i]. Shuffled permutations are drawn for `key` (kernel, block,
/// phase), so a launch runs alike in every run whatever else runs beside it.
class running_order {
 public:
  running_order(const schedule& s, unsigned count, std::uint64_t key)
      : order_(s.order), count_(count) {
    if (order_ != run_order::shuffled) return;
    items_.resize(count);
    for (unsigned i = 0; i < count; ++i) items_[i] = i;
    std::uint64_t state = mix(s.seed ^ mix(key));
    for (unsigned i = count; i > 1; --i) {  // Fisher-Yates
      state = mix(state);
      const auto j = static_cast<unsigned>(state % i);
      std::swap(items_[i - 1], items_[j]);
    }
  }
  unsigned operator[](unsigned i) const {
    return order_ == run_order::forward   ? i
           : order_ == run_order::reverse ? count_ - 1 - i
                                          : items_[i];
  }

 private:
  run_order order_;
  unsigned count_;
  std::vector<unsigned> items_;
};

}  // namespace nq::cuda::host
