#include "nqueens/count.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "nqueens/error.hpp"
#include "nqueens/systematic.hpp"
#include "oeis.hpp"
#include "scratch.hpp"

namespace nq {
namespace {

using test::a000170;
using test::a002562;

count_settings with_threads(unsigned threads) {
  count_settings settings;
  settings.threads = threads;
  return settings;
}

TEST(Count, MatchesOeisForNFrom1To15) {
  for (int n = 1; n <= 15; ++n) {
    const count_result result = count_solutions(n, with_threads(2));
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.solutions, a000170[n - 1]) << "n=" << n;
    EXPECT_EQ(result.unique, a002562[n - 1]) << "n=" << n;
  }
}

/// The 8 images of a board (row per column), written out from the geometry, and the least.
std::vector<row_t> least_image(const std::vector<row_t>& rows) {
  const row_t n = static_cast<row_t>(rows.size()), m = n - 1;
  std::vector<row_t> least = rows, image(n);
  std::vector<std::pair<row_t, row_t>> queens;  // (col, row)
  for (row_t c = 0; c < n; ++c) queens.emplace_back(c, rows[c]);
  for (int g = 1; g < 8; ++g) {
    for (auto [c, r] : queens) {
      row_t nc = c, nr = r;
      if (g & 1) nc = m - nc;        // mirror left-right
      if (g & 2) nr = m - nr;        // mirror top-bottom
      if (g & 4) std::swap(nc, nr);  // transpose
      image[nc] = nr;
    }
    least = std::min(least, image);
  }
  return least;
}

TEST(Count, UniqueCountsAgreeWithCanonicalisingEverySolution) {
  for (index_t n = 1; n <= 10; ++n) {
    std::set<std::vector<row_t>> classes;
    for_each_solution(n, [&](std::span<const row_t> rows) {
      classes.insert(least_image({rows.begin(), rows.end()}));
      return true;
    });
    EXPECT_EQ(count_solutions(static_cast<int>(n), with_threads(1)).unique, classes.size())
        << "n=" << n;
  }
}

TEST(Count, CanonicalFramesWeightedByOrbitCoverEveryValidFrame) {
  for (int n : {4, 5, 8, 11, 16}) {
    const auto table = frame_classes(n);
    std::uint64_t valid = 0, weighted = 0;
    for (int t = 0; t < n; ++t)
      for (int b = 0; b < n; ++b)
        for (int l = 0; l < n; ++l)
          for (int r = 0; r < n; ++r) {
            const frame f{static_cast<std::uint8_t>(t), static_cast<std::uint8_t>(b),
                          static_cast<std::uint8_t>(l), static_cast<std::uint8_t>(r)};
            valid += frame_is_valid(n, f);
            const std::uint16_t entry = table[frame_index(n, t, b, l, r)];
            if (!(entry & canonical_frame_flag)) continue;
            EXPECT_TRUE(frame_is_valid(n, f));
            EXPECT_EQ(entry & 1, 1) << "the identity fixes every frame";
            weighted += symmetry_count / __builtin_popcount(entry & 0xFF);
          }
    EXPECT_EQ(weighted, valid) << "n=" << n;
  }
}

// transform_frame must agree with moving the queens of a real board.
TEST(Count, FrameImagesMatchImagesOfBoards) {
  const int n = 9;
  for_each_solution(n, [&](std::span<const row_t> rows) {
    // col_of_row for the counting side; frame read from the board directly.
    std::vector<int> col_of_row(n);
    for (int c = 0; c < n; ++c) col_of_row[rows[c]] = c;
    const auto frame_of = [&](const std::vector<int>& board) {
      frame f;
      f.top = static_cast<std::uint8_t>(board[0]);
      f.bottom = static_cast<std::uint8_t>(board[n - 1]);
      for (int r = 0; r < n; ++r) {
        if (board[r] == 0) f.left = static_cast<std::uint8_t>(r);
        if (board[r] == n - 1) f.right = static_cast<std::uint8_t>(r);
      }
      return f;
    };
    for (int g = 0; g < symmetry_count; ++g) {
      std::vector<int> image(n);
      for (int r = 0; r < n; ++r) {
        int rr = r, cc = col_of_row[r];
        apply_symmetry(g, n, rr, cc);
        image[rr] = cc;
      }
      EXPECT_EQ(transform_frame(n, frame_of(col_of_row), g), frame_of(image)) << "g=" << g;
    }
    return true;
  });
}

TEST(Count, TotalsDoNotDependOnThreads) {
  const count_result one = count_solutions(13, with_threads(1));
  for (unsigned threads : {2u, 3u, 8u}) {
    const count_result more = count_solutions(13, with_threads(threads));
    EXPECT_EQ(more.solutions, one.solutions) << threads;
    EXPECT_EQ(more.unique, one.unique) << threads;
  }
}

// n = 28 cannot finish a single frame in a test's time: a stop must still end the count.
TEST(Count, AStopEndsEvenACountThatCannotFinish) {
  std::atomic<bool> stop{false};
  count_settings settings = with_threads(2);
  settings.stop = &stop;
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop.store(true);
  });
  const count_result result = count_solutions(28, settings);
  stopper.join();
  EXPECT_FALSE(result.complete);
  EXPECT_LT(result.subproblems_done, result.subproblems);
}

