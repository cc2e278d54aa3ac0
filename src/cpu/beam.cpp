// Local beam search: k states; every generation pools all their successors and keeps k of them.

#include <algorithm>
#include <queue>

#include "cpu/population_search.hpp"
#include "nqueens/climb.hpp"

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

/// The beam: k boards with their lines.
struct beam_states {
  beam_states(index_t n, std::size_t k)
      : n(n),
        queen_row(k * n),
        rows(k * n),
        diag(k * (2 * n - 1)),
        anti(k * (2 * n - 1)),
        cost(k) {}
  climber_view<count_t> view(std::size_t s) {
    return {queen_row.data() + s * n, rows.data() + s * n, diag.data() + s * (2 * n - 1),
            anti.data() + s * (2 * n - 1), n};
  }
  index_t n;
  std::vector<row_t> queen_row;
  std::vector<count_t> rows, diag, anti;
  std::vector<index_t> cost;
};

/// A successor: state s with the queen of `col` moved to `row`.
struct successor {
  index_t cost;
  std::uint32_t key;  // random tie-break
  std::uint32_t state;
  index_t col;
  row_t row;
  bool operator<(const successor& o) const { return cost != o.cost ? cost < o.cost : key < o.key; }
};

/// Calls visit(successor without key) for every successor of every state, in a fixed order.
template <class Visit>
void for_each_successor(beam_states& beam, Visit visit) {
  const index_t n = beam.n;
  for (std::uint32_t s = 0; s < beam.cost.size(); ++s) {
    const auto b = beam.view(s);
    for (index_t col = 0; col < n; ++col)
      for (index_t row = 0; row < n; ++row) {
        if (row == b.queen_row[col]) continue;
        const auto cost = static_cast<index_t>(static_cast<std::int64_t>(beam.cost[s]) +
                                               relocation_delta(b, col, row));
        visit(successor{cost, 0, s, col, static_cast<row_t>(row)});
      }
  }
}

/// The k best successors, ties broken by a random key per successor.
std::vector<successor> best_successors(beam_states& beam, philox_stream& rng, std::size_t k) {
  std::priority_queue<successor> kept;  // the worst kept on top
  for_each_successor(beam, [&](successor c) {
    c.key = rng.next_u32();
    if (kept.size() < k) {
      kept.push(c);
    } else if (c < kept.top()) {
      kept.pop();
      kept.push(c);
    }
  });
  std::vector<successor> chosen;
  while (!kept.empty()) {
    chosen.push_back(kept.top());
    kept.pop();
  }
  std::reverse(chosen.begin(), chosen.end());
  return chosen;
}

/// k successors drawn with replacement, with probability proportional to their fitness.
std::vector<successor> drawn_successors(beam_states& beam, philox_stream& rng, std::size_t k) {
  const index_t n = beam.n;
  double total = 0.0;
  for_each_successor(
      beam, [&](const successor& c) { total += static_cast<double>(fitness_of(n, c.cost)); });
  std::vector<std::pair<double, std::size_t>> targets(k);
  for (std::size_t i = 0; i < k; ++i) targets[i] = {rng.uniform() * total, i};
  std::sort(targets.begin(), targets.end());
  std::vector<successor> chosen(k);
  std::size_t next = 0;
  double running = 0.0;
  successor last{};
  for_each_successor(beam, [&](const successor& c) {
    running += static_cast<double>(fitness_of(n, c.cost));
    last = c;
    while (next < k && targets[next].first < running) chosen[targets[next++].second] = c;
  });
  while (next < k) chosen[targets[next++].second] = last;  // rounding at the very end
  return chosen;
}

}  // namespace

chain_outcome beam_search(index_t n, const beam_settings& settings, philox_stream& rng,
                          const row_t* start, std::uint64_t max_steps,
                          const population_observer& observe, std::vector<row_t>& best) {
  const std::size_t k = settings.width;
  beam_states beam(n, k);
  for (std::size_t s = 0; s < k; ++s) {
    const auto b = beam.view(s);
    if (s == 0 && start) {
      std::copy(start, start + n, b.queen_row);
      beam.cost[s] = recount(b);
    } else {
      beam.cost[s] = random_board(b, rng);
    }
  }
  chain_outcome out;
  trace_row row = population_row(n, beam.cost, 0);
  out.cost = row.cost;
  out.stopped = !observe(row);
  beam_states next(n, k);
  while (out.cost != 0 && !out.stopped && (max_steps == 0 || out.steps < max_steps)) {
    const auto chosen =
        settings.stochastic ? drawn_successors(beam, rng, k) : best_successors(beam, rng, k);
    for (std::size_t s = 0; s < k; ++s) {
      const successor& c = chosen[s];
      const auto b = next.view(s);
      std::copy_n(beam.view(c.state).queen_row, n, b.queen_row);
      b.queen_row[c.col] = c.row;
      next.cost[s] = recount(b);
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
