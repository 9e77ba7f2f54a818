#include "ingest/k8s/k8s_ingest.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "store/memory_live_inventory_repository.h"

namespace fleetcap::k8s {
namespace {

const absl::Time kIngestT0 = absl::FromUnixSeconds(1767225600);
constexpr const char* kPods = "/api/v1/pods";

// The API server on simulated time: every collection lists as one empty
// page (or answers the status the test set for it), and every watch stays
// open, asleep on the clock, until the ingest cancels it. Remembers when
// each watcher's client was made and which collection was listed when.
class FakeApi {
 public:
  explicit FakeApi(const SimulatedClock* clock) : clock_(clock) {}

  std::unique_ptr<HttpClient> NewClient(const std::atomic<bool>* cancel) {
    std::lock_guard<std::mutex> lock(mu_);
    clients_made_.push_back(clock_->Now());
    return std::make_unique<Client>(this, cancel);
  }
  // When the watchers' clients were made, in order.
  std::vector<absl::Time> clients_made() {
    std::lock_guard<std::mutex> lock(mu_);
    return clients_made_;
  }
  void FailLists(const std::string& path, long status) {
    std::lock_guard<std::mutex> lock(mu_);
    list_status_[path] = status;
  }
  std::vector<std::pair<std::string, absl::Time>> lists() {
    std::lock_guard<std::mutex> lock(mu_);
    return lists_;
  }
  bool Listed(const std::string& path) { return ListedAt(path) != absl::InfiniteFuture(); }
  // When `path` was first listed; InfiniteFuture if never.
  absl::Time ListedAt(const std::string& path) {
    for (const auto& [listed, at] : lists()) {
      if (listed == path) return at;
    }
    return absl::InfiniteFuture();
  }
  bool Watched(const std::string& path) {
    std::lock_guard<std::mutex> lock(mu_);
    return watched_.count(path) > 0;
  }

 private:
  class Client : public HttpClient {
   public:
    Client(FakeApi* api, const std::atomic<bool>* cancel) : api_(api), cancel_(cancel) {}
    absl::StatusOr<long> Get(const HttpGetRequest& request,
                             const std::function<bool(long, absl::string_view)>& on_body) override {
      const std::string path = request.url.substr(0, request.url.find('?')).substr(std::string("http://k").size());
      if (absl::StrContains(request.url, "watch=1")) {
        {
          std::lock_guard<std::mutex> lock(api_->mu_);
          api_->watched_.insert(path);
        }
        api_->clock_->SleepUnlessStopped(absl::InfiniteDuration(), *cancel_);
        return absl::CancelledError("stopped");
      }
      long status = 200;
      {
        std::lock_guard<std::mutex> lock(api_->mu_);
        api_->lists_.emplace_back(path, api_->clock_->Now());
        if (auto it = api_->list_status_.find(path); it != api_->list_status_.end()) status = it->second;
      }
      on_body(status, status == 200 ? R"({"kind":"List","metadata":{"resourceVersion":"1"},"items":[]})"
                                    : R"({"kind":"Status","code":500})");
      return status;
    }

   private:
    FakeApi* api_;
    const std::atomic<bool>* cancel_;
  };

  const SimulatedClock* clock_;
  std::mutex mu_;
  std::vector<absl::Time> clients_made_;                   // guarded by mu_
  std::vector<std::pair<std::string, absl::Time>> lists_;  // guarded by mu_
  std::map<std::string, long> list_status_;                // guarded by mu_
  std::set<std::string> watched_;                          // guarded by mu_
};

class K8sIngestTest : public ::testing::Test {
 protected:
  K8sIngestOptions Options() {
    K8sIngestOptions options;
    options.connection.server = "http://k";
    options.reconciler.cluster = "c1";
    options.new_http_client = [this](const std::atomic<bool>* cancel) { return api_.NewClient(cancel); };
    return options;
  }

  SimulatedClock clock_{kIngestT0};
  FakeApi api_{&clock_};
  store::MemoryLiveInventoryRepository repo_;
  std::atomic<bool> stop_{false};
};

TEST_F(K8sIngestTest, PodsAreListedOnceEveryOtherKindIsWithoutWaiting) {
  K8sIngestOptions options = Options();
  options.exit_after_sync = true;
  K8sIngest ingest(options, &repo_, nullptr, &clock_);
  bool synced = false;
  ASSERT_TRUE(ingest.Run(&stop_, [&] { synced = true; }).ok());
  EXPECT_TRUE(synced);
  const auto lists = api_.lists();
  ASSERT_EQ(lists.size(), 8u);
  EXPECT_EQ(lists.back().first, kPods);  // after every other kind's list ended
  EXPECT_EQ(lists.back().second, kIngestT0);
}

// A controller kind that cannot be listed (here CronJob) holds pods back for
// 30 s after nodes and namespaces are known, then no longer.
TEST_F(K8sIngestTest, PodsWaitThirtySecondsForAControllerKindThatCannotBeListed) {
  api_.FailLists("/apis/batch/v1/cronjobs", 500);
  K8sIngest ingest(Options(), &repo_, nullptr, &clock_);
  absl::Status ran;
  std::thread run([&] { ran = ingest.Run(&stop_, nullptr); });
  while (!api_.Watched("/api/v1/nodes") || !api_.Watched("/api/v1/namespaces")) std::this_thread::yield();
  // Asleep: the ingest's loop, the six watches and the CronJob lister's backoff.
  constexpr int kSleepers = 8;
  clock_.AwaitSleepers(kSleepers);
  // The pods' watcher is the eighth; the ingest's loop starts it before it
  // sleeps again, so after each step the count is current.
  const absl::Duration step = absl::Milliseconds(250);
  for (int i = 0; i < 200 && api_.clients_made().size() < 8; ++i) {
    clock_.Advance(step);
    clock_.AwaitSleepers(kSleepers);
  }
  while (!api_.Listed(kPods)) std::this_thread::yield();
  stop_ = true;
  clock_.Advance(step);
  run.join();
  EXPECT_TRUE(ran.ok()) << ran;
  const std::vector<absl::Time> made = api_.clients_made();
  ASSERT_EQ(made.size(), 8u);
  // Nodes and namespaces were known at kIngestT0 (or, had the loop not yet taken
  // their lists in when the clock first moved, one step later).
  EXPECT_GE(made.back(), kIngestT0 + absl::Seconds(30));
  EXPECT_LE(made.back(), kIngestT0 + absl::Seconds(30) + step);
  EXPECT_GE(api_.lists().size(), 9u);  // the CronJob list was tried again meanwhile
}

}  // namespace
}  // namespace fleetcap::k8s
