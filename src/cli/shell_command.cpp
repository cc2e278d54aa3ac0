// nqueens shell: the classic teaching tool. A prompt (or a script on standard input) with
// commands to make a board, show it, run an algorithm on it, and run batch statistics.

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/local_options.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/config.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/error.hpp"
#include "nqueens/min_conflicts.hpp"
#include "nqueens/rng.hpp"
#include "nqueens/systematic.hpp"
#include "nqueens/verify.hpp"

namespace nq::cli {
namespace {

constexpr const char* shell_help = R"(Commands:
  new N [SEED]          a random board of N queens, one per column (SEED: the next one)
  board R1 R2 ... RN    enter a board: the 1-based row of the queen in each column
  show                  print the board and its attacking pairs
  run ALGO [OPTIONS]    run an algorithm from this board; its result becomes the board
                        (every option of nqueens solve but -n and --algo: --seed,
                        --max-steps, --sideways, --trace FILE, -f json, ...; systematic,
                        constructive, permutation min-conflicts, --chains and --chain
                        start afresh); --verbose narrates each step and why it stopped
  batch ALGO [RUNS] [OPTIONS]
                        RUNS (default 1000) independent runs on random boards of this size
                        (every option of nqueens batch but -n and --algo: --runs, --seed,
                        --threads, --p, --sweep, -f json, ...; --device cpu by default)
  algorithms            list the algorithms
  help                  this list
  quit                  leave (so does the end of the input)
)";

constexpr index_t max_shell_grid = 64;  // larger boards are shown as positions
// A line holds at most this many bytes: room for a board of max_climber_n queens.
constexpr std::size_t max_line_bytes = 1 << 20;

enum class line_read { ok, too_long, end };

/// One line of standard input, without its newline. A line longer than max_line_bytes stops
/// the read at that point (too_long); skip_line() then drops the rest.
line_read read_line(std::string& line) {
  line.clear();
  int c = 0;
  while ((c = std::getchar()) != EOF && c != '\n') {
    if (line.size() == max_line_bytes) return line_read::too_long;
    line.push_back(static_cast<char>(c));
  }
  return c == EOF && line.empty() ? line_read::end : line_read::ok;
}

void skip_line() {
  for (int c = 0; (c = std::getchar()) != EOF && c != '\n';) {
  }
}

std::vector<std::string> split_words(std::string line) {
  // No command line carries a NUL (argv cannot), and an error quoting one as a C string would
  // be cut there: it is read as the text \x00, which any message then shows whole.
  for (auto at = line.find('\0'); at != std::string::npos; at = line.find('\0', at))
    line.replace(at, 1, "\\x00");
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

class shell {
 public:
  explicit shell(std::uint64_t seed) : next_seed_(seed) {}

  /// Carries out one line; false when it asks to leave.
  bool execute(const std::string& line) {
    const auto words = split_words(line);
    if (words.empty() || words[0].starts_with("#")) return true;
    const std::string& command = words[0];
    // "quit now" or "show x" is a mistyped line, not the command.
    if (words.size() > 1 && takes_nothing(command))
      throw usage_error("'" + command + "' takes nothing after it, got '" + printable(words[1]) +
                        "'");
    if (command == "quit" || command == "exit") return false;
    if (command == "help") {
      std::fputs(shell_help, stdout);
    } else if (command == "new") {
      make_board(words);
    } else if (command == "board") {
      enter_board(words);
    } else if (command == "show") {
      show();
    } else if (command == "run") {
      run(words);
    } else if (command == "batch") {
      batch(words);
    } else if (command == "algorithms") {
      for (const auto& a : algorithms())
        std::printf("  %-14.*s %.*s\n", static_cast<int>(a.name.size()), a.name.data(),
                    static_cast<int>(a.summary.size()), a.summary.data());
    } else {
      throw usage_error("unknown command '" + printable(command) + "' (type help)");
    }
    return true;
  }

 private:
  static bool takes_nothing(const std::string& word) {
    for (const char* name : {"quit", "exit", "help", "show", "algorithms"})
      if (word == name) return true;
    return false;
  }

  index_t n() const { return board_.size(); }

  void need_board() const {
    if (board_.empty()) throw usage_error("no board yet: make one with new N");
  }

  void make_board(const std::vector<std::string>& words) {
    if (words.size() < 2 || words.size() > 3) throw usage_error("usage: new N [SEED]");
    const index_t size = parse_board_size(words[1]);
    if (size > max_climber_n)
      throw usage_error("the shell keeps boards up to " + std::to_string(max_climber_n) +
                        " queens; use nqueens solve for larger ones");
    const std::uint64_t seed = words.size() == 3 ? parse_seed(words[2]) : next_seed_++;
    philox_stream rng(seed, 0);
    board_.resize(size);
    for (auto& row : board_) row = rng.below(static_cast<std::uint32_t>(size));
    std::printf("a random board of %s (seed %llu)\n", count_of(size, "queen").c_str(),
                static_cast<unsigned long long>(seed));
    show();
  }

  void enter_board(const std::vector<std::string>& words) {
    if (words.size() < 2) throw usage_error("usage: board R1 R2 ... RN (1-based rows)");
    const index_t size = words.size() - 1;
    if (size > max_climber_n)
      throw usage_error("the shell keeps boards up to " + std::to_string(max_climber_n) +
                        " queens, got " + std::to_string(size));
    std::vector<row_t> rows;
    for (std::size_t i = 1; i < words.size(); ++i) {
      const std::uint64_t row = parse_positive("a row", words[i]);
      if (row > size)
        throw usage_error("row " + words[i] + " is off a board of " + std::to_string(size) +
                          " rows");
      rows.push_back(static_cast<row_t>(row - 1));
    }
    board_ = std::move(rows);
    show();
  }

  /// Prints the board (unless `picture` is false: the run has just printed it) and its pairs.
  void show(bool picture = true) {
    need_board();
    std::fflush(stdout);
    if (picture) {
      byte_sink out(STDOUT_FILENO);
      write_board(out, board_,
                  n() <= max_shell_grid ? board_format::grid : board_format::positions);
    }
    const auto check = verify_board(board_);
    std::printf("%s, %s%s\n", count_of(n(), "queen").c_str(),
                count_of(check.conflicts, "attacking pair").c_str(),
                check.conflicts == 0 ? ": a solution" : "");
  }

  void run(const std::vector<std::string>& words) {
    need_board();
    if (words.size() < 2) throw usage_error("usage: run ALGO [OPTIONS]");
    const std::string& name = words[1];
    if (!find_algorithm(name))
      throw usage_error("unknown algorithm '" + name + "' (type algorithms)");
    std::vector<std::string> rest(words.begin() + 2, words.end());
    const auto verbose = std::erase(rest, "--verbose") > 0;
    shell_solve solve;
    solve.start = board_;
    std::uint64_t restarts = 0;
    index_t last_cost = 0;
    std::vector<row_t> last_board = board_;
    if (verbose)
      solve.narrate = [&](const trace_row& row) {
        const std::string cost = count_of(row.cost, "attacking pair");
        if (row.step == 0 || row.restarts != restarts)
          std::printf("  %s board: %s\n", row.step == 0 ? "start" : "restart, a fresh",
                      cost.c_str());
        else
          std::printf("  step %llu: %s%s (%+lld)%s\n", static_cast<unsigned long long>(row.step),
                      moves(last_board, row.queen_row).c_str(), cost.c_str(),
                      static_cast<long long>(row.cost) - static_cast<long long>(last_cost),
                      row.cost == last_cost ? ", sideways" : "");
        restarts = row.restarts;
        last_cost = row.cost;
        if (row.queen_row) last_board.assign(row.queen_row, row.queen_row + n());
      };
    run_solve_in_shell(command_line("run", name, rest), solve);
    if (!solution_exists(n())) throw usage_error("no solution exists for n=" + std::to_string(n()));
    const solve_result& result = solve.result;
    if (!result.queen_row.empty()) board_ = result.queen_row;
    std::printf("%s: %s after %s (%s, %.3f s)\n", name.c_str(),
                result.solved ? "solved" : "not solved", count_of(result.steps, "step").c_str(),
                count_of(result.restarts, "restart").c_str(), result.seconds);
    if (verbose && !result.solved) std::printf("  stopped: %s\n", solve.stop_reason.c_str());
    show(!prints_board(rest));
  }

  /// Whether these run options print the resulting board on standard output themselves
  /// (-f grid, matrix or positions, without -o), so that the shell need not print it again.
  static bool prints_board(const std::vector<std::string>& options) {
    std::string format;
    bool to_file = false;
    for (std::size_t i = 0; i < options.size(); ++i) {
      const std::string& w = options[i];
      const bool next = i + 1 < options.size();
      if ((w == "-f" || w == "--format") && next)
        format = options[++i];
      else if (w.starts_with("--format="))
        format = w.substr(9);
      else if (w.starts_with("-f") && !w.starts_with("--"))
        format = w.substr(2);
      else if (w == "-o" || w == "--output" || w.starts_with("--output=") ||
               (w.starts_with("-o") && !w.starts_with("--")))
        to_file = true;
    }
    return !to_file && (format == "grid" || format == "matrix" || format == "positions");
  }

  /// The queens that moved from `before` to `after` ("column 3 row 5 -> 2, "), when the
  /// algorithm shows its board (beam and ga do not).
  std::string moves(const std::vector<row_t>& before, const row_t* after) const {
    if (!after) return "";
    std::string text;
    for (index_t col = 0; col < n(); ++col)
      if (before[col] != after[col])
        text += "column " + std::to_string(col + 1) + " row " + std::to_string(before[col] + 1) +
                " -> " + std::to_string(after[col] + 1) + ", ";
    return text.empty() ? "no queen moved, " : text;
  }

  /// `words` as the command line of solve or batch on this board: -n N --algo ALGO, then the
  /// options; the board sets n and ALGO comes first, so neither is an option here.
  void run_solve_in_shell(std::vector<std::string> argv_text, shell_solve& solve) {
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    std::fflush(stdout);
    cli::run_solve_in_shell(static_cast<int>(argv.size()), argv.data(), solve);
    std::fflush(stdout);
  }

  std::vector<std::string> command_line(const std::string& command, const std::string& algorithm,
                                        const std::vector<std::string>& options) const {
    for (const auto& w : options)
      if (w == "-n" || w.starts_with("--queens") || w == "-a" || w.starts_with("--algo") ||
          (w.starts_with("-n") && !w.starts_with("--")))
        throw usage_error("'" + w + "': the board sets n and ALGO comes first (usage: " + command +
                          " ALGO [OPTIONS])");
    std::vector<std::string> argv{command, "-n", std::to_string(n()), "--algo", algorithm};
    argv.insert(argv.end(), options.begin(), options.end());
    return argv;
  }

  void batch(const std::vector<std::string>& words) {
    need_board();
    if (words.size() < 2) throw usage_error("usage: batch ALGO [RUNS] [OPTIONS]");
    std::vector<std::string> rest(words.begin() + 2, words.end());
    std::vector<std::string> runs;
    // RUNS comes first, as any word that is not an option: -5 is a number of runs, refused
    // as one, not an option named 5.
    const auto number = [](const std::string& w) {
      return !w.starts_with("-") ||
             (w.size() > 1 && std::isdigit(static_cast<unsigned char>(w[1])));
    };
    if (!rest.empty() && number(rest[0])) {
      runs = {"--runs", rest[0]};
      rest.erase(rest.begin());
    }
    auto argv_text = command_line("batch", words[1], rest);
    argv_text.insert(argv_text.begin() + 5, runs.begin(), runs.end());  // after -n N --algo A
    // The shell's batches run on the CPU unless --device says otherwise.
    if (std::none_of(rest.begin(), rest.end(),
                     [](const std::string& w) { return w.starts_with("--device"); }))
      argv_text.insert(argv_text.end(), {"--device", "cpu"});
    const bool help = std::any_of(rest.begin(), rest.end(),
                                  [](const std::string& w) { return w == "-h" || w == "--help"; });
    if (!help && !solution_exists(n()))
      throw usage_error("no solution exists for n=" + std::to_string(n()));
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    std::fflush(stdout);
    interrupted.store(false);  // a Ctrl-C stopped the batch before, not this one
    run_batch_command(static_cast<int>(argv.size()), argv.data());
    std::fflush(stdout);
  }

  std::vector<row_t> board_;
  std::uint64_t next_seed_;
};

/// Standard output that cannot be written (a full disk, a closed pipe) ends the shell: exit 3.
void flush_output() {
  if (std::fflush(stdout) != 0)
    throw resource_error(std::string("cannot write output: ") + std::strerror(errno));
}

}  // namespace

int run_shell(int argc, char** argv) {
  cxxopts::Options options("nqueens shell",
                           "An interactive prompt: make a board, show it, run algorithms on it, "
                           "run batch statistics. Reads commands from standard input (a terminal "
                           "or a script); type help for the commands.");
  // clang-format off
  options.add_options()
      ("s,seed", "the first seed new uses when none is given", cxxopts::value<std::string>()->default_value("1"))
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(options.help() + "\n" + shell_help);
  shell session(parse_seed(args["seed"].as<std::string>()));
  const bool interactive = ::isatty(STDIN_FILENO) == 1;
  if (interactive) std::puts("nqueens shell: type help for the commands, quit to leave");
  bool failed = false;
  for (std::string line;;) {
    if (interactive) std::fputs("nqueens> ", stdout);
    flush_output();
    const line_read got = read_line(line);
    if (got == line_read::end) break;
    const auto report = [&](const char* what) {
      std::fflush(stdout);
      std::fprintf(stderr, "error: %s\n", printable(what).c_str());
      failed = true;
    };
    if (got == line_read::too_long) {
      report(("a line holds at most " + std::to_string(max_line_bytes) +
              " bytes; this one was dropped")
                 .c_str());
      skip_line();
      continue;
    }
    try {
      if (!session.execute(line)) break;
    } catch (const usage_error& e) {
      report(e.what());
    } catch (const resource_error& e) {
      report(e.what());
    } catch (const help_requested& help) {
      std::fputs(help.text.c_str(), stdout);
    }
    flush_output();
  }
  // A script with a failed command says so in its exit code; a person at the prompt saw it.
  return failed && !interactive ? exit_usage : exit_ok;
}

}  // namespace nq::cli
