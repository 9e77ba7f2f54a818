#include "ingest/k8s/list_watch.h"

#include <gtest/gtest.h>

#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "common/clock.h"
#include "prometheus/registry.h"

namespace fleetcap::k8s {
namespace {

// Answers lists with one pod and watches with what the test queued; a watch
// with nothing queued ends at once (in simulated time).
class FakeHttp : public HttpClient {
 public:
  absl::StatusOr<long> Get(const HttpGetRequest& request,
                           const std::function<bool(long, absl::string_view)>& on_body) override {
    std::string body;
    long status = 200;
    const bool watch = absl::StrContains(request.url, "watch=1");
    {
      std::lock_guard<std::mutex> lock(mu_);
      urls.push_back(request.url);
      if (watch) {
        ++watches;
        if (!watch_bodies.empty()) {
          body = watch_bodies.front();
          watch_bodies.pop_front();
        }
      } else {
        ++lists;
        if (!list_statuses.empty()) {
          status = list_statuses.front();
          list_statuses.pop_front();
        }
        body = status == 200
                   ? R"({"kind":"PodList","metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"a"}}]})"
                   : R"({"kind":"Status","code":500})";
      }
    }
    if (!body.empty()) on_body(status, body);
    if (watch && on_watch) on_watch();
    return status;
  }
  std::function<void()> on_watch;  // runs as each watch ends
  std::mutex mu_;
  std::vector<std::string> urls;
  std::deque<std::string> watch_bodies;
  std::deque<long> list_statuses;
  int watches = 0;
  int lists = 0;
};

class CountingSink : public ResourceSink {
 public:
  void ListStarted(const std::string&) override { ++started; }
  void Object(const std::string&, const nlohmann::json& object, bool deleted) override {
    std::lock_guard<std::mutex> lock(mu);
    names.push_back((deleted ? "-" : "+") + object["metadata"].value("name", std::string("?")));
  }
  void ListEnded(const std::string&) override { ++ended; }
  std::mutex mu;
  std::vector<std::string> names;
  std::atomic<int> started{0}, ended{0};
};

// A ListWatcher on its own thread and on simulated time: the test moves
// the clock from one backoff to the next and sees what the watcher did.
struct Harness {
  Harness() : metrics(registry), tokens("tok", "", absl::Minutes(1), &clock) {
    options.initial_backoff = absl::Milliseconds(50);
    options.max_backoff = absl::Seconds(2);
    options.min_healthy_watch = absl::Seconds(1);
  }
  ~Harness() { Stop(); }
  void Start() {
    watcher = std::make_unique<ListWatcher>(WatchedResource{"Pod", "/api/v1/pods"}, options, "http://k", &http, &tokens,
                                            &sink, &metrics, &stop, 7, &clock);
    thread = std::thread([this] { watcher->Run(); });
    clock.AwaitSleepers(1);
  }
  // Lets the backoff in progress end; returns how long it was, once the
  // watcher sleeps again (its next request done).
  absl::Duration NextBackoff() {
    const absl::Duration backoff = clock.UntilNextDeadline();
    clock.Advance(backoff);
    clock.AwaitSleepers(1);
    return backoff;
  }
  void Stop() {
    stop = true;
    if (thread.joinable()) thread.join();
  }
  prometheus::Registry registry;
  K8sMetrics metrics;
  SimulatedClock clock{absl::FromUnixSeconds(1767225600)};
  TokenSource tokens;
  FakeHttp http;
  CountingSink sink;
  ListWatchOptions options;
  std::atomic<bool> stop{false};
  std::unique_ptr<ListWatcher> watcher;
  std::thread thread;
};

TEST(ListWatcher, AWatchThatEndsAtOnceBacksOffExponentially) {
  Harness h;
  h.Start();
  EXPECT_EQ(h.http.lists, 1);
  EXPECT_EQ(h.http.watches, 1);
  // 50, 100, 200, 400, 800 ms, then the 2 s cap, each with jitter in [0.5, 1).
  for (absl::Duration base : {absl::Milliseconds(50), absl::Milliseconds(100), absl::Milliseconds(200),
                              absl::Milliseconds(400), absl::Milliseconds(800), absl::Seconds(2), absl::Seconds(2)}) {
    const absl::Duration backoff = h.NextBackoff();
    EXPECT_GE(backoff, base / 2);
    EXPECT_LT(backoff, base);
  }
  h.Stop();
  EXPECT_EQ(h.http.lists, 1);
  EXPECT_EQ(h.http.watches, 8);
  EXPECT_TRUE(absl::StrContains(h.http.urls[1], "resourceVersion=5"));
  EXPECT_TRUE(absl::StrContains(h.http.urls[1], "allowWatchBookmarks=true"));
  EXPECT_TRUE(absl::StrContains(h.http.urls[0], "limit=500"));
}

