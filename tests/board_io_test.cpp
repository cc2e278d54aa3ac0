#include "core/board_io.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "board_oracles.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

struct file_closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

std::string written(std::span<const row_t> rows, board_format format) {
  file_ptr file(std::tmpfile());
  {
    byte_sink sink(fileno(file.get()));
    if (format == board_format::json) {
      sink.write("{\"rows\":");
      write_rows_array(sink, rows);
      sink.write("}\n");
    } else {
      write_board(sink, rows, format);
    }
    sink.flush();
  }
  std::rewind(file.get());
  std::string text;
  char buffer[4096];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0;)
    text.append(buffer, got);
  return text;
}

std::vector<row_t> read_text(const std::string& text,
                             board_format format = board_format::auto_detect) {
  file_ptr file(std::tmpfile());
  std::fwrite(text.data(), 1, text.size(), file.get());
  std::rewind(file.get());
  return read_board(file.get(), format, "input");
}

/// The usage_error message read_text raises, or "" when it parses.
std::string read_error(const std::string& text, board_format format = board_format::auto_detect) {
  try {
    read_text(text, format);
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

TEST(BoardIo, WritesTheDocumentedLayouts) {
  const std::vector<row_t> rows{1, 3, 0, 2};
  EXPECT_EQ(written(rows, board_format::positions), "2 4 1 3\n");
  EXPECT_EQ(written(rows, board_format::grid), ". . Q .\nQ . . .\n. . . Q\n. Q . .\n");
  EXPECT_EQ(written(rows, board_format::matrix), "0 0 1 0\n1 0 0 0\n0 0 0 1\n0 1 0 0\n");
  EXPECT_EQ(written(rows, board_format::json), "{\"rows\":[1,3,0,2]}\n");
}

TEST(BoardIo, EveryLayoutRoundTripsWithDetection) {
  for (const index_t n : {1, 2, 5, 8, 33, 200}) {
    for (const auto& rows : {test::random_board(n, n), test::random_permutation(n, n)}) {
      for (const auto format : {board_format::positions, board_format::grid, board_format::matrix,
                                board_format::json}) {
        const std::string text = written(rows, format);
        EXPECT_EQ(read_text(text), rows) << "n=" << n << " detected from:\n" << text.substr(0, 200);
        EXPECT_EQ(read_text(text, format), rows) << "n=" << n;
      }
    }
  }
}

TEST(BoardIo, LargePositionsRoundTrip) {
  const auto rows = test::random_permutation(300'000, 9);
  EXPECT_EQ(read_text(written(rows, board_format::positions)), rows);
}

TEST(BoardIo, AcceptsLooseSpacing) {
  const std::vector<row_t> rows{1, 3, 0, 2};
  EXPECT_EQ(read_text("2,4,1,3"), rows);
  EXPECT_EQ(read_text("\n  2\n4\r\n1 \t3\n\n"), rows);
  EXPECT_EQ(read_text("..Q.\nQ...\n...Q\n.Q..\n"), rows);
  EXPECT_EQ(read_text("0010\n1000\n0001\n0100\n", board_format::matrix), rows);
  EXPECT_EQ(
      read_text(R"({"n": 4, "algorithm": "x", "extra": {"rows": [9]}, "rows": [1, 3, 0, 2]})"),
      rows);
}

TEST(BoardIo, RefusesMalformedInputWithAReason) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "empty input"},
      {"  \n\n ", "empty input"},
      {"hello", "expected a row number"},
      {"1 2 x", "expected a row number"},
      {"1 2 3.5", "expected a row number"},
      {"\x7f\x45\x4c\x46\x02\x01", "byte 0x7f"},
      {"1 2 0 4", "positions are 1-based"},
      {"1 2 3 9", "outside 1..4"},
      {"99999999999", "too large"},
      {"Q . .\n. . Q\n", "a board is square"},
      {"Q .\n. Q\n. Q\n", "more than 2 rows"},
      {"Q .\n. .\n", "column 2 has no queen"},
      {"Q .\nQ .\n", "column 1 has more than one queen"},
      {"Q Q\nQ .\n", "column 1 has more than one queen"},
      {"Q .\n. Q Q\n", "3 cells, expected 2"},
      {"{\"n\": 4}", "no \"rows\" array"},
      {"{\"rows\": null}", "no \"rows\" array"},
      {"{\"rows\": []}", "\"rows\" is empty"},
      {"{\"rows\": [0, 1, 5]}", "outside 0..2"},
      {"{\"rows\": [0, -1]}", "negative"},
      {"{\"rows\": [0, 1.5]}", "fraction"},
      {"{\"rows\": [0, [1]]}", "only integers"},
      {"{\"rows\": [0, \"1\"]}", "only integers"},
      {"{\"n\": 3, \"rows\": [0, 1]}", "\"n\" is 3 but \"rows\" has 2 entries"},
      {"{\"rows\": [0, 1]", "invalid JSON"},
      {"{\"rows\": [0, 1]} trailing", "invalid JSON"},
  };
  for (const auto& [text, reason] : cases) {
    const std::string message = read_error(text);
    EXPECT_NE(message.find(reason), std::string::npos)
        << "input: " << text << "\nmessage: " << message << "\nexpected to mention: " << reason;
  }
  EXPECT_NE(read_error("[0, 1]", board_format::json).find("JSON object"), std::string::npos);
  EXPECT_NE(read_error("Q x\n. Q\n", board_format::grid).find("expected 'Q' or '.', found 'x'"),
            std::string::npos);
  EXPECT_NE(read_error("1 0\n0 2\n", board_format::matrix).find("expected '1' or '0', found '2'"),
            std::string::npos);
  EXPECT_NE(read_error("2 4 1 3", board_format::grid).find("expected 'Q' or '.'"),
            std::string::npos);
}

