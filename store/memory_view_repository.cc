#include "store/memory_view_repository.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace fleetcap::store {

absl::Status MemoryViewRepository::Save(const SavedView& view) {
  FLEETCAP_RETURN_IF_ERROR(ValidateSavedView(view));
  const auto key = std::make_pair(view.owner, view.name);
  if (views_.count(key) == 0) {
    size_t kept = 0;
    for (const auto& [k, v] : views_) kept += k.first == view.owner ? 1 : 0;
    if (kept >= kMaxViewsPerOwner) {
      return absl::ResourceExhaustedError(
          absl::StrCat("views: ", kept, " saved already, the most a token keeps; remove one first"));
    }
  }
  SavedView stored = view;
  stored.saved_at = ViewTime(view.saved_at);
  views_[key] = std::move(stored);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<SavedView>> MemoryViewRepository::List(const std::string& owner) {
  std::vector<SavedView> out;
  for (const auto& [key, view] : views_) {
    if (key.first == owner) out.push_back(view);
  }
  return out;
}

absl::Status MemoryViewRepository::Remove(const std::string& owner, const std::string& name) {
  if (views_.erase({owner, name}) == 0) return absl::NotFoundError("view: no saved view of that name");
  return absl::OkStatus();
}

}  // namespace fleetcap::store
