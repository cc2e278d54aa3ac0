#include "core/verify_stream.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "core/board_parsers.hpp"
#include "core/huge_pages.hpp"
#include "core/worker_threads.hpp"
#include "nqueens/error.hpp"

namespace nq::detail {
namespace {

constexpr std::size_t buffer_bytes = std::size_t{1} << 22;

/// Where a board lies in its file and how its rows are held.
struct board_file {
  int fd = -1;
  board_format format = board_format::positions;
  index_t n = 0;
  std::uint64_t data_offset = 0;  // npy and raw: the first row's byte
  unsigned width = 4;
  bool is_signed = false;
  std::uint64_t size = 0;  // the file's bytes
};

/// Up to `size` bytes at `offset`; fewer only at the end of the file.
std::size_t read_at(int fd, char* out, std::size_t size, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw resource_error(std::string("cannot read: ") + std::strerror(errno));
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

/// Calls visit(first_col, rows, count) for the board's columns in order, a block at a time,
/// until it returns false. False when a row lies off the board (or the file changed under us).
template <class Item, class Visit>
bool scan_items(const board_file& f, Visit&& visit) {
  const index_t block = std::min<index_t>(f.n, buffer_bytes / sizeof(Item));
  std::vector<Item> items(block);
  std::vector<row_t> converted(std::is_same_v<Item, row_t> ? 0 : block);
  for (index_t col = 0; col < f.n;) {
    const index_t count = std::min<index_t>(f.n - col, block);
    const std::size_t want = static_cast<std::size_t>(count) * sizeof(Item);
    if (read_at(f.fd, reinterpret_cast<char*>(items.data()), want,
                f.data_offset + col * sizeof(Item)) != want)
      return false;
    const row_t* rows = nullptr;
    if constexpr (std::is_same_v<Item, row_t>) {
      if (*std::max_element(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(count)) >=
          f.n)
        return false;
      rows = items.data();
    } else {
      for (index_t i = 0; i < count; ++i) {
        // A negative row becomes a huge one, off the board as well.
        const auto row = static_cast<index_t>(items[i]);
        if (row >= f.n) return false;
        converted[i] = static_cast<row_t>(row);
      }
      rows = converted.data();
    }
    if (!visit(col, rows, count)) return true;
    col += count;
  }
  return true;
}

/// The same for a one-line positions board whose numbers pass A found to be 1..n.
template <class Visit>
bool scan_positions(const board_file& f, Visit&& visit) {
  std::vector<char> buffer(std::min<std::uint64_t>(f.size, buffer_bytes));
  std::vector<row_t> rows(std::min<index_t>(f.n, buffer_bytes / sizeof(row_t)));
  index_t col = 0, value = 0;
  std::size_t held = 0;
  bool in_number = false, going = true;
  const auto add = [&] {
    if (value == 0 || value > f.n || col + held == f.n) return false;
    rows[held++] = static_cast<row_t>(value - 1);
    if (held == rows.size()) {
      going = visit(col, rows.data(), held);
      col += held;
      held = 0;
    }
    return true;
  };
  for (std::uint64_t at = 0; at < f.size && going;) {
    const std::size_t got = read_at(f.fd, buffer.data(), buffer.size(), at);
    if (got == 0) return false;
    at += got;
    for (std::size_t i = 0; i < got && going; ++i) {
      const unsigned digit = static_cast<unsigned char>(buffer[i]) - unsigned{'0'};
      if (digit < 10) {
        value = value * 10 + digit;
        in_number = true;
      } else if (in_number) {
        if (!add()) return false;
        value = 0;
        in_number = false;
      }
    }
  }
  if (!going) return true;
  if (in_number && !add()) return false;
  if (held && going) visit(col, rows.data(), held);
  return col + held == f.n;
}

template <class Visit>
bool scan_columns(const board_file& f, Visit&& visit) {
  if (f.format == board_format::positions) return scan_positions(f, visit);
  if (f.width == 4)
    return f.is_signed ? scan_items<std::int32_t>(f, visit) : scan_items<row_t>(f, visit);
  return f.is_signed ? scan_items<std::int64_t>(f, visit) : scan_items<std::uint64_t>(f, visit);
}

/// What pass A finds in a byte range of a positions file: its numbers, and what decides
/// whether the board is one line of them (no line break between two numbers).
struct text_summary {
  index_t numbers = 0;
  bool well_formed = true;  // only digits, whitespace and commas; every number 1..max_n
  bool has_digit = false, break_before_first = false, break_inside = false,
       break_after_last = false, has_break = false;
};

/// Pass A over bytes [begin, end) of a positions file: a number belongs to the range holding
/// its first digit, and is read to its end past `end`.
text_summary summarize(int fd, std::uint64_t begin, std::uint64_t end, std::uint64_t size) {
  text_summary s;
  std::vector<char> buffer(std::min<std::uint64_t>(size - begin + 1, buffer_bytes));
  char before = ' ';
  if (begin > 0 && read_at(fd, &before, 1, begin - 1) != 1) return s.well_formed = false, s;
  bool in_number = before >= '0' && before <= '9', counted = false, break_pending = false;
  index_t value = 0;
  for (std::uint64_t at = begin; at < size;) {
    const std::size_t got = read_at(fd, buffer.data(), buffer.size(), at);
    if (got == 0) break;
    std::size_t i = 0;
    for (; i < got; ++i) {
      const char c = buffer[i];
      const unsigned digit = static_cast<unsigned char>(c) - unsigned{'0'};
      if (digit < 10) {
        if (at + i >= end && !in_number) break;                // the next range's number
        if (!in_number) counted = at + i >= begin, value = 0;  // a number of ours
        in_number = true;
        value = value * 10 + digit;
        if (counted && value > max_n) s.well_formed = false;
        if (at + i < end) {
          if (break_pending) s.break_inside = true;
          break_pending = false;
          s.has_digit = true;
        }
        continue;
      }
      if (in_number && counted) {
        ++s.numbers;
        if (value == 0) s.well_formed = false;
      }
      in_number = counted = false;
      if (at + i >= end) break;
      if (c == '\n') {
        s.has_break = true;
        if (s.has_digit)
          break_pending = true;
        else
          s.break_before_first = true;
      } else if (c != ' ' && c != ',' && c != '\t' && c != '\r' && c != '\v' && c != '\f') {
        s.well_formed = false;
      }
    }
    if (i < got || !s.well_formed) break;
    at += got;
    if (at >= end && !in_number) break;
  }
  if (in_number && counted) {  // the file ends in a number
    ++s.numbers;
    if (value == 0) s.well_formed = false;
  }
  s.break_after_last = break_pending;
  return s;
}

}  // namespace

index_t count_positions(int fd, std::uint64_t size, unsigned parts) {
  std::vector<text_summary> summaries(parts);
  worker_threads workers(parts, [&](unsigned t) {
    summaries[t] = summarize(fd, size * t / parts, size * (t + 1) / parts, size);
  });
  workers.join();
  index_t n = 0;
  bool seen_digit = false, break_pending = false;
  for (const text_summary& s : summaries) {
    if (!s.well_formed || s.break_inside) return 0;
    if (s.has_digit) {
      if (seen_digit && (break_pending || s.break_before_first)) return 0;
      seen_digit = true;
      break_pending = s.break_after_last;
    } else if (seen_digit && s.has_break) {
      break_pending = true;
    }
    n += s.numbers;
  }
  return n <= max_n ? n : 0;
}

namespace {

/// One family of lines (rows, diagonals or anti-diagonals) cut to a thread's share [low,
/// low + count): a bit for a line with a queen, a second (from the first clash on) for a line
/// with two or more, and the queens on each line holding three or more.
class line_share {
 public:
  line_share(index_t low, index_t count) : low_(low), count_(count) {
    resize_on_huge_pages(seen_, (count + 63) / 64);
  }
  index_t low() const { return low_; }
  index_t count() const { return count_; }
  std::uint64_t* words() { return seen_.data(); }

