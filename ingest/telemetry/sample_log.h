#pragma once
// The remote_write receiver's local log: every accepted request body, as
// received, appended to segment files and fsync'd before the request is
// answered 204. What the store has not yet absorbed is read back from here
// after a restart, so a request once acknowledged is never lost, whatever
// happens to the process or to PostgreSQL afterwards.
//
// A record is [magic u32][length u32][crc32 u32][acked_through u64][body]:
// acked_through is how far the log was durable (so possibly acknowledged)
// when the record was appended. Positions are byte
// offsets across the whole log: a segment is named by the position of its
// first record (00000000000067108864.log), and segments wholly before the
// store's checkpoint are deleted.
//
// Opening the log cuts what follows the last whole record when nothing
// after it says it was durable: a torn record, and any whole ones after it,
// appended for one group commit whose fsync power loss interrupted, were
// never acknowledged. A damaged record with a whole record after it whose
// acked_through lies past the damage is damage to what was acknowledged:
// Open fails (DATA_LOSS), naming the file and offset. (Damage in the very
// last group commit cannot be told from a torn one, and is cut.)
//
// A failed fsync is sticky: the kernel may have dropped the pages it could
// not write, so the log never again reports anything durable; the process
// must be restarted, which reads back what is on disk.
//
// Append is thread-safe; WaitDurable groups the fsyncs of concurrent
// appenders into one (group commit).

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fleetcap::telemetry {

struct SampleLogOptions {
  std::string dir;
  int64_t segment_bytes = int64_t{64} << 20;
  // How a segment is flushed after appends: fdatasync unless given (tests
  // inject failures). Returns 0 or -1 with errno set.
  std::function<int(int fd)> datasync = nullptr;
};

struct LogSpan {
  int64_t begin = 0;  // this record's position
  int64_t end = 0;    // the next record's
};

class SampleLog {
 public:
  // Creates `dir` (and the log's random id) when new; cuts a torn tail.
  static absl::StatusOr<std::unique_ptr<SampleLog>> Open(const SampleLogOptions& options);
  ~SampleLog();

  // Names this log: a checkpoint taken in another log's positions is void.
  const std::string& id() const { return id_; }

  // Calls `visit` for every record at or after `from`, in order. A position
  // before the oldest kept segment starts at that segment.
  absl::Status Replay(int64_t from, const std::function<absl::Status(LogSpan, absl::string_view body)>& visit) const;

  // Writes one record (not yet durable). `then` runs under the log's lock,
  // so what it does happens in log order.
  absl::StatusOr<LogSpan> Append(absl::string_view body, const std::function<void(LogSpan)>& then = nullptr);
  // Returns once every record ending at or before `end` is on disk.
  absl::Status WaitDurable(int64_t end);

  // Deletes the segments that end at or before `position`.
  absl::Status DropBefore(int64_t position);

  int64_t end() const;
  int64_t durable() const;
  int64_t begin() const;  // the oldest kept position

 private:
  struct Segment;
  SampleLog() = default;
  absl::Status Recover();
  absl::Status StartSegment(int64_t position);  // requires mu_
  // Flushes `segment`; on success everything before `through` is durable.
  // The first failure is kept: every later Sync, WaitDurable and Append
  // returns it.
  absl::Status Sync(const Segment& segment, int64_t through);
  absl::Status SyncError() const;

  SampleLogOptions options_;
  std::string id_;
  mutable std::mutex mu_;
  std::map<int64_t, std::string> segments_;  // first position -> file; guarded by mu_
  std::shared_ptr<Segment> current_;         // guarded by mu_
  int64_t end_ = 0;                          // guarded by mu_

  mutable std::mutex sync_mu_;
  std::condition_variable synced_;
  int64_t durable_ = 0;      // guarded by sync_mu_
  bool syncing_ = false;     // guarded by sync_mu_
  absl::Status sync_error_;  // guarded by sync_mu_; sticky: the disk failed
};

}  // namespace fleetcap::telemetry
