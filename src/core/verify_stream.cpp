#include "core/verify_stream.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cerrno>
#include <cstring>
#include <exception>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/board_parsers.hpp"
#include "core/board_pieces.hpp"
#include "core/compact_lines.hpp"
#include "core/worker_threads.hpp"
#include "nqueens/detail/huge_pages.hpp"
#include "nqueens/error.hpp"

namespace nq::detail {
namespace {

/// One thread's share of the lines of a board with a clash: a byte a line, as the held
/// verify keeps, for the rows, diagonals and anti-diagonals in [low, low + count) of each
/// family; each block of columns adds the queens of the share's lines, counting their pairs.
class share_counter {
 public:
  share_counter(index_t n, unsigned t, unsigned parts)
      : n_(n),
        row_low_(cut(n, t, parts)),
        row_count_(cut(n, t + 1, parts) - row_low_),
        diag_low_(cut(diag_line_count(n), t, parts)),
        diag_count_(cut(diag_line_count(n), t + 1, parts) - diag_low_),
        rows_(row_count_),
        diags_(diag_count_),
        antis_(diag_count_),
        first_attacked_(n) {}

  index_t conflicts() const { return conflicts_; }
  /// The first column landing on an occupied line of the share (n: none), and its row.
  index_t first_attacked() const { return first_attacked_; }
  index_t first_attacked_row() const { return first_attacked_row_; }

  void mark_block(index_t first, const row_t* queen_row, index_t count) {
    for (index_t i = 0; i < count; ++i) {
      const index_t col = first + i, row = queen_row[i];
      const index_t r = row - row_low_, d = diag_index(n_, col, row) - diag_low_,
                    a = anti_diag_index(col, row) - diag_low_;
      const index_t created = (r < row_count_ ? rows_.add(r) : 0) +
                              (d < diag_count_ ? diags_.add(d) : 0) +
                              (a < diag_count_ ? antis_.add(a) : 0);
      conflicts_ += created;
      if (created && first_attacked_ == n_) first_attacked_ = col, first_attacked_row_ = row;
    }
  }

  /// Bytes it holds for a board of n queens, all shares together.
  static std::uint64_t bytes(index_t n) { return n + 2 * diag_line_count(n); }

 private:
  static index_t cut(index_t count, unsigned k, unsigned parts) {
    return count / parts * k + std::min<index_t>(k, count % parts);
  }

  index_t n_, row_low_, row_count_, diag_low_, diag_count_;
  byte_lines rows_, diags_, antis_;
  index_t conflicts_ = 0, first_attacked_, first_attacked_row_ = 0;
};

/// The board a batch of columns at a time on `parts` threads: they read each batch's pieces
/// into one block, then each does its part of the work on all of it.
class batch_reader {
 public:
  batch_reader(const board_file& f, std::vector<text_piece> pieces, index_t batch, unsigned parts)
      : f_(f), pieces_(std::move(pieces)), parts_(parts), sync_(parts, decide{this}) {
    for (const text_piece& p : pieces_) batch = std::max(batch, p.count);
    block_.resize(batch);
  }

  /// work(t, first_col, queen_row, count) on thread t for each batch in turn; it may call
  /// sync() (as often on every thread) and stop(). False where a row lies off the board;
  /// rethrows what a thread threw.
  template <class Work>
  bool run(Work&& work) {
    worker_threads workers(parts_, [&](unsigned t) {
      for (std::size_t from = 0; from < pieces_.size();) {
        std::size_t to = from;
        index_t columns = 0;
        do columns += pieces_[to++].count;
        while (to < pieces_.size() && columns + pieces_[to].count <= block_.size());
        const index_t first = pieces_[from].first_col;
        attempt([&] {
          for (std::size_t k = from + t; k < to; k += parts_)
            if (!fill_piece(f_, pieces_[k], block_.data() + (pieces_[k].first_col - first)))
              unreadable_ = true;
        });
        sync();
        if (!going_) break;
        attempt([&] { work(t, first, block_.data(), columns); });
        sync();
        if (!going_) break;
        from = to;
      }
    });
    workers.join();
    if (failure_) std::rethrow_exception(failure_);
    return !unreadable_;
  }

  /// Columns the largest batch holds.
  index_t batch_capacity() const { return block_.size(); }
  void sync() { sync_.arrive_and_wait(); }
  /// Ends the run after this batch.
  void stop() { stop_ = true; }
  /// Runs `step`, keeping what it throws for run() and ending the run after this batch.
  template <class Step>
  void attempt(Step&& step) {
    try {
      step();
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      stop_ = true;
    }
  }

 private:
  /// Read by every thread after a barrier and written only as the last thread arrives at one,
  /// so that all of them take the same turn.
  struct decide {
    batch_reader* reader;
    void operator()() noexcept { reader->going_ = !reader->stop_ && !reader->unreadable_; }
  };

