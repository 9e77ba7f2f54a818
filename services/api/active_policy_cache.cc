#include "services/api/active_policy_cache.h"

#include "common/status_macros.h"
#include "policy/policy_parser.h"

namespace fleetcap::api {

absl::StatusOr<std::shared_ptr<const ActivePolicy>> ActivePolicyCache::Get() const {
  FLEETCAP_ASSIGN_OR_RETURN(auto version, policies_->ActiveVersion());
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cached_ != nullptr && cached_->version == version) return cached_;
  }
  auto fresh = std::make_shared<ActivePolicy>();
  if (version > 0) {
    // Fetched by number, so a version applied in between cannot be cached under this one.
    FLEETCAP_ASSIGN_OR_RETURN(auto record, policies_->Get(version));
    fresh->version = record.version;
    policy::ParsedPolicy parsed = policy::ParsePolicy(record.document);
    fresh->valid = parsed.ok();
    if (parsed.ok()) fresh->document = std::move(parsed.document);
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (version > 0) ++parses_;
  // Versions only grow: never replace a newer entry with an older one read concurrently.
  if (cached_ == nullptr || cached_->version <= fresh->version) cached_ = fresh;
  return std::shared_ptr<const ActivePolicy>(fresh);
}

int64_t ActivePolicyCache::parses() const {
  std::lock_guard<std::mutex> lock(mu_);
  return parses_;
}

}  // namespace fleetcap::api
