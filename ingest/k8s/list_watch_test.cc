#include "ingest/k8s/list_watch.h"

#include <gtest/gtest.h>

#include <deque>
#include <mutex>
#include <thread>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "prometheus/registry.h"

namespace fleetcap::k8s {
namespace {

// Answers lists with one pod and watches with what the test queued; a watch
// with nothing queued ends at once.
class FakeHttp : public HttpClient {
 public:
  absl::StatusOr<long> Get(const HttpGetRequest& request,
                           const std::function<bool(long, absl::string_view)>& on_body) override {
    std::string body;
    long status = 200;
    {
      std::lock_guard<std::mutex> lock(mu_);
      urls.push_back(request.url);
      if (absl::StrContains(request.url, "watch=1")) {
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
        body = status == 200 ? R"({"kind":"PodList","metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"a"}}]})"
                             : R"({"kind":"Status","code":500})";
      }
    }
    if (!body.empty()) on_body(status, body);
    return status;
  }
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

struct Harness {
  Harness() : metrics(registry), tokens("tok", "", absl::Minutes(1), &clock) {
    options.initial_backoff = absl::Milliseconds(50);
    options.max_backoff = absl::Seconds(2);
    options.min_healthy_watch = absl::Seconds(1);
  }
  void RunFor(absl::Duration d) {
    ListWatcher w({"Pod", "/api/v1/pods"}, options, "http://k", &http, &tokens, &sink, &metrics, &stop, 7);
    std::thread t([&] { w.Run(); });
    absl::SleepFor(d);
    stop = true;
    t.join();
  }
  prometheus::Registry registry;
  K8sMetrics metrics;
  RealClock clock;
  TokenSource tokens;
  FakeHttp http;
  CountingSink sink;
  ListWatchOptions options;
  std::atomic<bool> stop{false};
};

TEST(ListWatcher, AWatchThatEndsAtOnceIsNotATightLoop) {
  Harness h;
  h.RunFor(absl::Milliseconds(1500));
  EXPECT_EQ(h.http.lists, 1);
  // Backoff 50, 100, 200, 400, 800 ms (with jitter) fits a handful in 1.5 s, not thousands.
  EXPECT_GE(h.http.watches, 2);
  EXPECT_LE(h.http.watches, 12);
  EXPECT_TRUE(absl::StrContains(h.http.urls[1], "resourceVersion=5"));
  EXPECT_TRUE(absl::StrContains(h.http.urls[1], "allowWatchBookmarks=true"));
  EXPECT_TRUE(absl::StrContains(h.http.urls[0], "limit=500"));
}

TEST(ListWatcher, EventsBookmarksAndAGoneErrorThatRelists) {
  Harness h;
  h.http.watch_bodies = {
      "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"b\",\"resourceVersion\":\"6\"}}}\n"
      "this is not json\n"
      "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"9\"}}}\n"
      "{\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"10\"}}}\n"
      "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410,\"reason\":\"Expired\"}}\n"};
  h.RunFor(absl::Milliseconds(500));
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

TEST(ListWatcher, FailedListsAreRetriedWithBackoff) {
  Harness h;
  h.http.list_statuses = {500, 503, 500};
  h.RunFor(absl::Milliseconds(1200));
  EXPECT_EQ(h.http.lists, 4);
  EXPECT_EQ(h.sink.ended.load(), 1);
  EXPECT_GE(h.metrics.request_errors.Value(), 3);
}

}  // namespace
}  // namespace fleetcap::k8s