  const board_file& f_;
  std::vector<text_piece> pieces_;
  unsigned parts_;
  std::vector<row_t> block_;
  std::barrier<decide> sync_;
  std::atomic<bool> stop_{false}, unreadable_{false};
  bool going_ = true;
  std::mutex mutex_;
  std::exception_ptr failure_;
};

/// Whether some line of the board holds two queens (nullopt: a row lies off the board), found
/// in cache: each batch's lines are sorted by region of the line bits (512 KiB each, one
/// thread's), then each thread sets the bits of its regions. The lines of a column are met
/// at random, a cache miss each if marked at once; sorted, a region's bits are set together.
std::optional<bool> any_line_twice(batch_reader& reader, index_t n, unsigned parts) {
  constexpr unsigned region_bits = 22;
  const index_t lines = diag_line_count(n), bits = n + 2 * lines;
  const std::size_t regions = static_cast<std::size_t>((bits >> region_bits) + 1);
  std::vector<std::uint64_t> seen;
  resize_on_huge_pages(seen, regions << (region_bits - 6));
  // Three lines a column of the largest batch, sized once: no thread allocates between syncs.
  std::vector<std::uint32_t> entries;  // written to thousands of regions at once: huge pages
  resize_on_huge_pages(entries, 3 * reader.batch_capacity());
  // histogram[t][r]: the lines thread t's columns put in region r, then where they go.
  std::vector<std::vector<std::size_t>> histogram(parts, std::vector<std::size_t>(regions));
  std::atomic<bool> twice{false};
  const auto line_bits = [n, lines](index_t col, index_t row) {
    return std::array<index_t, 3>{row, n + diag_index(n, col, row),
                                  n + lines + anti_diag_index(col, row)};
  };
  const bool readable =
      reader.run([&](unsigned t, index_t first, const row_t* queen_row, index_t count) {
        const index_t begin = count * t / parts, end = count * (t + 1) / parts;
        std::vector<std::size_t>& mine = histogram[t];
        std::fill(mine.begin(), mine.end(), 0);
        for (index_t i = begin; i < end; ++i)
          for (const index_t bit : line_bits(first + i, queen_row[i])) ++mine[bit >> region_bits];
        reader.sync();
        if (t == 0) {  // where each thread's lines of each region go, in column order
          std::size_t at = 0;
          for (std::size_t r = 0; r < regions; ++r)
            for (unsigned k = 0; k < parts; ++k) at += std::exchange(histogram[k][r], at);
        }
        reader.sync();
        for (index_t i = begin; i < end; ++i)
          for (const index_t bit : line_bits(first + i, queen_row[i]))
            entries[mine[bit >> region_bits]++] =
                static_cast<std::uint32_t>(bit & ((index_t{1} << region_bits) - 1));
        reader.sync();
        // A region's lines end where thread parts - 1 put its last; each thread takes the
        // regions starting in its share of the lines (rows' regions hold twice diagonals').
        const std::vector<std::size_t>& ends = histogram[parts - 1];
        const std::size_t total = ends.back();
        const auto first_region = [&](unsigned k) -> std::size_t {
          if (k == 0) return 0;
          if (k == parts) return regions;
          const std::size_t x = total * k / parts;  // the smallest r whose start is x or more
          return std::lower_bound(ends.begin(), ends.end(), x) - ends.begin() + 1;
        };
        const std::size_t r0 = std::min(first_region(t), regions),
                          r1 = std::min(first_region(t + 1), regions);
        std::size_t from = r0 == 0 ? 0 : ends[r0 - 1];
        bool found = false;
        for (std::size_t r = r0; r < r1; ++r) {
          std::uint64_t* words = seen.data() + (r << (region_bits - 6));
          const std::size_t to = histogram[parts - 1][r];
          for (std::size_t e = from; e < to; ++e) {
            const std::uint32_t local = entries[e];
            const std::uint64_t bit = std::uint64_t{1} << (local % 64);
            found |= (words[local / 64] & bit) != 0;
            words[local / 64] |= bit;
          }
          from = to;
        }
        if (found) {
          twice = true;
          reader.stop();
        }
      });
  if (!readable) return std::nullopt;
  return twice.load();
}

/// Calls visit(col, row) for each column in order, a piece at a time, until it returns false.
/// False where a row lies off the board.
template <class Visit>
bool for_each_column(const board_file& f, const std::vector<text_piece>& pieces, Visit&& visit) {
  std::vector<row_t> rows;
  for (const text_piece& p : pieces) {
    rows.resize(p.count);
    if (!fill_piece(f, p, rows.data())) return false;
    for (index_t i = 0; i < p.count; ++i)
      if (!visit(p.first_col + i, index_t{rows[i]})) return true;
  }
  return true;
}

}  // namespace

std::uint64_t streamed_verify_bytes(index_t n, unsigned threads) {
  // A bit a line (whole regions), a batch's rows and three line entries a column, and a read
  // buffer a thread.
  const std::uint64_t bits = n + 2 * diag_line_count(n) + (std::uint64_t{1} << 22);
  return bits / 8 + 16 * batch_size(n) + std::uint64_t{threads} * buffer_bytes;
}

/// Bytes the count of a board with a clash needs: a byte a line, a batch's rows, buffers.
std::uint64_t clash_count_bytes(index_t n, unsigned threads) {
  return share_counter::bytes(n) + 4 * batch_size(n) + std::uint64_t{threads} * buffer_bytes;
}

std::optional<verify_report> verify_streamed(std::FILE* in, board_format format,
                                             const std::string& source, unsigned threads,
                                             std::uint64_t memory_limit, index_t smallest) {
  if (std::ftell(in) != 0) return std::nullopt;  // a file read from elsewhere is read on there
  std::optional<board_file> file;
  try {
    file = open_board(in, format, source);
  } catch (const usage_error&) {  // read_board names it
  }
  std::fseek(in, 0, SEEK_SET);
  // A positions file holds at most (bytes + 1) / 2 numbers.
  if (!file ||
      (file->format == board_format::positions ? (file->size + 1) / 2 : file->n) < smallest)
    return std::nullopt;
  board_file& f = *file;
  threads = std::max(1u, threads);
  std::vector<text_piece> text_pieces;
  if (f.format == board_format::positions) {
    // Pieces of 2 MiB or fewer, at least one a thread: each holds no more numbers than a batch.
    const auto parts = static_cast<unsigned>(
        std::max<std::uint64_t>(threads, (f.size + text_piece_bytes - 1) / text_piece_bytes));
    text_pieces = split_positions(f.fd, f.size, parts, threads);
    f.n = 0;
    for (const text_piece& piece : text_pieces) f.n += piece.count;
    if (f.n == 0 || f.n < smallest) return std::nullopt;
  }
  // Below a million queens one thread is quicker than starting more.
  const unsigned parts = f.n < (index_t{1} << 20) ? 1u : threads;
  const auto check_memory = [&](std::uint64_t needed, const char* what) {
    if (memory_limit && needed > memory_limit)
      throw resource_error(source + ": " + what + std::to_string(f.n) + " queens needs about " +
                           std::to_string(needed) + " bytes, more than the memory limit allows (" +
                           std::to_string(memory_limit) + " bytes; see --memory-limit)");
  };
  check_memory(streamed_verify_bytes(f.n, parts), "verifying ");
  std::vector<text_piece> pieces = std::move(text_pieces);
  if (f.format != board_format::positions)
    for (index_t col = 0; col < f.n; col += binary_piece)
      pieces.push_back({col, std::min(binary_piece, f.n - col), 0, 0});
  const index_t batch = batch_size(f.n);
  {
    batch_reader reader(f, pieces, batch, parts);
    const std::optional<bool> twice = any_line_twice(reader, f.n, parts);
    if (!twice) return std::nullopt;
    if (!*twice) {
      verify_report report;
      report.n = f.n;
      return report;
    }
  }
  // A clash: counted exactly, each thread marking its share of the lines for every column.
  check_memory(clash_count_bytes(f.n, parts), "counting the clashes of ");
  std::vector<index_t> conflicts(parts, 0), first_attacked(parts, f.n), first_row(parts, 0);
  std::vector<std::optional<share_counter>> shares(parts);
  batch_reader reader(f, pieces, batch, parts);
  if (!reader.run([&](unsigned t, index_t first, const row_t* queen_row, index_t count) {
        if (!shares[t]) shares[t].emplace(f.n, t, parts);
        shares[t]->mark_block(first, queen_row, count);
      }))
    return std::nullopt;
  for (unsigned t = 0; t < parts; ++t)
    if (shares[t])
      conflicts[t] = shares[t]->conflicts(), first_attacked[t] = shares[t]->first_attacked(),
      first_row[t] = shares[t]->first_attacked_row();
  verify_report report;
  report.n = f.n;
  for (unsigned t = 0; t < parts; ++t) report.conflicts += conflicts[t];
  const auto earliest = std::min_element(first_attacked.begin(), first_attacked.end());
  if (*earliest == f.n) return report;
  // Its partner is the earliest column on one of its lines; two queens share at most one line.
  const index_t col_b = *earliest, row_b = first_row[earliest - first_attacked.begin()], n = f.n;
  const bool readable = for_each_column(f, pieces, [&](index_t col_a, index_t row_a) {
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
  if (!readable || !report.first_clash) return std::nullopt;  // the file changed under us
  return report;
}

}  // namespace nq::detail
