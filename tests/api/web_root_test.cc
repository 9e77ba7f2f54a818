// fleetcap-api --web-root over real HTTP: the dashboard's files at "/",
// index.html for client-side routes, the right headers, and no way out of
// the folder for requests sent byte for byte as a hostile client would
// (no client normalises "..", %2e%2e or NUL away first).

#include <arpa/inet.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"
#include "tests/support/test_dir.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kIndex[] = "<!doctype html><html lang=\"en\"><title>fleetcap</title></html>";
constexpr char kSecret[] = "a secret beside the web root";

struct RawResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

// Sends `request_line` and a Host header as they are, and reads the answer until the server closes.
RawResponse RawGet(int port, const std::string& request_line) {
  RawResponse response;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return response;
  }
  const std::string request = request_line + "\r\nHost: fleetcap\r\nConnection: close\r\n\r\n";
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string raw;
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (absl::Now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    char buffer[4096];
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    raw.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  const size_t end = raw.find("\r\n\r\n");
  if (end == std::string::npos) return response;
  std::vector<std::string> lines = absl::StrSplit(raw.substr(0, end), "\r\n");
  std::vector<std::string> status_line = absl::StrSplit(lines[0], ' ');
  if (status_line.size() < 2 || !absl::SimpleAtoi(status_line[1], &response.status)) return response;
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t colon = lines[i].find(':');
    if (colon == std::string::npos) continue;
    response.headers[absl::AsciiStrToLower(lines[i].substr(0, colon))] =
        std::string(absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
  }
  response.body = raw.substr(end + 4);
  return response;
}

class WebRootTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    const std::string web = dir_.path() + "/dist";
    std::filesystem::create_directories(web + "/assets");
    dir_.Write("dist/index.html", kIndex);
    dir_.Write("dist/assets/index-Ab12.js", "export const x = 1;\n");
    dir_.Write("dist/assets/index-Ab12.css", "body{margin:0}\n");
    dir_.Write("secret.txt", kSecret);
    std::filesystem::create_symlink(dir_.path() + "/secret.txt", web + "/assets/leak.js");
    auto api = testing::StartApi(fleetcap::testing::kApiBin, db_->uri(), {"--web-root", web});
    ASSERT_THAT(api, IsOk());
    api_ = std::move(*api);
  }
  RawResponse Get(const std::string& target) { return RawGet(api_.http_port, "GET " + target + " HTTP/1.1"); }

  testing::TestDir dir_{"web-root"};
  testing::ApiProcess api_;
};

TEST_F(WebRootTest, HostilePathsReadNothingOutsideTheWebRoot) {
  for (const std::string target :
       {"/../secret.txt", "/../../../../etc/passwd", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/etc/passwd",
        "/assets/..%2f..%2fsecret.txt", "/.%2e/secret.txt", "/assets/leak.js", "/index.html%00.js", "/%00",
        "/..%5csecret.txt", "/assets/%2e%2e/%2e%2e/secret.txt"}) {
    RawResponse response = Get(target);
    EXPECT_THAT(response.status, ::testing::AnyOf(400, 404)) << target;
    EXPECT_THAT(response.body, Not(HasSubstr(kSecret))) << target;
    EXPECT_THAT(response.body, Not(HasSubstr("root:"))) << target;
  }
  // An empty segment is skipped: "//etc/passwd" is the client-side route etc/passwd, the app's page.
  RawResponse doubled = Get("//etc/passwd");
  EXPECT_EQ(doubled.body, kIndex);
  // Absolute-form requests name another host's path: never a file of ours.
  RawResponse absolute = Get("http://evil.example/../secret.txt");
  EXPECT_THAT(absolute.body, Not(HasSubstr(kSecret)));
}

TEST_F(WebRootTest, ServesFilesAndTheIndexForClientRoutes) {
  RawResponse js = Get("/assets/index-Ab12.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.body, "export const x = 1;\n");
  EXPECT_EQ(js.headers["content-type"], "text/javascript; charset=utf-8");
  EXPECT_EQ(js.headers["cache-control"], "public, max-age=31536000, immutable");
  EXPECT_EQ(js.headers["x-content-type-options"], "nosniff");
  EXPECT_EQ(Get("/assets/index-Ab12.css").headers["content-type"], "text/css; charset=utf-8");
  EXPECT_EQ(Get("/assets/gone-0000.js").status, 404);

  for (const std::string target : {"/", "/index.html", "/fleet", "/chargeback?range=7d", "/recommendations/x/y"}) {
    RawResponse page = Get(target);
    EXPECT_EQ(page.status, 200) << target;
    EXPECT_EQ(page.body, kIndex) << target;
    EXPECT_EQ(page.headers["content-type"], "text/html; charset=utf-8") << target;
    EXPECT_EQ(page.headers["cache-control"], "no-cache") << target;
  }
  RawResponse head = RawGet(api_.http_port, "HEAD /fleet HTTP/1.1");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.headers["content-length"], std::to_string(std::string(kIndex).size()));
  EXPECT_EQ(head.body, "");
  EXPECT_EQ(RawGet(api_.http_port, "POST /fleet HTTP/1.1").status, 405);
}

TEST_F(WebRootTest, TheApiStaysBehindItsToken) {
  auto anonymous = testing::HttpGet(api_.http_base() + "/v1/tokens/self");
  ASSERT_THAT(anonymous, IsOk());
  EXPECT_EQ(anonymous->status, 401);
  auto unknown = testing::HttpGet(api_.http_base() + "/v1/no-such-route");
  ASSERT_THAT(unknown, IsOk());
  EXPECT_EQ(unknown->status, 401);
  auto self = testing::HttpGet(api_.http_base() + "/v1/tokens/self", api_.admin_token);
  ASSERT_THAT(self, IsOk());
  EXPECT_EQ(self->status, 200);
  EXPECT_THAT(self->body, HasSubstr("admin"));
}

TEST(WebRootFlag, WithoutItTheRootSaysHowToServeTheDashboard) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto api = testing::StartApi(fleetcap::testing::kApiBin, (*db)->uri());
  ASSERT_THAT(api, IsOk());
  RawResponse root = RawGet(api->http_port, "GET / HTTP/1.1");
  EXPECT_EQ(root.status, 404);
  EXPECT_THAT(root.body, HasSubstr("--web-root"));
  // Other paths are the API's, as before: nothing is learnt without a token.
  EXPECT_EQ(RawGet(api->http_port, "GET /fleet HTTP/1.1").status, 401);
}

TEST(WebRootFlag, AFolderWithoutABuiltAppStopsTheStartNamingTheFlag) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  testing::TestDir empty("web-root-empty");
  auto result = testing::Run({fleetcap::testing::kApiBin, "--db", (*db)->uri(), "--grpc-listen", "127.0.0.1:0",
                              "--http-listen", "127.0.0.1:0", "--web-root", empty.path()});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(result.err, HasSubstr("--web-root"));
  EXPECT_THAT(result.err, HasSubstr("index.html"));
}

}  // namespace
}  // namespace fleetcap
