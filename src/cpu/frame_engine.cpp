// The chunked frame counter's driver, its portable kernels, and the choice of kernels.

#include "cpu/frame_engine.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "core/worker_threads.hpp"
#include "nqueens/error.hpp"
#include "nqueens/frame_pieces.hpp"

namespace nq::detail {
namespace {

/// Nodes taken from a level at a time. Large enough that most vectors are full; larger costs
/// cache for the level buffers and gains nothing (measured at n = 16, 17).
constexpr int chunk = 512;
/// Room past a level's nodes for whole-vector stores (16 lanes) and the portable kernel's
/// branch-free append.
constexpr int overhang = 32;

int portable_expand(frame_level nodes, int first, int count, frame_level children,
                    const frame_step& step) {
  int made = 0;
  for (int i = first; i < first + count; ++i)
    for (std::uint32_t open = nodes.open[i]; open != 0; open &= open - 1) {
      std::uint32_t c = nodes.cols[i], l = nodes.ld[i], r = nodes.rd[i];
      const std::uint32_t next = frame_child(step, open & (0u - open), c, l, r);
      children.cols[made] = c, children.ld[made] = l, children.rd[made] = r;
      children.open[made] = next;
      made += next != 0;
    }
  return made;
}

std::uint64_t portable_leaves(frame_level nodes, int first, int count, const frame_step& step) {
  std::uint64_t leaves = 0;
  for (int i = first; i < first + count; ++i)
    for (std::uint32_t open = nodes.open[i]; open != 0; open &= open - 1) {
      std::uint32_t c = nodes.cols[i], l = nodes.ld[i], r = nodes.rd[i];
      leaves +=
          static_cast<std::uint64_t>(popcount32(frame_child(step, open & (0u - open), c, l, r)));
    }
  return leaves;
}

}  // namespace

const frame_kernels& portable_frame_kernels() {
  static const frame_kernels kernels{"off", portable_expand, portable_leaves};
  return kernels;
}

const frame_kernels& choose_frame_kernels(const std::string& choice) {
  if (choice == "off") return portable_frame_kernels();
  if (choice == "auto") {
    if (const frame_kernels* widest = avx512_frame_kernels()) return *widest;
    if (const frame_kernels* wide = avx2_frame_kernels()) return *wide;
    return portable_frame_kernels();
  }
  const frame_kernels* kernels = nullptr;
  if (choice == "avx512")
    kernels = avx512_frame_kernels();
  else if (choice == "avx2")
    kernels = avx2_frame_kernels();
  else
    throw usage_error("unknown --simd '" + choice + "' (expected auto, off, avx2 or avx512)");
  if (!kernels)
    throw resource_error("this CPU (or this build) cannot run " + choice +
                         (choice == "avx512" ? " (it needs AVX-512 F and VPOPCNTDQ)" : ""));
  return *kernels;
}

frame_counter::frame_counter(int n, const frame_kernels& kernels)
    : kernels_(kernels), capacity_(chunk * std::max(1, n - 2) + overhang) {
  // A level is only filled when every deeper one is empty, by one chunk of the level above,
  // each node with at most n - 2 open squares: capacity_ bounds it.
  const int levels = std::max(1, n - 2);
  storage_.assign(static_cast<std::size_t>(levels) * 4 * capacity_, 0);
  for (int d = 0; d < levels; ++d) {
    std::uint32_t* base = storage_.data() + static_cast<std::size_t>(d) * 4 * capacity_;
    levels_.push_back({base, base + capacity_, base + 2 * capacity_, base + 3 * capacity_});
  }
  size_.assign(levels, 0);
}

std::optional<std::uint64_t> frame_counter::completions(const frame_search& search,
                                                        const std::atomic<bool>* stop) {
  const int levels = search.levels;
  NQ_EXPECTS(levels <= static_cast<int>(levels_.size()), "a frame of the counter's size");
  if (levels == 0) return 1;
  if (levels == 1) return static_cast<std::uint64_t>(popcount32(search.allowed[0]));
  if (search.allowed[0] == 0) return 0;  // the kernels take every node to have a square open
  std::fill(size_.begin(), size_.end(), 0);
  levels_[0].cols[0] = levels_[0].ld[0] = levels_[0].rd[0] = 0;
  levels_[0].open[0] = search.allowed[0];
  size_[0] = 1;
  std::uint64_t leaves = 0;
  // Depth first over chunks: always from the deepest level that has nodes, so the level below
  // it is empty and the buffers stay bounded.
  for (int d = 0; d >= 0;) {
    if (stop && stop->load(std::memory_order_relaxed)) return std::nullopt;
    if (size_[d] == 0) {
      --d;
      continue;
    }
    const int take = std::min(size_[d], chunk);
    size_[d] -= take;
    const frame_step step = frame_step_at(search, d);
    if (d + 2 == levels) {
      leaves += kernels_.leaves(levels_[d], size_[d], take, step);
    } else {
      size_[d + 1] = kernels_.expand(levels_[d], size_[d], take, levels_[d + 1], step);
      ++d;
    }
  }
  return leaves;
}

std::vector<canonical_frame> canonical_frames(int n) {
  const std::vector<std::uint16_t> classes = frame_classes(n);
  std::vector<canonical_frame> frames;
  for (int top = 0; top < n; ++top)
    for (int bottom = 0; bottom < n; ++bottom)
      for (int left = 0; left < n; ++left)
        for (int right = 0; right < n; ++right) {
          const std::uint16_t entry = classes[frame_index(n, top, bottom, left, right)];
          if (!(entry & canonical_frame_flag)) continue;
          const frame f{static_cast<std::uint8_t>(top), static_cast<std::uint8_t>(bottom),
                        static_cast<std::uint8_t>(left), static_cast<std::uint8_t>(right)};
          frames.push_back({f, static_cast<std::uint8_t>(entry & 0xFF), f});
        }
  return frames;
}

void orient_frames(int n, std::vector<canonical_frame>& frames) {
  const unsigned threads = std::max(
      1u, std::min(std::thread::hardware_concurrency(), static_cast<unsigned>(frames.size() / 64)));
  std::atomic<std::size_t> next{0};
  worker_threads workers(threads, [&](unsigned) {
    for (std::size_t i = next++; i < frames.size(); i = next++) {
      frames[i].searched = frame_to_search(n, frames[i].f, frames[i].stabilizer, &frames[i].size);
      frames[i].oriented = true;
    }
  });
  workers.join();
}

std::shared_ptr<const std::vector<canonical_frame>> oriented_frames(int n) {
  static std::mutex mutex;
  static int cached_n = 0;
  static std::shared_ptr<const std::vector<canonical_frame>> cached;
  const std::lock_guard lock(mutex);  // a second caller waits for the first's frames
  if (cached_n != n || !cached) {
    auto frames = canonical_frames(n);
    orient_frames(n, frames);
    cached = std::make_shared<const std::vector<canonical_frame>>(std::move(frames));
    cached_n = n;
  }
  return cached;
}

std::optional<count_tally> count_frame(int n, const canonical_frame& frame, frame_counter& counter,
                                       const std::atomic<bool>* stop) {
  if (frame.stabilizer & rotation_symmetries) {
    bool stopped = false;
    const auto asked = [stop] { return stop && stop->load(std::memory_order_relaxed); };
    const count_tally tally =
        count_frame_completions(n, frame.f, frame.stabilizer, asked, &stopped);
    if (stopped) return std::nullopt;
    return tally;
  }
  // A frame not oriented in advance is oriented here: its four estimates cost little beside its
  // search (37 us against 60 us at n = 16, far less from there on).
  const nq::frame searched =
      frame.oriented ? frame.searched : frame_to_search(n, frame.f, frame.stabilizer);
  const std::optional<std::uint64_t> completions =
      counter.completions(prepare_frame_search(n, searched), stop);
  if (!completions) return std::nullopt;
  // No symmetry of the stabiliser can fix a board, so every completion stands for a whole
  // orbit of solutions, and for one class counted in eighths `orbit` times.
  const std::uint64_t weighted = symmetry_count / popcount32(frame.stabilizer) * *completions;
  return count_tally{weighted, weighted};
}

}  // namespace nq::detail