TEST(Count, RefusesBoardsItCannotCount) {
  EXPECT_THROW(count_solutions(0, {}), usage_error);
  EXPECT_THROW(count_solutions(29, {}), usage_error);
  EXPECT_THROW(check_count_size(std::int64_t{1} << 40), usage_error);
  EXPECT_NO_THROW(check_count_size(max_exact_count_n));
}

/// Slice mode (how the GPU counter is driven), with a CPU slice counter: deeper splits, small
/// slices, the same counts. It reports its subproblems last first, two at a time, as a GPU
/// reports them in whatever order they finish.
count_settings sliced(int n, int rows, std::vector<count_prefix>& subs,
                      std::vector<std::uint16_t>& classes) {
  subs = count_subproblems(n, rows);
  classes = n >= 4 ? frame_classes(n) : std::vector<std::uint16_t>{};
  count_settings settings;
  settings.split_rows = rows;
  settings.slice_size = 7;
  settings.slice_counters = {[n, &subs, &classes](const std::vector<std::uint32_t>& indices,
                                                  const std::atomic<bool>*, const auto& finished) {
    std::vector<finished_subproblem> done;
    for (std::size_t i = indices.size(); i-- > 0;) {
      done.push_back({static_cast<std::uint32_t>(i),
                      count_prefix_completions(n, subs[indices[i]], classes.data())});
      if (done.size() == 2 || i == 0) {
        finished(std::span<const finished_subproblem>(done));
        done.clear();
      }
    }
  }};
  return settings;
}

TEST(Count, SlicesOfDeeperSplitsMatchOeis) {
  for (int n = 1; n <= 13; ++n)
    for (const int rows : {4, 6}) {
      std::vector<count_prefix> subs;
      std::vector<std::uint16_t> classes;
      const count_result result = count_solutions(n, sliced(n, rows, subs, classes));
      EXPECT_TRUE(result.complete);
      EXPECT_EQ(result.subproblems, subs.size());
      EXPECT_EQ(result.solutions, a000170[n - 1]) << "n=" << n << " rows=" << rows;
      EXPECT_EQ(result.unique, a002562[n - 1]) << "n=" << n << " rows=" << rows;
    }
}

class CountCheckpoint : public ::testing::Test {
 protected:
  test::scratch_dir dir;
  std::string path = (dir / "count.json").string();
};

TEST_F(CountCheckpoint, AStoppedCountResumesToTheSameTotals) {
  const count_result whole = count_solutions(12, with_threads(2));
  count_settings settings = with_threads(2);
  settings.checkpoint = path;
  settings.max_subproblems = 40;
  const count_result part = count_solutions(12, settings);
  EXPECT_FALSE(part.complete);
  EXPECT_EQ(part.subproblems_done, 40u);
  EXPECT_LT(part.solutions, whole.solutions);
  settings.max_subproblems = 100;
  const count_result more = count_solutions(12, settings);
  EXPECT_EQ(more.resumed, 40u);
  EXPECT_EQ(more.subproblems_done, 140u);
  settings.max_subproblems = 0;
  const count_result rest = count_solutions(12, settings);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.resumed, 140u);
  EXPECT_EQ(rest.solutions, whole.solutions);
  EXPECT_EQ(rest.unique, whole.unique);
  // A finished checkpoint answers at once.
  const count_result again = count_solutions(12, settings);
  EXPECT_EQ(again.resumed, again.subproblems);
  EXPECT_EQ(again.solutions, whole.solutions);
}

TEST_F(CountCheckpoint, SlicesResumeToTheSameTotals) {
  std::vector<count_prefix> subs;
  std::vector<std::uint16_t> classes;
  count_settings settings = sliced(12, 5, subs, classes);
  const count_result whole = count_solutions(12, settings);
  settings.checkpoint = path;
  settings.max_subproblems = 50;
  const count_result part = count_solutions(12, settings);
  EXPECT_EQ(part.subproblems_done, 50u);
  EXPECT_FALSE(part.complete);
  settings.max_subproblems = 0;
  const count_result rest = count_solutions(12, settings);
  EXPECT_EQ(rest.resumed, 50u);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.solutions, whole.solutions);
  EXPECT_EQ(rest.unique, whole.unique);
}

