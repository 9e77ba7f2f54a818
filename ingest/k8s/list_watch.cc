#include "ingest/k8s/list_watch.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "common/json_nesting.h"
#include "common/logging.h"
#include "ingest/k8s/objects.h"

namespace fleetcap::k8s {
namespace {

using nlohmann::json;

std::string Escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      absl::StrAppend(&out, "%", absl::Hex(c, absl::kZeroPad2));
    }
  }
  return out;
}

// A string member, or "" (no exceptions, no null paths for the optimiser to doubt).
std::string StringField(const json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return "";
  return *it->get_ptr<const std::string*>();
}

std::string Sample(absl::string_view line) {
  return std::string(line.substr(0, 120)) + (line.size() > 120 ? "..." : "");
}

}  // namespace

ListWatcher::ListWatcher(WatchedResource resource, ListWatchOptions options, std::string server, HttpClient* http,
                         TokenSource* tokens, ResourceSink* sink, K8sMetrics* metrics, const std::atomic<bool>* stop,
                         uint64_t seed, const Clock* clock)
    : resource_(std::move(resource)),
      options_(options),
      server_(std::move(server)),
      http_(http),
      tokens_(tokens),
      sink_(sink),
      metrics_(metrics),
      stop_(stop),
      clock_(clock),
      rng_(seed) {}

std::vector<std::string> ListWatcher::Headers() {
  std::vector<std::string> headers = {"Accept: application/json", "User-Agent: fleetcap-ingest"};
  const std::string token = tokens_->Get();
  if (!token.empty()) headers.push_back("Authorization: Bearer " + token);
  return headers;
}

void ListWatcher::Backoff() {
  ++failures_;
  const double base = absl::ToDoubleSeconds(options_.initial_backoff) * std::pow(2.0, std::min(failures_ - 1, 20));
  const double capped = std::min(base, absl::ToDoubleSeconds(options_.max_backoff));
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  clock_->SleepUnlessStopped(absl::Seconds(capped * jitter(rng_)), *stop_);
}

void ListWatcher::Run() {
  bool need_list = true;
  while (!stop_->load()) {
    if (need_list) {
      if (metrics_ != nullptr)
        metrics_->Relists(resource_.kind, resource_version_.empty() ? "initial" : "gone").Increment();
      const Outcome listed = List();
      if (listed == Outcome::kStopped) return;
      if (listed != Outcome::kOk) {
        if (metrics_ != nullptr) metrics_->request_errors.Increment();
        Backoff();
        continue;
      }
      need_list = false;
    }
    const absl::Duration began = clock_->Monotonic();
    const Outcome watched = Watch();
    const bool short_lived = clock_->Monotonic() - began < options_.min_healthy_watch;
    switch (watched) {
      case Outcome::kStopped:
        return;
      case Outcome::kGone:
        if (metrics_ != nullptr) metrics_->WatchRestarts(resource_.kind, "gone").Increment();
        need_list = true;
        if (short_lived) Backoff();
        break;
      case Outcome::kOk:
        if (metrics_ != nullptr) metrics_->WatchRestarts(resource_.kind, "closed").Increment();
        if (short_lived) {
          Backoff();
        } else {
          failures_ = 0;
        }
        break;
      case Outcome::kUnauthorized:
      case Outcome::kError:
        if (metrics_ != nullptr) {
          metrics_->WatchRestarts(resource_.kind, "error").Increment();
          metrics_->request_errors.Increment();
        }
        if (!short_lived) failures_ = 0;
        Backoff();
        break;
    }
  }
}

ListWatcher::Outcome ListWatcher::List() {
  sink_->ListStarted(resource_.kind);
  std::string continue_token;
  while (true) {
    std::string url = absl::StrCat(server_, resource_.path, "?limit=", options_.page_size);
    if (!continue_token.empty()) absl::StrAppend(&url, "&continue=", Escape(continue_token));
    HttpGetRequest req{url, Headers(), absl::Seconds(10), absl::ZeroDuration(), options_.list_timeout};
    std::string body;
    auto status = http_->Get(req, [&](long, absl::string_view piece) {
      body.append(piece.data(), piece.size());
      return true;
    });
    if (stop_->load() || absl::IsCancelled(status.status())) return Outcome::kStopped;
    if (!status.ok()) {
      Logger("k8s")->warn("listing {}: {}", resource_.kind, std::string(status.status().message()));
      return Outcome::kError;
    }
    if (*status == 410 && !continue_token.empty()) {
      // The continue token expired: the list starts over, consistently.
      Logger("k8s")->info("listing {}: continue token expired (410); listing again", resource_.kind);
      if (metrics_ != nullptr) metrics_->Relists(resource_.kind, "expired-continue").Increment();
      continue_token.clear();
      sink_->ListStarted(resource_.kind);
      continue;
    }
    if (*status == 401 || *status == 403) {
      tokens_->Invalidate();
      Logger("k8s")->warn("listing {}: HTTP {} (token refused); reading the token again", resource_.kind, *status);
      return Outcome::kUnauthorized;
    }
    if (*status != 200) {
      Logger("k8s")->warn("listing {}: HTTP {}: {}", resource_.kind, *status, Sample(body));
      return Outcome::kError;
    }
    // Decoders and the quarantine walk objects recursively: nothing deeper than the limit gets parsed.
    if (auto problem = CheckJsonNesting(body)) {
      if (metrics_ != nullptr) metrics_->DecodeErrors(resource_.kind).Increment();
      Logger("k8s")->warn("listing {}: the response is nested deeper than {} levels (line {})", resource_.kind,
                          kMaxNestingDepth, problem->line);
      return Outcome::kError;
    }
    json page = json::parse(body, nullptr, false);
    body.clear();
    body.shrink_to_fit();
    if (page.is_discarded() || !page.is_object() || !page.contains("items") || !page["items"].is_array()) {
      if (metrics_ != nullptr) metrics_->DecodeErrors(resource_.kind).Increment();
      Logger("k8s")->warn("listing {}: the response is not a list", resource_.kind);
      return Outcome::kError;
    }
    for (const auto& item : page["items"]) {
      if (metrics_ != nullptr) metrics_->Objects(resource_.kind).Increment();
      sink_->Object(resource_.kind, item, false);
    }
    auto meta = page.find("metadata");
    const json empty = json::object();
    const json& m = meta == page.end() ? empty : *meta;
    continue_token = StringField(m, "continue");
    if (continue_token.empty()) {
      resource_version_ = StringField(m, "resourceVersion");
      break;
    }
  }
  sink_->ListEnded(resource_.kind);
  return Outcome::kOk;
}

