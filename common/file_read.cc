#include "common/file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace fleetcap {
namespace {

// Closes the descriptor on every way out.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

absl::StatusOr<std::string> ReadWholeFile(const std::string& what, const std::string& path, size_t max_bytes) {
  const auto cannot_read = [&](int error) {
    std::string message = absl::StrCat(what, ": cannot read \"", path, "\": ", std::strerror(error));
    if (error == ENOENT || error == ENOTDIR) return absl::NotFoundError(message);
    return absl::UnavailableError(message);
  };
  const auto too_large = [&] {
    return absl::InvalidArgumentError(absl::StrCat(what, ": \"", path, "\" is larger than ", max_bytes, " bytes"));
  };
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return cannot_read(errno);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return cannot_read(errno);
  if (S_ISDIR(info.st_mode)) return cannot_read(EISDIR);
  if (S_ISREG(info.st_mode) && static_cast<uint64_t>(info.st_size) > max_bytes) return too_large();

  std::string data;
  if (S_ISREG(info.st_mode)) data.reserve(static_cast<size_t>(info.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return cannot_read(errno);
    if (n == 0) break;
    if (static_cast<size_t>(n) > max_bytes - data.size()) return too_large();
    data.append(buffer, static_cast<size_t>(n));
  }
  return data;
}

}  // namespace fleetcap
