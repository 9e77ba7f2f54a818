#include "ingest/telemetry/sample_log.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/status_macros.h"

namespace fleetcap::telemetry {
namespace {

// Records written before acknowledgements were recorded in the log:
// [magic][length][crc32 of body][body].
constexpr uint32_t kMagicV1 = 0x314c4346;  // "FCL1"
constexpr size_t kHeaderV1Bytes = 12;
// [magic][length][crc32 of acked_through + body][acked_through u64][body].
constexpr uint32_t kMagic = 0x324c4346;  // "FCL2"
constexpr size_t kHeaderBytes = 20;

absl::Status Errno(const std::string& what) {
  return absl::InternalError(absl::StrCat("sample log: ", what, ": ", std::strerror(errno)));
}

uint32_t Crc(absl::string_view body, uLong crc = 0L) {
  return static_cast<uint32_t>(crc32(crc, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size())));
}

uint32_t ReadU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

absl::Status SyncDir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return Errno("opening " + dir);
  const int rc = ::fsync(fd);
  ::close(fd);
  return rc == 0 ? absl::OkStatus() : Errno("syncing " + dir);
}

absl::Status MakeDirs(const std::string& dir) {
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string part = dir.substr(0, slash);
    if (::mkdir(part.c_str(), 0750) != 0 && errno != EEXIST) return Errno("creating " + part);
    if (slash == std::string::npos) return absl::OkStatus();
  }
}

