// nqueens: the command-line front end. Maps every error to one line on stderr and an exit code.

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/board_io.hpp"
#include "core/temp_files.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"
#include "nqueens/ranks.hpp"

namespace {

/// Every command, in the order --help lists them: the dispatcher, the usage and the messages
/// that name the commands all read this one list.
struct command {
  std::string_view name;
  int (*run)(int argc, char** argv);
  std::string_view summary;
};
constexpr command commands[] = {
    {"solve", nq::cli::run_solve, "solve one board (nqueens solve -n 1000000)"},
    {"verify", nq::cli::run_verify, "check a board read from a file or standard input"},
    {"algorithms", nq::cli::run_algorithms, "list the algorithms solve --algo accepts"},
    {"solutions", nq::cli::run_solutions,
     "print every solution (or the first K) in lexicographic order"},
    {"count", nq::cli::run_count, "count all solutions, and the fundamental ones (n up to 28)"},
    {"batch", nq::cli::run_batch_command,
     "many independent runs of a local search, with statistics and sweeps"},
    {"shell", nq::cli::run_shell,
     "an interactive prompt: make a board, show it, run algorithms on it"},
    {"bench", nq::cli::run_bench,
     "time a fixed suite on one CPU thread, every CPU thread and each GPU"},
};

/// "(expected solve, verify, ... or bench; see nqueens --help)", for a missing or unknown one.
std::string expected_commands() {
  std::string list = "(expected ";
  for (const command& c : commands) {
    if (&c != commands) list += &c == std::end(commands) - 1 ? " or " : ", ";
    list += c.name;
  }
  return list + "; see nqueens --help)";
}

std::string usage() {
  std::string text =
      "nqueens - N-Queens solver for boards from 1 to 4 billion queens\n\n"
      "Usage: nqueens <command> [options]\n\nCommands:\n";
  for (const command& c : commands)
    text += "  " + std::string(c.name) + std::string(12 - c.name.size(), ' ') +
            std::string(c.summary) + "\n";
  return text + R"(
Run nqueens <command> --help for a command's options. nqueens --version prints the build.

Exit codes: 0 solved/valid, 1 no solution (or attacking queens), 2 usage or bad input,
3 not enough memory, output that cannot be written or no usable GPU, 4 internal error,
130 interrupted (count: resumable; solve: the board it holds is written).
)";
}

int dispatch(int argc, char** argv) {
  const std::string_view name = argv[1];
  // Under mpirun, rank 0 alone prints.
  const nq::rank_share ranks = nq::process_ranks();
  const bool leader = ranks.leader();
  if (name == "-h" || name == "--help" || name == "help") {
    if (leader) std::fputs(usage().c_str(), stdout);
    return nq::cli::exit_ok;
  }
  if (name == "--version" || name == "version") {
    if (leader) std::printf("%s\n", nq::version_line().c_str());
    return nq::cli::exit_ok;
  }
  // Under mpirun with several ranks, only count and batch share their work; anything else would
  // run once per rank.
  if (ranks.shared() && name != "count" && name != "batch")
    throw nq::usage_error("under mpirun only count and batch share their work across ranks; run " +
                          std::string(name) + " without mpirun");
  for (const command& c : commands)
    if (name == c.name) return c.run(argc - 1, argv + 1);
  throw nq::usage_error("unknown command '" + std::string(name) + "' " + expected_commands());
}

/// A command's --help, written unbuffered: a failed write says why (through stdio, a text longer
/// than its buffer fails inside fputs, and the flush at the end finds no reason left).
int print_help(const std::string& who, const std::string& text) {
  try {
    nq::byte_sink out(STDOUT_FILENO);
    out.write(text);
    out.flush();
  } catch (const nq::resource_error& e) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), e.what());
    return nq::cli::exit_resource;
  }
  return nq::cli::exit_ok;
}

/// What a command printed on standard output must have reached it: a full disk or a closed
/// pipe turns success (or "no solution") into exit 3. A command that already failed said so.
int finish_output(const std::string& who, int code) {
  if (code > nq::cli::exit_unsolved) return code;
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return code;
  const int error = errno;
  std::fprintf(stderr, "%s: cannot write output: %s\n", who.c_str(),
               error ? std::strerror(error) : "write error");
  return nq::cli::exit_resource;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    // A refusal like any other: one line; the usage is what --help prints.
    std::fprintf(stderr, "nqueens: no command given %s\n", expected_commands().c_str());
    return nq::cli::exit_usage;
  }
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, an output error like any other
  // (exit 3, temporaries removed), rather than end the process by SIGXFSZ.
  ::signal(SIGXFSZ, SIG_IGN);
  const std::string_view first = argv[1];
  // count, solve and batch stop on a signal and say so (exit 130): from the start, so that a
  // signal while they set up stops them too; every other command ends by it.
  if (first == "count" || first == "solve" || first == "batch")
    nq::stop_on_signal(&nq::cli::interrupted);
  else
    nq::remove_temp_files_on_signal();
  const std::string who = first.starts_with("-") ? "nqueens" : "nqueens " + std::string(first);
  // One line on stderr: "nqueens count: rank 2: ..." for a rank other than 0.
  const auto say = [&](int rank, const std::string& what) {
    std::fprintf(stderr, "%s%s: %s\n", nq::printable(who).c_str(),
                 rank ? (": rank " + std::to_string(rank)).c_str() : "",
                 nq::printable(what, 4096).c_str());
  };
  int code = nq::cli::exit_ok;
#if NQ_WITH_MPI
  // Only when mpirun (or mpiexec) started this process: a plain run never initialises MPI.
  std::optional<nq::rank_world> mpi;
  try {
    if (nq::launched_by_mpirun()) mpi.emplace(argc, argv);
  } catch (const nq::resource_error& e) {
    say(0, e.what());
    return nq::cli::exit_resource;
  }
#endif
  // Under mpirun with several ranks, a rank that fails, or ends, before its command's work
  // began meets the others at the start gate (nqueens/ranks.hpp), and rank 0 alone says what
  // failed, once, for whichever rank it was.
  const nq::rank_share ranks = nq::process_ranks();
  const bool leader = ranks.leader();
  const auto fail = [&](const std::string& what, int error) {
    return nq::end_among_ranks(ranks, error, what, say);
  };
  try {
    code = dispatch(argc, argv);
  } catch (const nq::cli::help_requested& help) {
    if (leader) code = print_help(who, help.text);
  } catch (const nq::other_rank_failed& e) {
    code = e.verdict().code;
    if (leader) say(e.verdict().rank, e.verdict().what);
  } catch (const nq::usage_error& e) {
    code = fail(e.what(), nq::cli::exit_usage);
  } catch (const nq::resource_error& e) {
    code = fail(e.what(), nq::cli::exit_resource);
  } catch (const std::bad_alloc&) {
    code = fail("out of memory", nq::cli::exit_resource);
  } catch (const std::exception& e) {
    code = fail(std::string("internal error: ") + e.what(), nq::cli::exit_internal);
  }
  // A rank that ended without reaching the gate (help, no solution) still meets the others.
  if (ranks.shared() && !nq::start_gate_passed()) code = nq::end_among_ranks(ranks, code, "", say);
  return finish_output(who, code);
}
