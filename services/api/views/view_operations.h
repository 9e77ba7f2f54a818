#pragma once
// ViewService over the store (proto/fleetcap/v1/views.proto): each caller
// saves, lists and removes its own views, the owner being its token.

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "fleetcap/v1/views.pb.h"
#include "services/api/auth.h"
#include "store/view_repository.h"

namespace fleetcap::api {

class ViewOperations {
 public:
  // Both must outlive this.
  ViewOperations(store::ViewRepository* views, const Clock* clock) : views_(views), clock_(clock) {}

  absl::StatusOr<v1::SavedView> Save(const Scope& scope, const v1::SaveViewRequest& request) const;
  absl::StatusOr<v1::ViewList> List(const Scope& scope, const v1::ListViewsRequest& request) const;
  absl::StatusOr<v1::RemoveViewResponse> Remove(const Scope& scope, const v1::RemoveViewRequest& request) const;

 private:
  store::ViewRepository* views_;
  const Clock* clock_;
};

}  // namespace fleetcap::api
