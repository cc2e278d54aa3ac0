// nqueens solve: one board, by one algorithm, in one of five output formats.

#include <cstdio>
#include <new>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/local_options.hpp"
#include "cli/trace_writer.hpp"
#include "core/memory.hpp"
#include "core/stopwatch.hpp"
#include "core/temp_files.hpp"
#include "engine/solve_job.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/chains.hpp"
#include "nqueens/climb.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/error.hpp"
#include "nqueens/lattice.hpp"
#include "nqueens/min_conflicts.hpp"
#include "nqueens/placement_solver.hpp"
#include "nqueens/systematic.hpp"
#include "nqueens/verify.hpp"

namespace nq::cli {
namespace {

constexpr index_t default_grid_limit = 32;       // default format: grid up to here, summary above
constexpr index_t max_cell_format_n = 10000;     // grid and matrix print n^2 cells
constexpr index_t max_clash_check_n = 10000000;  // a failure names its first clash up to here
constexpr index_t default_lattice_n = index_t{1} << 20;  // no --algo: lattice from here on

enum class solve_format { summary, grid, matrix, positions, json };

struct solve_request {
  index_t n = 0;
  std::string algorithm;
  std::uint64_t seed = 1;
  search_limits limits;
  solve_format format = solve_format::summary;
  std::string output;
  std::optional<std::uint64_t> memory_limit;
  bool randomize = false;
  std::uint64_t max_memory = std::uint64_t{1} << 30;  // bfs frontier
  bool quiet = false;
  std::optional<local_algorithm> local;  // a local search, with its settings
  local_search_settings local_settings;
  std::string trace;
  std::uint64_t chains = 0;      // --chains C: C chains in parallel; 0: one chain, no backend
  std::uint64_t chain = 0;       // the stream of the (single) chain to run
  device_kind device = device_kind::cpu;  // where --chains (or parallel) run
  unsigned threads = 0;          // parallel: worker threads; 0: every core
  bool format_given = false;     // -f or -o on the command line
  shell_solve* shell = nullptr;  // set when the shell's run drives solve
};

bool is_parallel(const solve_request& request) { return request.algorithm == "parallel"; }
bool is_lattice(const solve_request& request) { return request.algorithm == "lattice"; }
/// The huge-board algorithms that run on --threads.
bool is_threaded(const solve_request& request) {
  return is_parallel(request) || is_lattice(request);
}

bool is_chain(const solve_request& request) {
  return request.local && *request.local != local_algorithm::min_conflicts;
}

solve_format parse_solve_format(const std::string& name, index_t n) {
  if (name.empty()) return n <= default_grid_limit ? solve_format::grid : solve_format::summary;
  if (name == "summary") return solve_format::summary;
  if (name == "grid" || name == "matrix") {
    if (n > max_cell_format_n)
      throw usage_error("--format " + name +
                        " prints n*n cells; use positions or json for n above " +
                        std::to_string(max_cell_format_n));
    return name == "grid" ? solve_format::grid : solve_format::matrix;
  }
  if (name == "positions") return solve_format::positions;
  if (name == "json") return solve_format::json;
  throw usage_error("unknown format '" + name +
                    "' (expected summary, grid, matrix, positions or json)");
}

/// --trace (or the Python module's trace=True) for an algorithm without a trace.
usage_error no_trace(const solve_request& request) {
  return usage_error("--trace is available for the local-search algorithms (not " +
                     request.algorithm +
                     (request.local ? " --variant permutation" : std::string()) + ")");
}

solve_request parse_request(int argc, char** argv) {
  cxxopts::Options options("nqueens solve",
                           "Place n queens on an n x n board so that no two attack.");
  // clang-format off
  options.add_options()
      ("n,queens", "number of queens (and board size); 1e6 notation allowed", cxxopts::value<std::string>())
      ("a,algo", "algorithm: see `nqueens algorithms` (default: lattice, on every core, from 2^20 = 1048576 queens; min-conflicts below)",
       cxxopts::value<std::string>())
      ("s,seed", "random seed; equal seeds give equal runs", cxxopts::value<std::string>()->default_value("1"))
      ("max-steps", "give up after this many steps", cxxopts::value<std::string>())
      ("time-limit", "give up after this many seconds", cxxopts::value<std::string>())
      ("f,format", "summary, grid, matrix, positions or json (default: grid for n <= 32, else summary)",
       cxxopts::value<std::string>())
      ("o,output", "write the result to FILE (atomically) instead of standard output", cxxopts::value<std::string>())
      ("memory-limit", "refuse boards needing more memory than this, e.g. 8G (default: what is available)",
       cxxopts::value<std::string>())
      ("randomize", "backtrack, backtrack-opt, dfs: shuffle each node's row order from --seed")
      ("max-memory", "bfs: stop before the frontier needs more than this, e.g. 512M (default 1G)",
       cxxopts::value<std::string>())
      ("trace", "local search: write the cost after every step to FILE (CSV), atomically",
       cxxopts::value<std::string>())
      ("chains", "local search: run C chains at once (chain i from stream (seed, i)) and keep the lowest-numbered one that solves",
       cxxopts::value<std::string>())
      ("chain", "local search: run chain I alone (e.g. to replay one that --chains reported)",
       cxxopts::value<std::string>())
      ("device", "with --chains, --algo parallel or lattice: cpu (default), gpu, or auto (the GPU when it runs the algorithm; lattice: and has the memory)",
       cxxopts::value<std::string>())
      ("t,threads", "parallel, lattice: worker threads (default: every core); the board does not depend on them",
       cxxopts::value<std::string>())
      ("q,quiet", "no progress line on stderr")
      ("h,help", "show this help");
  // clang-format on
  add_local_options(options);
  const auto args = parse_local_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(local_help(options.help()));
  if (!args.count("queens")) throw usage_error("missing -n: how many queens? (see --help)");
  solve_request request;
  request.n = parse_board_size(args["queens"].as<std::string>());
  // Huge boards take every core by default; smaller ones keep the one-core min-conflicts,
  // which needs no threads to start (a million queens in 0.05 s).
  request.algorithm = args.count("algo")               ? args["algo"].as<std::string>()
                      : request.n >= default_lattice_n ? "lattice"
                                                       : "min-conflicts";
  if (!find_algorithm(request.algorithm))
    throw usage_error("unknown algorithm '" + request.algorithm + "' (see nqueens algorithms)");
  // An algorithm's own limit on n comes before the memory check, which would only say that
  // 4294967295 queens do not fit.
  if (is_systematic(request.algorithm)) check_systematic_n(request.n);
  request.seed = parse_seed(args["seed"].as<std::string>());
  if (args.count("max-steps"))
    request.limits.max_steps = parse_positive("--max-steps", args["max-steps"].as<std::string>());
  if (args.count("time-limit"))
    request.limits.time_limit = parse_seconds("--time-limit", args["time-limit"].as<std::string>());
  // The construction is one pass with no steps to count or clock to read: a limit given to it
  // would be ignored, as any option an algorithm does not read would.
  if (request.algorithm == "constructive")
    for (const char* option : {"max-steps", "time-limit"})
      if (args.count(option))
        throw usage_error(std::string("--") + option +
                          " does not apply to constructive (it builds the board in one pass)");
  request.format = parse_solve_format(
      args.count("format") ? args["format"].as<std::string>() : std::string(), request.n);
  request.output = file_option(args, "output");
  request.format_given = args.count("format") || args.count("output");
  if (args.count("memory-limit"))
    request.memory_limit = parse_byte_size(args["memory-limit"].as<std::string>());
  request.randomize = args.count("randomize") > 0;
  if (request.randomize && (request.algorithm == "bfs" || !is_systematic(request.algorithm)))
    throw usage_error("--randomize applies to backtrack, backtrack-opt and dfs only");
  if (args.count("max-memory")) {
    if (request.algorithm != "bfs") throw usage_error("--max-memory applies to bfs only");
    request.max_memory = parse_byte_size(args["max-memory"].as<std::string>());
  }
  request.quiet = args.count("quiet") > 0;
  request.local = select_local_algorithm(request.algorithm, args);
  if (request.local) {
    request.local_settings = parse_local_options(args, *request.local, request.n);
    check_local_floors(request.local_settings, request.n);
    check_local_size(*request.local, request.n);
    read_generations(args, request.limits);
  } else {
    reject_local_options(args, request.algorithm);
  }
  if (args.count("threads")) {
    if (!is_threaded(request))
      throw usage_error("--threads applies to --algo parallel and lattice only");
    const std::uint64_t threads = parse_positive("--threads", args["threads"].as<std::string>());
    if (threads > 1024)
      throw usage_error("--threads must be at most 1024, got " + std::to_string(threads));
    request.threads = static_cast<unsigned>(threads);
  }
  if (is_threaded(request) && args.count("device")) {
    request.device = parse_device_kind(args["device"].as<std::string>());
    // parallel and lattice take no chain options and write no trace.
    for (const char* option : {"chains", "chain"})
      if (args.count(option))
        throw usage_error(std::string("--") + option +
                          " applies to the local-search algorithms (not " + request.algorithm +
                          ")");
    if (args.count("trace")) throw no_trace(request);
    return request;
  }
  for (const char* option : {"chains", "chain", "device"})
    if (args.count(option) && !is_chain(request))
      throw usage_error(std::string("--") + option +
                        " applies to the local-search algorithms (not " + request.algorithm +
                        (request.local ? " --variant permutation" : std::string()) + ")");
  if (args.count("chains") && args.count("chain"))
    throw usage_error("--chains runs many chains and --chain replays one: give one of them");
  if (args.count("chains")) {
    request.chains = parse_positive("--chains", args["chains"].as<std::string>());
    if (request.chains > (std::uint64_t{1} << 32))
      throw usage_error("--chains must be at most 4294967296");
  }
  if (args.count("chain")) request.chain = parse_whole("--chain", args["chain"].as<std::string>());
  if (args.count("device")) {
    request.device = parse_device_kind(args["device"].as<std::string>());
    if (!request.chains) request.chains = 1;
  }
  if (args.count("trace")) {
    if (!is_chain(request)) throw no_trace(request);
    request.trace = file_option(args, "trace");
  }
  return request;
}

/// The engine's request for what the command line asked.
nq::solve_request job_of(const solve_request& request) {
  nq::solve_request job;
  job.n = request.n;
  job.algorithm = request.algorithm;
  job.local = request.local_settings;
  job.seed = request.seed;
  job.limits = request.limits;
  job.threads = request.threads;
  job.chains = request.chains;
  job.chain = request.chain;
  job.device = request.device;
  job.randomize = request.randomize;
  job.max_memory = request.max_memory;
  job.memory_limit = request.memory_limit;
  // The board is kept (the GPU's copied back, a stopped CPU run's completed) only where
  // something shows or writes it.
  job.keep_board = request.shell || request.format != solve_format::summary;
  if (!request.quiet)
    job.bfs_level = [n = request.n](index_t level, std::uint64_t frontier) {
      std::fprintf(stderr, "bfs: level %llu of %llu, frontier %llu partial boards\n",
                   static_cast<unsigned long long>(level), static_cast<unsigned long long>(n),
                   static_cast<unsigned long long>(frontier));
    };
  if (request.shell) {
    // The shell's board is where one chain starts; --chains and --chain start afresh.
    if (!request.chains && !request.chain) job.start = request.shell->start;
    if (request.shell->narrate) job.trace = request.shell->narrate;
  }
  return job;
}

void write_json(byte_sink& out, const solve_report& report) {
  const solve_result& result = report.result;
  const nlohmann::ordered_json record = engine::solve_json_head(report);
  std::string head = record.dump();
  head.pop_back();  // the rows follow, streamed: a board of 10^8 queens is no document tree
  out.write(head);
  out.write(",\"rows\":");
  if (result.queen_row.empty())
    out.write("null");
  else
    write_rows_array(out, result.queen_row);
  out.write("}\n");
}

std::string summary_line(const solve_request& request, const solve_report& report) {
  const solve_result& result = report.result;
  char line[320];
  const char* outcome = result.solved ? "solved" : "no solution found";
  std::string by = request.algorithm;
  if (request.chains)
    by += " chain " + std::to_string(request.chain) + " of " + std::to_string(request.chains) +
          " on the " + report.device;
  else if (request.chain)
    by += " chain " + std::to_string(request.chain);
  std::snprintf(line, sizeof line, "n=%llu: %s by %s in %.3f s (seed %llu, %s, %s",
                static_cast<unsigned long long>(request.n), outcome, by.c_str(), result.seconds,
                static_cast<unsigned long long>(request.seed),
                count_of(result.steps, "step").c_str(),
                count_of(result.restarts, "restart").c_str());
  std::string text = line;
  if (request.chains) text += ", replay with --chain " + std::to_string(request.chain);
  if (is_threaded(request) && report.device == "gpu" && report.kernel_seconds >= 0) {
    char kernels[64];
    std::snprintf(kernels, sizeof kernels, ", on the gpu (kernels %.3f s)", report.kernel_seconds);
    text += kernels;
  } else if (is_threaded(request)) {
    text += report.device == "gpu" ? ", on the gpu"
                                   : ", " + count_of(report.threads, "thread") + " on the cpu";
  }
  if (report.stopped_placing)
    text += ", " + count_of(result.unplaced, "queen") + " not yet placed";
  else if (!report.pairs_counted)
    text += ", attacking pairs not counted";
  else if (!result.solved)
    text += ", " + count_of(result.conflicts, "attacking pair") + " left";
  return text + ")\n";
}

void write_result(byte_sink& out, const solve_request& request, const solve_report& report) {
  const solve_result& result = report.result;
  switch (request.format) {
    case solve_format::json:
      write_json(out, report);
      break;
    case solve_format::summary:
      out.write(solution_exists(request.n)
                    ? summary_line(request, report)
                    : "n=" + std::to_string(request.n) + ": no solution exists\n");
      break;
    case solve_format::grid:
      write_board(out, result.queen_row, board_format::grid);
      break;
    case solve_format::matrix:
      write_board(out, result.queen_row, board_format::matrix);
      break;
    case solve_format::positions:
      write_board(out, result.queen_row, board_format::positions);
      break;
  }
}

/// Whether a queen of `board` can move within its column without raising the attacking pairs.
/// hc-sideways stops unsolved where no move lowers them; if one keeps them, only its sideways
/// limit stopped it (whether the limit counts moves in a row or in all, plateau jumps or not).
bool has_sideways_move(const std::vector<row_t>& board) {
  const index_t n = board.size();
  std::vector<row_t> rows(board);
  std::vector<std::int32_t> row_count(n), diag(2 * n - 1), anti(2 * n - 1);
  const climber_view<std::int32_t> b{rows.data(), row_count.data(), diag.data(), anti.data(), n};
  recount(b);
  for (index_t col = 0; col < n; ++col)
    if (detail::least_load(b, col) - queen_pairs(b, col) <= 0) return true;
  return false;
}

/// Why a hill climber that stopped by itself stopped, for the shell's --verbose.
std::string climber_stop(const solve_request& request, const solve_result& result) {
  const hill_climbing_settings& hill = request.local_settings.hill;
  switch (*request.local) {
    case local_algorithm::hc:
      return " (no move lowers the cost: a local minimum or a plateau)";
    case local_algorithm::hc_sideways:
      return !result.queen_row.empty() && has_sideways_move(result.queen_row)
                 ? " (the sideways limit: " + count_of(hill.max_sideways, "sideways move") +
                       (hill.total_sideways ? " in all)" : " in a row)")
                 : " (no move keeps or lowers the cost)";
    case local_algorithm::first_choice:
      return " (no neighbour lowers the cost)";
    default:
      return "";
  }
}

/// Why an unsolved run stopped, in a phrase: "no solution found within ...".
std::string failure_reason(const solve_request& request, const solve_report& report) {
  const solve_result& result = report.result;
  const auto& lim = request.limits;
  std::uint64_t max_steps = lim.max_steps;
  if (!max_steps && request.local) max_steps = default_max_steps(*request.local);
  const std::string steps = count_of(result.steps, "step");
  // lattice adds up its sub-boards' steps, each bounded by --max-steps on its own: the time
  // limit is asked first, and the step limit is named per sub-board.
  if (is_lattice(request) && lim.time_limit > 0 && result.seconds >= lim.time_limit) max_steps = 0;
  if (is_lattice(request) && max_steps)
    return "no solution found: a sub-board reached the step limit (" + count_of(max_steps, "step") +
           " each; " + steps + " in all)";
  if (max_steps && result.steps >= max_steps)
    return "no solution found within the step limit (" + steps +
           (lim.max_steps ? "" : ", the algorithm's default; see --max-steps") + ")";
  if (lim.time_limit > 0 && result.seconds >= lim.time_limit) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", result.seconds);
    return "no solution found within the time limit (" + steps + ", " + seconds + ")";
  }
  std::string text = "no solution found: " + request.algorithm + " stopped after " + steps +
                     (report.pairs_counted
                          ? " with " + count_of(result.conflicts, "attacking pair") + " left"
                          : ", its attacking pairs not counted");
  if (request.shell && request.local) text += climber_stop(request, result);
  // The first clash of the board it was left with, as verify names it.
  if (!result.queen_row.empty() && result.queen_row.size() <= max_clash_check_n) {
    const auto check = verify_board(result.queen_row);
    if (check.first_clash) {
      const clash& c = *check.first_clash;
      text += ", first between columns " + std::to_string(c.col_a + 1) + " and " +
              std::to_string(c.col_b + 1) + " on " +
              (c.kind == line_kind::anti_diagonal ? "an " : "a ") + line_kind_name(c.kind);
    }
  }
  return text;
}

void report_failure(const solve_request& request, const solve_report& report) {
  std::string text = failure_reason(request, report);
  if (text.starts_with("no solution found:"))
    text += " (try another --seed, or a restarting algorithm)";
  std::fprintf(stderr, "nqueens solve: %s\n", text.c_str());
}

int solve_main(int argc, char** argv, shell_solve* shell) {
  solve_request request = parse_request(argc, argv);
  request.shell = shell;
  if (shell) {
    request.limits.stop = shell->stop;
    if (shell->trace_wanted && !is_chain(request)) throw no_trace(request);
  }
  const bool exists = solution_exists(request.n);
  const bool record =
      request.format == solve_format::json || request.format == solve_format::summary;
  // The shell shows the board itself; it writes the result only when asked to.
  const bool write = !shell || request.format_given;
  refuse_shared_outputs(
      {{"-o", request.output.empty() && write ? "-" : request.output}, {"--trace", request.trace}});
  if (exists) engine::check_solve_memory(job_of(request));
  // Ctrl-C or a polite kill stops the run (every chain of --chains) where it stands, as a
  // limit would, and the board it holds (the best a chain holds) is written. The shell keeps
  // its own handling of the terminal. Set before the outputs are opened: a signal that comes once
  // their temporaries exist stops the run, never the process.
  const bool stoppable = exists && !shell;
  if (stoppable) {
    request.limits.stop = &interrupted;
    stop_on_signal(&interrupted);
  }
  // Board formats have no board to show when none exists, so no file is created for them.
  std::optional<output_target> output;
  if (write && (record || exists)) output.emplace(request.output);
  std::optional<trace_writer> trace;
  if (exists && !request.trace.empty()) trace.emplace(request.trace, *request.local);
  nq::solve_request job = job_of(request);
  if (trace) {
    job.trace = [written = trace->callback(), narrate = job.trace](const trace_row& row) {
      written(row);
      if (narrate) narrate(row);
    };
  }
  progress_line progress(!request.quiet && stderr_is_terminal());
  job.progress = [&](const solve_progress& p) { progress.update(p); };
  solve_report report = nq::run(job);
  progress.finish();
  request.chain = report.chain;  // with --chains, the one kept
  const solve_result& result = report.result;
  if (stoppable) remove_temp_files_on_signal();  // from here on, a signal ends the process
  const bool stopped = stoppable && interrupted.load() && !result.solved;
  if (trace) trace->commit();
  // An unsolved run shows the board it was left with, as a solved one does.
  if (output && (record || !result.queen_row.empty())) {
    write_result(output->sink(), request, report);
    output->commit();
  }
  if (!report.note.empty() && !request.quiet)
    std::fprintf(stderr, "nqueens solve: %s\n", report.note.c_str());
  const bool solved = result.solved;
  if (shell) {
    shell->device = report.device;
    shell->pairs_counted = report.pairs_counted;
    if (exists && !solved) shell->stop_reason = failure_reason(request, report);
    shell->result = std::move(report.result);  // the board is not copied: it may be 10^9 queens
  } else if (!exists) {
    std::fprintf(stderr, "nqueens solve: no solution exists for n=%llu\n",
                 static_cast<unsigned long long>(request.n));
  } else if (stopped) {
    std::fprintf(stderr, "nqueens solve: interrupted after %s (%.3f s), unsolved\n",
                 count_of(result.steps, "step").c_str(), result.seconds);
    return exit_interrupted;
  } else if (!result.solved) {
    report_failure(request, report);
  }
  return solved ? exit_ok : exit_unsolved;
}

}  // namespace

int run_solve(int argc, char** argv) { return solve_main(argc, argv, nullptr); }

int run_solve_in_shell(int argc, char** argv, shell_solve& shell) {
  return solve_main(argc, argv, &shell);
}

}  // namespace nq::cli