TEST_F(CountCheckpoint, RejectsCorruptOrForeignFiles) {
  count_settings settings;
  settings.checkpoint = path;
  settings.max_subproblems = 5;
  count_solutions(10, settings);
  const std::string good = test::slurp(path);
  ASSERT_NE(good.find("\"done\""), std::string::npos);
  const std::string frames = std::to_string(count_solutions(10, {}).subproblems);
  // The well-formed file the bad ones below differ from resumes.
  test::spit(path, good);
  EXPECT_EQ(count_solutions(10, settings).resumed, 5u);
  test::spit(path, good);
  EXPECT_THROW(count_solutions(11, settings), usage_error);  // made for n = 10
  for (const std::string& bad :
       {std::string(), std::string("not json"), good.substr(0, good.size() / 2),
        std::string(R"({"format":8,"done":[]})"),  // found by the fuzzer: a format not a string
        std::string(R"({"format":"nqueens-count-checkpoint","version":3,"n":10})"),
        std::string(
            R"({"format":"nqueens-count-checkpoint","version":1,"n":10,"split":"frames",)") +
            R"("subproblems":)" + frames + R"(,"done":[]})",
        std::string(
            R"({"format":"nqueens-count-checkpoint","version":3,"n":10,"split":"rows-3",)") +
            R"("subproblems":)" + frames + R"(,"done":[]})",
        std::string(
            R"({"format":"nqueens-count-checkpoint","version":3,"n":10,"split":"frames",)") +
            R"("subproblems":)" + frames + R"(,"done":[[99999,1,8]]})",
        std::string(
            R"({"format":"nqueens-count-checkpoint","version":3,"n":10,"split":"frames",)") +
            R"("subproblems":)" + frames + R"(,"done":[[0,1,9]]})"}) {
    test::spit(path, bad);
    EXPECT_THROW(count_solutions(10, settings), usage_error) << bad;
  }
}

// Issue 14: an edited tally used to resume into a wrong total. Each edit below keeps the file
// well-formed; only the checksum can tell.
TEST_F(CountCheckpoint, RejectsEditedTallies) {
  count_settings settings;
  settings.checkpoint = path;
  settings.max_subproblems = 20;
  count_solutions(12, settings);
  settings.max_subproblems = 0;
  const auto good = nlohmann::json::parse(test::slurp(path));
  ASSERT_EQ(good["done"].size(), 20u);
  ASSERT_GT(good["done"][3][1].get<std::uint64_t>(), 9u);
  const auto edited = [&](const auto& edit) {
    nlohmann::json doc = good;
    edit(doc["done"][3]);
    return doc.dump();
  };
  const std::vector<std::pair<std::string, std::string>> edits{
      {"one more solution", edited([](auto& e) { e[1] = e[1].template get<std::uint64_t>() + 1; })},
      {"a digit flipped", edited([](auto& e) {
         std::string digits = std::to_string(e[1].template get<std::uint64_t>());
         digits.back() = digits.back() == '9' ? '0' : digits.back() + 1;
         e[1] = std::stoull(digits);
       })},
      {"an entry zeroed", edited([](auto& e) { e[1] = 0, e[2] = 0; })},
      {"2^64-1 solutions", edited([](auto& e) { e[1] = UINT64_MAX; })},
      {"another subproblem",
       edited([](auto& e) { e[0] = e[0].template get<std::uint64_t>() + 100; })},
  };
  for (const auto& [what, text] : edits) {
    test::spit(path, text);
    EXPECT_THROW(count_solutions(12, settings), usage_error) << what;
  }
  test::spit(path, good.dump());
  const count_result resumed = count_solutions(12, settings);
  EXPECT_EQ(resumed.resumed, 20u);
  EXPECT_EQ(resumed.solutions, a000170[11]);
}

// Two tallies that each fit in 64 bits but whose sum does not, under a matching checksum, are
// still refused rather than wrapped.
TEST_F(CountCheckpoint, RejectsTalliesThatOverflowTheTotal) {
  count_settings settings;
  settings.checkpoint = path;
  settings.max_subproblems = 2;
  count_solutions(12, settings);
  auto doc = nlohmann::json::parse(test::slurp(path));
  ASSERT_EQ(doc["done"].size(), 2u);
  doc["done"][0][1] = UINT64_MAX;
  doc["done"][1][1] = UINT64_MAX;
  test::spit(path, doc.dump());
  settings.max_subproblems = 0;
  try {
    count_solutions(12, settings);
    ADD_FAILURE() << "an overflowing checkpoint was accepted";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("2^64-1"), std::string::npos) << e.what();
  }
}

TEST_F(CountCheckpoint, RejectsAPathThatCannotBeWritten) {
  count_settings settings;
  settings.checkpoint = (dir / "missing" / "count.json").string();
  EXPECT_THROW(count_solutions(8, settings), usage_error);
  settings.checkpoint = dir.path().string();
  EXPECT_THROW(count_solutions(8, settings), usage_error);
}

}  // namespace
}  // namespace nq
