#include "nqueens/verify.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "board_oracles.hpp"
#include "core/board_io.hpp"
#include "core/verify_stream.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

using test::board_case;

class VerifyTest : public ::testing::TestWithParam<board_case> {};

TEST_P(VerifyTest, CountsAndFirstClashMatchBruteForce) {
  const auto [n, seed] = GetParam();
  for (const auto& rows : {test::random_board(n, seed), test::random_permutation(n, seed)}) {
    const verify_report report = verify_board(rows);
    EXPECT_EQ(report.n, n);
    EXPECT_EQ(report.conflicts, test::brute_force_pairs(rows));
    const auto expected = test::brute_force_first_clash(rows);
    ASSERT_EQ(report.first_clash.has_value(), expected.has_value());
    if (!expected) continue;
    const clash& c = *report.first_clash;
    EXPECT_EQ(c.col_a, expected->first);
    EXPECT_EQ(c.col_b, expected->second);
    const index_t ra = rows[c.col_a], rb = rows[c.col_b];
    switch (c.kind) {
      case line_kind::row:
        EXPECT_EQ(ra, rb);
        break;
      case line_kind::diagonal:
        EXPECT_EQ(c.col_b - c.col_a, rb - ra);
        break;
      case line_kind::anti_diagonal:
        EXPECT_EQ(c.col_b - c.col_a, ra - rb);
        break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EdgeSizes, VerifyTest, ::testing::ValuesIn(test::edge_cases()),
                         [](const auto& info) { return test::case_name(info.param); });

TEST(Verify, NamesEachKindOfClash) {
  // Column 0 row 0 against column 1: same row, then diagonal (1, 1), then anti-diagonal.
  EXPECT_EQ(verify_board(std::vector<row_t>{0, 0, 3, 1}).first_clash->kind, line_kind::row);
  EXPECT_EQ(verify_board(std::vector<row_t>{0, 1, 3, 2}).first_clash->kind, line_kind::diagonal);
  EXPECT_EQ(verify_board(std::vector<row_t>{1, 0, 3, 2}).first_clash->kind,
            line_kind::anti_diagonal);
  EXPECT_STREQ(line_kind_name(line_kind::row), "row");
  EXPECT_STREQ(line_kind_name(line_kind::diagonal), "diagonal");
  EXPECT_STREQ(line_kind_name(line_kind::anti_diagonal), "anti-diagonal");
}

// Lines with more than 255 queens take the overflow path of the byte counters.
TEST(Verify, CountsCrowdedLinesExactly) {
  const index_t n = 1000;
  const std::vector<row_t> one_row(n, 7);
  EXPECT_EQ(verify_board(one_row).conflicts, n * (n - 1) / 2);
  std::vector<row_t> two_diagonals(n);
  for (index_t col = 0; col < n; ++col)
    two_diagonals[col] = static_cast<row_t>(col < 600 ? col : col - 600);
  EXPECT_EQ(verify_board(two_diagonals).conflicts, test::brute_force_pairs(two_diagonals));
}

/// Pairs of a board of any size by plain 32-bit line counts, and the first column that lands
/// on an occupied line: an O(n) oracle for boards too big for the brute force.
std::pair<index_t, index_t> counted_pairs(const std::vector<row_t>& rows) {
  const index_t n = rows.size();
  std::vector<std::uint32_t> row(n), diag(2 * n), anti(2 * n);
  index_t pairs = 0, first = n;
  for (index_t c = 0; c < n; ++c) {
    const index_t r = rows[c];
    const index_t created = row[r]++ + diag[c + n - r]++ + anti[c + r]++;
    pairs += created;
    if (created && first == n) first = c;
  }
  return {pairs, first};
}

// From a million queens up the lines are shared out among threads: the report is the same for
// any number of them, and equals the oracle's, on a solution, a permutation with planted
// clashes, a random board and one crowded on a few lines.
TEST(Verify, ThreadsShareTheLinesAndAgree) {
  const index_t n = (index_t{1} << 20) + 7;
  std::vector<std::vector<row_t>> boards;
  std::vector<row_t> solution(n);
  for (index_t c = 0; c < n; ++c)
    solution[c] = static_cast<row_t>((2 * c + 1) % n);  // n prime to 6
  boards.push_back(solution);
  std::vector<row_t> planted = solution;
  std::swap(planted[1000], planted[n - 5]);
  std::swap(planted[77], planted[500000]);
  boards.push_back(planted);
  boards.push_back(test::random_board(n, 3));
  std::vector<row_t> crowded(n);
  for (index_t c = 0; c < n; ++c) crowded[c] = static_cast<row_t>(c % 3 == 0 ? 5 : c);
  boards.push_back(crowded);
  for (std::size_t b = 0; b < boards.size(); ++b) {
    const auto [pairs, first] = counted_pairs(boards[b]);
    const verify_report one = verify_board(boards[b], 1);
    EXPECT_EQ(one.conflicts, pairs) << "board " << b;
    EXPECT_EQ(one.first_clash ? one.first_clash->col_b : n, first) << "board " << b;
    for (const unsigned threads : {2u, 3u, 8u}) {
      const verify_report many = verify_board(boards[b], threads);
      EXPECT_EQ(many.conflicts, one.conflicts) << "board " << b << " threads " << threads;
      ASSERT_EQ(many.first_clash.has_value(), one.first_clash.has_value());
      if (!one.first_clash) continue;
      EXPECT_EQ(many.first_clash->col_a, one.first_clash->col_a);
      EXPECT_EQ(many.first_clash->col_b, one.first_clash->col_b);
      EXPECT_EQ(many.first_clash->kind, one.first_clash->kind);
    }
  }
  EXPECT_TRUE(verify_board(boards[0], 4).valid());
  std::vector<row_t> off = solution;
  off[n / 2] = static_cast<row_t>(n);
  EXPECT_THROW(verify_board(off, 4), std::exception);
}

TEST(Verify, SingleQueenAndEmptyBoard) {
  EXPECT_TRUE(verify_board(std::vector<row_t>{0}).valid());
  EXPECT_TRUE(verify_board(std::vector<row_t>{}).valid());
  EXPECT_FALSE(verify_board(std::vector<row_t>{0, 1}).valid());
}

// The streamed verify (files of npy, raw or one-line positions) reports what the held one
// does, on any number of threads, and leaves every other input to read_board.

struct tmp_file_closer {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using tmp_file = std::unique_ptr<std::FILE, tmp_file_closer>;

/// A regular file (unnamed, removed on close) holding `bytes`, at its start.
tmp_file file_of(const std::string& bytes) {
  tmp_file file(std::tmpfile());
  EXPECT_TRUE(file);
  EXPECT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), file.get()), bytes.size());
  std::rewind(file.get());
  return file;
}

