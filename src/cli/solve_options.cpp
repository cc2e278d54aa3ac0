// nqueens solve's options: the command line read into a request and checked, and the engine's
// request made from it.

#include <unistd.h>

#include <cstdio>

#include "cli/local_options.hpp"
#include "cli/solve.hpp"
#include "nqueens/settings.hpp"

namespace nq::cli::solve {
namespace {

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
  if (name == "npy" || name == "raw") return name == "npy" ? solve_format::npy : solve_format::raw;
  throw usage_error("unknown format '" + name +
                    "' (expected summary, grid, matrix, positions, json, npy or raw)");
}

}  // namespace

solve_command parse_request(int argc, char** argv, bool trace_wanted) {
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
      ("f,format", "summary, grid, matrix, positions, json, npy or raw (default: grid for n <= 32, else summary; npy: NumPy's .npy of uint32, raw: little-endian uint32, rows 0-based)",
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
      ("t,threads", "parallel, lattice (the default from 2^20 queens): worker threads (default: every core); the board does not depend on them; below 2^20 the default min-conflicts runs on one",
       cxxopts::value<std::string>())
      ("q,quiet", "no progress line on stderr")
      ("progress", "show the progress line on stderr even where it is not a terminal")
      ("h,help", "show this help");
  // clang-format on
  add_local_options(options);
  const auto args = parse_local_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(local_help(options.help()));
  solve_command request;
  // The engine reads the settings, by the rules and messages Python's keywords meet too.
  engine::named_settings given =
      named_from(args, {"queens", "algo", "seed", "max-steps", "time-limit", "memory-limit",
                        "max-memory", "threads", "chains", "chain", "device"});
  if (args.count("randomize")) given.set("randomize", "true");
  request.job = engine::solve_request_from(given, args.count("trace") || trace_wanted);
  const std::string& algorithm = request.job.algorithm;
  const auto local = engine::solve_local_algorithm(request.job, algorithm);
  request.local = local.has_value();
  request.chain = local && *local != local_algorithm::min_conflicts;
  request.format = parse_solve_format(
      args.count("format") ? args["format"].as<std::string>() : std::string(), request.job.n);
  request.output = file_option(args, "output");
  if ((request.format == solve_format::npy || request.format == solve_format::raw) &&
      request.output.empty() && isatty(STDOUT_FILENO))
    throw usage_error("--format " + args["format"].as<std::string>() +
                      " is binary: give -o FILE, or pipe it (standard output is a terminal)");
  request.format_given = args.count("format") || args.count("output");
  request.quiet = args.count("quiet") > 0;
  request.progress = progress_wanted(args);
  if (args.count("threads") && !args.count("algo") && algorithm == "min-conflicts" &&
      !request.quiet)
    std::fprintf(stderr,
                 "nqueens solve: min-conflicts, the default below 2^20 queens, runs on one "
                 "thread; --threads ignored (--algo lattice takes them)\n");
  if (args.count("trace")) request.trace = file_option(args, "trace");
  return request;
}

nq::solve_request job_of(const solve_command& request) {
  nq::solve_request job = request.job;
  // The board is kept (the GPU's copied back, a stopped CPU run's completed) only where
  // something shows or writes it.
  job.keep_board = request.shell || request.format != solve_format::summary;
  if (!request.quiet)
    job.bfs_level = [n = job.n](index_t level, std::uint64_t frontier) {
      std::fprintf(stderr, "bfs: level %llu of %llu, frontier %llu partial boards\n",
                   static_cast<unsigned long long>(level), static_cast<unsigned long long>(n),
                   static_cast<unsigned long long>(frontier));
    };
  if (request.shell) {
    // The shell's board is where one chain starts; the rest, --chains and --chain start
    // afresh.
    if (request.chain && !job.chains && !job.chain) job.start = request.shell->start;
    if (request.shell->narrate) job.trace = request.shell->narrate;
  }
  return job;
}

}  // namespace nq::cli::solve
