#include "store/view_repository.h"

#include <tuple>

#include "absl/strings/str_cat.h"

namespace fleetcap::store {

bool SavedView::operator==(const SavedView& o) const {
  return std::tie(owner, name, path, query, saved_at) == std::tie(o.owner, o.name, o.path, o.query, o.saved_at);
}

absl::Status ValidateSavedView(const SavedView& view) {
  if (view.owner.empty() || view.owner.size() > 128) {
    return absl::InvalidArgumentError(absl::StrCat("view owner: ", view.owner.size(), " bytes, expected 1 to 128"));
  }
  if (view.name.empty() || view.name.size() > kMaxViewNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("view name: ", view.name.size(), " bytes, expected 1 to ", kMaxViewNameBytes));
  }
  for (unsigned char c : view.name) {
    if (c < 0x20 || c == 0x7f) return absl::InvalidArgumentError("view name: contains a control character");
  }
  bool page = view.path.size() >= 2 && view.path.size() <= 33 && view.path[0] == '/';
  for (size_t i = 1; page && i < view.path.size(); ++i) page = view.path[i] >= 'a' && view.path[i] <= 'z';
  if (!page) return absl::InvalidArgumentError("view path: expected a page, \"/\" and 1 to 32 lowercase letters");
  if (view.query.size() > kMaxViewQueryBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("view query: ", view.query.size(), " bytes, expected at most ", kMaxViewQueryBytes));
  }
  // A query string as a URL carries it: printable ASCII (anything else is
  // percent-encoded), never a fragment.
  for (unsigned char c : view.query) {
    if (c <= 0x20 || c >= 0x7f || c == '#') {
      return absl::InvalidArgumentError("view query: expected a URL's encoded query string (printable ASCII, no #)");
    }
  }
  return absl::OkStatus();
}

absl::Time ViewTime(absl::Time t) { return absl::FromUnixMicros(absl::ToUnixMicros(t)); }

}  // namespace fleetcap::store
