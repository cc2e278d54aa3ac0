// The canonical frames of a count and the images their searches start from
// (nqueens/detail/canonical_frames.hpp).

#include "nqueens/detail/canonical_frames.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "core/worker_threads.hpp"
#include "nqueens/count.hpp"
#include "nqueens/detail/frame_pieces.hpp"

namespace nq::detail {

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

}  // namespace nq::detail
