#include "services/api/views/view_operations.h"

#include "common/status_macros.h"
#include "proto_time.h"

namespace fleetcap::api {
namespace {

v1::SavedView ToProto(const store::SavedView& view) {
  v1::SavedView out;
  out.set_name(view.name);
  out.set_path(view.path);
  out.set_query(view.query);
  *out.mutable_saved_at() = ToProtoTimestamp(view.saved_at);
  return out;
}

}  // namespace

absl::StatusOr<v1::SavedView> ViewOperations::Save(const Scope& scope, const v1::SaveViewRequest& request) const {
  const store::SavedView view{scope.actor(), request.name(), request.path(), request.query(),
                              store::ViewTime(clock_->Now())};
  FLEETCAP_RETURN_IF_ERROR(views_->Save(view));
  return ToProto(view);
}

absl::StatusOr<v1::ViewList> ViewOperations::List(const Scope& scope, const v1::ListViewsRequest&) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto views, views_->List(scope.actor()));
  v1::ViewList out;
  for (const auto& view : views) *out.add_views() = ToProto(view);
  return out;
}

absl::StatusOr<v1::RemoveViewResponse> ViewOperations::Remove(const Scope& scope,
                                                              const v1::RemoveViewRequest& request) const {
  FLEETCAP_RETURN_IF_ERROR(views_->Remove(scope.actor(), request.name()));
  return v1::RemoveViewResponse();
}

}  // namespace fleetcap::api
