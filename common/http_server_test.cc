#include "common/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/handler_stack.h"

namespace fleetcap {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A loopback connection whose reads give up after 10 s.
class HttpServerTestClient {
 public:
  explicit HttpServerTestClient(int port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    timeval wait{10, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  }
  ~HttpServerTestClient() { close(fd_); }
  bool connected() const { return connected_; }
  void Send(const std::string& data) { send(fd_, data.data(), data.size(), MSG_NOSIGNAL); }
  // Whether all of `data` went out (a reset connection, or 10 s stuck, says no).
  bool SendAll(const std::string& data) {
    for (size_t sent = 0; sent < data.size();) {
      const ssize_t n = send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  // Everything until the server closes the connection (or 10 s of silence).
  std::string ReadAll() {
    std::string out;
    char buffer[4096];
    ssize_t n;
    while ((n = recv(fd_, buffer, sizeof buffer, 0)) > 0) out.append(buffer, static_cast<size_t>(n));
    return out;
  }

 private:
  int fd_;
  bool connected_ = false;
};

HttpServerOptions LoopbackOptions() {
  HttpServerOptions options;
  options.listen = "127.0.0.1:0";
  options.max_body_bytes = 10;
  options.handler_threads = 1;
  return options;
}

HttpServerResponse Ok() {
  HttpServerResponse answer;
  answer.body = "ok";
  return answer;
}

// The event loops have a stack far smaller than a handler's: a handler run there would show it.
TEST(HttpServerTest, HandlersRunOnTheHandlerStackAndTheAnswerClosesTheConnection) {
  std::atomic<size_t> stack{0};
  HttpServer::Handlers handlers;
  handlers.handle = [&stack](const HttpServerRequest&) {
    pthread_attr_t attributes;
    pthread_getattr_np(pthread_self(), &attributes);
    size_t size = 0;
    pthread_attr_getstacksize(&attributes, &size);
    pthread_attr_destroy(&attributes);
    stack = size;
    return Ok();
  };
  auto server = HttpServer::Start(LoopbackOptions(), handlers, RealClock::Instance());
  ASSERT_TRUE(server.ok()) << server.status();
  HttpServerTestClient client((*server)->port());
  ASSERT_TRUE(client.connected());
  client.Send("GET /x?y=1 HTTP/1.1\r\nHost: h\r\n\r\n");
  const std::string answer = client.ReadAll();
  EXPECT_THAT(answer, StartsWith("HTTP/1.1 200"));
  EXPECT_THAT(answer, HasSubstr("Connection: close"));
  EXPECT_GE(stack.load(), kHandlerStackBytes);
}

TEST(HttpServerTest, AnAnswerFromAdmitLeavesTheBodyUnread) {
  std::atomic<int> handled{0};
  HttpServer::Handlers handlers;
  handlers.admit = [](HttpServerRequest&) {
    HttpServerResponse refused;
    refused.status = 401;
    return std::optional<HttpServerResponse>(refused);
  };
  handlers.handle = [&handled](const HttpServerRequest&) {
    ++handled;
    return Ok();
  };
  auto server = HttpServer::Start(LoopbackOptions(), handlers, RealClock::Instance());
  ASSERT_TRUE(server.ok()) << server.status();
  HttpServerTestClient client((*server)->port());
  client.Send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n");  // the body never comes
  EXPECT_THAT(client.ReadAll(), StartsWith("HTTP/1.1 401"));
  EXPECT_EQ(handled.load(), 0);
}

TEST(HttpServerTest, ABodyOverTheLimitIsRefusedFromItsLength) {
  std::atomic<int> handled{0};
  HttpServer::Handlers handlers;
  handlers.handle = [&handled](const HttpServerRequest&) {
    ++handled;
    return Ok();
  };
  auto server = HttpServer::Start(LoopbackOptions(), handlers, RealClock::Instance());
  ASSERT_TRUE(server.ok()) << server.status();
  HttpServerTestClient client((*server)->port());
  client.Send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n");
  EXPECT_THAT(client.ReadAll(), StartsWith("HTTP/1.1 413"));
  EXPECT_EQ(handled.load(), 0);
}

TEST(HttpServerTest, ConnectionsThatNeverFinishTheirHeadersHoldNoHandler) {
  HttpServer::Handlers handlers;
  handlers.handle = [](const HttpServerRequest&) { return Ok(); };
  auto server = HttpServer::Start(LoopbackOptions(), handlers, RealClock::Instance());  // one handler thread
  ASSERT_TRUE(server.ok()) << server.status();
  std::vector<std::unique_ptr<HttpServerTestClient>> slow;
  for (int i = 0; i < 20; ++i) {
    slow.push_back(std::make_unique<HttpServerTestClient>((*server)->port()));
    slow.back()->Send("GET / HTTP/1.1\r\nHost: h\r\nX-Slow: ");
  }
  HttpServerTestClient client((*server)->port());
  client.Send("GET / HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_THAT(client.ReadAll(), StartsWith("HTTP/1.1 200"));
}

TEST(HttpServerTest, WaitingForABusyHandlerIsNeverTheClientsLateness) {
  std::atomic<bool> slow_started{false};
  HttpServer::Handlers handlers;
  handlers.handle = [&slow_started](const HttpServerRequest& request) {
    if (request.path == "/slow") {
      slow_started = true;
      absl::SleepFor(absl::Milliseconds(2500));
    }
    return Ok();
  };
  HttpServerOptions options = LoopbackOptions();  // one handler thread
  options.read_timeout = absl::Seconds(1);
  auto server = HttpServer::Start(options, handlers, RealClock::Instance());
  ASSERT_TRUE(server.ok()) << server.status();
  HttpServerTestClient busy((*server)->port());
  busy.Send("GET /slow HTTP/1.1\r\nHost: h\r\n\r\n");
  while (!slow_started) absl::SleepFor(absl::Milliseconds(10));
  // Sent at once, but its turn comes only after the slow one: longer than the read timeout.
  HttpServerTestClient waiting((*server)->port());
  waiting.Send("GET /fast HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_THAT(waiting.ReadAll(), StartsWith("HTTP/1.1 200"));
  EXPECT_THAT(busy.ReadAll(), StartsWith("HTTP/1.1 200"));
}

// A client that sends its whole body before it reads (as most do) must still
// read an answer given before the body was read: closing on unread bytes
// resets the connection, and a reset can take the answer with it.
TEST(HttpServerTest, AClientStillSendingARefusedBodyReadsItsAnswer) {
  struct Case {
    std::string name, headers, expected;
    bool chunked;
  };
  const std::vector<Case> cases = {
      {"over the limit from its length", "Content-Length: 33554432\r\n", "HTTP/1.1 413", false},
      {"refused by admit", "Content-Length: 33554432\r\nX-Refuse: yes\r\n", "HTTP/1.1 401", false},
      {"over the limit half way", "Transfer-Encoding: chunked\r\n", "HTTP/1.1 413", true},
  };
  HttpServer::Handlers handlers;
  handlers.admit = [](HttpServerRequest& request) -> std::optional<HttpServerResponse> {
    if (request.Header("X-Refuse").empty()) return std::nullopt;
    HttpServerResponse refused;
    refused.status = 401;
    return refused;
  };
  handlers.handle = [](const HttpServerRequest&) { return Ok(); };
  auto server = HttpServer::Start(LoopbackOptions(), handlers, RealClock::Instance());
  ASSERT_TRUE(server.ok()) << server.status();
  const std::string piece(64 * 1024, 'x');
  const std::string chunk = absl::StrCat(absl::Hex(piece.size()), "\r\n", piece, "\r\n");
  for (const Case& c : cases) {
    HttpServerTestClient client((*server)->port());
    ASSERT_TRUE(client.connected());
    bool sent = client.SendAll(absl::StrCat("POST / HTTP/1.1\r\nHost: h\r\n", c.headers, "\r\n"));
    for (int i = 0; sent && i < 512; ++i) sent = client.SendAll(c.chunked ? chunk : piece);
    if (sent && c.chunked) sent = client.SendAll("0\r\n\r\n");
    EXPECT_TRUE(sent) << c.name << ": the connection was reset while the body was sent";
    EXPECT_THAT(client.ReadAll(), StartsWith(c.expected)) << c.name;
  }
}

}  // namespace
}  // namespace fleetcap
