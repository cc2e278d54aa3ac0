// nqueens count: how many solutions n queens have, and how many are fundamentally different.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/temp_files.hpp"
#include "nqueens/settings.hpp"
#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {
namespace {

/// The count as asked, and how the command shows it.
struct count_command {
  count_request job;
  bool json = false;
  std::string output;
  bool quiet = false;
  bool progress = false;  // the progress line on stderr (progress_wanted)
};

count_command parse_request(int argc, char** argv) {
  cxxopts::Options options("nqueens count",
                           "Count every solution for n queens (n from 1 to 28), and with --unique "
                           "those distinct under rotations and reflections.");
  const std::string cores = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  // clang-format off
  options.add_options()
      ("n,queens", "number of queens, 1 to 28", cxxopts::value<std::string>())
      ("u,unique", "also count the fundamental solutions")
      ("t,threads", "worker threads (default: all " + cores + " cores)", cxxopts::value<std::string>())
      ("checkpoint", "record finished work in FILE and resume from it", cxxopts::value<std::string>())
      ("checkpoint-interval", "seconds between checkpoint writes", cxxopts::value<std::string>()->default_value("10"))
      ("f,format", "text or json", cxxopts::value<std::string>()->default_value("text"))
      ("o,output", "write the result to FILE (atomically) instead of standard output", cxxopts::value<std::string>())
      ("device", "cpu, gpu (every GPU shares the count), all (the GPUs and --threads CPU threads), or auto (the GPUs when there are any, else the CPU)", cxxopts::value<std::string>()->default_value("auto"))
      ("devices", "the GPUs to count on, by number: LIST such as 0,2 (default: all of them)", cxxopts::value<std::string>())
      ("simd", "CPU vector kernels: auto (the widest this CPU has), off, avx2 or avx512", cxxopts::value<std::string>()->default_value("auto"))
      ("q,quiet", "no progress line on stderr")
      ("progress", "show the progress line on stderr even where it is not a terminal")
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(options.help());
  // The count as the engine reads it (the command's output options after it).
  engine::named_settings given;
  for (const char* name :
       {"queens", "threads", "checkpoint", "checkpoint-interval", "device", "devices", "simd"})
    if (args.count(name)) given.set(name, args[name].as<std::string>());
  if (args.count("unique")) given.set("unique", "true");
  count_command command;
  command.job = engine::count_request_from(given);
  command.json = parse_text_or_json(args["format"].as<std::string>());
  command.output = file_option(args, "output");
  command.quiet = args.count("quiet") > 0;
  command.progress = progress_wanted(args);
  return command;
}

}  // namespace

int run_count(int argc, char** argv) {
  count_command command = parse_request(argc, argv);
  count_request& request = command.job;
  request.ranks = process_ranks();
  const bool leader = request.ranks.leader();
  if (leader)
    refuse_shared_outputs({{"-o", command.output.empty() ? "-" : command.output},
                           {"--checkpoint", request.checkpoint}});
  // The output opens once the engine has taken the devices (a bad path fails before the count
  // starts); rank 0 alone writes it.
  std::optional<output_target> output;
  request.ready = [&] {
    if (leader) output.emplace(command.output);
  };
  request.ranks.abort = [&](const std::exception& e) {
    output.reset();  // its temporary removed: the abort runs no destructor
    abort_ranks("nqueens count", request.ranks, e);
  };
  // Ctrl-C or a polite kill: stop (the CPU drops its unfinished frames), save the checkpoint,
  // say so.
  stop_on_signal(&interrupted);
  progress_line progress(leader && command.progress);
  if (leader && command.progress)
    request.progress = [&](const count_progress& p) {
      if (p.total == 0 || !progress.due(p.seconds)) return;
      const double rate = static_cast<double>(p.done - p.resumed) / p.seconds;
      progress.show(
          "subproblems %llu/%llu (%.1f%%) | %.3g solutions | %.3g solutions/s | ETA %.0f s",
          static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total),
          100.0 * p.done / p.total, static_cast<double>(p.solutions), p.solutions / p.seconds,
          rate > 0 ? (p.total - p.done) / rate : 0.0);
    };
  request.stop.flag = &interrupted;
  const count_report report = nq::run(request);
  if (!leader) return exit_ok;  // rank 0 reports the whole
  const count_result& result = report.result;
  for (const auto& r : report.by_rank)
    if (!r.answered)
      std::fprintf(stderr,
                   "nqueens count: rank %d did not answer at the end (lost?); the frames it held "
                   "are left for the resume\n",
                   r.rank);
  progress.finish();
  if (!result.complete) {
    std::fprintf(
        stderr, "nqueens count: interrupted after %llu of %llu subproblems%s\n",
        static_cast<unsigned long long>(result.subproblems_done),
        static_cast<unsigned long long>(result.subproblems),
        request.checkpoint.empty() ? "" : "; run the same command to resume from the checkpoint");
    remove_temp_files_on_signal();
    return exit_interrupted;
  }
  // A signal while the result is written lets it finish whole (then exit 130); a second one
  // ends the process, the temporary removed and the old file kept.
  output->sink().write(command.json ? to_json(report) + "\n" : to_text(report));
  output->commit();
  remove_temp_files_on_signal();  // from here on, a signal ends the process
  if (interrupted.load()) {
    std::fprintf(stderr,
                 "nqueens count: interrupted while writing the result, which was "
                 "written whole\n");
    return exit_interrupted;
  }
  // Said once the result is written: a failure to write it is the one line a refusal makes.
  if (!report.note.empty() && report.by_rank.empty() && !command.quiet)
    std::fprintf(stderr, "nqueens count: %s\n", report.note.c_str());
  if (result.solutions == 0) {
    std::fprintf(stderr, "nqueens count: no solution exists for n=%d\n", request.n);
    return exit_unsolved;
  }
  return exit_ok;
}

}  // namespace nq::cli