/// An npy file of `rows` as `descr` ('<u4', '<i4', '<u8' or '<i8').
std::string npy_of(const std::vector<row_t>& rows, const std::string& descr) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows.size()) + ",), }";
  header.append(63 - (10 + header.size()) % 64, ' ').push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out += header;
  const unsigned width = descr[2] == '4' ? 4 : 8;
  for (const row_t row : rows) {
    const std::uint64_t value = row;
    out.append(reinterpret_cast<const char*>(&value), width);  // little-endian, as the host
  }
  return out;
}

std::string raw_of(const std::vector<row_t>& rows) {
  return {reinterpret_cast<const char*>(rows.data()), rows.size() * sizeof(row_t)};
}

/// Positions, 1-based, with separators and line ends users write.
std::string positions_of(const std::vector<row_t>& rows, const std::string& between,
                         const std::string& end) {
  std::string out = "\n ";
  for (std::size_t c = 0; c < rows.size(); ++c)
    out += (c ? between : "") + std::to_string(rows[c] + 1);
  return out + end;
}

void expect_same_report(const verify_report& got, const verify_report& want,
                        const std::string& what) {
  EXPECT_EQ(got.n, want.n) << what;
  EXPECT_EQ(got.conflicts, want.conflicts) << what;
  ASSERT_EQ(got.first_clash.has_value(), want.first_clash.has_value()) << what;
  if (!want.first_clash) return;
  EXPECT_EQ(got.first_clash->col_a, want.first_clash->col_a) << what;
  EXPECT_EQ(got.first_clash->col_b, want.first_clash->col_b) << what;
  EXPECT_EQ(got.first_clash->kind, want.first_clash->kind) << what;
}

