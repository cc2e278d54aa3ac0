#include "core/board_pieces.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <type_traits>

#include "core/board_parsers.hpp"
#include "core/verify_stream.hpp"
#include "core/worker_threads.hpp"
#include "nqueens/error.hpp"

namespace nq::detail {
namespace {

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

/// Columns [first, first + count) of an npy or raw board's rows into `out`; false where one
/// lies off the board (or the file changed under us).
template <class Item>
bool read_items(const board_file& f, index_t first, index_t count, row_t* out) {
  const std::uint64_t offset = f.data_offset + first * sizeof(Item);
  if constexpr (std::is_same_v<Item, row_t>) {
    const std::size_t want = static_cast<std::size_t>(count) * sizeof(Item);
    return read_at(f.fd, reinterpret_cast<char*>(out), want, offset) == want &&
           std::all_of(out, out + count, [&](row_t row) { return row < f.n; });
  } else {
    std::vector<Item> items(std::min<index_t>(count, buffer_bytes / sizeof(Item)));
    for (index_t done = 0; done < count;) {
      const index_t chunk = std::min<index_t>(count - done, items.size());
      const std::size_t want = static_cast<std::size_t>(chunk) * sizeof(Item);
      if (read_at(f.fd, reinterpret_cast<char*>(items.data()), want,
                  offset + done * sizeof(Item)) != want)
        return false;
      for (index_t i = 0; i < chunk; ++i) {
        // A negative row becomes a huge one, off the board as well.
        const auto row = static_cast<index_t>(items[i]);
        if (row >= f.n) return false;
        out[done + i] = static_cast<row_t>(row);
      }
      done += chunk;
    }
    return true;
  }
}

bool read_columns(const board_file& f, index_t first, index_t count, row_t* out) {
  if (f.width == 4)
    return f.is_signed ? read_items<std::int32_t>(f, first, count, out)
                       : read_items<row_t>(f, first, count, out);
  return f.is_signed ? read_items<std::int64_t>(f, first, count, out)
                     : read_items<std::uint64_t>(f, first, count, out);
}

/// What pass A finds in a byte range of a positions file: its numbers, and what decides
/// whether the board is one line of them (no line break between two numbers).
struct text_summary {
  index_t numbers = 0;
  bool well_formed = true;  // only digits, whitespace and commas; every number 1..max_n
  bool has_digit = false, break_before_first = false, break_inside = false,
       break_after_last = false, has_break = false;
  // A comma anywhere, after a line break, after a line break after a number.
  bool has_comma = false, comma_after_break = false, comma_inside = false;
};

/// Pass A over bytes [begin, end) of a positions file: a number belongs to the range holding
/// its first digit, and is read to its end past `end`. Filling, the numbers' rows (number - 1)
/// are written to `out` too, up to `capacity`, and a number that is no row (0, past max_n)
/// makes the range malformed; pass A only counts them.
template <bool Fill>
text_summary summarize(int fd, std::uint64_t begin, std::uint64_t end, std::uint64_t size,
                       row_t* out = nullptr, index_t capacity = 0) {
  text_summary s;
  // A piece's bytes and a number's end past them (a number longer than 32 digits is no row).
  std::vector<char> buffer(std::min<std::uint64_t>(end - begin + 32, buffer_bytes));
  char before = ' ';
  if (begin > 0 && read_at(fd, &before, 1, begin - 1) != 1) return s.well_formed = false, s;
  const auto is_digit = [](char c) { return static_cast<unsigned char>(c - '0') < 10; };
  bool in_number = false, break_pending = false, skipping = is_digit(before);
  // Capped, so that a number of many digits stays off the board rather than wrapping round.
  constexpr index_t cap = index_t{1} << 40;
  index_t value = 0;
  const auto emit = [&] {
    if constexpr (Fill) {
      if (value - 1 >= max_n) s.well_formed = false;     // 0, or past the largest board
      if (s.numbers >= capacity) s.well_formed = false;  // the file grew since pass A
      if (s.well_formed) out[s.numbers] = static_cast<row_t>(value - 1);
    }
    ++s.numbers;
    value = 0;
    in_number = false;
  };
  std::uint64_t at = begin;
  while (at < end && s.well_formed) {
    const std::size_t got = read_at(fd, buffer.data(), buffer.size(), at);
    if (got == 0) break;
    const std::size_t in_range = static_cast<std::size_t>(std::min<std::uint64_t>(got, end - at));
    std::size_t i = 0;
    if (skipping) {  // the digits of the number the range before holds
      while (i < in_range && is_digit(buffer[i])) ++i;
      s.has_digit = s.has_digit || i > 0;
      skipping = i == in_range;
    }
    for (; i < in_range; ++i) {
      const char c = buffer[i];
      const unsigned digit = static_cast<unsigned char>(c) - unsigned{'0'};
      if (digit < 10) {
        if (!in_number) {
          s.break_inside = s.break_inside || break_pending;
          break_pending = false;
          s.has_digit = in_number = true;
        }
        if constexpr (Fill) value = std::min(value * 10 + digit, cap);
        continue;
      }
      if (in_number) emit();
      if (c == ' ') continue;  // the separator nqueens writes
      if (c == '\n') {
        s.has_break = true;
        (s.has_digit ? break_pending : s.break_before_first) = true;
      } else if (c == ',') {  // the reader takes none after the board's line break
        s.has_comma = true;
        s.comma_after_break = s.comma_after_break || s.has_break;
        s.comma_inside = s.comma_inside || break_pending;
      } else if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') {
        s.well_formed = false;
        break;
      }
    }
    at += in_range;
    if (in_range < got || at >= end) {  // a number that runs past the range ends there
      std::size_t k = in_range;
      for (; in_number && k < got && is_digit(buffer[k]); ++k)
        if constexpr (Fill)
          value = std::min(value * 10 + static_cast<unsigned>(buffer[k] - '0'), cap);
      char c = 0;
      for (std::uint64_t next = at + (k - in_range);
           in_number && k == got && next < size && read_at(fd, &c, 1, next) == 1 && is_digit(c);
           ++next)  // the buffer ended inside the number: read on
        if constexpr (Fill) value = std::min(value * 10 + static_cast<unsigned>(c - '0'), cap);
      break;
    }
  }
  if (in_number) emit();
  s.break_after_last = break_pending;
  return s;
}

}  // namespace

