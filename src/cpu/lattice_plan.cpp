// The lattice's plan: W and p for n queens, and the check that a plan is a split.

#include <algorithm>
#include <atomic>
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
/// Plans made (detail::lattice_plans_made).
std::atomic<std::uint64_t> plans_made{0};

std::uint64_t gcd(std::uint64_t a, std::uint64_t b) {
  while (b) a %= b, std::swap(a, b);
  return a;
}

/// Uniform in 0..bound-1.
index_t draw_below(philox_stream& rng, index_t bound) {
  return bound <= UINT32_MAX ? index_t{rng.below(static_cast<std::uint32_t>(bound))}
                             : rng.next_u64() % bound;
}

/// Calls f(d) for every divisor d of x (x >= 1) prime to 6, in no particular order: x's
/// factors but 2 and 3 found by trial division (the splits look at thousands of numbers).
template <class F>
void for_each_divisor(std::uint64_t x, F f) {
  while (x % 2 == 0) x /= 2;
  while (x % 3 == 0) x /= 3;
  std::uint64_t primes[16], powers[16];  // x < 2^33 has at most 9 distinct primes
  int count = 0;
  const auto factor = [&](auto rest) {  // 32-bit divisions where x fits: 2-3x faster
    for (decltype(rest) p = 5, step = 2; std::uint64_t{p} * p <= rest; p += step, step = 6 - step)
      if (rest % p == 0) {
        primes[count] = p, powers[count] = 0;
        while (rest % p == 0) rest /= p, ++powers[count];
        ++count;
      }
    if (rest > 1) primes[count] = rest, powers[count] = 1, ++count;
  };
  if (x <= UINT32_MAX)
    factor(static_cast<std::uint32_t>(x));
  else
    factor(x);
  const auto visit = [&](int i, std::uint64_t d, const auto& self) -> void {
    if (i == count) return f(d);
    for (std::uint64_t k = 0; k <= powers[i]; ++k, d *= primes[i]) self(i + 1, d, self);
  };
  visit(0, 1, visit);
}

/// A split as its levels: W = w[0] w[1] ..., class a + W' a' of level i (W' the product below
/// it) taking the rows p(a) + W' q(a'), q affine on level i's own residues.
struct split {
  std::vector<index_t> levels;
  index_t classes = 1;
};

/// The splits that refine `at` (n = W m + e) by one more level w: w divides m or m + 1 (and
/// m - 1 when e = 0), so both sizes, m and m + 1, leave w a remainder of 0, 1 or w - 1, and
/// the wide classes of the refined split are again the first n mod W w. f(next) for each.
template <class F>
void for_each_refinement(index_t n, const split& at, F f) {
  const index_t m = n / at.classes, e = n % at.classes;
  for (const index_t base : {m - 1, m, m + 1}) {
    if (base < 5 || (base == m - 1 && e != 0)) continue;
    for_each_divisor(base, [&](std::uint64_t w) {
      if (w < 5 || m / w < min_sub_board) return;
      split next = at;
      next.levels.push_back(w);
      next.classes = at.classes * w;
      f(next);
    });
  }
}

/// Splits by more levels for a board whose best single level leaves sub-boards over
/// lattice_max_whole_search queens (about 7% of n near 10^9, e.g. 1000000006: W = 5 only):
/// among the splits of two levels whose sub-boards fit (and hold 1024 queens or more), the nearest
/// to the aim (then the fewest classes), or of three when none of two comes within 4x of the aim
/// (the first 256 splits of two levels refined, to keep the plan within milliseconds); `fallback`
/// when none fits.
split refine(index_t n, double aim, const std::vector<split>& first, split fallback) {
  constexpr std::size_t max_refined = 256;  // splits of two levels refined again, at most
  // Smaller sub-boards make tens of millions of classes at 2^32 (a plan of hundreds of MB).
  constexpr index_t min_refined_sub_board = 1024;
  split best;
  double best_off = 0.0;
  std::vector<split> level = first, deeper;
  for (int depth = 2; depth <= 3; ++depth) {
    for (const split& at : level)
      for_each_refinement(n, at, [&](const split& s) {
        if (n / s.classes < min_refined_sub_board) return;
        if (n / s.classes + (n % s.classes ? 1 : 0) > lattice_max_whole_search) {
          if (depth < 3 && deeper.size() < max_refined) deeper.push_back(s);
          return;
        }
        const double off = std::abs(std::log2(static_cast<double>(n / s.classes)) - aim);
        if (best.classes == 1 || off < best_off || (off == best_off && s.classes < best.classes))
          best = s, best_off = off;
      });
    if (best.classes > 1 && best_off <= 2.0) break;  // within 4x of the aim: enough
    level.swap(deeper);
    deeper.clear();
  }
  return best.classes == 1 ? fallback : best;
}

