#include "common/lingering_close.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "absl/time/clock.h"

namespace fleetcap {
namespace {

// A connected pair: the server's end is adopted, the client's is kept here.
struct Connection {
  int server = -1, client = -1;
  Connection() {
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) == 0) {
      server = ends[0];
      client = ends[1];
      timeval wait{10, 0};
      setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
      setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
    }
  }
  ~Connection() { close(client); }
  bool Send(const std::string& data) const {
    return send(client, data.data(), data.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(data.size());
  }
  // Whether the server's end has closed: a read sees the end of the stream.
  bool ServerClosed() const {
    char byte;
    return recv(client, &byte, 1, 0) == 0;
  }
};

bool WaitUntilLingering(const LingeringClose& lingering, int count) {
  for (int i = 0; i < 500 && lingering.lingering() != count; ++i) absl::SleepFor(absl::Milliseconds(10));
  return lingering.lingering() == count;
}

TEST(LingeringCloseTest, DrainsWhatTheClientSendsUntilItCloses) {
  SimulatedClock clock(absl::UnixEpoch());
  LingeringClose lingering(&clock, absl::Seconds(5), 8);
  auto connection = std::make_unique<Connection>();
  lingering.Adopt(connection->server);
  // Far more than the socket holds: only a reader on the other end lets it all through.
  const std::string piece(64 * 1024, 'x');
  for (int i = 0; i < 256; ++i) ASSERT_TRUE(connection->Send(piece)) << "piece " << i;
  EXPECT_EQ(lingering.lingering(), 1);
  connection.reset();  // the client closes
  EXPECT_TRUE(WaitUntilLingering(lingering, 0));
}

TEST(LingeringCloseTest, ClosesAClientThatNeverStopsOnceTheLingerIsOver) {
  SimulatedClock clock(absl::UnixEpoch());
  LingeringClose lingering(&clock, absl::Seconds(5), 8);
  Connection connection;
  lingering.Adopt(connection.server);
  ASSERT_TRUE(connection.Send("more"));
  clock.Advance(absl::Seconds(4));
  absl::SleepFor(absl::Milliseconds(300));  // a few sweeps: not yet due
  EXPECT_EQ(lingering.lingering(), 1);
  clock.Advance(absl::Seconds(2));
  EXPECT_TRUE(WaitUntilLingering(lingering, 0));
  EXPECT_TRUE(connection.ServerClosed());
}

TEST(LingeringCloseTest, PastItsCapASocketIsClosedAtOnce) {
  SimulatedClock clock(absl::UnixEpoch());
  LingeringClose lingering(&clock, absl::Seconds(5), 1);
  Connection first, second;
  lingering.Adopt(first.server);
  lingering.Adopt(second.server);
  EXPECT_EQ(lingering.lingering(), 1);
  EXPECT_TRUE(second.ServerClosed());
}

TEST(LingeringCloseTest, ClosesWhatStillLingersWhenDestroyed) {
  SimulatedClock clock(absl::UnixEpoch());
  Connection connection;
  {
    LingeringClose lingering(&clock, absl::Hours(1), 8);
    lingering.Adopt(connection.server);
  }
  EXPECT_TRUE(connection.ServerClosed());
}

}  // namespace
}  // namespace fleetcap
