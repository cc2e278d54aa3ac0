#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "nqueens/error.hpp"

namespace nq {

atomic_file::atomic_file(std::string path) : path_(std::move(path)) {
  struct stat info {};
  if (::stat(path_.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    throw usage_error("cannot write " + path_ + ": it is a directory");
  std::vector<char> name(path_.begin(), path_.end());
  const char suffix[] = ".tmp.XXXXXX";
  name.insert(name.end(), suffix, suffix + sizeof suffix);
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) throw usage_error("cannot write " + path_ + ": " + std::strerror(errno));
  temp_path_ = name.data();
  // mkstemp creates 0600; give the file the mode any new file would get.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

atomic_file::~atomic_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_path_.c_str());
}

void atomic_file::commit() {
  const bool synced = ::fsync(fd_) == 0 || errno == EINVAL;  // EINVAL: e.g. a pipe or device
  const int sync_errno = errno;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (!synced || !closed)
    throw resource_error("cannot write " + path_ + ": " +
                         std::strerror(synced ? errno : sync_errno));
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw resource_error("cannot write " + path_ + ": " + std::strerror(errno));
  committed_ = true;
}

}  // namespace nq