/// k with k, k - 1 and k + 1 prime to w (w prime to 6), drawn from rng: p(a) = k a + b runs
/// p(a) - a and p(a) + a over every residue.
index_t draw_multiplier(index_t w, philox_stream& rng) {
  index_t k = 2;  // always fits: w is prime to 6
  for (int tries = 0; tries < 64; ++tries) {
    const index_t c = 2 + draw_below(rng, w - 3);
    if (gcd(c, w) == 1 && gcd(c - 1, w) == 1 && gcd(c + 1, w) == 1) {
      k = c;
      break;
    }
  }
  return k;
}

}  // namespace

lattice_plan plan_lattice(index_t n, std::uint64_t seed, index_t sub_board) {
  NQ_EXPECTS(n >= 1 && n <= max_n, "the lattice takes 1 to 4294967295 queens");
  plans_made.fetch_add(1, std::memory_order_relaxed);
  lattice_plan plan;
  plan.n = n;
  plan.seed = seed;
  plan.row_class = {0};
  const double aim =
      std::log2(static_cast<double>(sub_board ? sub_board : lattice_default_sub_board));
  // W divides n, n - 1 or n + 1: n mod W is then 0, 1 or W - 1, so at most one class differs
  // in size from the rest, and an affine p can keep it in its place.
  double best = 0.0;
  std::vector<split> first;
  for (const index_t base : {n, n - 1, n + 1}) {
    if (base < 5) continue;
    for_each_divisor(base, [&](std::uint64_t w) {
      if (w < 5 || gcd(w, 6) != 1 || n / w < min_sub_board) return;
      first.push_back({{w}, w});
      const double off = std::abs(std::log2(static_cast<double>(n / w)) - aim);
      if (plan.classes == 1 || off < best || (off == best && w < plan.classes))
        plan.classes = w, best = off;
    });
  }
  if (plan.classes == 1) return plan;
  split chosen{{plan.classes}, plan.classes};
  if (n / plan.classes + (n % plan.classes ? 1 : 0) > lattice_max_whole_search)
    chosen = refine(n, aim, first, chosen);
  const index_t w = chosen.levels[0];
  // p(a) = k (a - a0) + b0 mod W: k, k - 1 and k + 1 prime to W make p(a) - a and p(a) + a run
  // over every residue. The class of another size (residue 0 with one queen more, or W - 1 with
  // one less) keeps its place; when all are alike, the offset is drawn too.
  philox_stream rng(seed, plan_stream);
  const index_t k = draw_multiplier(w, rng);
  const index_t wide = n % w;
  const index_t fixed = wide == w - 1 ? w - 1 : 0;
  const index_t offset = wide == 0 ? draw_below(rng, w) : fixed;
  plan.row_class.resize(w);
  for (index_t a = 0; a < w; ++a)
    plan.row_class[a] = static_cast<index_t>(
        (static_cast<unsigned __int128>(k) * ((a + w - fixed) % w) + offset) % w);
  plan.classes = w;
  // Each further level v: class a + W a' (W the classes so far) takes rows p(a) + W q(a'),
  // q(a') = k (a' - a0) + b0 mod v as above, for class a's size s (m or m + 1): a0 = b0 = the
  // residue that s mod v leaves alone. Classes apart below never share a line; classes with
  // the same a are apart by q. The wide classes stay first (for_each_refinement).
  for (std::size_t level = 1; level < chosen.levels.size(); ++level) {
    const index_t v = chosen.levels[level], below = plan.classes;
    const index_t kv = draw_multiplier(v, rng), drawn = draw_below(rng, v);
    std::vector<index_t> rows(below * v);
    for (index_t a = 0; a < below; ++a) {
      const index_t s = n / below + (a < n % below ? 1 : 0), r = s % v;
      const index_t fix = r == v - 1 ? v - 1 : 0, off = r == 0 ? drawn : fix;
      for (index_t a2 = 0; a2 < v; ++a2)
        rows[a + below * a2] =
            plan.row_class[a] +
            below * static_cast<index_t>(
                        (static_cast<unsigned __int128>(kv) * ((a2 + v - fix) % v) + off) % v);
    }
    plan.row_class = std::move(rows);
    plan.classes = below * v;
  }
  plan.wide = n % chosen.classes;
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

std::uint64_t detail::lattice_plans_made() { return plans_made.load(std::memory_order_relaxed); }

bool lattice_fills_gpu(const lattice_plan& plan, unsigned multiprocessors, unsigned cpu_threads) {
  const index_t threads = std::max<index_t>(cpu_threads, 1);
  return plan.classes >= std::max<index_t>(multiprocessors, lattice_gpu_class_slowdown * threads);
}

bool lattice_fills_gpu(index_t n, unsigned multiprocessors, unsigned cpu_threads,
                       index_t sub_board) {
  // W does not depend on the seed, only the rows each class takes.
  return lattice_fills_gpu(plan_lattice(n, 1, sub_board), multiprocessors, cpu_threads);
}

}  // namespace nq
