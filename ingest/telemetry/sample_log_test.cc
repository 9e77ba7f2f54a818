#include "ingest/telemetry/sample_log.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <thread>
#include <vector>

namespace fleetcap::telemetry {
namespace {

constexpr int64_t kSegmentBytes = 1 << 20;  // small: each new segment is zero-filled

class SampleLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/tmp/fleetcap-log-test-XXXXXX";
    ASSERT_NE(mkdtemp(templ), nullptr);
    dir_ = templ;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  std::vector<std::pair<LogSpan, std::string>> ReadAll(const SampleLog& log, int64_t from = 0) {
    std::vector<std::pair<LogSpan, std::string>> out;
    auto status = log.Replay(from, [&](LogSpan span, absl::string_view body) {
      out.emplace_back(span, std::string(body));
      return absl::OkStatus();
    });
    EXPECT_TRUE(status.ok()) << status;
    return out;
  }
  // Overwrites one byte of the first segment.
  void Damage(int64_t offset) {
    const int fd = ::open((dir_ + "/00000000000000000000.log").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, "X", 1, offset), 1);
    ::close(fd);
  }
  std::string dir_;
};

TEST_F(SampleLogTest, RecordsReadBackInOrderAcrossSegmentsAndReopen) {
  std::string id;
  std::vector<LogSpan> spans;
  {
    auto log = SampleLog::Open({dir_ + "/wal", 100});  // a new segment every ~100 bytes
    ASSERT_TRUE(log.ok()) << log.status();
    id = (*log)->id();
    EXPECT_EQ(id.size(), 32u);
    for (int i = 0; i < 10; ++i) {
      auto span = (*log)->Append(std::string(40, static_cast<char>('a' + i)));
      ASSERT_TRUE(span.ok()) << span.status();
      spans.push_back(*span);
    }
    ASSERT_TRUE((*log)->WaitDurable(spans.back().end).ok());
    EXPECT_EQ((*log)->durable(), spans.back().end);
  }
  auto log = SampleLog::Open({dir_ + "/wal", 100});
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ((*log)->id(), id);
  EXPECT_EQ((*log)->end(), spans.back().end);
  auto all = ReadAll(**log);
  ASSERT_EQ(all.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(all[i].first.begin, spans[i].begin);
    EXPECT_EQ(all[i].second, std::string(40, static_cast<char>('a' + i)));
  }
  // From a record's position: that record and the rest.
  EXPECT_EQ(ReadAll(**log, spans[7].begin).size(), 3u);
  // Segments wholly before a position go; replay from before them starts
  // at the oldest kept.
  ASSERT_TRUE((*log)->DropBefore(spans[7].begin).ok());
  EXPECT_GT((*log)->begin(), 0);
  EXPECT_LE((*log)->begin(), spans[7].begin);
  auto kept = ReadAll(**log, 0);
  ASSERT_GE(kept.size(), 3u);
  EXPECT_EQ(kept.back().second, std::string(40, 'j'));
}

TEST_F(SampleLogTest, ATornTailIsCutOnOpenAndAppendsFollowTheLastWholeRecord) {
  LogSpan last;
  {
    auto log = SampleLog::Open({dir_, kSegmentBytes});
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->Append("first").ok());
    last = *(*log)->Append("second");
  }
  // A crash halfway through a third record.
  {
    const std::string torn("FCL1\x20\0\0\0\0\0\0\0abc", 15);  // a header for 32 bytes, 3 of them there
    const int fd = ::open((dir_ + "/00000000000000000000.log").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, torn.data(), torn.size(), last.end), 15);
    ::close(fd);
  }
  auto log = SampleLog::Open({dir_, kSegmentBytes});
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ((*log)->end(), last.end);
  ASSERT_TRUE((*log)->Append("third").ok());
  auto all = ReadAll(**log);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].second, "third");
}

