#pragma once
// Runs the nqueens binary in a scratch directory and captures what it prints.

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sanitizers.hpp"
#include "scratch.hpp"

namespace nq::test {

struct cli_result {
  int code = -1;
  std::string out;
  std::string err;
};

/// A running `nqueens args...` in `dir`, its output captured in files there.
class cli_process {
 public:
  /// `stdout_path`, when given, receives standard output instead of the capture file (e.g.
  /// /dev/full); `out` is then empty. `address_space_kib`, when not 0, runs it under
  /// `ulimit -v` (through /bin/sh).
  /// `launcher`, when given, runs it instead, with the binary and `args` after it (mpiexec).
  /// `file_size_bytes`, when not 0, is its file-size limit (RLIMIT_FSIZE, as `ulimit -f`), its
  /// captured output included. `blocked` signals are blocked when it starts, as a parent's mask
  /// is inherited: one sent now stays pending until nqueens unblocks it.
  cli_process(const scratch_dir& dir, const std::vector<std::string>& args,
              const std::string& input = "", const std::string& stdout_path = "",
              std::size_t address_space_kib = 0, const std::vector<std::string>& launcher = {},
              std::size_t file_size_bytes = 0, const std::vector<int>& blocked = {})
      : out_(stdout_path.empty() ? dir / ".cli-out" : std::filesystem::path(stdout_path)),
        err_(dir / ".cli-err"),
        captured_(stdout_path.empty()) {
    const auto in = dir / ".cli-in";
    spit(in, input);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out_.c_str(),
                                     stdout_path.empty() ? O_WRONLY | O_CREAT | O_TRUNC : O_WRONLY,
                                     0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addchdir_np(&actions, dir.path().c_str());
    std::vector<std::string> argv_text{NQ_CLI_PATH};
    if (address_space_kib)
      argv_text = {"/bin/sh", "-c",
                   "ulimit -v " + std::to_string(address_space_kib) + " && exec \"$0\" \"$@\"",
                   NQ_CLI_PATH};
    argv_text.insert(argv_text.begin(), launcher.begin(), launcher.end());
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    if (!blocked.empty()) {
      sigset_t mask;
      sigemptyset(&mask);
      for (const int signal : blocked) sigaddset(&mask, signal);
      posix_spawnattr_setsigmask(&attributes, &mask);
      posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
    }
    // The child inherits the limit; this process writes nothing while it holds it.
    rlimit saved{};
    getrlimit(RLIMIT_FSIZE, &saved);
    if (file_size_bytes) {
      rlimit limited = saved;
      limited.rlim_cur = file_size_bytes;
      setrlimit(RLIMIT_FSIZE, &limited);
    }
    if (posix_spawn(&pid_, argv_text[0].c_str(), &actions, &attributes, argv.data(), environ) != 0)
      pid_ = 0;
    if (file_size_bytes) setrlimit(RLIMIT_FSIZE, &saved);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
  }
  cli_process(const cli_process&) = delete;
  cli_process& operator=(const cli_process&) = delete;
  ~cli_process() {
    if (pid_ > 0) kill(SIGKILL), wait();
  }

  /// Whether the process has ended (it is then reaped).
  bool finished() {
    if (pid_ <= 0) return true;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
    record(status);
    return true;
  }
  /// The process id, 0 once it has been reaped.
  pid_t pid() const { return pid_; }
  void kill(int signal) {
    if (pid_ > 0) ::kill(pid_, signal);
  }
  /// Waits for the end; the exit code, or 128 + the signal that ended it.
  cli_result wait() {
    if (pid_ > 0) {
      int status = 0;
      waitpid(pid_, &status, 0);
      record(status);
    }
    return {code_, captured_ ? slurp(out_) : "", slurp(err_)};
  }

 private:
  void record(int status) {
    code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    pid_ = 0;
  }
  std::filesystem::path out_, err_;
  bool captured_;
  pid_t pid_ = 0;
  int code_ = -1;
};

/// Runs `nqueens args...` in `dir` with `input` on standard input.
inline cli_result run_cli(const scratch_dir& dir, const std::vector<std::string>& args,
                          const std::string& input = "") {
  return cli_process(dir, args, input).wait();
}

/// Runs `nqueens args...` in `dir` with its address space limited to `kib` KiB.
inline cli_result run_cli_limited(const scratch_dir& dir, std::size_t kib,
                                  const std::vector<std::string>& args,
                                  const std::string& input = "") {
  return cli_process(dir, args, input, "", kib).wait();
}

/// Runs `nqueens args...` in `dir` with a file-size limit of `bytes` (as `ulimit -f`), its
/// standard output and error included.
inline cli_result run_cli_file_limited(const scratch_dir& dir, std::size_t bytes,
                                       const std::vector<std::string>& args) {
  return cli_process(dir, args, "", "", 0, {}, bytes).wait();
}

/// Whether this machine has no usable GPU (so --device gpu must be refused), as the binary's
/// --version says.
inline bool without_gpu(const scratch_dir& dir) {
  const auto version = run_cli(dir, {"--version"}).out;
  return version.find("built without CUDA") != std::string::npos ||
         version.find(" 0 devices visible") != std::string::npos;
}

inline std::size_t count_lines(const std::string& text) {
  std::size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

}  // namespace nq::test
