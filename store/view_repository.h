#pragma once
// Saved views of the dashboard (migration 0038, docs/dashboard.md): a name a
// token gave to a page (`/chargeback`) and its URL state (the query string
// of time range, grouping, filters and sort), to open again. Each token
// keeps its own; saving a name again replaces its view.

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

inline constexpr size_t kMaxViewNameBytes = 100;
inline constexpr size_t kMaxViewQueryBytes = 1024;
inline constexpr size_t kMaxViewsPerOwner = 200;

struct SavedView {
  std::string owner;  // the token's actor, e.g. "token:abc"
  std::string name;   // 1..kMaxViewNameBytes bytes of UTF-8 without control characters
  std::string path;   // a page: "/" and 1..32 lowercase letters
  std::string query;  // the page's query string, without "?", at most kMaxViewQueryBytes
  absl::Time saved_at;

  bool operator==(const SavedView& o) const;
};

class ViewRepository {
 public:
  virtual ~ViewRepository() = default;

  // Stores `view`, replacing the owner's view of that name. INVALID_ARGUMENT
  // naming the field for a bad one (ValidateSavedView);
  // RESOURCE_EXHAUSTED when the owner already keeps kMaxViewsPerOwner others.
  virtual absl::Status Save(const SavedView& view) = 0;
  // The owner's views by name.
  virtual absl::StatusOr<std::vector<SavedView>> List(const std::string& owner) = 0;
  // NOT_FOUND naming the view when the owner has none of that name.
  virtual absl::Status Remove(const std::string& owner, const std::string& name) = 0;
};

// INVALID_ARGUMENT naming the field; what every implementation checks before storing.
absl::Status ValidateSavedView(const SavedView& view);
// `t` to the microsecond, as stored.
absl::Time ViewTime(absl::Time t);

}  // namespace fleetcap::store
