#include "ingest/telemetry/sample_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <thread>
#include <vector>

#include "tests/support/status_matchers.h"
#include "tests/support/test_dir.h"

namespace fleetcap::telemetry {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kSegmentBytes = 1 << 20;  // small: each new segment is zero-filled

class SampleLogTest : public ::testing::Test {
 protected:
  std::vector<std::pair<LogSpan, std::string>> ReadAll(const SampleLog& log, int64_t from = 0) {
    std::vector<std::pair<LogSpan, std::string>> out;
    auto status = log.Replay(from, [&](LogSpan span, absl::string_view body) {
      out.emplace_back(span, std::string(body));
      return absl::OkStatus();
    });
    EXPECT_THAT(status, IsOk());
    return out;
  }
  // Overwrites one byte of the first segment.
  void Damage(int64_t offset) {
    const int fd = ::open((dir_.path() + "/00000000000000000000.log").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, "X", 1, offset), 1);
    ::close(fd);
  }
  testing::TestDir dir_{"log-test"};
};

TEST_F(SampleLogTest, RecordsReadBackInOrderAcrossSegmentsAndReopen) {
  std::string id;
  std::vector<LogSpan> spans;
  {
    auto log = SampleLog::Open({dir_.path() + "/wal", 100});  // a new segment every ~100 bytes
    ASSERT_THAT(log, IsOk());
    id = (*log)->id();
    EXPECT_EQ(id.size(), 32u);
    for (int i = 0; i < 10; ++i) {
      auto span = (*log)->Append(std::string(40, static_cast<char>('a' + i)));
      ASSERT_THAT(span, IsOk());
      spans.push_back(*span);
    }
    ASSERT_THAT((*log)->WaitDurable(spans.back().end), IsOk());
    EXPECT_EQ((*log)->durable(), spans.back().end);
  }
  auto log = SampleLog::Open({dir_.path() + "/wal", 100});
  ASSERT_THAT(log, IsOk());
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
  ASSERT_THAT((*log)->DropBefore(spans[7].begin), IsOk());
  EXPECT_GT((*log)->begin(), 0);
  EXPECT_LE((*log)->begin(), spans[7].begin);
  auto kept = ReadAll(**log, 0);
  ASSERT_GE(kept.size(), 3u);
  EXPECT_EQ(kept.back().second, std::string(40, 'j'));
}

TEST_F(SampleLogTest, ATornTailIsCutOnOpenAndAppendsFollowTheLastWholeRecord) {
  LogSpan last;
  {
    auto log = SampleLog::Open({dir_.path(), kSegmentBytes});
    ASSERT_THAT(log, IsOk());
    ASSERT_THAT((*log)->Append("first"), IsOk());
    last = *(*log)->Append("second");
  }
  // A crash halfway through a third record.
  {
    const std::string torn("FCL1\x20\0\0\0\0\0\0\0abc", 15);  // a header for 32 bytes, 3 of them there
    const int fd = ::open((dir_.path() + "/00000000000000000000.log").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, torn.data(), torn.size(), last.end), 15);
    ::close(fd);
  }
  auto log = SampleLog::Open({dir_.path(), kSegmentBytes});
  ASSERT_THAT(log, IsOk());
  EXPECT_EQ((*log)->end(), last.end);
  ASSERT_THAT((*log)->Append("third"), IsOk());
  auto all = ReadAll(**log);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].second, "third");
}

TEST_F(SampleLogTest, ACorruptRecordInTheMiddleIsDataLossNamingTheFile) {
  {
    auto log = SampleLog::Open({dir_.path(), kSegmentBytes});
    ASSERT_THAT(log, IsOk());
    ASSERT_THAT((*log)->Append("first record"), IsOk());
    ASSERT_THAT((*log)->Append("second record"), IsOk());
  }
  auto log = SampleLog::Open({dir_.path(), kSegmentBytes});
  ASSERT_THAT(log, IsOk());
  {
    const int fd = ::open((dir_.path() + "/00000000000000000000.log").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, "X", 1, 24), 1);  // inside the first body
    ::close(fd);
  }
  EXPECT_THAT((*log)->Replay(0, [](LogSpan, absl::string_view) { return absl::OkStatus(); }),
              StatusIs(absl::StatusCode::kDataLoss, HasSubstr("00000000000000000000.log")));
}