bool ListWatcher::HandleWatchLine(absl::string_view line, Outcome& outcome) {
  if (line.empty()) return true;
  // Too deep to parse is counted and skipped like any line that is not an event.
  json event =
      CheckJsonNesting(line) ? json(json::value_t::discarded) : json::parse(line.begin(), line.end(), nullptr, false);
  const std::string type = StringField(event, "type");
  auto object_it = event.is_object() ? event.find("object") : event.end();
  if (event.is_discarded() || type.empty() || object_it == event.end() || !object_it->is_object()) {
    if (metrics_ != nullptr) metrics_->DecodeErrors(resource_.kind).Increment();
    if (!logged_malformed_) {
      logged_malformed_ = true;
      Logger("k8s")->warn(
          "watching {}: skipped a line that is not a watch event (logged once; counted in "
          "fleetcap_ingest_k8s_decode_errors_total): {}",
          resource_.kind, Sample(line));
    }
    return true;
  }
  const json& object = *object_it;
  if (metrics_ != nullptr) metrics_->Events(resource_.kind, type).Increment();
  if (type == "ERROR") {
    auto code_it = object.find("code");
    const int64_t code =
        code_it != object.end() && code_it->is_number_integer() ? *code_it->get_ptr<const int64_t*>() : 0;
    Logger("k8s")->info("watching {}: ERROR event {} ({})", resource_.kind, code, StringField(object, "message"));
    outcome = code == 410 ? Outcome::kGone : Outcome::kError;
    return false;
  }
  const std::string rv = ResourceVersionOf(object);
  if (type == "ADDED" || type == "MODIFIED") {
    sink_->Object(resource_.kind, object, false);
  } else if (type == "DELETED") {
    sink_->Object(resource_.kind, object, true);
  } else if (type != "BOOKMARK") {
    return true;
  }
  if (!rv.empty()) resource_version_ = rv;
  return true;
}

ListWatcher::Outcome ListWatcher::Watch() {
  std::uniform_real_distribution<double> spread(1.0, 2.0);
  const int64_t timeout_s =
      std::max<int64_t>(1, static_cast<int64_t>(absl::ToDoubleSeconds(options_.min_watch_timeout) * spread(rng_)));
  const std::string url = absl::StrCat(server_, resource_.path,
                                       "?watch=1&allowWatchBookmarks=true&resourceVersion=", Escape(resource_version_),
                                       "&timeoutSeconds=", timeout_s);
  HttpGetRequest req{url, Headers(), absl::Seconds(10), options_.watch_idle_timeout,
                     absl::Seconds(timeout_s) + options_.watch_idle_timeout};
  std::string buffer;
  Outcome outcome = Outcome::kOk;
  auto status = http_->Get(req, [&](long http_status, absl::string_view piece) {
    buffer.append(piece.data(), piece.size());
    if (http_status != 200) return buffer.size() < (1 << 16);  // a Status, not a stream
    size_t start = 0;
    for (size_t nl; (nl = buffer.find('\n', start)) != std::string::npos; start = nl + 1) {
      if (!HandleWatchLine(absl::string_view(buffer).substr(start, nl - start), outcome)) {
        buffer.clear();
        return false;
      }
    }
    buffer.erase(0, start);
    return true;
  });
  if (stop_->load() || absl::IsCancelled(status.status())) return Outcome::kStopped;
  if (!status.ok()) {
    Logger("k8s")->info("watching {}: {}", resource_.kind, std::string(status.status().message()));
    return outcome != Outcome::kOk ? outcome : Outcome::kError;
  }
  if (*status == 410) return Outcome::kGone;
  if (*status == 401 || *status == 403) {
    tokens_->Invalidate();
    Logger("k8s")->warn("watching {}: HTTP {} (token refused); reading the token again", resource_.kind, *status);
    return Outcome::kUnauthorized;
  }
  if (*status != 200) {
    Logger("k8s")->warn("watching {}: HTTP {}", resource_.kind, *status);
    return Outcome::kError;
  }
  if (!buffer.empty() && outcome == Outcome::kOk) HandleWatchLine(buffer, outcome);  // a last line without its newline
  return outcome;
}

}  // namespace fleetcap::k8s
