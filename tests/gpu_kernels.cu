// The one-thread test kernels, as bodies the exec layer launches (host execution included).

#include <algorithm>
#include <chrono>
#include <thread>

#include "gpu_kernels.hpp"
#include "kernels/exec.cuh"
#include "kernels/grid_select.cuh"
#include "kernels/runtime.cuh"
#include "nqueens/construction.hpp"
#include "nqueens/detail/lines.hpp"
#include "nqueens/rng.hpp"

namespace nq::test {
namespace {

struct draws_kernel {
  std::uint64_t seed, stream;
  std::uint32_t bound;
  std::uint32_t* out;
  int count;
  NQ_HD void operator()(cuda::thread_id) const {
    philox_stream rng(seed, stream);
    for (int i = 0; i < count; ++i) out[i] = rng.below(bound);
  }
};

struct construction_kernel {
  index_t n;
  row_t* out;
  NQ_HD void operator()(cuda::thread_id) const {
    for (index_t col = 0; col < n; ++col) out[col] = static_cast<row_t>(constructive_row(n, col));
  }
};

struct deltas_kernel {
  row_t* rows;
  line_counts_view<std::uint32_t> lines;
  const move* moves;
  int count;
  std::int64_t* out;
  NQ_HD void operator()(cuda::thread_id) const {
    recount(lines, rows);
    for (int i = 0; i < count; ++i) {
      const move m = moves[i];
      if (m.a == m.b) {
        out[i] = move_delta(lines, m.a, rows[m.a], m.row);
        remove_queen(lines, m.a, rows[m.a]);
        rows[m.a] = static_cast<row_t>(m.row);
        add_queen(lines, m.a, rows[m.a]);
      } else {
        out[i] = swap_delta(lines, m.a, rows[m.a], m.b, rows[m.b]);
        remove_queen(lines, m.a, rows[m.a]);
        remove_queen(lines, m.b, rows[m.b]);
        const row_t held = rows[m.a];
        rows[m.a] = rows[m.b];
        rows[m.b] = held;
        add_queen(lines, m.a, rows[m.a]);
        add_queen(lines, m.b, rows[m.b]);
      }
    }
  }
};

/// Steepest moves on a climber, walking: each chosen move is applied before the next choice.
struct steepest_kernel {
  climber_view<std::int16_t> b;
  std::uint64_t seed;
  int steps;
  queen_move* out;
  NQ_HD void operator()(cuda::thread_id) const {
    recount(b);
    philox_stream rng(seed, 0);
    for (int i = 0; i < steps; ++i) {
      out[i] = steepest_move(b, rng, 2);
      relocate(b, out[i].col, out[i].row);
    }
  }
};

/// Plain keys as grid_select.cuh's elements, numbered by index.
struct keyed_elements {
  const std::uint64_t* keys;
  std::uint64_t size;
  NQ_HD std::uint64_t count() const { return size; }
  NQ_HD std::uint64_t key(std::uint64_t i) const { return keys[i]; }
  NQ_HD std::uint64_t number(std::uint64_t i) const { return i; }
  NQ_HD bool done() const { return false; }
};

struct store_one {
  unsigned* out;
  NQ_HD void operator()(cuda::thread_id id) const {
    if (id.global() == 0) *out = 1;
  }
};

/// A block kernel for the clock: its launches go through launch_blocks.
struct store_two {
  struct shared_state {
    unsigned word;
  };
  unsigned* out;
  template <class Block>
  NQ_HD void operator()(Block& block, shared_state& s) const {
    block.each([&](unsigned t) {
      if (t == 0) s.word = 2;
    });
    block.each([&](unsigned t) {
      if (t == 0) *out = s.word;
    });
  }
};

template <class T>
std::vector<T> copy_back(const cuda::device_buffer<T>& buffer) {
  std::vector<T> host(buffer.size());
  cuda::copy_to_host(host.data(), buffer.data(), buffer.size());
  return host;
}

template <class T>
cuda::device_buffer<T> copy_to_device(const std::vector<T>& host) {
  cuda::device_buffer<T> buffer(host.size());
  cuda::copy_to_device(buffer.data(), host.data(), host.size());
  return buffer;
}

template <class Body>
void one_thread(const Body& body) {
  cuda::launch_threads("test kernel", 1, 1, body);
}

}  // namespace

std::vector<std::uint32_t> device_draws(std::uint64_t seed, std::uint64_t stream,
                                        std::uint32_t bound, int count) {
  cuda::device_buffer<std::uint32_t> out(count);
  one_thread(draws_kernel{seed, stream, bound, out.data(), count});
  return copy_back(out);
}

std::vector<row_t> device_construction(index_t n) {
  cuda::device_buffer<row_t> out(n);
  one_thread(construction_kernel{n, out.data()});
  return copy_back(out);
}

std::vector<std::int64_t> device_deltas(std::vector<row_t> rows, const std::vector<move>& moves) {
  const index_t n = rows.size();
  auto d_rows = copy_to_device(rows);
  auto d_moves = copy_to_device(moves);
  cuda::device_buffer<std::uint32_t> counts(n + 2 * diag_line_count(n));
  cuda::device_buffer<std::int64_t> out(moves.size());
  const line_counts_view<std::uint32_t> lines{counts.data(), counts.data() + n,
                                              counts.data() + n + diag_line_count(n), n};
  one_thread(deltas_kernel{d_rows.data(), lines, d_moves.data(), static_cast<int>(moves.size()),
                           out.data()});
  return copy_back(out);
}

std::vector<queen_move> device_steepest_walk(std::vector<row_t> rows, std::uint64_t seed,
                                             int steps) {
  const index_t n = rows.size();
  auto d_rows = copy_to_device(rows);
  cuda::device_buffer<std::int16_t> lines(n + 2 * diag_line_count(n));
  cuda::device_buffer<queen_move> out(static_cast<std::size_t>(steps));
  const climber_view<std::int16_t> b{d_rows.data(), lines.data(), lines.data() + n,
                                     lines.data() + n + diag_line_count(n), n};
  one_thread(steepest_kernel{b, seed, steps, out.data()});
  return copy_back(out);
}

std::vector<std::uint64_t> device_select_least(const std::vector<std::uint64_t>& keys,
                                               std::uint64_t k, bool tie_numbers) {
  const auto d_keys = copy_to_device(keys);
  cuda::device_buffer<cuda::select_state> state(1);
  cuda::device_buffer<std::uint64_t> numbers(k);
  cuda::launch_threads("select_clear", 1, cuda::select_threads, cuda::select_clear{state.data()});
  const std::uint64_t greatest = *std::max_element(keys.begin(), keys.end());
  cuda::select_least(keyed_elements{d_keys.data(), keys.size()}, state.data(), k,
                     greatest == ~std::uint64_t{0} ? 64 : cuda::bits_below(greatest + 1),
                     tie_numbers ? cuda::bits_below(keys.size()) : 0, nullptr, numbers.data());
  std::vector<std::uint64_t> taken = copy_back(numbers);
  std::sort(taken.begin(), taken.end());
  return taken;
}

kernel_clock_probe probe_kernel_clock(double host_pause) {
  using steady = std::chrono::steady_clock;
  const auto pause = [&] {
    std::this_thread::sleep_for(std::chrono::duration<double>(host_pause));
  };
  kernel_clock_probe probe;
  cuda::kernel_clock clock;
  cuda::device_buffer<unsigned> out(1);
  // Untimed first launches: the module's lazy loading is the host's, not a kernel's.
  cuda::launch_threads("clock_probe", 1, 32, store_one{out.data()});
  cuda::launch_blocks<32>("clock_probe_block", 1, 0, store_two{out.data()});
  cuda::synchronize();
  const auto begin = steady::now();
  {
    // Host time before a launch, after a wait and before the next launch, and after the last
    // wait: none of it the kernels'.
    const cuda::kernel_clock::timing timing(clock);
    pause();
    cuda::launch_threads("clock_probe", 1, 32, store_one{out.data()});
    cuda::synchronize();
    pause();
    cuda::launch_blocks<32>("clock_probe_block", 1, 0, store_two{out.data()});
    cuda::wait_raising(nullptr, nullptr);
    pause();
  }
  probe.timed = clock.take_seconds();
  probe.wall = std::chrono::duration<double>(steady::now() - begin).count();
  const std::uint64_t waits = cuda::detail::costs().syncs.load();
  probe.idle_reading = clock.take_seconds();  // nothing launched since the last reading
  probe.idle_waits = cuda::detail::costs().syncs.load() - waits;
  return probe;
}

}  // namespace nq::test