  /// The pairs a queen on line `local` (already marked seen) adds: 1 for the second, k for the
  /// (k + 1)-th.
  index_t add_again(index_t local) {
    if (crowded_.empty()) crowded_.assign((count_ + 63) / 64, 0);
    std::uint64_t& word = crowded_[local / 64];
    const std::uint64_t bit = std::uint64_t{1} << (local % 64);
    if (!(word & bit)) {
      word |= bit;
      return 1;
    }
    auto [at, first] = many_.try_emplace(local, 2);
    return at->second++;
  }

 private:
  index_t low_, count_;
  std::vector<std::uint64_t> seen_, crowded_;
  std::unordered_map<index_t, index_t> many_;
};

/// What one thread found on its share of the lines.
struct share_count {
  index_t conflicts = 0;
  index_t first_attacked = 0;  // the first column landing on an occupied line of the share
  bool readable = true;
};

share_count count_share(const board_file& f, unsigned t, unsigned parts) {
  const index_t n = f.n, lines = diag_line_count(n);
  const auto cut = [&](index_t count, unsigned k) {
    return count / parts * k + std::min<index_t>(k, count % parts);
  };
  line_share rows(cut(n, t), cut(n, t + 1) - cut(n, t));
  line_share diags(cut(lines, t), cut(lines, t + 1) - cut(lines, t));
  line_share antis(cut(lines, t), cut(lines, t + 1) - cut(lines, t));
  share_count out;
  out.first_attacked = n;
  std::uint64_t elsewhere = 0;  // where a line of another share is marked, unread
  // The word of `line` in `share`, or `elsewhere` for a line of another share: every column
  // marks its three lines without a branch on whose they are.
  const auto word_of = [&](line_share& share, index_t line) {
    const index_t local = line - share.low();
    return local < share.count() ? share.words() + local / 64 : &elsewhere;
  };
  const auto mark = [&](line_share& share, index_t line) {
    const index_t local = line - share.low();
    const bool ours = local < share.count();
    std::uint64_t* word = ours ? share.words() + local / 64 : &elsewhere;
    const std::uint64_t bit = ours ? std::uint64_t{1} << (local % 64) : 0;
    const std::uint64_t old = *word;
    *word = old | bit;
    return (old & bit) != 0;
  };
  // The lines are met at random, a cache miss each: they are asked for `ahead` columns early,
  // so that many misses are under way at once.
  constexpr index_t ahead = 48;
  out.readable = scan_columns(f, [&](index_t first, const row_t* queen_row, index_t count) {
    for (index_t i = 0; i < count; ++i) {
      if (i + ahead < count) {
        const index_t c = first + i + ahead, r = queen_row[i + ahead];
        __builtin_prefetch(word_of(rows, r), 1);
        __builtin_prefetch(word_of(diags, diag_index(n, c, r)), 1);
        __builtin_prefetch(word_of(antis, anti_diag_index(c, r)), 1);
      }
      const index_t col = first + i, row = queen_row[i];
      const index_t d = diag_index(n, col, row), a = anti_diag_index(col, row);
      const bool on_row = mark(rows, row), on_diag = mark(diags, d), on_anti = mark(antis, a);
      if (on_row | on_diag | on_anti) [[unlikely]] {
        if (on_row) out.conflicts += rows.add_again(row - rows.low());
        if (on_diag) out.conflicts += diags.add_again(d - diags.low());
        if (on_anti) out.conflicts += antis.add_again(a - antis.low());
        if (out.first_attacked == n) out.first_attacked = col;
      }
    }
    return true;
  });
  return out;
}

/// Calls visit(col, row) for each column in order until it returns false.
template <class Visit>
void for_each_column(const board_file& f, Visit&& visit) {
  scan_columns(f, [&](index_t first, const row_t* queen_row, index_t count) {
    for (index_t i = 0; i < count; ++i)
      if (!visit(first + i, index_t{queen_row[i]})) return false;
    return true;
  });
}

/// The row of column `col`.
index_t row_of(const board_file& f, index_t col) {
  index_t found = f.n;
  for_each_column(f, [&](index_t c, index_t row) {
    if (c < col) return true;
    found = row;
    return false;
  });
  return found;
}

/// The file's layout, or nullopt where it is not an npy, raw or positions board in a regular
/// file at its start.
std::optional<board_file> open_board(std::FILE* in, board_format format,
                                     const std::string& source) {
  struct stat facts {};
  if (std::ftell(in) != 0 || fstat(fileno(in), &facts) != 0 || !S_ISREG(facts.st_mode))
    return std::nullopt;
  board_file f;
  f.fd = fileno(in);
  f.size = static_cast<std::uint64_t>(facts.st_size);
  byte_source bytes(in, source);
  if (format == board_format::auto_detect) format = detect_binary(bytes);
  if (format == board_format::auto_detect) format = detect_format(bytes);
  f.format = format;
  if (format == board_format::npy) {
    const npy_layout layout = read_npy_header(bytes);
    f.n = layout.n, f.width = layout.width, f.is_signed = layout.is_signed;
    f.data_offset = layout.data_offset;
    if (f.n == 0 || f.n > max_n || f.size != f.data_offset + f.n * f.width) return std::nullopt;
  } else if (format == board_format::raw) {
    if (f.size == 0 || f.size % 4 != 0 || f.size / 4 > max_n) return std::nullopt;
    f.n = f.size / 4;
  } else if (format != board_format::positions) {
    return std::nullopt;
  }
  return f;
}

}  // namespace

std::uint64_t streamed_verify_bytes(index_t n, unsigned threads) {
  // Each share rounds up to whole words; every thread holds a read buffer.
  const std::uint64_t bits = n + 2 * diag_line_count(n) + 3 * 64 * std::uint64_t{threads};
  return 2 * (bits / 8) + std::uint64_t{threads} * buffer_bytes;
}

std::optional<verify_report> verify_streamed(std::FILE* in, board_format format,
                                             const std::string& source, unsigned threads,
                                             std::uint64_t memory_limit, index_t smallest) {
  std::optional<board_file> file;
  try {
    file = open_board(in, format, source);
  } catch (const usage_error&) {  // read_board names it
  }
  std::fseek(in, 0, SEEK_SET);
  if (!file || (file->format != board_format::positions && file->n < smallest)) return std::nullopt;
  board_file& f = *file;
  threads = std::max(1u, threads);
  if (f.format == board_format::positions) {
    f.n = count_positions(f.fd, f.size, f.size < (std::uint64_t{1} << 24) ? 1u : threads);
    if (f.n == 0 || f.n < smallest) return std::nullopt;
  }
  // Below a million queens one thread is quicker than starting more.
  const unsigned parts = f.n < (index_t{1} << 20) ? 1u : threads;
  const std::uint64_t needed = streamed_verify_bytes(f.n, parts);
  if (memory_limit && needed > memory_limit)
    throw resource_error(source + ": verifying " + std::to_string(f.n) + " queens needs about " +
                         std::to_string(needed) + " bytes, more than the memory limit allows (" +
                         std::to_string(memory_limit) + " bytes; see --memory-limit)");
  std::vector<share_count> counts(parts);
  worker_threads workers(parts, [&](unsigned t) { counts[t] = count_share(f, t, parts); });
  workers.join();
  verify_report report;
  report.n = f.n;
  index_t first_attacked = f.n;
  for (const share_count& c : counts) {
    if (!c.readable) return std::nullopt;
    report.conflicts += c.conflicts;
    first_attacked = std::min(first_attacked, c.first_attacked);
  }
  if (first_attacked == f.n) return report;
  // Its partner is the earliest column on one of its lines; two queens share at most one line.
  const index_t col_b = first_attacked, row_b = row_of(f, col_b), n = f.n;
  for_each_column(f, [&](index_t col_a, index_t row_a) {
    if (col_a >= col_b) return false;
    line_kind kind = line_kind::row;
    if (diag_index(n, col_a, row_a) == diag_index(n, col_b, row_b))
      kind = line_kind::diagonal;
    else if (anti_diag_index(col_a, row_a) == anti_diag_index(col_b, row_b))
      kind = line_kind::anti_diagonal;
    else if (row_a != row_b)
      return true;
    report.first_clash = clash{col_a, col_b, kind};
    return false;
  });
  return report;
}

}  // namespace nq::detail