TEST(ListWatcher, AWatchThatLastedResetsTheBackoff) {
  Harness h;
  int watch = 0;
  h.http.on_watch = [&] {  // the third watch lasts min_healthy_watch, the others end at once
    if (++watch == 3) h.clock.Advance(absl::Seconds(1));
  };
  h.Start();
  const absl::Duration first = h.NextBackoff();
  EXPECT_GE(first, absl::Milliseconds(25));
  EXPECT_LT(first, absl::Milliseconds(50));
  const absl::Duration second = h.NextBackoff();
  EXPECT_GE(second, absl::Milliseconds(50));
  EXPECT_LT(second, absl::Milliseconds(100));
  // The third watch was healthy, the fourth ended at once: the backoff starts over.
  const absl::Duration after_healthy = h.clock.UntilNextDeadline();
  EXPECT_GE(after_healthy, absl::Milliseconds(25));
  EXPECT_LT(after_healthy, absl::Milliseconds(50));
  h.Stop();
  EXPECT_EQ(h.http.watches, 4);
}

TEST(ListWatcher, EventsBookmarksAndAGoneErrorThatRelists) {
  Harness h;
  h.http.watch_bodies = {
      "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"b\",\"resourceVersion\":\"6\"}}}\n"
      "this is not json\n"
      "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"9\"}}}\n"
      "{\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"10\"}}}\n"
      "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410,\"reason\":\"Expired\"}}\n"};
  h.Start();
  EXPECT_EQ(h.http.lists, 1);
  h.NextBackoff();
  h.Stop();
  EXPECT_EQ(h.http.lists, 2);  // the 410 led to a new list
  ASSERT_GE(h.sink.names.size(), 4u);
  EXPECT_EQ(h.sink.names[0], "+a");
  EXPECT_EQ(h.sink.names[1], "+b");
  EXPECT_EQ(h.sink.names[2], "-a");
  EXPECT_EQ(h.sink.names[3], "+a");
  EXPECT_EQ(h.sink.ended.load(), 2);
  EXPECT_EQ(h.metrics.DecodeErrors("Pod").Value(), 1);
  EXPECT_EQ(h.metrics.Events("Pod", "BOOKMARK").Value(), 1);
}

TEST(ListWatcher, AnEventNestedTooDeepIsCountedAndSkipped) {
  Harness h;
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  h.http.watch_bodies = {"{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"b\"},\"x\":" + deep + "}}\n" +
                         "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"c\",\"resourceVersion\":\"6\"}}}\n"};
  h.Start();
  h.Stop();
  ASSERT_EQ(h.sink.names.size(), 2u);
  EXPECT_EQ(h.sink.names[0], "+a");
  EXPECT_EQ(h.sink.names[1], "+c");
  EXPECT_EQ(h.metrics.DecodeErrors("Pod").Value(), 1);
}

TEST(ListWatcher, FailedListsAreRetriedWithBackoff) {
  Harness h;
  h.http.list_statuses = {500, 503, 500};
  h.Start();
  EXPECT_EQ(h.sink.ended.load(), 0);
  for (absl::Duration base : {absl::Milliseconds(50), absl::Milliseconds(100), absl::Milliseconds(200)}) {
    const absl::Duration backoff = h.NextBackoff();
    EXPECT_GE(backoff, base / 2);
    EXPECT_LT(backoff, base);
  }
  h.Stop();
  EXPECT_EQ(h.http.lists, 4);
  EXPECT_EQ(h.sink.ended.load(), 1);
  EXPECT_GE(h.metrics.request_errors.Value(), 3);
}

}  // namespace
}  // namespace fleetcap::k8s
