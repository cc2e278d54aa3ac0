#include "nqueens/algorithms.hpp"

#include <algorithm>
#include <array>

#include "nqueens/error.hpp"
#include "nqueens/systematic.hpp"

namespace nq {
namespace {

constexpr std::array<algorithm_info, 20> registry{{
    {"hc",
     "steepest-ascent hill climbing: the best of all n(n-1) moves while it is strictly better "
     "(ties at random, or --ties first); stops at a local minimum or plateau",
     "moves made"},
    {"hc-sideways",
     "hill climbing that also takes equal moves, up to --sideways in a row (default 100; "
     "--sideways-limit total counts them all)",
     "moves made"},
    {"hc-restart",
     "hill climbing with sideways moves, restarting from a fresh random board when stuck",
     "moves made, over all restarts"},
    {"first-choice",
     "first-choice hill climbing: neighbours in random order (--order fixed: column by column), "
     "the first strictly better taken; the order takes 4 n(n-1) bytes (1 GiB at 16,384 queens, "
     "16 GiB at 65,535), refused up front where they are not available",
     "moves made"},
    {"min-conflicts",
     "permutation min-conflicts for huge n (Sosic-Gu QS4 style); --variant column: the textbook "
     "version (a random attacked queen to its least-attacked row, --restarts R)",
     "permutation: candidate rows drawn + swaps tried; column: queens picked"},
    {"parallel",
     "parallel placement for huge n on every core (--threads) or the GPU (--device): blocks of "
     "columns place QS4-style in rounds with deterministic claims, merging as the board fills; "
     "the same board for a seed whatever the threads or device",
     "placement rounds + insertion partners drawn"},
    {"lattice",
     "lattice split for huge n on every core (--threads): W interleaved sub-boards (columns a + Wi "
     "take rows p(a) + Wj, p a solution on a W-torus) share no line, so each is solved alone by "
     "QS4 (one random position a column, the rows left tried from there in order); the same "
     "board for a seed whatever the threads",
     "sub-boards' rows tried + swaps tried, added up (--max-steps bounds each)"},
    {"sa",
     "simulated annealing: random neighbour taken with probability min(1, exp(-d/T)), so equal "
     "moves always (--reject-equal: never); T0 = n^2, cooling 0.95 per neighbour tried "
     "(--cooling-per move: per move taken, the tutorial's loop), floor 0.01, 50,000 steps",
     "neighbours tried (--cooling-per move: moves taken)"},
    {"random", "a fresh random board every step (1,000,000 by default)", "boards drawn"},
    {"random-opt",
     "one random queen to a random row per step, kept unless worse (--step sweep: every column "
     "in turn per step)",
     "neighbours tried (--step sweep: sweeps)"},
    {"hc-random-p",
     "hill climbing where, with probability --p (0.23), --q (2) random queens jump instead",
     "iterations (hill-climbing steps and jumps)"},
    {"hc-anneal-p",
     "as hc-random-p, with p cooling like a temperature on hill-climbing steps (--cooling 0.99, "
     "--p-min 0.01)",
     "iterations (hill-climbing steps and jumps)"},
    {"hc-memory",
     "hill climbing with memory: when a step does not improve the cost, --q (4) queens jump",
     "iterations"},
    {"beam",
     "local beam search: --beam-width (16) states, all successors pooled, the best kept; "
     "--stochastic draws them by fitness",
     "generations"},
    {"ga",
     "genetic algorithm: tournament selection, single-point crossover (0.9), mutation (0.15), "
     "elitism; --encoding permutation: order crossover and swaps",
     "generations"},
    {"constructive", "the explicit O(n) solution by the classic n mod 6 rule; no search",
     "columns placed"},
    {"backtrack",
     "recursive backtracking, column by column, checking each row against every placed queen "
     "(O(n)); rows in ascending order, or shuffled with --randomize",
     "nodes expanded"},
    {"backtrack-opt", "the same backtracking with row and diagonal occupancy arrays: O(1) checks",
     "nodes expanded"},
    {"dfs", "depth-first search with an explicit stack: the backtracking tree, without recursion",
     "nodes expanded"},
    {"bfs",
     "breadth-first search level by level; reports each level's frontier and stops before it "
     "would exceed --max-memory",
     "nodes expanded"},
}};

}  // namespace

std::span<const algorithm_info> algorithms() { return registry; }

const algorithm_info* find_algorithm(std::string_view name) {
  const auto it = std::find_if(registry.begin(), registry.end(),
                               [&](const algorithm_info& a) { return a.name == name; });
  return it == registry.end() ? nullptr : &*it;
}

bool is_systematic(std::string_view name) {
  return name == "backtrack" || name == "backtrack-opt" || name == "dfs" || name == "bfs";
}

solve_result solve_systematic(std::string_view name, index_t n,
                              const systematic_settings& settings) {
  NQ_EXPECTS(is_systematic(name), "a systematic solver");
  if (name == "backtrack") return solve_backtrack(n, settings);
  if (name == "backtrack-opt") return solve_backtrack_opt(n, settings);
  if (name == "dfs") return solve_dfs(n, settings);
  return solve_bfs(n, settings);
}

}  // namespace nq