// The first record was durable (so possibly acknowledged) when the second
// was appended: damage to it is not a torn end.
TEST_F(SampleLogTest, DamageInsideAcknowledgedRecordsStopsTheOpenNamingTheFile) {
  {
    auto log = SampleLog::Open({dir_.path(), kSegmentBytes});
    ASSERT_THAT(log, IsOk());
    auto first = (*log)->Append("first record");
    ASSERT_THAT(first, IsOk());
    ASSERT_THAT((*log)->WaitDurable(first->end), IsOk());
    ASSERT_THAT((*log)->Append("second record"), IsOk());
  }
  Damage(24);  // inside the first body
  EXPECT_THAT(SampleLog::Open({dir_.path(), kSegmentBytes}),
              StatusIs(absl::StatusCode::kDataLoss,
                       AllOf(HasSubstr(dir_.path() + "/00000000000000000000.log"), HasSubstr("offset 0"))));
}

// One group commit: several records written, one fsync, and power lost
// before it completed, leaving the first of them torn and the others whole.
// None was acknowledged: the start goes on without them, and what was
// acknowledged before is all there.
TEST_F(SampleLogTest, ATornGroupCommitWithWholeRecordsAfterItIsCut) {
  LogSpan acked, torn;
  {
    auto log = SampleLog::Open({dir_.path(), kSegmentBytes});
    ASSERT_THAT(log, IsOk());
    acked = *(*log)->Append("acknowledged");
    ASSERT_THAT((*log)->WaitDurable(acked.end), IsOk());
    torn = *(*log)->Append("torn by the power loss");
    ASSERT_THAT((*log)->Append("whole but never synced"), IsOk());
    ASSERT_THAT((*log)->Append("whole as well"), IsOk());
  }
  Damage(torn.begin + 25);
  auto log = SampleLog::Open({dir_.path(), kSegmentBytes});
  ASSERT_THAT(log, IsOk());
  EXPECT_EQ((*log)->end(), acked.end);
  ASSERT_THAT((*log)->Append("after the restart"), IsOk());
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
  SampleLogOptions options{dir_.path(), kSegmentBytes, [&](int fd) {
                             if (fail_next.exchange(0) > 0) {
                               errno = EIO;
                               return -1;
                             }
                             return ::fdatasync(fd);
                           }};
  auto log = SampleLog::Open(options);
  ASSERT_THAT(log, IsOk());
  auto first = (*log)->Append("durable");
  ASSERT_THAT((*log)->WaitDurable(first->end), IsOk());
  auto lost = (*log)->Append("its pages dropped");
  fail_next = 1;
  EXPECT_THAT((*log)->WaitDurable(lost->end), Not(IsOk()));
  // The disk works again: still nothing more is acknowledged.
  EXPECT_THAT((*log)->WaitDurable(lost->end), Not(IsOk()));
  EXPECT_THAT((*log)->Append("later"), Not(IsOk()));
  EXPECT_EQ((*log)->durable(), first->end);
  EXPECT_THAT((*log)->WaitDurable(first->end), IsOk()) << "what was durable before stays so";
}

// The same when the failing fsync is the one that closes a full segment.
TEST_F(SampleLogTest, AnFsyncErrorClosingASegmentIsSticky) {
  std::atomic<int> fail_next{0};
  SampleLogOptions options{dir_.path(), 200, [&](int fd) {
                             if (fail_next.exchange(0) > 0) {
                               errno = EIO;
                               return -1;
                             }
                             return ::fdatasync(fd);
                           }};
  auto log = SampleLog::Open(options);
  ASSERT_THAT(log, IsOk());
  auto pending = (*log)->Append(std::string(150, 'a'));  // not yet durable
  ASSERT_THAT(pending, IsOk());
  fail_next = 1;
  EXPECT_THAT((*log)->Append(std::string(150, 'b')), Not(IsOk()));  // needs a new segment
  EXPECT_THAT((*log)->Append(std::string(150, 'c')), Not(IsOk()));
  EXPECT_THAT((*log)->WaitDurable(pending->end), Not(IsOk()));
  EXPECT_EQ((*log)->durable(), 0);
}

TEST_F(SampleLogTest, ConcurrentAppendersAreAllDurableAndOrderedByPosition) {
  auto log = SampleLog::Open({dir_.path(), 4096});
  ASSERT_THAT(log, IsOk());
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
        ASSERT_THAT(span, IsOk());
        ASSERT_THAT((*log)->WaitDurable(span->end), IsOk());
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
  EXPECT_THAT(SampleLog::Open({""}), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--wal-dir")));
}

}  // namespace
}  // namespace fleetcap::telemetry