std::vector<std::vector<row_t>> streamed_boards(index_t n) {
  std::vector<std::vector<row_t>> boards;
  std::vector<row_t> solution(n);
  for (index_t c = 0; c < n; ++c) solution[c] = static_cast<row_t>((2 * c + 1) % n);
  boards.push_back(solution);                  // valid: n is prime to 6
  boards.push_back(test::random_board(n, 7));  // lines of one to many queens
  boards.push_back(test::random_permutation(n, 3));
  std::vector<row_t> crowded = solution;  // a late clash, three queens on a row
  crowded[n - 1] = crowded[n / 2] = crowded[0];
  boards.push_back(crowded);
  return boards;
}

TEST(VerifyStream, ReportsWhatTheHeldVerifyDoesInEveryLayout) {
  for (const index_t n : {index_t{1}, index_t{5}, index_t{7}, index_t{1001}}) {
    for (const auto& rows : streamed_boards(n)) {
      const verify_report want = verify_board(rows);
      const std::pair<std::string, board_format> files[] = {
          {npy_of(rows, "<u4"), board_format::auto_detect},
          {npy_of(rows, "<i4"), board_format::npy},
          {npy_of(rows, "<u8"), board_format::auto_detect},
          {npy_of(rows, "<i8"), board_format::auto_detect},
          {raw_of(rows), board_format::raw},
          {positions_of(rows, " ", "\n"), board_format::auto_detect},
          {positions_of(rows, ", ", "\r\n\n  "), board_format::positions},
          {positions_of(rows, "\t", ""), board_format::positions}};
      for (const auto& [bytes, format] : files)
        for (const unsigned threads : {1u, 2u, 3u}) {
          const std::string what = "n=" + std::to_string(n) +
                                   " threads=" + std::to_string(threads) +
                                   " file=" + bytes.substr(0, 12);
          const tmp_file file = file_of(bytes);
          const auto got = detail::verify_streamed(file.get(), format, "t", threads, 0, 1);
          ASSERT_TRUE(got.has_value()) << what;
          expect_same_report(*got, want, what);
        }
    }
  }
}

TEST(VerifyStream, SplitsAMillionQueensAmongThreads) {
  const index_t n = (index_t{1} << 20) + 1;  // prime to 6; threads share the lines from 2^20
  for (const auto& rows : streamed_boards(n)) {
    const verify_report want = verify_board(rows, 2);
    for (const unsigned threads : {1u, 3u}) {
      for (const std::string& bytes : {raw_of(rows), positions_of(rows, " ", "\n")}) {
        const tmp_file file = file_of(bytes);
        const auto got =
            detail::verify_streamed(file.get(), board_format::auto_detect, "t", threads, 0, 1);
        ASSERT_TRUE(got.has_value());
        expect_same_report(*got, want, "threads=" + std::to_string(threads));
      }
    }
  }
}

TEST(VerifyStream, CountsPositionsWhereverTheTextIsCut) {
  // Numbers cut by every split into up to 7 ranges, spaces and line ends at the cuts.
  const std::string texts[] = {"1", "12 3456 7 89", "\n\n 3 1 4,2\n", "  10 9 8 7 6 5 4 3 2 1 \r\n",
                               "123456789 1 22 333 4444 55555 666666"};
  const index_t numbers[] = {1, 4, 4, 10, 7};
  for (std::size_t k = 0; k < std::size(texts); ++k)
    for (unsigned parts = 1; parts <= 7; ++parts) {
      const tmp_file file = file_of(texts[k]);
      EXPECT_EQ(detail::count_positions(fileno(file.get()), texts[k].size(), parts), numbers[k])
          << "'" << texts[k] << "' in " << parts;
    }
  // Not one line of numbers: 0, and the reader says why (a 0 or a number past max_n: the fill).
  for (const std::string text : {"1 2\n3 4", "1 x", "", " \n "})
    for (unsigned parts = 1; parts <= 4; ++parts) {
      const tmp_file file = file_of(text);
      EXPECT_EQ(detail::count_positions(fileno(file.get()), text.size(), parts), 0u)
          << "'" << text << "' in " << parts;
    }
}

