#pragma once
// What every subcommand shares: exit codes, argument parsing with messages users can act on,
// the progress line on stderr, and where output goes.

#include <atomic>
#include <cstdint>
#include <cxxopts.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/outputs.hpp"
#include "core/board_io.hpp"
#include "core/whole_number.hpp"
#include "nqueens/ranks.hpp"
#include "nqueens/solver.hpp"

namespace nq::cli {

enum exit_code : int {
  exit_ok = 0,             ///< solved, or the board is valid
  exit_unsolved = 1,       ///< no solution (none exists, none found in the limits, or clashes)
  exit_usage = 2,          ///< bad command line or malformed input
  exit_resource = 3,       ///< not enough memory, disk or GPU
  exit_internal = 4,       ///< a bug: please report it
  exit_interrupted = 130,  ///< stopped by SIGINT or SIGTERM (a count keeps its checkpoint)
};

using detail::parse_board_size;
using detail::parse_positive;
using detail::parse_seconds;
using detail::parse_seed;
using detail::parse_whole;
using detail::read_whole_number;
using detail::whole_reading;


using detail::count_of;

/// --format text|json: true for json; anything else is a usage_error.
bool parse_text_or_json(const std::string& format);

/// Parses argv with `options`; turns cxxopts errors and stray arguments into usage_error.
/// `positional` names the one positional argument the command takes, if any.
cxxopts::ParseResult parse_command_line(cxxopts::Options& options, int argc, char** argv,
                                        const char* positional = nullptr);

/// The file an output option names, "" when it is not given; an empty name is refused, so that
/// `--trace ''` is not taken for no trace, nor `-o ''` for standard output.
std::string file_option(const cxxopts::ParseResult& args, const std::string& option);

/// Raised by SIGINT, SIGTERM or SIGHUP for count, solve and batch: main() installs this stop
/// before the command reads its options, so that a signal at any moment stops the work and the
/// command says so (exit 130) instead of ending the process.
extern std::atomic<bool> interrupted;

/// Makes a cxxopts message fit a one-line error: plain quotes.
std::string plain_message(std::string text);

bool stderr_is_terminal();

/// @brief Under mpirun, a failure while other ranks wait on this one: says so on stderr, with
/// the rank, and ends every rank with the exit code `error` maps to (as main() would).
[[noreturn]] void abort_ranks(const std::string& who, const rank_share& ranks,
                              const std::exception& error);

/// Whether a command shows its progress line: on a terminal, or anywhere with --progress; never
/// with --quiet (a usage_error when both are given).
bool progress_wanted(const cxxopts::ParseResult& args);

/// A one-line progress display on stderr, where progress_wanted says, after the first second.
class progress_line {
 public:
  explicit progress_line(bool enabled) : enabled_(enabled) {}
  ~progress_line() { finish(); }
  /// Whether a line for the moment `seconds` into the work is due (at most 4 a second); show()
  /// follows when it is.
  bool due(double seconds);
  /// Writes the line, a printf format and its values, over the one before it.
  [[gnu::format(printf, 2, 3)]] void show(const char* format, ...);
  void finish();

 private:
  bool enabled_;
  bool shown_ = false;
  double last_seconds_ = 0.0;
};

}  // namespace nq::cli
