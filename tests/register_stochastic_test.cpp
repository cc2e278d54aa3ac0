// register_stochastic_chain_of (register_stochastic.hpp) against run_chain_of on a climber_view:
// the same outcome, the same final board and the same words drawn, for every board from 4 to 16
// queens, sa (each annealing setting) and random, a thousand (seed, run) pairs a board.

#include "nqueens/detail/register_stochastic.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "algorithm_label.hpp"
#include "nqueens/detail/local_chain.hpp"
#include "nqueens/detail/philox_registers.hpp"

namespace nq::register_stochastic_test {
namespace {

using A = local_algorithm;

/// sa or random with one set of annealing settings, and the (seed, run) pairs it plays.
struct stochastic_case {
  A algorithm;
  std::string variant;
  annealing_settings annealing;
  std::uint64_t max_steps = 0;
  std::uint64_t first_seed = 1;
  std::uint32_t pairs = 1000;
};

std::ostream& operator<<(std::ostream& os, const stochastic_case& c) {
  return os << test::label(c.algorithm) << '/' << c.variant << " max_steps " << c.max_steps
            << " seeds from " << c.first_seed << " x" << c.pairs;
}

/// The reference's board: a climber_view of 16-bit counts, as the GPU chains count.
struct reference_board {
  explicit reference_board(index_t n) : queen_row(n), row(n), diag(2 * n - 1), anti(2 * n - 1) {}
  climber_view<std::int16_t> view() {
    return {queen_row.data(), row.data(), diag.data(), anti.data(), queen_row.size()};
  }
  std::vector<row_t> queen_row;
  std::vector<std::int16_t> row, diag, anti;
};

struct tally {
  std::uint64_t runs = 0, solved = 0, steps = 0;
  std::uint64_t drew_more = 0;  ///< runs that drew past N + 2 words a step: uniforms, retries
};

/// The (seed, run) pair number i plays: 64 runs a seed, high counter words too.
std::pair<std::uint64_t, std::uint64_t> seed_and_run(std::uint64_t first_seed, std::uint32_t i) {
  return {first_seed + i / 64, (i % 64) * 0x9E3779B97F4A7C15ull};
}

template <A Algorithm, int N>
void expect_same_walks(const stochastic_case& c, tally& t) {
  local_search_settings s;
  s.algorithm = Algorithm;
  s.annealing = c.annealing;
  reference_board ref(N);
  for (std::uint32_t i = 0; i < c.pairs; ++i) {
    const auto [seed, run] = seed_and_run(c.first_seed, i);
    philox_stream expected_rng(seed, run);
    const chain_outcome expected = run_chain_of<Algorithm>(ref.view(), nullptr, expected_rng, s,
                                                           true, c.max_steps, no_observer{});
    // The same stream type, then the stream kept in registers.
    philox_stream rng(seed, run);
    std::uint64_t rows = 0;
    const chain_outcome got =
        register_stochastic_chain_of<Algorithm, N>(rng, s, c.max_steps, &rows);
    philox_register_stream register_rng(seed, run);
    std::uint64_t register_rows = 0;
    const chain_outcome got_in_registers =
        register_stochastic_chain_of<Algorithm, N>(register_rng, s, c.max_steps, &register_rows);
    const auto where = [&] {
      return "n " + std::to_string(N) + " seed " + std::to_string(seed) + " run " +
             std::to_string(run);
    };
    for (const chain_outcome* o : {&got, &got_in_registers}) {
      ASSERT_EQ(o->solved, expected.solved) << where();
      ASSERT_EQ(o->cost, expected.cost) << where();
      ASSERT_EQ(o->steps, expected.steps) << where();
      ASSERT_EQ(o->restarts, expected.restarts) << where();
      ASSERT_EQ(o->stopped, expected.stopped) << where();
      ASSERT_EQ(o->interrupted, expected.interrupted) << where();
    }
    for (int col = 0; col < N; ++col) {
      ASSERT_EQ((rows >> (4 * col)) & 15, ref.queen_row[col]) << where() << " col " << col;
      ASSERT_EQ((register_rows >> (4 * col)) & 15, ref.queen_row[col]) << where() << " col " << col;
    }
    // Both streams stand where the reference's does: the same blocks, the same next words.
    ASSERT_EQ(rng.blocks_drawn(), expected_rng.blocks_drawn()) << where();
    ASSERT_EQ(register_rng.blocks_drawn(), expected_rng.blocks_drawn()) << where();
    for (int w = 0; w < 5; ++w) {
      const std::uint32_t next = expected_rng.next_u32();
      ASSERT_EQ(rng.next_u32(), next) << where() << " word " << w;
      ASSERT_EQ(register_rng.next_u32(), next) << where() << " word " << w;
    }
    ++t.runs;
    t.solved += expected.solved;
    t.steps += expected.steps;
    // Up to 3 words of the last block go unused; 4 more mean words past a neighbour's two.
    t.drew_more += expected_rng.blocks_drawn() * 4 >= N + 2 * expected.steps + 4 + 4;
  }
}

template <A Algorithm, int... N>
void expect_same_walks_on(const stochastic_case& c, tally& t, std::integer_sequence<int, N...>) {
  (expect_same_walks<Algorithm, N + 4>(c, t), ...);
}

class RegisterStochastic : public ::testing::TestWithParam<stochastic_case> {};

TEST_P(RegisterStochastic, WalksAsTheReferenceOnEveryBoardFrom4To16) {
  const stochastic_case& c = GetParam();
  tally t;
  const auto boards = std::make_integer_sequence<int, 13>{};  // 4 .. 16
  if (c.algorithm == A::sa)
    expect_same_walks_on<A::sa>(c, t, boards);
  else
    expect_same_walks_on<A::random>(c, t, boards);
  if (HasFatalFailure()) return;
  // The cases walk far enough to mean something: steps everywhere, some runs solved and some
  // not, and sa drawing uniforms (or retrying squares) past its neighbours' words.
  EXPECT_EQ(t.runs, 13u * c.pairs);
  EXPECT_GT(t.steps, c.max_steps < 10 ? 2 * t.runs : 50 * t.runs);
  EXPECT_GT(t.solved, 0u);
  EXPECT_LT(t.solved, t.runs);
  if (c.algorithm == A::sa) {
    EXPECT_GT(t.drew_more, t.runs / 10);
  }
}

std::vector<stochastic_case> cases() {
  const auto with = [](auto change) {
    annealing_settings a;
    change(a);
    return a;
  };
  const annealing_settings defaults;
  const annealing_settings refuse_equal = with([](auto& a) { a.accept_equal = false; });
  const annealing_settings per_move = with([](auto& a) { a.cool_per_move = true; });
  const annealing_settings per_move_refuse_equal = with([](auto& a) {
    a.cool_per_move = true;
    a.accept_equal = false;
  });
  // Warm throughout: worse moves taken to the end.
  const annealing_settings warm = with([](auto& a) {
    a.initial_temperature = 2.0;
    a.cooling = 0.995;
    a.min_temperature = 0.5;
  });
  // T runs through subnormals to 0 (a floor of 0) by step 330: exp(-delta / 0) = 0.
  const annealing_settings frozen = with([](auto& a) {
    a.cooling = 0.1;
    a.min_temperature = 0.0;
  });
  // Past the default schedule's floor (T = n^2 reaches 0.01 by step 200 at 16 queens), and
  // kept to a few seconds in all: a run that refuses equal moves and cools per move retries
  // squares for long once cold.
  constexpr std::uint64_t sa_steps = 500, retrying_steps = 250, random_steps = 100;
  return {
      {A::sa, "default", defaults, sa_steps, 1},
      {A::sa, "refuse-equal", refuse_equal, sa_steps, 101},
      {A::sa, "cool-per-move", per_move, retrying_steps, 201},
      {A::sa, "cool-per-move-refuse-equal", per_move_refuse_equal, retrying_steps, 301},
      {A::sa, "warm-schedule", warm, sa_steps, 401},
      {A::sa, "frozen-at-zero", frozen, sa_steps, 501},
      {A::sa, "max-steps-3", defaults, 3, 601},
      {A::random, "default", defaults, random_steps, 1},
      {A::random, "max-steps-3", defaults, 3, 601},
  };
}

INSTANTIATE_TEST_SUITE_P(EverySetting, RegisterStochastic, ::testing::ValuesIn(cases()));

/// The device's stop as the reference sees it: an observer that says stop at its
/// 1,024 k-th call (device_observer checks every 1,024 calls).
struct stop_at_check {
  std::uint64_t k;
  std::uint64_t* calls;
  bool operator()(const chain_state&) const { return ++*calls != 1024 * k; }
};

/// The same stop as the register chains see it: a poll saying yes at its k-th ask.
struct yes_at_ask {
  std::uint32_t k;
  std::uint32_t* asks;
  bool operator()() const { return ++*asks == k; }
};

template <A Algorithm, int N>
void expect_same_stops(std::uint32_t k) {
  local_search_settings s;
  s.algorithm = Algorithm;
  reference_board ref(N);
  std::uint64_t stopped = 0;
  for (std::uint32_t i = 0; i < 200; ++i) {
    const auto [seed, run] = seed_and_run(701, i);
    philox_stream expected_rng(seed, run);
    std::uint64_t calls = 0;
    const chain_outcome expected = run_chain_of<Algorithm>(ref.view(), nullptr, expected_rng, s,
                                                           true, 0, stop_at_check{k, &calls});
    philox_register_stream rng(seed, run);
    std::uint32_t asks = 0;
    std::uint64_t rows = 0;
    const chain_outcome got =
        register_stochastic_chain_of<Algorithm, N>(rng, s, 0, &rows, yes_at_ask{k, &asks});
    const std::string where = "n " + std::to_string(N) + " k " + std::to_string(k) + " seed " +
                              std::to_string(seed) + " run " + std::to_string(run);
    ASSERT_EQ(got.solved, expected.solved) << where;
    ASSERT_EQ(got.cost, expected.cost) << where;
    ASSERT_EQ(got.steps, expected.steps) << where;
    // A run solved by the step of a check is not cut (the poll is asked before a step).
    ASSERT_EQ(got.stopped, expected.stopped && !expected.solved) << where;
    ASSERT_EQ(rng.blocks_drawn(), expected_rng.blocks_drawn()) << where;
    for (int col = 0; col < N; ++col)
      ASSERT_EQ((rows >> (4 * col)) & 15, ref.queen_row[col]) << where << " col " << col;
    if (got.stopped) {
      ASSERT_EQ(got.steps, 1024 * k - 1) << where;
      ++stopped;
    }
  }
  if (N == 16) {
    EXPECT_GT(stopped, 100u) << "n " << N << " k " << k;
  }
}

TEST(RegisterStochasticPoll, StopsARunWhereTheObserversCheckWould) {
  for (const std::uint32_t k : {1u, 2u}) {
    expect_same_stops<A::sa, 8>(k);
    expect_same_stops<A::sa, 16>(k);
    expect_same_stops<A::random, 8>(k);
    expect_same_stops<A::random, 16>(k);
    if (HasFatalFailure()) return;
  }
}

TEST(PhiloxRegisterStream, DrawsPhiloxStreamsUniforms) {
  for (const std::uint64_t seed : {0ull, 1ull, 0xDEADBEEFCAFEull})
    for (const std::uint64_t run : {0ull, 5ull, 0x123456789ull}) {
      philox_stream expected(seed, run);
      philox_register_stream got(seed, run);
      for (int i = 0; i < 1000; ++i) {
        if (i % 3 == 0) {
          ASSERT_EQ(got.next_u32(), expected.next_u32()) << i;  // uniforms across blocks too
        } else {
          const double u = got.uniform();
          ASSERT_EQ(u, expected.uniform()) << i;
          ASSERT_GE(u, 0.0);
          ASSERT_LT(u, 1.0);
        }
        ASSERT_EQ(got.blocks_drawn(), expected.blocks_drawn()) << i;
      }
    }
}

TEST(RegisterStochasticSupports, SaAndRandomOnBoardsFrom4To16) {
  local_search_settings s;
  s.algorithm = A::sa;
  s.annealing.cool_per_move = true;
  s.annealing.accept_equal = false;
  s.annealing.initial_temperature = 3.0;
  EXPECT_FALSE(register_stochastic_supports(s, 3));
  EXPECT_TRUE(register_stochastic_supports(s, 4));
  EXPECT_TRUE(register_stochastic_supports(s, 16));
  EXPECT_FALSE(register_stochastic_supports(s, 17));
  s.algorithm = A::random;
  EXPECT_TRUE(register_stochastic_supports(s, 9));
  for (const A other : {A::hc, A::hc_restart, A::random_opt, A::hc_anneal_p}) {
    s.algorithm = other;
    EXPECT_FALSE(register_stochastic_supports(s, 8)) << test::label(other);
  }
  static_assert([] {
    local_search_settings random;
    random.algorithm = A::random;
    return register_stochastic_supports(random, 8);
  }());
}

}  // namespace
}  // namespace nq::register_stochastic_test
