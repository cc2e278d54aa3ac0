// nqueens solve's options: the command line read into a request and checked, and the engine's
// request made from it.

#include <cstdio>

#include "cli/local_options.hpp"
#include "cli/solve_request.hpp"
#include "core/memory.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/systematic.hpp"

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
  throw usage_error("unknown format '" + name +
                    "' (expected summary, grid, matrix, positions or json)");
}

}  // namespace

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

}  // namespace nq::cli::solve
