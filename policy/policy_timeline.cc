#include "policy/policy_timeline.h"

#include <algorithm>

#include "common/logging.h"
#include "common/status_macros.h"
#include "policy/policy_parser.h"

namespace fleetcap::policy {

absl::Status PolicyTimeline::Refresh() {
  int32_t after;
  {
    std::lock_guard<std::mutex> lock(mu_);
    after = newest_;
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto stored, fetch_(after));
  std::sort(stored.begin(), stored.end(),
            [](const StoredPolicy& a, const StoredPolicy& b) { return a.version < b.version; });
  // Parsed outside the lock; a version that does not parse has no resolver.
  std::vector<PolicyInForce> parsed;
  for (const auto& s : stored) {
    if (s.version <= after) continue;
    PolicyInForce v;
    v.version = s.version;
    v.from = s.applied_at;
    ParsedPolicy p = ParsePolicy(s.document);
    if (p.ok()) {
      v.teams = std::make_shared<const TeamResolver>(std::make_shared<const PolicyDocument>(std::move(p.document)));
    } else {
      Logger("policy")->error("policy version {} no longer parses and is passed over: {}", s.version,
                              FormatPolicyError("", p.errors.front()));
    }
    parsed.push_back(std::move(v));
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& v : parsed) {
    if (v.version <= newest_) continue;  // another Refresh took it first
    newest_ = v.version;
    if (v.teams == nullptr) {
      ++skipped_;
    } else {
      versions_.push_back(std::move(v));
    }
  }
  return absl::OkStatus();
}

std::vector<PolicyInForce> PolicyTimeline::Snapshot(int32_t up_to) const {
  std::vector<PolicyInForce> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const PolicyInForce& v : versions_) {
      if (v.version <= up_to) out.push_back(v);
    }
  }
  if (out.empty()) {
    PolicyInForce none;
    none.teams = std::make_shared<const TeamResolver>();
    return {none};
  }
  // A version applied with an earlier applied_at than its predecessor (a
  // clock stepped back) takes effect no earlier than it.
  for (size_t i = 1; i < out.size(); ++i) out[i].from = std::max(out[i].from, out[i - 1].from);
  for (size_t i = 0; i + 1 < out.size(); ++i) out[i].to = out[i + 1].from;
  out.front().from = absl::InfinitePast();
  return out;
}

PolicyInForce PolicyTimeline::At(absl::Time t, int32_t up_to) const {
  std::vector<PolicyInForce> all = Snapshot(up_to);
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (it->from <= t) return *it;
  }
  return all.front();
}

std::vector<PolicyInForce> PolicyTimeline::During(absl::Time start, absl::Time end, int32_t up_to) const {
  std::vector<PolicyInForce> out;
  for (auto& v : Snapshot(up_to)) {
    if (v.from < v.to && v.from < end && v.to > start) out.push_back(std::move(v));
  }
  if (out.empty()) out.push_back(At(start, up_to));
  return out;
}

int PolicyTimeline::skipped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return skipped_;
}

}  // namespace fleetcap::policy