TEST_F(SampleLogTest, ACorruptRecordInTheMiddleIsDataLossNamingTheFile) {
  {
    auto log = SampleLog::Open({dir_, kSegmentBytes});
    ASSERT_TRUE(log.ok());
    ASSERT_TRUE((*log)->Append("first record").ok());
    ASSERT_TRUE((*log)->Append("second record").ok());
  }
  auto log = SampleLog::Open({dir_, kSegmentBytes});
  ASSERT_TRUE(log.ok());
  {
    const int fd = ::open((dir_ + "/00000000000000000000.log").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, "X", 1, 24), 1);  // inside the first body
    ::close(fd);
  }
  auto status = (*log)->Replay(0, [](LogSpan, absl::string_view) { return absl::OkStatus(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_NE(status.message().find("00000000000000000000.log"), std::string::npos) << status;
}

// The first record was durable (so possibly acknowledged) when the second
// was appended: damage to it is not a torn end.
TEST_F(SampleLogTest, DamageInsideAcknowledgedRecordsStopsTheOpenNamingTheFile) {
  {
    auto log = SampleLog::Open({dir_, kSegmentBytes});
    ASSERT_TRUE(log.ok());
    auto first = (*log)->Append("first record");
    ASSERT_TRUE(first.ok());
    ASSERT_TRUE((*log)->WaitDurable(first->end).ok());
    ASSERT_TRUE((*log)->Append("second record").ok());
  }
  Damage(24);  // inside the first body
  auto log = SampleLog::Open({dir_, kSegmentBytes});
  EXPECT_EQ(log.status().code(), absl::StatusCode::kDataLoss) << log.status();
  EXPECT_NE(log.status().message().find(dir_ + "/00000000000000000000.log"), std::string::npos) << log.status();
  EXPECT_NE(log.status().message().find("offset 0"), std::string::npos) << log.status();
}

// One group commit: several records written, one fsync, and power lost
// before it completed, leaving the first of them torn and the others whole.
// None was acknowledged: the start goes on without them, and what was
// acknowledged before is all there.
TEST_F(SampleLogTest, ATornGroupCommitWithWholeRecordsAfterItIsCut) {
  LogSpan acked, torn;
  {
    auto log = SampleLog::Open({dir_, kSegmentBytes});
    ASSERT_TRUE(log.ok());
    acked = *(*log)->Append("acknowledged");
    ASSERT_TRUE((*log)->WaitDurable(acked.end).ok());
    torn = *(*log)->Append("torn by the power loss");
    ASSERT_TRUE((*log)->Append("whole but never synced").ok());
    ASSERT_TRUE((*log)->Append("whole as well").ok());
  }
  Damage(torn.begin + 25);
  auto log = SampleLog::Open({dir_, kSegmentBytes});
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ((*log)->end(), acked.end);
  ASSERT_TRUE((*log)->Append("after the restart").ok());
  auto all = ReadAll(**log);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].second, "acknowledged");
  EXPECT_EQ(all[1].second, "after the restart");
}

// A failed fsync is never followed by an acknowledgement: the kernel may
// have dropped the pages it could not write, and a later fsync succeeds
// without them.
TEST_F(SampleLogTest, AnFsyncErrorIsStickyEvenWhenTheNextFsyncWouldSucceed) {
  std::atomic<int> fail_next{0};
  SampleLogOptions options{dir_, kSegmentBytes, [&](int fd) {
                             if (fail_next.exchange(0) > 0) {
                               errno = EIO;
                               return -1;
                             }
                             return ::fdatasync(fd);
                           }};
  auto log = SampleLog::Open(options);
  ASSERT_TRUE(log.ok());
  auto first = (*log)->Append("durable");
  ASSERT_TRUE((*log)->WaitDurable(first->end).ok());
  auto lost = (*log)->Append("its pages dropped");
  fail_next = 1;
  EXPECT_FALSE((*log)->WaitDurable(lost->end).ok());
  // The disk works again: still nothing more is acknowledged.
  EXPECT_FALSE((*log)->WaitDurable(lost->end).ok());
  EXPECT_FALSE((*log)->Append("later").ok());
  EXPECT_EQ((*log)->durable(), first->end);
  EXPECT_TRUE((*log)->WaitDurable(first->end).ok()) << "what was durable before stays so";
}

// The same when the failing fsync is the one that closes a full segment.
TEST_F(SampleLogTest, AnFsyncErrorClosingASegmentIsSticky) {
  std::atomic<int> fail_next{0};
  SampleLogOptions options{dir_, 200, [&](int fd) {
                             if (fail_next.exchange(0) > 0) {
                               errno = EIO;
                               return -1;
                             }
                             return ::fdatasync(fd);
                           }};
  auto log = SampleLog::Open(options);
  ASSERT_TRUE(log.ok());
  auto pending = (*log)->Append(std::string(150, 'a'));  // not yet durable
  ASSERT_TRUE(pending.ok());
  fail_next = 1;
  EXPECT_FALSE((*log)->Append(std::string(150, 'b')).ok());  // needs a new segment
  EXPECT_FALSE((*log)->Append(std::string(150, 'c')).ok());
  EXPECT_FALSE((*log)->WaitDurable(pending->end).ok());
  EXPECT_EQ((*log)->durable(), 0);
}

TEST_F(SampleLogTest, ConcurrentAppendersAreAllDurableAndOrderedByPosition) {
  auto log = SampleLog::Open({dir_, 4096});
  ASSERT_TRUE(log.ok());
  std::vector<std::thread> threads;
  std::vector<int64_t> order;  // positions, in the order `then` ran
  std::mutex mu;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        auto span = (*log)->Append(std::string(100, static_cast<char>('A' + t)), [&](LogSpan s) {
          std::lock_guard<std::mutex> lock(mu);
          order.push_back(s.begin);
        });
        ASSERT_TRUE(span.ok());
        ASSERT_TRUE((*log)->WaitDurable(span->end).ok());
        ASSERT_GE((*log)->durable(), span->end);
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(order.size(), 400u);
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
  EXPECT_EQ(ReadAll(**log).size(), 400u);
}

TEST_F(SampleLogTest, AnEmptyDirectoryIsRefused) {
  auto log = SampleLog::Open({""});
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(log.status().message().find("--wal-dir"), std::string::npos);
}

}  // namespace
}  // namespace fleetcap::telemetry
