// The lattice's plan: W and p for n queens, and the check that a plan is a split.

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "nqueens/error.hpp"
#include "nqueens/lattice.hpp"
#include "nqueens/rng.hpp"

namespace nq {
namespace {

/// Sub-boards below this size are not worth a class of their own (nor a search): such splits
/// are left aside, and with no other the board is solved whole.
constexpr index_t min_sub_board = 64;
/// The plan's own stream, apart from every sub-board's (which are keyed 0..W-1).
constexpr std::uint64_t plan_stream = 0x6c61747469636500;  // "lattice"

std::uint64_t gcd(std::uint64_t a, std::uint64_t b) {
  while (b) a %= b, std::swap(a, b);
  return a;
}

/// Calls f(d) for every divisor d of x (x >= 1), in no particular order.
template <class F>
void for_each_divisor(std::uint64_t x, F f) {
  for (std::uint64_t d = 1; d * d <= x; ++d)
    if (x % d == 0) {
      f(d);
      if (d * d != x) f(x / d);
    }
}

}  // namespace

lattice_plan plan_lattice(index_t n, std::uint64_t seed, index_t sub_board) {
  NQ_EXPECTS(n >= 1 && n <= max_n, "the lattice takes 1 to 4294967295 queens");
  lattice_plan plan;
  plan.n = n;
  plan.row_class = {0};
  const double aim =
      std::log2(static_cast<double>(sub_board ? sub_board : lattice_default_sub_board));
  // W divides n, n - 1 or n + 1: n mod W is then 0, 1 or W - 1, so at most one class differs
  // in size from the rest, and an affine p can keep it in its place.
  double best = 0.0;
  for (const index_t base : {n, n - 1, n + 1}) {
    if (base < 5) continue;
    for_each_divisor(base, [&](std::uint64_t w) {
      if (w < 5 || gcd(w, 6) != 1 || n / w < min_sub_board) return;
      const double off = std::abs(std::log2(static_cast<double>(n / w)) - aim);
      if (plan.classes == 1 || off < best || (off == best && w < plan.classes))
        plan.classes = w, best = off;
    });
  }
  const index_t w = plan.classes;
  if (w == 1) return plan;
  plan.wide = n % w;
  // p(a) = k (a - a0) + b0 mod W: k, k - 1 and k + 1 prime to W make p(a) - a and p(a) + a run
  // over every residue. The class of another size (residue 0 with one queen more, or W - 1 with
  // one less) keeps its place; when all are alike, the offset is drawn too.
  philox_stream rng(seed, plan_stream);
  const auto draw = [&](index_t bound) {  // uniform in 0..bound-1
    return bound <= UINT32_MAX ? index_t{rng.below(static_cast<std::uint32_t>(bound))}
                               : rng.next_u64() % bound;
  };
  index_t k = 2;  // always fits: W is prime to 6
  for (int tries = 0; tries < 64; ++tries) {
    const index_t c = 2 + draw(w - 3);
    if (gcd(c, w) == 1 && gcd(c - 1, w) == 1 && gcd(c + 1, w) == 1) {
      k = c;
      break;
    }
  }
  const index_t fixed = plan.wide == w - 1 ? w - 1 : 0;
  const index_t offset = plan.wide == 0 ? draw(w) : fixed;
  plan.row_class.resize(w);
  for (index_t a = 0; a < w; ++a)
    plan.row_class[a] = static_cast<index_t>(
        (static_cast<unsigned __int128>(k) * ((a + w - fixed) % w) + offset) % w);
  return plan;
}

bool lattice_plan_is_valid(const lattice_plan& plan) {
  const index_t w = plan.classes;
  if (w == 0 || plan.row_class.size() != w || plan.wide >= std::max<index_t>(w, 1)) return false;
  if (w == 1) return plan.row_class[0] == 0;
  std::vector<std::uint8_t> row(w, 0), diag(w, 0), anti(w, 0);
  for (index_t a = 0; a < w; ++a) {
    const index_t p = plan.row_class[a];
    if (p >= w || (a < plan.wide) != (p < plan.wide)) return false;
    if (row[p]++ || diag[(p + w - a) % w]++ || anti[(p + a) % w]++) return false;
  }
  return plan.n % w == plan.wide;
}

bool lattice_fills_gpu(index_t n, unsigned multiprocessors, unsigned cpu_threads,
                       index_t sub_board) {
  // W does not depend on the seed, only the rows each class takes.
  const index_t classes = plan_lattice(n, 1, sub_board).classes;
  const index_t threads = std::max<index_t>(cpu_threads, 1);
  return classes >= std::max<index_t>(multiprocessors, lattice_gpu_class_slowdown * threads);
}

}  // namespace nq
