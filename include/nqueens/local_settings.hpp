#pragma once
/// @file
/// @brief Settings of the local-search family (complete-state formulation: one queen per
/// column, a move puts one queen on another row of its column, cost = attacking pairs), and
/// what a chain reports after each step. Plain structs, usable on host and device.

#include <array>
#include <cstdint>

#include "nqueens/config.hpp"

namespace nq {

/// @brief Which of equally good best moves a steepest step takes, numbered column by column
/// (left to right), rows top to bottom.
enum class tie_rule : std::uint8_t {
  random,  ///< uniformly at random (one draw)
  first,   ///< the first (the Haskell article's, the Python program's)
  last,    ///< the last (the case study's scan keeps the last move at least as good)
};

/// @brief hc, hc-sideways and hc-restart: steepest-ascent hill climbing.
struct hill_climbing_settings {
  std::uint32_t max_sideways = 100;  ///< sideways moves allowed (hc-sideways, hc-restart)
  /// The sideways limit counts every sideways move of a climb (the Haskell article's rule),
  /// not only consecutive ones; a restart starts a new count either way.
  bool total_sideways = false;
  /// Among equally good best moves. Every steepest-move algorithm reads it.
  tie_rule ties = tie_rule::random;
  /// After each sideways move one random queen moves to a random row (possibly its own): the
  /// case study's escape from plateaus. hc-sideways and hc-restart.
  bool plateau_jump = false;
};

/// @brief random-opt: what a step is.
struct random_opt_settings {
  /// One pass over every column (the Python program's iteration), rather than one random
  /// queen.
  bool sweep = false;
};

/// @brief first-choice: the order neighbours are tried in.
struct first_choice_settings {
  /// Columns left to right, rows top to bottom, from the first column after every move (the
  /// tutorial's scan), rather than a fresh random order per step.
  bool fixed_order = false;
};

/// @brief min-conflicts --variant column: the textbook min-conflicts for small boards.
struct column_min_conflicts_settings {
  std::uint64_t steps_per_try = 0;  ///< moves before giving up a board; 0 means 100 n
  std::uint64_t restarts = 0;       ///< fresh random boards allowed after a failed try
};

/// @brief sa: simulated annealing with geometric cooling. The defaults are the tutorial's:
/// T0 = n^2, x0.95, floor 0.01, and a move is taken with probability min(1, e^(-delta/T)),
/// so moves that leave the cost unchanged are always taken.
struct annealing_settings {
  double initial_temperature = 0.0;  ///< 0 means n*n, as in the classic schedule
  double cooling = 0.95;             ///< T <- T * cooling after every step
  double min_temperature = 0.01;     ///< the floor T stays at once reached
  bool accept_equal = true;          ///< false: moves that leave the cost unchanged are refused
  /// false: a step is one neighbour tried, and T cools after each. true (the tutorial's loop):
  /// neighbours (any square of a random column, the queen's own included) are drawn until one
  /// is accepted; that is the step, and T cools once per step.
  bool cool_per_move = false;
};

/// @brief hc-random-p: a hill-climbing step, or with probability p a jump of q queens.
struct random_jump_settings {
  double p = 0.23;      ///< probability that a step is a jump
  std::uint32_t q = 2;  ///< queens that jump to random rows
};

/// @brief hc-anneal-p: as hc-random-p, with p cooling like a temperature on hill-climbing steps.
struct annealed_jump_settings {
  double p = 0.23;        ///< the starting probability of a jump
  std::uint32_t q = 2;    ///< queens that jump to random rows
  double cooling = 0.99;  ///< p <- p * cooling after every hill-climbing step
  double p_min = 0.01;    ///< the floor p stays at once reached
};

/// @brief hc-memory: a hill-climbing step; when it finds no improvement, q queens jump.
struct memory_jump_settings {
  std::uint32_t q = 4;  ///< queens that jump when the cost did not improve
};

/// @brief beam: local beam search.
struct beam_settings {
  std::uint32_t width = 16;  ///< states kept (k)
  bool stochastic = false;   ///< draw the k successors with probability by fitness
};

/// @brief ga: a generational genetic algorithm.
struct genetic_settings {
  std::uint32_t population = 0;        ///< 0 means min(2 n^2, 4096)
  std::uint32_t tournament = 3;        ///< contestants per parent selection
  double crossover = 0.9;              ///< probability that two parents recombine
  double mutation = 0.15;              ///< probability that a child mutates one gene
  double equal_parent_mutation = 1.0;  ///< the mutation probability when both parents are equal
  std::uint32_t elite = 1;             ///< best individuals copied unchanged
  bool permutation = false;            ///< permutation encoding: order crossover, swap mutation
  /// Selection by leaders (the Python report's): each generation the population is cut into
  /// 2n consecutive groups, the best of each is a leader, and both parents are drawn from the
  /// leaders. false: tournaments of `tournament` contestants.
  bool leaders = false;
  /// When > 0, two equal parents raise the run's mutation probability by this much for the rest
  /// of the run (capped at 1), and the raised probability applies to their children, instead of
  /// `equal_parent_mutation`.
  double mutation_step = 0.0;
};

/// @brief Every local-search algorithm (min-conflicts in its two variants).
enum class local_algorithm : std::uint8_t {
  hc,
  hc_sideways,
  hc_restart,
  first_choice,
  min_conflicts,         ///< the permutation solver for huge n (min_conflicts.hpp)
  min_conflicts_column,  ///< the textbook variant for small n
  sa,
  random,
  random_opt,
  hc_random_p,
  hc_anneal_p,
  hc_memory,
  beam,
  ga,
};

/// @brief The local searches that run as one chain on one board, in the enum's order: all but
/// the permutation min-conflicts, beam and ga. The one list: the CPU reference and the kernels
/// dispatch over it (with_single_chain, local_chain.hpp), and the GPU chain tests run it.
inline constexpr std::array<local_algorithm, 11> single_chain_algorithms{
    local_algorithm::hc,
    local_algorithm::hc_sideways,
    local_algorithm::hc_restart,
    local_algorithm::first_choice,
    local_algorithm::min_conflicts_column,
    local_algorithm::sa,
    local_algorithm::random,
    local_algorithm::random_opt,
    local_algorithm::hc_random_p,
    local_algorithm::hc_anneal_p,
    local_algorithm::hc_memory};

/// @brief Whether `a` runs as one chain (is in single_chain_algorithms). Host code.
constexpr bool is_single_chain(local_algorithm a) {
  for (const local_algorithm chain : single_chain_algorithms)
    if (chain == a) return true;
  return false;
}

/// @brief Every algorithm's settings; each algorithm reads its own.
struct local_search_settings {
  local_algorithm algorithm = local_algorithm::hc;
  hill_climbing_settings hill;
  first_choice_settings first_choice;
  random_opt_settings random_opt;
  column_min_conflicts_settings column;
  annealing_settings annealing;
  random_jump_settings random_jump;
  annealed_jump_settings annealed_jump;
  memory_jump_settings memory;
  beam_settings beam;
  genetic_settings genetic;
};

/// @brief What a chain reports after each step (and once for its starting board, step 0).
struct chain_state {
  std::uint64_t steps = 0;
  std::uint64_t restarts = 0;
  index_t cost = 0;           ///< attacking pairs now
  double temperature = -1.0;  ///< sa: T; hc-anneal-p: p; otherwise negative
};

/// @brief How a chain ended.
struct chain_outcome {
  bool solved = false;
  index_t cost = 0;
  std::uint64_t steps = 0;
  std::uint64_t restarts = 0;
  bool stopped = false;  ///< the observer asked to stop (a time limit)
  /// Set by the backends, never by a chain: the caller's stop (Ctrl-C) may have ended this run,
  /// or kept it from starting, so it is not one of a batch's finished runs.
  bool interrupted = false;
};

/// @brief An observer that never stops a chain: the batch hot path.
struct no_observer {
  NQ_HD bool operator()(const chain_state&) const { return true; }
};

}  // namespace nq
