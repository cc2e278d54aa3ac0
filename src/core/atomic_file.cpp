#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <thread>
#include <vector>

#include "core/temp_files.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

/// A full or failing disk, or a file-size limit (EFBIG), is a resource failure (exit 3);
/// anything else about a path is the user's to fix (exit 2).
[[noreturn]] void fail(const std::string& path, int error) {
  const std::string message = "cannot write " + path + ": " + std::strerror(error);
  if (error == ENOSPC || error == EIO || error == EDQUOT || error == EFBIG || error == ENOMEM ||
      error == EMFILE || error == ENFILE)
    throw resource_error(message);
  throw usage_error(message);
}

/// `path` with symbolic links in its last component followed, so that renaming over the
/// result replaces the file the link points at (which may not exist yet).
std::string follow_links(const std::string& path) {
  std::filesystem::path at = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info {};
    if (::lstat(at.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return at.string();
    std::vector<char> link(PATH_MAX + 1);
    const ssize_t size = ::readlink(at.c_str(), link.data(), link.size() - 1);
    if (size < 0) fail(path, errno);
    const std::filesystem::path next(std::string(link.data(), static_cast<std::size_t>(size)));
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  fail(path, ELOOP);
}

/// A FIFO opened for writing without waiting forever for a reader: one started beside nqueens
/// (`nqueens ... -o pipe & cat pipe`) has a few seconds to open it, then the output is refused.
int open_fifo(const std::string& path) {
  constexpr auto patience = std::chrono::seconds(5);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      // Blocking writes from here on: a slow reader slows the writer, as any pipe does.
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      return fd;
    }
    if (errno != ENXIO) fail(path, errno);
    if (std::chrono::steady_clock::now() - start >= patience)
      throw usage_error("cannot write " + path +
                        ": no process is reading this FIFO (waited 5 s for one)");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

/// NAME.tmp. beside `target`, NAME shortened so that the temporary's name (this, the writer's
/// process id, a dot and six characters) fits in NAME_MAX bytes.
std::string temp_prefix(const std::string& target) {
  const std::filesystem::path at = target;
  constexpr std::size_t tail = 5 + 10 + 1 + 6;  // ".tmp." PID "." XXXXXX
  std::string name = at.filename().string();
  if (name.size() + tail > NAME_MAX) name.resize(NAME_MAX - tail);
  return (at.parent_path() / (name + ".tmp.")).string();
}

/// NAME.tmp.PID.XXXXXX: the process id lets a later writer of NAME tell a temporary left by a
/// process that was killed (SIGKILL runs no clean-up) from one being written.
std::string temp_template(const std::string& target) {
  return temp_prefix(target) + std::to_string(::getpid()) + ".XXXXXX";
}

/// Removes the temporaries of `target` whose writer has died: NAME.tmp.PID.XXXXXX where no
/// process PID exists and the file has not changed for a minute (another machine writing over
/// a shared file system has processes of its own).
void remove_stale_temps(const std::string& target) {
  const std::filesystem::path prefix = temp_prefix(target);
  const std::string start = prefix.filename().string();
  std::error_code error;
  const std::filesystem::path folder =
      prefix.parent_path().empty() ? std::filesystem::path(".") : prefix.parent_path();
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(start)) continue;
    const std::string rest = name.substr(start.size());  // PID.XXXXXX
    const auto dot = rest.find('.');
    if (dot == std::string::npos || dot == 0 || dot > 10 || rest.size() != dot + 7 ||
        rest.find_first_not_of("0123456789") != dot)
      continue;
    const long pid = std::stol(rest.substr(0, dot));
    if (pid <= 0 || pid > INT_MAX || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours
    struct stat info {};
    if (::lstat(it->path().c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
        ::time(nullptr) - info.st_mtime < 60)
      continue;
    ::unlink(it->path().c_str());
  }
}

/// "D:I" for a file with device D and inode I; empty for a character device (or none).
std::string file_key(bool found, const struct stat& info) {
  if (!found || S_ISCHR(info.st_mode)) return "";
  return std::to_string(info.st_dev) + ":" + std::to_string(info.st_ino);
}

}  // namespace

std::string output_file_key(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) return file_key(true, info);
  // Not there yet: where it will be created, links followed, in an absolute spelling.
  std::error_code error;
  const std::filesystem::path target = std::filesystem::absolute(follow_links(path), error);
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(target, error);
  return "path:" + (error ? target.lexically_normal() : resolved).string();
}

std::string output_file_key(int fd) {
  struct stat info {};
  return file_key(::fstat(fd, &info) == 0, info);
}

atomic_file::atomic_file(std::string path) : path_(std::move(path)) {
  struct stat info {};
  const bool exists = ::stat(path_.c_str(), &info) == 0;
  if (!exists && errno != ENOENT) fail(path_, errno);
  if (exists && S_ISDIR(info.st_mode))
    throw usage_error("cannot write " + path_ + ": it is a directory");
  if (exists && S_ISFIFO(info.st_mode)) {
    fd_ = open_fifo(path_);
    return;
  }
  if (exists && S_ISCHR(info.st_mode)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) fail(path_, errno);
    return;
  }
  if (exists && !S_ISREG(info.st_mode))
    throw usage_error("cannot write " + path_ +
                      ": it is neither a regular file, a character device nor a FIFO");
  target_ = follow_links(path_);
  remove_stale_temps(target_);
  std::string name = temp_template(target_);
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) fail(path_, errno);
  temp_path_ = name;
  temp_slot_ = register_temp_file(temp_path_.c_str());
  // mkstemp creates 0600: keep the mode (and, where allowed, the group) of the file replaced,
  // or give a new file the mode any new file would get.
  if (exists) {
    ::fchmod(fd_, info.st_mode & 07777);
    if (::fchown(fd_, info.st_uid, info.st_gid) != 0) {
      // Only root may give a file away; the new file is then ours.
    }
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd_, 0666 & ~mask);
  }
}

atomic_file::~atomic_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty() && !committed_) ::unlink(temp_path_.c_str());
  unregister_temp_file(temp_slot_);
}

void atomic_file::commit() {
  // EINVAL, EROFS: a device or pipe that cannot be synced; what was written has gone to it.
  const bool synced = ::fsync(fd_) == 0 || errno == EINVAL || errno == EROFS;
  const int sync_errno = errno;
  const bool closed = ::close(fd_) == 0;
  const int close_errno = errno;
  fd_ = -1;
  if (!synced || !closed)
    throw resource_error("cannot write " + path_ + ": " +
                         std::strerror(synced ? close_errno : sync_errno));
  if (temp_path_.empty()) {
    committed_ = true;
    return;
  }
  // Judged as a failure to open would be: a path made unwritable meanwhile (permissions, an
  // immutable file or directory) is the user's to fix (exit 2), a failing disk is not (3).
  if (std::rename(temp_path_.c_str(), target_.c_str()) != 0) fail(path_, errno);
  committed_ = true;
  unregister_temp_file(temp_slot_);
  temp_slot_ = -1;
  // The rename itself reaches the disk with the directory.
  const std::string directory = std::filesystem::path(target_).parent_path().string();
  const int dir_fd = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

}  // namespace nq