TEST(BoardIo, DetectsEveryGridAlphabet) {
  // A queen is Q, q or 1 and an empty square '.', '*', '-' or '0', with or without spaces.
  for (const index_t n : {1, 2, 4, 5, 8}) {
    for (const auto& rows : {test::random_board(n, n + 7), test::random_permutation(n, n)}) {
      for (const char queen : {'Q', 'q', '1'}) {
        for (const char empty : {'.', '*', '-', '0'}) {
          for (const bool spaced : {true, false}) {
            std::string text;
            for (index_t row = 0; row < n; ++row) {
              for (index_t col = 0; col < n; ++col) {
                text += rows[col] == row ? queen : empty;
                if (spaced) text += ' ';
              }
              text += '\n';
            }
            const std::string error = read_error(text);
            EXPECT_EQ(error, "") << text;
            if (error.empty()) {
              EXPECT_EQ(read_text(text), rows) << text;
            }
          }
        }
      }
    }
  }
}

TEST(BoardIo, EndsAPositionsBoardWhereItsNumbersMakeABoard) {
  // A board ends at the first line break where its k numbers are each 1..k.
  EXPECT_EQ(read_text("1 5 8\n6 3 7 2 4\n"), (std::vector<row_t>{0, 4, 7, 5, 2, 6, 1, 3}));
  EXPECT_EQ(read_text("2\n4\n1\n3\n"), (std::vector<row_t>{1, 3, 0, 2}));
  EXPECT_EQ(read_text("2 2\n"), (std::vector<row_t>{1, 1}));
  for (const char* merged : {"1\n2 4 1 3\n", "1\n1\n", "2 1\n1\n", "1 1\n1 1 1 1\n"}) {
    const std::string message = read_error(merged, board_format::positions);
    EXPECT_NE(message.find("line 2: a second board follows the first"), std::string::npos)
        << merged << "\n"
        << message;
  }
  EXPECT_NE(read_error("2 1\nhello\n").find("line 2: expected the end of input after the board"),
            std::string::npos)
      << read_error("2 1\nhello\n");
}

TEST(BoardIo, SaysWhyAJsonNumberIsNoRow) {
  const std::pair<const char*, const char*> cases[] = {
      {"{\"rows\": [0, 18446744073709551616]}", "a number too large for any board"},
      {"{\"rows\": [0, 99999999999999999999999]}", "a number too large for any board"},
      {"{\"rows\": [0, -99999999999999999999999]}", "a negative number"},
      {"{\"rows\": [1e0, 0]}", "whole numbers written in digits, found 1e0"},
      {"{\"rows\": [0, 1.0]}", "whole numbers written in digits, found 1.0"},
      {"{\"rows\": [0, 0.5]}", "a fraction"},
  };
  for (const auto& [text, reason] : cases) {
    const std::string message = read_error(text);
    EXPECT_NE(message.find(reason), std::string::npos) << text << "\n" << message;
  }
}

TEST(BoardIo, CountsOneQueenInTheSingular) {
  EXPECT_NE(read_error("2").find("outside 1..1 for a board of 1 queen"), std::string::npos)
      << read_error("2");
  EXPECT_EQ(read_error("2").find("1 queens"), std::string::npos) << read_error("2");
}

