// register_hill_climb (register_climb.hpp) against run_chain_of on a climber_view: the same
// outcome, the same final board and the same words drawn, for every board from 4 to 16 queens,
// hc, hc-sideways and hc-restart, each hill-climbing setting, thousands of (seed, run) pairs.

#include "nqueens/detail/register_climb.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "algorithm_label.hpp"
#include "nqueens/detail/local_chain.hpp"
#include "nqueens/detail/philox_registers.hpp"

namespace nq {
namespace {

using A = local_algorithm;

/// One algorithm with one set of hill-climbing settings, and the (seed, run) pairs it plays.
struct climb_case {
  A algorithm;
  std::string variant;
  hill_climbing_settings hill;
  std::uint64_t max_steps = 0;
  std::uint64_t first_seed = 1;
  std::uint32_t pairs = 2000;
};

std::ostream& operator<<(std::ostream& os, const climb_case& c) {
  return os << test::label(c.algorithm) << '/' << c.variant << " max_steps " << c.max_steps
            << " seeds from " << c.first_seed << " x" << c.pairs;
}

/// The reference: hill_climb on a climber_view of 16-bit counts, as the GPU chains count.
struct reference_board {
  explicit reference_board(index_t n) : queen_row(n), row(n), diag(2 * n - 1), anti(2 * n - 1) {}
  climber_view<std::int16_t> view() {
    return {queen_row.data(), row.data(), diag.data(), anti.data(), queen_row.size()};
  }
  std::vector<row_t> queen_row;
  std::vector<std::int16_t> row, diag, anti;
};

struct tally {
  std::uint64_t runs = 0, solved = 0, steps = 0, restarts = 0, words_beyond_start = 0;
};

template <A Algorithm, int N>
void expect_same_walks(const climb_case& c, tally& t) {
  local_search_settings s;
  s.algorithm = Algorithm;
  s.hill = c.hill;
  reference_board ref(N);
  for (std::uint32_t i = 0; i < c.pairs; ++i) {
    const std::uint64_t seed = c.first_seed + i / 64;
    const std::uint64_t run = (i % 64) * 0x9E3779B97F4A7C15ull;  // high counter words too
    philox_stream expected_rng(seed, run);
    const chain_outcome expected = run_chain_of<Algorithm>(ref.view(), nullptr, expected_rng, s,
                                                           true, c.max_steps, no_observer{});
    // The same stream type, then the stream kept in registers.
    philox_stream rng(seed, run);
    std::uint64_t rows = 0;
    const chain_outcome got = register_chain_of<Algorithm, N>(rng, s, c.max_steps, &rows);
    philox_register_stream register_rng(seed, run);
    std::uint64_t register_rows = 0;
    const chain_outcome got_in_registers =
        register_chain_of<Algorithm, N>(register_rng, s, c.max_steps, &register_rows);
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
    t.restarts += expected.restarts;
    t.words_beyond_start += expected_rng.blocks_drawn() * 4 > static_cast<std::uint64_t>(N) + 8;
  }
}

template <A Algorithm, int... N>
void expect_same_walks_on(const climb_case& c, tally& t, std::integer_sequence<int, N...>) {
  (expect_same_walks<Algorithm, N + 4>(c, t), ...);
}

class RegisterClimb : public ::testing::TestWithParam<climb_case> {};

TEST_P(RegisterClimb, WalksAsHillClimbOnEveryBoardFrom4To16) {
  const climb_case& c = GetParam();
  tally t;
  const auto boards = std::make_integer_sequence<int, 13>{};  // 4 .. 16
  switch (c.algorithm) {
    case A::hc:
      expect_same_walks_on<A::hc>(c, t, boards);
      break;
    case A::hc_sideways:
      expect_same_walks_on<A::hc_sideways>(c, t, boards);
      break;
    default:
      expect_same_walks_on<A::hc_restart>(c, t, boards);
  }
  if (HasFatalFailure()) return;
  // The cases walk far enough to mean something: steps everywhere, some runs solved and
  // some not (or restarted), and draws past the start where ties are random.
  EXPECT_EQ(t.runs, 13u * c.pairs);
  EXPECT_GT(t.steps, t.runs);
  EXPECT_GT(t.solved, 0u);
  if (c.algorithm == A::hc_restart) {
    EXPECT_GT(t.restarts, 0u);
  } else {
    EXPECT_LT(t.solved, t.runs);
  }
  if (c.hill.ties == tie_rule::random) {
    EXPECT_GT(t.words_beyond_start, t.runs / 10);
  }
}

std::vector<climb_case> cases() {
  std::vector<climb_case> out;
  const auto with = [](auto change) {
    hill_climbing_settings h;
    change(h);
    return h;
  };
  const hill_climbing_settings defaults;
  const hill_climbing_settings first = with([](auto& h) { h.ties = tie_rule::first; });
  const hill_climbing_settings last = with([](auto& h) { h.ties = tie_rule::last; });
  const hill_climbing_settings total = with([](auto& h) {
    h.total_sideways = true;
    h.max_sideways = 7;
  });
  const hill_climbing_settings jump = with([](auto& h) { h.plateau_jump = true; });
  const hill_climbing_settings jump_last = with([](auto& h) {
    h.plateau_jump = true;
    h.ties = tie_rule::last;
    h.max_sideways = 20;
  });
  for (const A a : {A::hc, A::hc_sideways, A::hc_restart}) {
    // hc-restart runs until solved, and a plateau jump lets any climb go on (an improving
    // move after it starts a new sideways count): those cases stop at a step limit.
    const std::uint64_t limit = a == A::hc_restart ? 300 : 0;
    const std::uint64_t jump_limit = 1000;
    out.push_back({a, "default", defaults, limit, 1});
    out.push_back({a, "ties-first", first, limit, 101});
    out.push_back({a, "ties-last", last, limit, 201});
    out.push_back({a, "total-sideways-7", total, limit, 301});
    out.push_back({a, "plateau-jump", jump, jump_limit, 401});
    out.push_back({a, "plateau-jump-ties-last", jump_last, jump_limit, 501});
    out.push_back({a, "max-steps-3", defaults, 3, 601, 500});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(EveryHillSetting, RegisterClimb, ::testing::ValuesIn(cases()));

TEST(PhiloxRegisterStream, DrawsPhiloxStreamsWords) {
  for (const std::uint64_t seed : {0ull, 1ull, 0xDEADBEEFCAFEull})
    for (const std::uint64_t run : {0ull, 5ull, 0x123456789ull}) {
      philox_stream expected(seed, run);
      philox_register_stream got(seed, run);
      for (int i = 0; i < 1000; ++i) {
        ASSERT_EQ(got.blocks_drawn(), expected.blocks_drawn()) << i;
        if (i % 3 == 0)
          ASSERT_EQ(got.below(static_cast<std::uint32_t>(i + 1)),
                    expected.below(static_cast<std::uint32_t>(i + 1)))
              << i;
        else
          ASSERT_EQ(got.next_u32(), expected.next_u32()) << i;
      }
    }
}

TEST(RegisterClimbSupports, BoardsFrom4To16WithAnySetting) {
  hill_climbing_settings h;
  h.plateau_jump = true;
  h.total_sideways = true;
  h.ties = tie_rule::last;
  EXPECT_FALSE(register_climb_supports(h, 3));
  EXPECT_TRUE(register_climb_supports(h, 4));
  EXPECT_TRUE(register_climb_supports(hill_climbing_settings{}, 16));
  EXPECT_FALSE(register_climb_supports(hill_climbing_settings{}, 17));
  static_assert(register_climb_supports(hill_climbing_settings{}, 8));
}

}  // namespace
}  // namespace nq