absl::Status ZeroFill(int fd, int64_t from, int64_t to) {
  static const std::string zeros(1 << 20, '\0');
  for (int64_t at = from; at < to;) {
    const size_t n = static_cast<size_t>(std::min<int64_t>(to - at, static_cast<int64_t>(zeros.size())));
    const ssize_t w = ::pwrite(fd, zeros.data(), n, static_cast<off_t>(at));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return Errno("zero-filling a segment");
    at += w;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFile(const std::string& path, int64_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return Errno("opening " + path);
  std::string data;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return Errno("reading " + path);
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  if (limit >= 0 && static_cast<int64_t>(data.size()) > limit) data.resize(static_cast<size_t>(limit));
  return data;
}

uint64_t ReadU64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// A whole record found in a segment's bytes.
struct Record {
  size_t header = 0;           // its header's size
  uint32_t length = 0;         // its body's
  int64_t acked_through = -1;  // -1: not known (a record of the first format)
  size_t size() const { return header + length; }
};

// The whole record at `at`, if one is there (its checksum holds).
std::optional<Record> RecordAt(absl::string_view data, size_t at) {
  if (data.size() - at < kHeaderV1Bytes) return std::nullopt;
  const char* h = data.data() + at;
  Record r;
  r.length = ReadU32(h + 4);
  if (ReadU32(h) == kMagicV1) {
    r.header = kHeaderV1Bytes;
    if (data.size() - at - r.header < r.length) return std::nullopt;
    if (Crc(data.substr(at + r.header, r.length)) != ReadU32(h + 8)) return std::nullopt;
    return r;
  }
  if (ReadU32(h) != kMagic || data.size() - at < kHeaderBytes) return std::nullopt;
  r.header = kHeaderBytes;
  if (data.size() - at - r.header < r.length) return std::nullopt;
  const uint32_t crc = Crc(data.substr(at + r.header, r.length), Crc(data.substr(at + 12, 8)));
  if (crc != ReadU32(h + 8)) return std::nullopt;
  r.acked_through = static_cast<int64_t>(ReadU64(h + 12));
  return r;
}

// The length of the whole records at the start of `data`.
size_t ValidPrefix(absl::string_view data) {
  size_t at = 0;
  while (auto r = RecordAt(data, at)) at += r->size();
  return at;
}

// Whether a whole record after `damaged` (in a segment starting at log
// position `first`) shows that the damaged one was durable before it was
// appended, so may have been acknowledged. A record of the first format
// cannot tell, so counts as such evidence. Records of one group commit that
// power loss left half written carry no such evidence: they were appended
// before the fsync that would have made them durable.
bool AcknowledgedAfter(absl::string_view data, size_t damaged, int64_t first) {
  for (size_t at = data.find("FCL", damaged + 1); at != absl::string_view::npos; at = data.find("FCL", at + 1)) {
    const auto r = RecordAt(data, at);
    if (r && (r->acked_through < 0 || r->acked_through > first + static_cast<int64_t>(damaged))) return true;
  }
  return false;
}

}  // namespace

struct SampleLog::Segment {
  int fd = -1;
  int64_t first = 0;
  int64_t size = 0;
  ~Segment() {
    if (fd >= 0) ::close(fd);
  }
};

absl::StatusOr<std::unique_ptr<SampleLog>> SampleLog::Open(const SampleLogOptions& options) {
  if (options.dir.empty()) return absl::InvalidArgumentError("--wal-dir: empty");
  std::unique_ptr<SampleLog> log(new SampleLog());
  log->options_ = options;
  FLEETCAP_RETURN_IF_ERROR(MakeDirs(options.dir));
  const std::string id_path = options.dir + "/log-id";
  std::ifstream(id_path) >> log->id_;
  if (log->id_.empty()) {
    unsigned char random[16];
    std::ifstream urandom("/dev/urandom", std::ios::binary);
    urandom.read(reinterpret_cast<char*>(random), sizeof random);
    if (!urandom) return absl::InternalError("sample log: cannot read /dev/urandom");
    for (unsigned char c : random) log->id_ += absl::StrFormat("%02x", c);
    const std::string tmp = id_path + ".tmp";
    {
      std::ofstream out(tmp);
      out << log->id_ << "\n";
      if (!out.flush()) return absl::InternalError("sample log: cannot write " + tmp);
    }
    if (::rename(tmp.c_str(), id_path.c_str()) != 0) return Errno("renaming " + tmp);
    FLEETCAP_RETURN_IF_ERROR(SyncDir(options.dir));
  }
  FLEETCAP_RETURN_IF_ERROR(log->Recover());
  return log;
}

SampleLog::~SampleLog() = default;

absl::Status SampleLog::Recover() {
  DIR* dir = ::opendir(options_.dir.c_str());
  if (dir == nullptr) return Errno("listing " + options_.dir);
  while (dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    long long first = 0;
    char tail[8] = {};
    if (name.size() == 24 && std::sscanf(name.c_str(), "%20lld%4s", &first, tail) == 2 &&
        std::strcmp(tail, ".log") == 0) {
      segments_[first] = options_.dir + "/" + name;
    }
  }
  ::closedir(dir);
  std::lock_guard<std::mutex> lock(mu_);
  if (segments_.empty()) return StartSegment(0);
  // Only the newest segment can end in a torn record.
  const auto& [first, path] = *segments_.rbegin();
  FLEETCAP_ASSIGN_OR_RETURN(auto data, ReadFile(path, -1));
  // What follows the whole records is a torn group commit (never
  // acknowledged: cut) unless a later record says it was durable.
  const size_t valid = ValidPrefix(data);
  if (AcknowledgedAfter(data, valid, first)) {
    return absl::DataLossError(absl::StrCat("sample log: ", path, ": checksum mismatch or broken header at offset ",
                                            valid, ", inside what was acknowledged (whole records after it)"));
  }
  auto segment = std::make_shared<Segment>();
  segment->fd = ::open(path.c_str(), O_WRONLY);
  if (segment->fd < 0) return Errno("opening " + path);
  // A torn record is zeroed; the segment is its full size again (a crash
  // may also have come while it was being zero-filled).
  const int64_t full = std::max<int64_t>(options_.segment_bytes, static_cast<int64_t>(data.size()));
  FLEETCAP_RETURN_IF_ERROR(ZeroFill(segment->fd, static_cast<int64_t>(valid), full));
  if (::fdatasync(segment->fd) != 0) return Errno("syncing " + path);
  segment->first = first;
  segment->size = static_cast<int64_t>(valid);
  current_ = std::move(segment);
  end_ = first + static_cast<int64_t>(valid);
  std::lock_guard<std::mutex> sync_lock(sync_mu_);
  durable_ = end_;
  return absl::OkStatus();
}

absl::Status SampleLog::StartSegment(int64_t position) {
  const std::string path = absl::StrFormat("%s/%020d.log", options_.dir, position);
  auto segment = std::make_shared<Segment>();
  segment->fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0640);
  if (segment->fd < 0) return Errno("creating " + path);
  // Written full of zeros once, so an fdatasync after an append flushes
  // data only: the file's size and blocks never change afterwards, and no
  // journal commit is needed. The zeros also mark where the records end.
  FLEETCAP_RETURN_IF_ERROR(ZeroFill(segment->fd, 0, options_.segment_bytes));
  if (::fdatasync(segment->fd) != 0) return Errno("syncing " + path);
  FLEETCAP_RETURN_IF_ERROR(SyncDir(options_.dir));
  segment->first = position;
  segments_[position] = path;
  current_ = std::move(segment);
  return absl::OkStatus();
}

