#include "services/api/access_table.h"

#include "fleetcap/v1/access.pb.h"
#include "fleetcap/v1/allocation.pb.h"
#include "fleetcap/v1/audit.pb.h"
#include "fleetcap/v1/chargeback.pb.h"
#include "fleetcap/v1/fleet.pb.h"
#include "fleetcap/v1/insights.pb.h"
#include "fleetcap/v1/planning.pb.h"
#include "fleetcap/v1/policy.pb.h"
#include "fleetcap/v1/token.pb.h"
#include "fleetcap/v1/usage.pb.h"
#include "fleetcap/v1/views.pb.h"
#include "google/protobuf/descriptor.h"

namespace fleetcap::api {
namespace {

Access FromOption(v1::Access access) {
  switch (access) {
    case v1::ACCESS_READ:
      return Access::kRead;
    case v1::ACCESS_TEAM_READ:
      return Access::kTeamRead;
    case v1::ACCESS_RECOMMENDATIONS:
      return Access::kRecommendations;
    case v1::ACCESS_ANY_CALLER:
      return Access::kAnyCaller;
    default:
      return Access::kAdmin;
  }
}

// The .proto files of the API's services, each named by a message of its own.
const google::protobuf::FileDescriptor* const* ServiceFiles() {
  static const google::protobuf::FileDescriptor* const files[] = {v1::FleetSummary::descriptor()->file(),
                                                                  v1::UsageReport::descriptor()->file(),
                                                                  v1::ChargebackReport::descriptor()->file(),
                                                                  v1::RecommendationSet::descriptor()->file(),
                                                                  v1::Forecast::descriptor()->file(),
                                                                  v1::PolicyVersion::descriptor()->file(),
                                                                  v1::TokenInfo::descriptor()->file(),
                                                                  v1::ListAuditEventsResponse::descriptor()->file(),
                                                                  v1::ViewList::descriptor()->file(),
                                                                  v1::WasteReport::descriptor()->file(),
                                                                  nullptr};
  return files;
}

}  // namespace

const std::map<std::string, Access>& AccessTable() {
  static const auto* table = [] {
    auto* entries = new std::map<std::string, Access>;
    for (auto* const* file = ServiceFiles(); *file != nullptr; ++file) {
      for (int s = 0; s < (*file)->service_count(); ++s) {
        const google::protobuf::ServiceDescriptor* service = (*file)->service(s);
        for (int m = 0; m < service->method_count(); ++m) {
          const google::protobuf::MethodOptions& options = service->method(m)->options();
          const Access access = FromOption(options.GetExtension(v1::access));
          (*entries)["/" + service->full_name() + "/" + service->method(m)->name()] = access;
          for (int r = 0; r < options.ExtensionSize(v1::http); ++r)
            (*entries)[options.GetExtension(v1::http, r)] = access;
        }
      }
    }
    return entries;
  }();
  return *table;
}

Access AccessFor(const std::string& key) {
  auto it = AccessTable().find(key);
  return it == AccessTable().end() ? Access::kAdmin : it->second;
}

}  // namespace fleetcap::api