std::vector<text_piece> split_positions(int fd, std::uint64_t size, unsigned parts,
                                        unsigned threads) {
  std::vector<text_summary> summaries(parts);
  std::atomic<unsigned> next{0};
  worker_threads workers(std::min(threads, parts), [&](unsigned) {
    for (unsigned k = next++; k < parts; k = next++)
      summaries[k] = summarize<false>(fd, size * k / parts, size * (k + 1) / parts, size);
  });
  workers.join();
  std::vector<text_piece> pieces;
  index_t n = 0;
  bool seen_digit = false, break_pending = false;
  for (unsigned k = 0; k < parts; ++k) {
    const text_summary& s = summaries[k];
    if (!s.well_formed || s.break_inside || s.comma_inside) return {};
    if ((seen_digit && s.comma_after_break) || (break_pending && s.has_comma)) return {};
    if (s.has_digit) {
      if (seen_digit && (break_pending || s.break_before_first)) return {};
      seen_digit = true;
      break_pending = s.break_after_last;
    } else if (seen_digit && s.has_break) {
      break_pending = true;
    }
    if (s.numbers) pieces.push_back({n, s.numbers, size * k / parts, size * (k + 1) / parts});
    n += s.numbers;
  }
  if (n > max_n) return {};
  return pieces;
}

index_t count_positions(int fd, std::uint64_t size, unsigned parts) {
  index_t n = 0;
  for (const text_piece& piece : split_positions(fd, size, parts, parts)) n += piece.count;
  return n;
}

bool fill_piece(const board_file& f, const text_piece& p, row_t* out) {
  if (f.format == board_format::positions) {
    const text_summary s = summarize<true>(f.fd, p.begin, p.end, f.size, out, p.count);
    return s.well_formed && s.numbers == p.count &&
           std::all_of(out, out + p.count, [&](row_t row) { return row < f.n; });
  }
  return read_columns(f, p.first_col, p.count, out);
}

std::optional<board_file> open_board(std::FILE* in, board_format format,
                                     const std::string& source) {
  struct stat facts {};
  if (fstat(fileno(in), &facts) != 0 || !S_ISREG(facts.st_mode)) return std::nullopt;
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

}  // namespace nq::detail