TEST(BoardIoBinary, NpyAndRawRoundTripForEveryNUpToAThousand) {
  for (index_t n = 1; n <= 1000; ++n) {
    const auto rows = n % 2 ? test::random_permutation(n, n) : test::random_board(n, n);
    for (const auto format : {board_format::npy, board_format::raw}) {
      const std::string bytes = written(rows, format);
      ASSERT_EQ(read_text(bytes), rows) << "n=" << n << " detected";
      ASSERT_EQ(read_text(bytes, format), rows) << "n=" << n;
      if (format == board_format::raw) {
        EXPECT_EQ(bytes.size(), 4 * n);
        continue;
      }
      // NumPy's layout: magic, version 1.0, the header to a newline, the data from a multiple
      // of 64, little-endian uint32.
      ASSERT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
      const std::size_t data =
          10 + static_cast<unsigned char>(bytes[8]) + 256 * static_cast<unsigned char>(bytes[9]);
      EXPECT_EQ(data % 64, 0u);
      EXPECT_EQ(bytes[data - 1], '\n');
      EXPECT_NE(bytes.find("'descr': '<u4', 'fortran_order': False, 'shape': (" +
                           std::to_string(n) + ",)"),
                std::string::npos);
      ASSERT_EQ(bytes.size(), data + 4 * n);
      EXPECT_EQ(std::memcmp(bytes.data() + data, rows.data(), 4 * n), 0);
    }
  }
}

/// An npy file with this header text (padded as NumPy pads) and these data bytes.
std::string npy(const std::string& dict, const std::string& data) {
  std::string header = dict;
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size() & 0xFF) +
         static_cast<char>(header.size() >> 8) + header + data;
}

std::string u32(std::initializer_list<std::uint32_t> rows) {
  std::string out;
  for (const auto r : rows) out.append(reinterpret_cast<const char*>(&r), 4);
  return out;
}

TEST(BoardIoBinary, RefusesMalformedNpyWithAReason) {
  const std::string board = u32({1, 3, 0, 2});
  const auto dict = [](const std::string& descr, const std::string& order,
                       const std::string& shape) {
    return "{'descr': " + descr + ", 'fortran_order': " + order + ", 'shape': " + shape + ", }";
  };
  EXPECT_EQ(read_text(npy(dict("'<u4'", "False", "(4,)"), board)),
            (std::vector<row_t>{1, 3, 0, 2}));
  const std::pair<std::string, const char*> cases[] = {
      {npy(dict("'<f8'", "False", "(4,)"), board + board), "npy dtype '<f8' is not a row type"},
      {npy(dict("'>u4'", "False", "(4,)"), board), "npy dtype '>u4' is not a row type"},
      {npy(dict("'<u4'", "True", "(4,)"), board), "Fortran order"},
      {npy(dict("'<u4'", "False", "(2, 2)"), board), "npy shape (2, 2) is not one row per column"},
      {npy(dict("'<u4'", "False", "()"), board), "npy shape () is not one row per column"},
      {npy(dict("'<u4'", "False", "(4,)"), board.substr(0, 14)), "truncated: 4 rows expected"},
      {npy(dict("'<u4'", "False", "(4,)"), board + "x"), "bytes after its 4 rows"},
      {npy(dict("'<u4'", "False", "(0,)"), ""), "holds no row"},
      {npy(dict("'<u4'", "False", "(4,)"), u32({1, 3, 4, 2})), "column 3 has row 4, outside 0..3"},
      {npy(dict("'<i4'", "False", "(4,)"), u32({1, 0xFFFFFFFF, 0, 2})), "column 2 has row < 0"},
      {std::string("\x93NUMPY\x01\x00\x40", 9), "npy header is truncated"},
      {std::string("\x93NUMPY\x09\x00", 8) + std::string(64, ' '), "npy version 9"},
  };
  for (const auto& [bytes, reason] : cases)
    EXPECT_NE(read_error(bytes).find(reason), std::string::npos)
        << "expected '" << reason << "', got: " << read_error(bytes);
  // Wider integer dtypes hold rows too (NumPy's default int is int64).
  std::string wide;
  for (const std::uint64_t r : {1, 3, 0, 2}) wide.append(reinterpret_cast<const char*>(&r), 8);
  EXPECT_EQ(read_text(npy(dict("'<i8'", "False", "(4,)"), wide)), (std::vector<row_t>{1, 3, 0, 2}));
}

TEST(BoardIoBinary, RefusesRawThatIsNoBoard) {
  EXPECT_NE(read_error(u32({1, 3, 0, 2}) + std::string(2, '\0'), board_format::raw).find("not whole"),
            std::string::npos);
  EXPECT_NE(read_error(u32({1, 3, 0, 7})).find("column 4 has row 7, outside 0..3"),
            std::string::npos);
  EXPECT_NE(read_error("", board_format::raw).find("empty input"), std::string::npos);
}

TEST(BoardIo, ParsesFormatNames) {
  EXPECT_EQ(parse_board_format("auto"), board_format::auto_detect);
  EXPECT_EQ(parse_board_format("json"), board_format::json);
  EXPECT_EQ(parse_board_format("npy"), board_format::npy);
  EXPECT_EQ(parse_board_format("raw"), board_format::raw);
  EXPECT_THROW(parse_board_format("yaml"), usage_error);
}

}  // namespace
}  // namespace nq
