#pragma once
// The active policy, parsed once per version. Authorising a team token needs
// the org tree of the active policy on every call; asking the store for the
// active version is cheap, fetching and parsing a document of up to 2 MiB is
// not, so that happens only when the version changes. Thread-safe.

#include <cstdint>
#include <memory>
#include <mutex>

#include "absl/status/statusor.h"
#include "policy/policy_document.h"
#include "store/control_repositories.h"

namespace fleetcap::api {

struct ActivePolicy {
  int32_t version = 0;              // 0: no policy applied yet
  bool valid = false;               // false when none was applied or the stored document no longer validates
  policy::PolicyDocument document;  // empty unless valid
};

class ActivePolicyCache {
 public:
  // `policies` must outlive the cache.
  explicit ActivePolicyCache(store::PolicyRepository* policies) : policies_(policies) {}

  // The active version, parsed; a new version is read and parsed on its first use.
  absl::StatusOr<std::shared_ptr<const ActivePolicy>> Get() const;

  // How many documents were parsed so far.
  int64_t parses() const;

 private:
  store::PolicyRepository* policies_;
  mutable std::mutex mu_;
  mutable std::shared_ptr<const ActivePolicy> cached_;  // guarded by mu_
  mutable int64_t parses_ = 0;                          // guarded by mu_
};

}  // namespace fleetcap::api
