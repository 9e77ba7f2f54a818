#include "ingest/k8s/k8s_ingest.h"

#include <thread>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "store/quarantine_repository.h"

namespace fleetcap::k8s {
namespace {

const std::vector<WatchedResource>& Resources() {
  static const auto* resources = new std::vector<WatchedResource>{
      {"Namespace", "/api/v1/namespaces"},
      {"ReplicaSet", "/apis/apps/v1/replicasets"},
      {"Deployment", "/apis/apps/v1/deployments"},
      {"StatefulSet", "/apis/apps/v1/statefulsets"},
      {"Job", "/apis/batch/v1/jobs"},
      {"CronJob", "/apis/batch/v1/cronjobs"},
      {"Node", "/api/v1/nodes"},
      {"Pod", "/api/v1/pods"},
  };
  return *resources;
}

// What identifies an object of `kind` to the reconciler (a pod's or
// controller's uid, a node's or namespace's name), read without decoding the
// rest; "" when absent.
std::string KeyOf(const std::string& kind, const nlohmann::json& object) {
  const bool by_name = kind == "Node" || kind == "Namespace";
  if (!object.is_object()) return "";
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto key = meta->find(by_name ? "name" : "uid");
  return key != meta->end() && key->is_string() ? key->get<std::string>() : "";
}

// "Pod ns/name uid=..." for the quarantine.
std::string NameOf(const std::string& kind, const nlohmann::json& object) {
  auto field = [&](const char* key) -> std::string {
    if (!object.is_object()) return "";
    auto meta = object.find("metadata");
    if (meta == object.end() || !meta->is_object()) return "";
    auto value = meta->find(key);
    return value != meta->end() && value->is_string() ? value->get<std::string>() : "";
  };
  const std::string ns = field("namespace");
  return absl::StrCat(kind, " ", ns.empty() ? "" : ns + "/", field("name"), " uid=", field("uid"));
}

DecodeOptions DecodeOptionsFor(const ReconcilerOptions& r) {
  DecodeOptions d;
  d.pod_labels.insert(r.teams.pod_label_keys.begin(), r.teams.pod_label_keys.end());
  d.pod_annotations = {r.accelerators.share_milli_annotation, r.accelerators.share_count_annotation,
                       r.accelerators.device_index_annotation};
  d.namespace_labels.insert(r.teams.namespace_label_keys.begin(), r.teams.namespace_label_keys.end());
  d.namespace_annotations.insert(r.teams.namespace_annotation_keys.begin(), r.teams.namespace_annotation_keys.end());
  return d;
}

}  // namespace

K8sIngest::K8sIngest(K8sIngestOptions options, store::LiveInventoryRepository* repo, K8sMetrics* metrics,
                     const Clock* clock)
    : options_(std::move(options)),
      repo_(repo),
      metrics_(metrics),
      clock_(clock),
      reconciler_(options_.reconciler, repo, metrics, clock),
      decode_(DecodeOptionsFor(options_.reconciler)) {}

void K8sIngest::Push(Item item) {
  std::unique_lock<std::mutex> lock(mu_);
  space_.wait(lock, [&] { return queue_.size() < options_.queue_limit || stopping_.load(); });
  if (stopping_.load() && queue_.size() >= options_.queue_limit) return;
  queue_.push_back(std::move(item));
  ready_.notify_one();
}

void K8sIngest::ListStarted(const std::string& kind) { Push(Item(Item::kListStarted, kind, clock_->Now())); }

void K8sIngest::ListEnded(const std::string& kind) { Push(Item(Item::kListEnded, kind, clock_->Now())); }

void K8sIngest::Object(const std::string& kind, const nlohmann::json& object, bool deleted) {
  Item item(deleted ? Item::kDeleted : Item::kObject, kind, clock_->Now());
  absl::Status status;
  if (kind == "Pod") {
    auto pod = DecodePod(object, decode_);
    status = pod.ok() ? CheckDemandArithmetic(*pod) : pod.status();
    if (status.ok()) item.object = std::move(*pod);
  } else if (kind == "Node") {
    auto node = DecodeNode(object);
    status = node.status();
    if (node.ok()) item.object = std::move(*node);
  } else if (kind == "Namespace") {
    auto ns = DecodeNamespace(object, decode_);
    status = ns.status();
    if (ns.ok()) item.object = std::move(*ns);
  } else {
    auto controller = DecodeController(object, kind);
    status = controller.status();
    if (controller.ok()) item.object = std::move(*controller);
  }
  if (!status.ok()) {
    if (metrics_ != nullptr) metrics_->DecodeErrors(kind).Increment();
    item.op = Item::kUnusable;
    item.key = KeyOf(kind, object);
    item.deleted = deleted;
    item.reason = absl::IsOutOfRange(status) ? "overflow" : "undecodable";
    item.unusable.object_key = NameOf(kind, object);
    item.unusable.reason = std::string(status.message());
    // Replacing what is not UTF-8 rather than throwing: the payload is evidence, not input.
    item.unusable.payload =
        store::BoundedQuarantinePayload(object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    item.unusable.at = item.observed;
    item.unusable.id = 0;
    item.object = std::monostate{};
  }
  Push(std::move(item));
}

// Kept as it was last stored: listed, so the list's end does not close it;
// deleted, it ends now. Set aside once per reason while it stays unusable.
void K8sIngest::ApplyUnusable(Item& item) {
  const std::string& kind = item.kind;
  if (!item.key.empty()) {
    if (item.deleted) {
      if (kind == "Pod") {
        reconciler_.PodGone(item.key, item.observed);
      } else if (kind == "Node") {
        reconciler_.NodeDeleted(item.key, item.observed);
      } else if (kind == "Namespace") {
        reconciler_.NamespaceDeleted(item.key);
      } else {
        reconciler_.ControllerDeleted(item.key);
      }
    } else if (auto listing = listing_.find(kind); listing != listing_.end()) {
      listing->second.insert(item.key);
    }
    const std::string key = absl::StrCat(kind, "/", item.key);
    if (item.deleted) {
      set_aside_.erase(key);
    } else {
      auto [seen, inserted] = set_aside_.try_emplace(key, item.unusable.reason);
      if (!inserted && seen->second == item.unusable.reason) return;
      seen->second = item.unusable.reason;
    }
  }
  reconciler_.SetAside(std::move(item.unusable), item.reason);
}

void K8sIngest::Apply(Item& item) {
  const std::string& kind = item.kind;
  switch (item.op) {
    case Item::kListStarted:
      listing_[kind].clear();
      if (kind == "Pod") reconciler_.PodsRelistStarted();
      return;
    case Item::kListEnded: {
      std::set<std::string> keys = std::move(listing_[kind]);
      listing_.erase(kind);
      if (kind == "Pod") {
        reconciler_.PodsListed(keys, item.observed);
      } else if (kind == "Node") {
        reconciler_.NodesListed(keys, item.observed);
      } else if (kind == "Namespace") {
        reconciler_.NamespacesListed(keys);
      } else {
        reconciler_.ControllersListed(kind, keys);
      }
      synced_kinds_.insert(kind);
      return;
    }
    case Item::kUnusable:
      ApplyUnusable(item);
      return;
    case Item::kObject:
    case Item::kDeleted:
      break;
  }
  const bool deleted = item.op == Item::kDeleted;
  auto listing = listing_.find(kind);
  if (!set_aside_.empty()) {
    // Usable again (or gone): a later unusable version is set aside anew.
    std::string key;
    if (auto* pod = std::get_if<PodObject>(&item.object)) key = pod->uid;
    if (auto* node = std::get_if<NodeObject>(&item.object)) key = node->name;
    if (auto* ns = std::get_if<NamespaceObject>(&item.object)) key = ns->name;
    if (auto* c = std::get_if<ControllerObject>(&item.object)) key = c->uid;
    set_aside_.erase(absl::StrCat(kind, "/", key));
  }
  if (auto* pod = std::get_if<PodObject>(&item.object)) {
    if (listing != listing_.end()) listing->second.insert(pod->uid);
    if (deleted) {
      reconciler_.PodDeleted(*pod, item.observed);
    } else {
      reconciler_.Pod(*pod, item.observed);
    }
  } else if (auto* node = std::get_if<NodeObject>(&item.object)) {
    if (listing != listing_.end()) listing->second.insert(node->name);
    if (deleted) {
      reconciler_.NodeDeleted(node->name, item.observed);
    } else {
      reconciler_.Node(*node, item.observed);
    }
  } else if (auto* ns = std::get_if<NamespaceObject>(&item.object)) {
    if (listing != listing_.end()) listing->second.insert(ns->name);
    if (deleted) {
      reconciler_.NamespaceDeleted(ns->name);
    } else {
      reconciler_.Namespace(*ns);
    }
  } else if (auto* c = std::get_if<ControllerObject>(&item.object)) {
    if (listing != listing_.end()) listing->second.insert(c->uid);
    if (deleted) {
      reconciler_.ControllerDeleted(c->uid);
    } else {
      reconciler_.Controller(*c);
    }
  }
}

bool K8sIngest::FlushNow() {
  const size_t pending = reconciler_.pending();
  if (pending == 0) return true;
  const absl::Status status = reconciler_.Flush();
  if (status.ok()) {
    if (flush_failing_) Logger("k8s")->info("writing to the store works again");
    flush_failing_ = false;
    return true;
  }
  if (!flush_failing_) {
    Logger("k8s")->warn("writing {} inventory changes failed; keeping them and trying again: {}", pending,
                        std::string(status.message()));
  }
  flush_failing_ = true;
  return false;
}

absl::Status K8sIngest::Run(std::atomic<bool>* stop, const std::function<void()>& on_synced) {
  FLEETCAP_RETURN_IF_ERROR(reconciler_.Start());
  tokens_ = std::make_unique<TokenSource>(options_.connection.token, options_.connection.token_file,
                                          options_.token_reread, clock_);
  seed_ = static_cast<uint64_t>(absl::ToUnixNanos(clock_->Now()));
  for (const auto& r : Resources()) {
    if (r.kind != "Pod") StartWatching(r);
  }
  last_flush_ = clock_->Monotonic();
  next_policy_ = clock_->Monotonic() + options_.policy_refresh;
  while (!stop->load()) {
    for (auto& item : TakeQueued()) Apply(item);
    StartPodsWhenReady();
    const absl::Duration now = clock_->Monotonic();
    const bool synced = synced_kinds_.size() == Resources().size();
    FlushWhenDue(now, synced);
    if (synced && reconciler_.pending() == 0 && RecordSynced(on_synced) && options_.exit_after_sync) break;
    RefreshPolicyWhenDue(now);
    CountTokenReloads();
  }
  return StopWatching();
}

void K8sIngest::StartWatching(const WatchedResource& resource) {
  clients_.push_back(options_.new_http_client ? options_.new_http_client(&stopping_)
                                              : NewCurlHttpClient(options_.connection.tls, &stopping_));
  watchers_.push_back(std::make_unique<ListWatcher>(resource, options_.list_watch, options_.connection.server,
                                                    clients_.back().get(), tokens_.get(), this, metrics_, &stopping_,
                                                    seed_++, clock_));
  ListWatcher* w = watchers_.back().get();
  threads_.emplace_back([w] { w->Run(); });
}

// What the watchers queued, once there is some or flush_interval passed.
std::deque<K8sIngest::Item> K8sIngest::TakeQueued() {
  std::deque<Item> batch;
  {
    std::unique_lock<std::mutex> lock(mu_);
    clock_->WaitFor(lock, ready_, options_.flush_interval, [&] { return !queue_.empty(); });
    batch.swap(queue_);
  }
  space_.notify_all();
  return batch;
}

// Pods come once nodes and namespaces are known (so they can be placed and
// given teams) and the controllers too (so their workloads are named at
// once), or 30 s after, should a controller kind not be listable: workloads
// are named again when their controllers arrive.
void K8sIngest::StartPodsWhenReady() {
  if (pods_started_ || !synced_kinds_.count("Node") || !synced_kinds_.count("Namespace")) return;
  if (nodes_known_at_ == absl::InfiniteDuration()) nodes_known_at_ = clock_->Monotonic();
  if (synced_kinds_.size() + 1 < Resources().size() && clock_->Monotonic() - nodes_known_at_ < absl::Seconds(30)) {
    return;
  }
  for (const auto& r : Resources()) {
    if (r.kind == "Pod") StartWatching(r);
  }
  pods_started_ = true;
}

// Writes go in batches: when many changes wait, when the interval has
// passed, and at once when the first complete sync is ready. A failed
// write is tried again a second later.
void K8sIngest::FlushWhenDue(absl::Duration now, bool synced) {
  const size_t pending = reconciler_.pending();
  if (pending == 0 || now < next_flush_try_) return;
  if (pending < options_.flush_at && now - last_flush_ < options_.flush_interval && (!synced || announced_)) return;
  if (FlushNow()) {
    last_flush_ = now;
  } else {
    next_flush_try_ = now + absl::Seconds(1);
  }
}

// A complete sync is stored: counted, and the first one announced. Returns
// whether this was the first.
bool K8sIngest::RecordSynced(const std::function<void()>& on_synced) {
  if (metrics_ != nullptr) metrics_->last_sync.Set(absl::ToDoubleSeconds(clock_->Now() - absl::UnixEpoch()));
  if (announced_) return false;
  announced_ = true;
  Logger("k8s")->info("cluster {}: synced ({} accelerator pods)", options_.reconciler.cluster,
                      reconciler_.pods_tracked());
  if (on_synced) on_synced();
  return true;
}

void K8sIngest::RefreshPolicyWhenDue(absl::Duration now) {
  if (now < next_policy_) return;
  next_policy_ = now + options_.policy_refresh;
  auto active = repo_->ActivePolicy();
  if (active.ok()) reconciler_.SetPolicy(*active);
}

void K8sIngest::CountTokenReloads() {
  if (metrics_ == nullptr || tokens_->reloads() <= tokens_reloaded_) return;
  metrics_->token_reloads.Increment(tokens_->reloads() - tokens_reloaded_);
  tokens_reloaded_ = tokens_->reloads();
}

// Stops the watchers; what was read before the stop is still applied and
// written (a few tries, a second apart).
absl::Status K8sIngest::StopWatching() {
  stopping_ = true;
  space_.notify_all();
  for (auto& t : threads_) t.join();
  std::deque<Item> rest;
  {
    std::lock_guard<std::mutex> lock(mu_);
    rest.swap(queue_);
  }
  for (auto& item : rest) Apply(item);
  for (int attempt = 0; attempt < 5 && !FlushNow(); ++attempt) clock_->SleepFor(absl::Seconds(1));
  if (reconciler_.pending() > 0) {
    return absl::UnavailableError(absl::StrCat(reconciler_.pending(), " inventory changes could not be written"));
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::k8s
