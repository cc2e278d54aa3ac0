// Local beam search: k states; every generation pools all their successors and keeps k of them,
// the k best (ties by a random key per successor) or k drawn by fitness. Keys and draws come
// from nqueens/detail/population.hpp's keyed streams, which the GPU kernel draws from too.

#include <algorithm>
#include <functional>
#include <queue>

#include "cpu/population_search.hpp"
#include "nqueens/detail/climb.hpp"

namespace nq::detail {

index_t board_cost::operator()(const row_t* queen_row) {
  std::fill(rows_.begin(), rows_.end(), 0u);
  std::fill(diag_.begin(), diag_.end(), 0u);
  std::fill(anti_.begin(), anti_.end(), 0u);
  index_t pairs = 0;
  for (index_t col = 0; col < n_; ++col) {
    const index_t row = queen_row[col];
    pairs += rows_[row]++ + diag_[row + n_ - 1 - col]++ + anti_[col + row]++;
  }
  return pairs;
}

trace_row population_row(index_t n, const std::vector<index_t>& cost, std::uint64_t step) {
  trace_row row;
  row.step = step;
  row.cost = *std::min_element(cost.begin(), cost.end());
  double sum = 0.0;
  for (const index_t c : cost) sum += static_cast<double>(fitness_of(n, c));
  row.best_fitness = static_cast<double>(fitness_of(n, row.cost));
  row.mean_fitness = sum / static_cast<double>(cost.size());
  return row;
}

namespace {

using count_t = std::uint16_t;

/// The beam: k boards with their lines. A wide beam is gigabytes (10^6 states of 100 queens:
/// 1.4 GB), so its memory is reserved at once but made state by state (grow), between reads
/// of the stop.
struct beam_states {
  beam_states(index_t n, std::size_t k) : n(n) {
    queen_row.reserve(k * n);
    rows.reserve(k * n);
    diag.reserve(k * (2 * n - 1));
    anti.reserve(k * (2 * n - 1));
    cost.reserve(k);
  }
  /// Makes room for state s, 4,096 states at a time (at most k).
  void grow(std::size_t s, std::size_t k) {
    if (s >= cost.size()) resize(std::min(k, s + 4096));
  }
  /// Holds `states` states (those it gains zeroed, within what was reserved).
  void resize(std::size_t states) {
    queen_row.resize(states * n);
    rows.resize(states * n);
    diag.resize(states * (2 * n - 1));
    anti.resize(states * (2 * n - 1));
    cost.resize(states);
  }
  climber_view<count_t> view(std::size_t s) {
    return {queen_row.data() + s * n, rows.data() + s * n, diag.data() + s * (2 * n - 1),
            anti.data() + s * (2 * n - 1), n};
  }
  index_t n;
  std::vector<row_t> queen_row;
  std::vector<count_t> rows, diag, anti;
  std::vector<index_t> cost;
};

/// A successor: its key (cost, then random tie-break) and its number, state by state.
struct successor {
  std::uint64_t key;
  std::uint64_t number;
  bool operator<(const successor& o) const {
    return key != o.key ? key < o.key : number < o.number;
  }
};

/// Asked once per column of successors, and once per state made (at the start and when a
/// generation takes its states): true ends the generation unfinished (a time limit; a
/// generation of 16 states on 3000 queens scores 1.4e8 successors, and taking 10^6 states of
/// 100 queens writes 1.4 GB, both far too long to finish first).
using interrupt_check = std::function<bool()>;

/// Calls visit(number, state, j, cost) for every successor of every state, in order: successor
/// j of state s is number s n(n-1) + j, its queen of column j / (n-1) moved to the
/// (j % (n-1))-th other row (beam::successor_cost's numbering, without its divisions). False if
/// `interrupted` ended it early.
template <class Visit>
bool for_each_successor(beam_states& beam, const interrupt_check& interrupted, Visit visit) {
  const index_t n = beam.n, per_state = beam::successors_per_state(n);
  for (std::size_t s = 0; s < beam.cost.size(); ++s) {
    const auto b = beam.view(s);
    index_t j = 0;
    for (index_t col = 0; col < n; ++col) {
      if (interrupted && interrupted()) return false;
      for (index_t k = 0; k + 1 < n; ++k, ++j) {
        const auto cost =
            static_cast<index_t>(static_cast<std::int64_t>(beam.cost[s]) +
                                 relocation_delta(b, col, other_row(k, b.queen_row[col])));
        visit(s * per_state + j, s, j, cost);
      }
    }
  }
  return true;
}

/// The k best successors of generation g, best first: the k least keys, the tie-break of
/// successor j of state s being word j of stream (run, g, s). Streams through them with a heap
/// of k, so that a generation of a wide board takes no memory per successor.
/// Empty if interrupted.
std::vector<std::uint64_t> best_successors(beam_states& beam, std::uint64_t seed, std::uint64_t run,
                                           std::uint64_t generation, std::size_t k,
                                           const interrupt_check& interrupted) {
  std::priority_queue<successor> kept;  // the worst kept on top
  philox_stream ties(0, 0);
  r123::Philox4x32::ctr_type words{};
  const bool finished = for_each_successor(beam, interrupted, [&](std::uint64_t number,
                                                                   std::size_t s, index_t j,
                                                                   index_t cost) {
    if (j == 0) ties = population_stream(seed, run, generation, s);
    if (j % 4 == 0) words = ties.block_at(j / 4);
    const successor c{beam::successor_key(cost, words[static_cast<unsigned>(j % 4)]), number};
    if (kept.size() < k) {
      kept.push(c);
    } else if (c < kept.top()) {
      kept.pop();
      kept.push(c);
    }
  });
  if (!finished) return {};
  std::vector<std::uint64_t> chosen(kept.size());
  for (std::size_t i = chosen.size(); i-- > 0; kept.pop()) chosen[i] = kept.top().number;
  return chosen;
}

/// k successors drawn with replacement, with probability proportional to their fitness: draw i
/// from stream (run, g, i) takes the first successor whose running sum of fitness exceeds its
/// target. Two passes, no memory per successor. Empty if interrupted.
std::vector<std::uint64_t> drawn_successors(beam_states& beam, std::uint64_t seed,
                                            std::uint64_t run, std::uint64_t generation,
                                            std::size_t k, const interrupt_check& interrupted) {
  const index_t n = beam.n;
  std::uint64_t total = 0, last = 0;
  if (!for_each_successor(beam, interrupted,
                          [&](std::uint64_t number, std::size_t, index_t, index_t cost) {
                            total += fitness_of(n, cost);
                            last = number;
                          }))
    return {};
  std::vector<std::uint64_t> chosen(k, last);  // no fitness at all: the last
  if (total == 0) return chosen;
  std::vector<std::pair<std::uint64_t, std::size_t>> targets(k);
  for (std::size_t i = 0; i < k; ++i) {
    philox_stream rng = population_stream(seed, run, generation, i);
    targets[i] = {beam::draw_target(rng, total), i};
  }
  std::sort(targets.begin(), targets.end());
  std::size_t next = 0;
  std::uint64_t running = 0;
  if (!for_each_successor(beam, interrupted,
                          [&](std::uint64_t number, std::size_t, index_t, index_t cost) {
                            running += fitness_of(n, cost);
                            while (next < k && targets[next].first < running)
                              chosen[targets[next++].second] = number;
                          }))
    return {};
  return chosen;
}

}  // namespace

chain_outcome beam_search(index_t n, const beam_settings& settings, std::uint64_t seed,
                          std::uint64_t run, const row_t* start, std::uint64_t max_steps,
                          const population_observer& observe, std::vector<row_t>& best,
                          const std::function<bool()>& interrupted) {
  const std::size_t k = settings.width;
  const auto stop_asked = [&] { return interrupted && interrupted(); };
  beam_states beam(n, k);
  // A stop while the beam is made leaves it with the states made so far (at least one).
  bool made = true;
  for (std::size_t s = 0; s < k; ++s) {
    if (s > 0 && stop_asked()) {
      beam.resize(s);
      made = false;
      break;
    }
    beam.grow(s, k);
    const auto b = beam.view(s);
    if (s == 0 && start) {
      std::copy(start, start + n, b.queen_row);
      beam.cost[s] = recount(b);
    } else {
      philox_stream rng = population_stream(seed, run, 0, s);
      beam.cost[s] = random_board(b, rng);
    }
  }
  chain_outcome out;
  trace_row row = population_row(n, beam.cost, 0);
  out.cost = row.cost;
  out.stopped = !observe(row) || !made;
  beam_states next(n, k);
  const index_t per_state = beam::successors_per_state(n);
  while (out.cost != 0 && !out.stopped && (max_steps == 0 || out.steps < max_steps)) {
    const std::uint64_t generation = out.steps + 1;
    const auto chosen = settings.stochastic
                            ? drawn_successors(beam, seed, run, generation, k, interrupted)
                            : best_successors(beam, seed, run, generation, k, interrupted);
    std::size_t taken = 0;
    if (!chosen.empty())
      for (; taken < k && !stop_asked(); ++taken) {
        next.grow(taken, k);
        next.cost[taken] = beam::take_successor(beam.view(chosen[taken] / per_state),
                                                next.view(taken), chosen[taken] % per_state);
      }
    if (taken < k) {  // interrupted: the generation is dropped, the beam stays as it was
      out.stopped = true;
      break;
    }
    std::swap(beam, next);
    ++out.steps;
    row = population_row(n, beam.cost, out.steps);
    out.cost = row.cost;
    out.stopped = !observe(row);
  }
  const auto at = std::min_element(beam.cost.begin(), beam.cost.end()) - beam.cost.begin();
  const auto b = beam.view(static_cast<std::size_t>(at));
  best.assign(b.queen_row, b.queen_row + n);
  out.solved = out.cost == 0;
  return out;
}

}  // namespace nq::detail
