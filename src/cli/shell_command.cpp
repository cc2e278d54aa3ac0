// nqueens shell: the classic teaching tool. A prompt (or a script on standard input) with
// commands to make a board, show it, run an algorithm on it, and run batch statistics.

#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <thread>

#include "cli/batch_report.hpp"
#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/local_options.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/climb.hpp"
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
                        (options as for nqueens solve: --seed, --max-steps, --sideways, ...;
                        systematic, constructive and permutation min-conflicts start
                        from scratch)
  batch ALGO [RUNS] [OPTIONS]
                        RUNS (default 1000) independent runs on random boards of this size
                        (options as for nqueens batch: --seed, --threads, --p, ...)
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

std::vector<std::string> split_words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

/// Parses `words` (from the algorithm name on) as a command line of `name`.
cxxopts::ParseResult parse_words(cxxopts::Options& options, std::vector<std::string> words) {
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  return parse_local_command_line(options, static_cast<int>(argv.size()), argv.data());
}

class shell {
 public:
  explicit shell(std::uint64_t seed) : next_seed_(seed) {}

  /// Carries out one line; false when it asks to leave.
  bool execute(const std::string& line) {
    const auto words = split_words(line);
    if (words.empty() || words[0].starts_with("#")) return true;
    const std::string& command = words[0];
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
    std::printf("a random board of %llu queens (seed %llu)\n",
                static_cast<unsigned long long>(size), static_cast<unsigned long long>(seed));
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

  void show() {
    need_board();
    std::fflush(stdout);
    {
      byte_sink out(STDOUT_FILENO);
      write_board(out, board_,
                  n() <= max_shell_grid ? board_format::grid : board_format::positions);
    }
    const auto check = verify_board(board_);
    std::printf("%llu queens, %llu attacking pairs%s\n", static_cast<unsigned long long>(n()),
                static_cast<unsigned long long>(check.conflicts),
                check.conflicts == 0 ? ": a solution" : "");
  }

  void run(const std::vector<std::string>& words) {
    need_board();
    if (words.size() < 2) throw usage_error("usage: run ALGO [OPTIONS]");
    cxxopts::Options options("run", "");
    // clang-format off
    options.add_options()
        ("s,seed", "", cxxopts::value<std::string>()->default_value("1"))
        ("max-steps", "", cxxopts::value<std::string>())
        ("time-limit", "", cxxopts::value<std::string>());
    // clang-format on
    add_local_options(options);
    const auto args = parse_words(options, {words.begin() + 1, words.end()});
    const std::string& name = words[1];
    if (!find_algorithm(name))
      throw usage_error("unknown algorithm '" + name + "' (type algorithms)");
    search_limits limits;
    const std::uint64_t seed = parse_seed(args["seed"].as<std::string>());
    if (args.count("max-steps"))
      limits.max_steps = parse_positive("--max-steps", args["max-steps"].as<std::string>());
    if (args.count("time-limit"))
      limits.time_limit = parse_seconds("--time-limit", args["time-limit"].as<std::string>());
    solve_result result;
    if (const auto local = select_local_algorithm(name, args)) {
      const auto settings = parse_local_options(args, *local, n());
      check_local_size(*local, n());
      read_generations(args, limits);
      if (!solution_exists(n()))
        throw usage_error("no solution exists for n=" + std::to_string(n()));
      local_run run;
      run.seed = seed;
      run.limits = limits;
      run.start = board_.data();
      result = solve_local(n(), settings, run);
    } else {
      reject_local_options(args, name);
      result = run_from_scratch(name, seed, limits);
    }
    if (!result.queen_row.empty()) board_ = result.queen_row;
    std::printf("%s: %s after %llu steps (%llu restarts, %.3f s)\n", name.c_str(),
                result.solved ? "solved" : "not solved",
                static_cast<unsigned long long>(result.steps),
                static_cast<unsigned long long>(result.restarts), result.seconds);
    show();
  }

  solve_result run_from_scratch(const std::string& name, std::uint64_t seed,
                                const search_limits& limits) {
    if (name == "constructive") return solve_constructive(n());
    systematic_settings settings;
    settings.seed = seed;
    settings.limits = limits;
    return solve_systematic(name, n(), settings);
  }

  void batch(const std::vector<std::string>& words) {
    need_board();
    if (words.size() < 2) throw usage_error("usage: batch ALGO [RUNS] [OPTIONS]");
    std::vector<std::string> rest(words.begin() + 1, words.end());
    batch_settings settings;
    if (rest.size() > 1 && !rest[1].starts_with("-")) {
      settings.runs = parse_positive("RUNS", rest[1]);
      rest.erase(rest.begin() + 1);
    }
    cxxopts::Options options("batch", "");
    const std::string cores = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
    // clang-format off
    options.add_options()
        ("s,seed", "", cxxopts::value<std::string>()->default_value("1"))
        ("t,threads", "", cxxopts::value<std::string>()->default_value(cores))
        ("max-steps", "", cxxopts::value<std::string>());
    // clang-format on
    add_local_options(options);
    const auto args = parse_words(options, rest);
    const auto algorithm = select_local_algorithm(words[1], args);
    if (!algorithm)
      throw usage_error("batch runs the local-search algorithms; '" + words[1] + "' is not one");
    const auto local = parse_local_options(args, *algorithm, n());
    check_local_size(*algorithm, n());
    if (!solution_exists(n())) throw usage_error("no solution exists for n=" + std::to_string(n()));
    settings.seed = parse_seed(args["seed"].as<std::string>());
    settings.threads = static_cast<unsigned>(std::min<std::uint64_t>(
        1024, parse_positive("--threads", args["threads"].as<std::string>())));
    if (args.count("max-steps"))
      settings.limits.max_steps =
          parse_positive("--max-steps", args["max-steps"].as<std::string>());
    read_generations(args, settings.limits);
    const auto backend = make_cpu_backend(batch_threads(settings));
    const batch_stats stats = run_batch(n(), local, settings, *backend);
    std::fputs(batch_summary(n(), local, stats, *backend).c_str(), stdout);
  }

  std::vector<row_t> board_;
  std::uint64_t next_seed_;
};

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
    std::fflush(stdout);
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
    }
    std::fflush(stdout);
  }
  // A script with a failed command says so in its exit code; a person at the prompt saw it.
  return failed && !interactive ? exit_usage : exit_ok;
}

}  // namespace nq::cli