absl::Status SampleLog::Replay(int64_t from,
                               const std::function<absl::Status(LogSpan, absl::string_view)>& visit) const {
  std::map<int64_t, std::string> segments;
  int64_t end;
  {
    std::lock_guard<std::mutex> lock(mu_);
    segments = segments_;
    end = end_;
  }
  for (auto it = segments.begin(); it != segments.end(); ++it) {
    const int64_t first = it->first;
    const auto next = std::next(it);
    const int64_t last = next == segments.end() ? end : next->first;
    if (last <= from) continue;
    FLEETCAP_ASSIGN_OR_RETURN(auto data, ReadFile(it->second, last - first));
    size_t at = from > first ? static_cast<size_t>(from - first) : 0;
    while (at < data.size()) {
      const auto record = RecordAt(data, at);
      if (!record) {
        const char* h = data.data() + at;
        const bool header = data.size() - at >= kHeaderV1Bytes && (ReadU32(h) == kMagic || ReadU32(h) == kMagicV1);
        return absl::DataLossError(absl::StrCat(
            "sample log: ", it->second, header ? ": checksum mismatch at offset " : ": no record at offset ", at));
      }
      const absl::string_view body(data.data() + at + record->header, record->length);
      const int64_t begin = first + static_cast<int64_t>(at);
      at += record->size();
      FLEETCAP_RETURN_IF_ERROR(visit({begin, first + static_cast<int64_t>(at)}, body));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<LogSpan> SampleLog::Append(absl::string_view body, const std::function<void(LogSpan)>& then) {
  if (body.size() > UINT32_MAX) return absl::InvalidArgumentError("sample log: record over 4 GiB");
  const size_t total = kHeaderBytes + body.size();
  std::lock_guard<std::mutex> lock(mu_);
  FLEETCAP_RETURN_IF_ERROR(SyncError());
  if (current_->size + static_cast<int64_t>(total) > options_.segment_bytes && current_->size > 0) {
    // Everything before the new segment is made durable here, so syncing
    // only the newest segment is enough afterwards.
    FLEETCAP_RETURN_IF_ERROR(Sync(*current_, end_));
    FLEETCAP_RETURN_IF_ERROR(StartSegment(end_));
  }
  // The record says what was durable when it was appended: at the next
  // start, damage before that is damage to what was acknowledged.
  char header[kHeaderBytes];
  const uint64_t acked_through = static_cast<uint64_t>(durable());
  const uint32_t magic = kMagic, length = static_cast<uint32_t>(body.size());
  std::memcpy(header + 12, &acked_through, 8);
  const uint32_t crc = Crc(body, Crc(absl::string_view(header + 12, 8)));
  std::memcpy(header, &magic, 4);
  std::memcpy(header + 4, &length, 4);
  std::memcpy(header + 8, &crc, 4);
  iovec parts[2] = {{header, kHeaderBytes}, {const_cast<char*>(body.data()), body.size()}};
  size_t written = 0;
  while (written < total) {
    iovec rest[2];
    int n = 0;
    size_t skip = written;
    for (const iovec& part : parts) {
      if (skip >= part.iov_len) {
        skip -= part.iov_len;
        continue;
      }
      rest[n++] = {static_cast<char*>(part.iov_base) + skip, part.iov_len - skip};
      skip = 0;
    }
    const ssize_t w = ::pwritev(current_->fd, rest, n, static_cast<off_t>(current_->size + written));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const absl::Status error = Errno("appending");
      // Leave no partial record behind for the next append to follow.
      if (auto zeroed = ZeroFill(current_->fd, current_->size, current_->size + static_cast<int64_t>(written));
          !zeroed.ok()) {
        return absl::InternalError(absl::StrCat(error.message(), "; and zeroing it failed"));
      }
      return error;
    }
    written += static_cast<size_t>(w);
  }
  const LogSpan span{end_, end_ + static_cast<int64_t>(total)};
  current_->size += static_cast<int64_t>(total);
  end_ = span.end;
  if (then) then(span);
  return span;
}

absl::Status SampleLog::SyncError() const {
  std::lock_guard<std::mutex> lock(sync_mu_);
  return sync_error_;
}

absl::Status SampleLog::Sync(const Segment& segment, int64_t through) {
  const int rc = options_.datasync ? options_.datasync(segment.fd) : ::fdatasync(segment.fd);
  const absl::Status error = rc == 0 ? absl::OkStatus() : Errno("syncing");
  std::lock_guard<std::mutex> lock(sync_mu_);
  // After a failed fsync the kernel may have dropped the dirty pages and a
  // later fsync may succeed without them: nothing is made durable again.
  if (!sync_error_.ok()) return sync_error_;
  if (!error.ok()) {
    sync_error_ = absl::InternalError(
        absl::StrCat(error.message(), "; nothing more is acknowledged until fleetcap-ingest restarts"));
    synced_.notify_all();
    return sync_error_;
  }
  durable_ = std::max(durable_, through);
  synced_.notify_all();
  return absl::OkStatus();
}

absl::Status SampleLog::WaitDurable(int64_t end) {
  std::unique_lock<std::mutex> lock(sync_mu_);
  while (durable_ < end) {
    if (!sync_error_.ok()) return sync_error_;
    if (syncing_) {
      synced_.wait(lock);
      continue;
    }
    syncing_ = true;
    lock.unlock();
    std::shared_ptr<Segment> segment;
    int64_t target;
    {
      std::lock_guard<std::mutex> log_lock(mu_);
      segment = current_;
      target = end_;
    }
    const absl::Status synced = Sync(*segment, target);
    lock.lock();
    syncing_ = false;
    synced_.notify_all();
    if (!synced.ok()) return synced;
  }
  return absl::OkStatus();
}

absl::Status SampleLog::DropBefore(int64_t position) {
  std::lock_guard<std::mutex> lock(mu_);
  while (segments_.size() > 1) {
    const auto first = segments_.begin();
    if (std::next(first)->first > position) break;
    if (::unlink(first->second.c_str()) != 0 && errno != ENOENT) return Errno("deleting " + first->second);
    segments_.erase(first);
  }
  return absl::OkStatus();
}

int64_t SampleLog::end() const {
  std::lock_guard<std::mutex> lock(mu_);
  return end_;
}

int64_t SampleLog::durable() const {
  std::lock_guard<std::mutex> lock(sync_mu_);
  return durable_;
}

int64_t SampleLog::begin() const {
  std::lock_guard<std::mutex> lock(mu_);
  return segments_.begin()->first;
}

}  // namespace fleetcap::telemetry