TEST(VerifyStream, LeavesWhatItCannotStreamToTheReader) {
  const std::vector<row_t> rows = {1, 3, 0, 2};
  std::string truncated = npy_of(rows, "<u4");
  truncated.pop_back();
  const std::string inputs[] = {"Q...\n..Q.\n.Q..\n...Q\n",   // grid
                                "{\"rows\": [1, 3, 0, 2]}",   // JSON
                                "2 4\n1 3\n",                 // positions over two lines
                                "2 4 1 5\n",                  // a row off the board
                                "2 4 0 3\n",                  // a row 0
                                "2 4 99999999999 3\n",        // a number past any board
                                truncated,                    // npy short of its data
                                npy_of({1, 3, 0, 4}, "<u4"),  // npy row off the board
                                raw_of(rows).substr(0, 15),   // raw not whole rows
                                ""};
  for (const std::string& bytes : inputs) {
    const tmp_file file = file_of(bytes);
    EXPECT_FALSE(
        detail::verify_streamed(file.get(), board_format::auto_detect, "t", 2, 0, 1).has_value())
        << bytes;
    EXPECT_EQ(std::ftell(file.get()), 0) << bytes;  // where read_board starts
  }
  const tmp_file file = file_of(raw_of(rows));
  EXPECT_THROW(detail::verify_streamed(file.get(), board_format::raw, "t", 1, 1000, 1),
               resource_error);
  // Below `smallest` queens a board is held: read once, and bound as before.
  EXPECT_FALSE(detail::verify_streamed(file.get(), board_format::raw, "t", 1, 0, 5).has_value());
}

/// What read_board then verify_board report for `bytes`, or the reader's message.
std::string held_outcome(const std::string& bytes,
                         board_format format = board_format::auto_detect) {
  const tmp_file file = file_of(bytes);
  try {
    const verify_report r = verify_board(read_board(file.get(), format, "t"));
    return "n=" + std::to_string(r.n) + " conflicts=" + std::to_string(r.conflicts);
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
}

std::string streamed_outcome(const std::string& bytes, unsigned threads,
                             board_format format = board_format::auto_detect) {
  const tmp_file file = file_of(bytes);
  try {
    const auto got = detail::verify_streamed(file.get(), format, "t", threads, 0, 1);
    if (!got) {
      const verify_report r = verify_board(read_board(file.get(), format, "t"));
      return "n=" + std::to_string(r.n) + " conflicts=" + std::to_string(r.conflicts);
    }
    return "n=" + std::to_string(got->n) + " conflicts=" + std::to_string(got->conflicts);
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
}

// The held reader ends a positions board at its first complete line break and then accepts
// whitespace only: a comma after it is "expected the end of input".
TEST(VerifyStream, RefusesWhatFollowsTheBoardAsTheReaderDoes) {
  for (const std::string text : {"2 4 1 3\n,", "2 4 1 3\n ,\n", "2 4 1 3\r\n,,", "2,4,1,3,\n,"})
    for (const unsigned threads : {1u, 2u})
      EXPECT_EQ(streamed_outcome(text, threads), held_outcome(text)) << "'" << text << "'";
}

// Numbers the reader takes: leading zeros, many digits, commas and tabs anywhere on the line.
TEST(VerifyStream, ReadsNumbersAsTheReaderDoes) {
  for (const std::string text :
       {"0002 0004 1 3", "000000000000000000000000000002 4 1 3\n", ",2,4,,1,3,", "2 4 1 3 0",
        "2 4 1 99999999999999999999999999", "\t2\v4\f1\r3\r\n", "2 4 1 3 \n\n\n"})
    for (const unsigned threads : {1u, 3u})
      EXPECT_EQ(streamed_outcome(text, threads), held_outcome(text)) << "'" << text << "'";
}

// Input that does not start at byte 0 of its file (a shell's `{ head -c 3; nqueens verify -; }
// < file`): not streamed, and read_board must read from where the FILE stood.
TEST(VerifyStream, LeavesAFileNotAtItsStartWhereItWas) {
  const tmp_file file = file_of("xx\n2 4 1 3\n");
  ASSERT_EQ(std::fseek(file.get(), 3, SEEK_SET), 0);
  EXPECT_FALSE(
      detail::verify_streamed(file.get(), board_format::auto_detect, "t", 1, 0, 1).has_value());
  EXPECT_EQ(std::ftell(file.get()), 3);
  EXPECT_NO_THROW(read_board(file.get(), board_format::auto_detect, "t"));
}

}  // namespace
}  // namespace nq
