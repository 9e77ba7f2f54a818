#include "tests/support/served_chargeback.h"

#include "absl/strings/str_cat.h"
#include "common/pg_pool.h"
#include "common/status_macros.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "store/pg_chargeback_repository.h"
#include "tests/support/tokens.h"

namespace fleetcap::testing {
namespace {

store::ChargebackLineRecord Line(absl::Time hour, const std::string& cluster, const std::string& team,
                                 const std::string& namespace_name, const std::string& workload,
                                 const std::string& model, const std::string& kind, int64_t held, int64_t used,
                                 int64_t direct, int64_t idle, int64_t shared) {
  store::ChargebackLineRecord l;
  l.hour = hour;
  l.cluster = cluster;
  l.team = team;
  l.namespace_name = namespace_name;
  l.workload = workload;
  l.model = model;
  l.line_kind = kind;
  l.held_milli_seconds = held;
  l.used_milli_seconds = used;
  l.observed_milli_seconds = held;
  l.direct_cost_micro = direct;
  l.idle_cost_micro = idle;
  l.shared_cost_micro = shared;
  l.total_cost_micro = direct + idle + shared;
  return l;
}

// The lines of hour `h` (0..7) of each cluster; figures vary by hour so
// that a sum over the wrong hours shows.
std::map<std::string, std::vector<store::ChargebackLineRecord>> Fleet() {
  std::map<std::string, std::vector<store::ChargebackLineRecord>> by_cluster;
  for (int h = 0; h < 8; ++h) {
    const absl::Time t = kChargebackStart + absl::Hours(h);
    auto& c1 = by_cluster["c1"];
    c1.push_back(Line(t, "c1", "vision", "vision-ns", "Job/train", "A100", "workload", 3'600'000, 1'800'000 + h * 1000,
                      7'000'000, 1'000'000 + h, 0));
    auto detect = Line(t, "c1", "vision-detect", "detect-ns", "Deployment/serve", "H100", "workload", 1'800'000, 0,
                       5'000'000 + h * 7, 0, 0);
    detect.no_telemetry = h % 2 == 0;
    c1.push_back(detect);
    c1.push_back(
        Line(t, "c1", "ads", "ads-ns", "Job/rank", "A100", "workload", 900'000, 450'000, 1'750'000, 250'000, 0));
    c1.push_back(Line(t, "c1", "ads", "shared-ns", "", "A100", "shared", 360'000, 0, 0, 0, 333'333 + h));
    c1.push_back(Line(t, "c1", "idle", "", "", "A100", "idle", 0, 0, 0, 2'000'000 - h, 0));
    c1.push_back(Line(t, "c1", "unassigned", "misc-ns", "Pod/x", "A100", "workload", 360'000, 0, 700'000, 0, 0));
    by_cluster["c2"].push_back(
        Line(t, "c2", "vision", "vision-ns", "Job/train", "T4", "workload", 3'600'000, 3'600'000, 350'000, 0, 0));
    auto& fixed = by_cluster[""];
    fixed.push_back(Line(t, "", "vision", "", "", "", "fixed", 0, 0, 0, 0, 100'000));
    fixed.push_back(Line(t, "", "ads", "", "", "", "fixed", 0, 0, 0, 0, 50'000 + h));
  }
  return by_cluster;
}

}  // namespace

const char* const kChargebackPolicy = R"(version: 1
currency: EUR
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: vision-detect
    parent: vision
  - name: ads
    kind: org
namespaces:
  - namespace: vision-ns
    team: vision
  - namespace: ads-ns
    team: ads
)";

absl::StatusOr<std::unique_ptr<ServedChargeback>> ServeChargeback(const std::string& api_bin) {
  auto served = std::make_unique<ServedChargeback>();
  FLEETCAP_ASSIGN_OR_RETURN(served->db, TestDatabase::Migrated());
  FLEETCAP_ASSIGN_OR_RETURN(served->api, StartApi(api_bin, served->db->uri()));
  served->tokens["admin"] = served->api.admin_token;
  for (const char* role : {"planner", "scheduler", "team:vision", "team:ads"}) {
    FLEETCAP_ASSIGN_OR_RETURN(served->tokens[role], MintToken(served->db->uri(), role));
  }

  auto stub =
      v1::PolicyService::NewStub(grpc::CreateChannel(served->api.grpc_address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + served->api.admin_token);
  v1::ApplyPolicyRequest apply;
  apply.set_document(kChargebackPolicy);
  v1::ApplyPolicyResponse applied;
  if (grpc::Status status = stub->ApplyPolicy(&context, apply, &applied); !status.ok()) {
    return absl::InternalError(absl::StrCat("applying the test policy: ", status.error_message()));
  }

  FLEETCAP_ASSIGN_OR_RETURN(auto pool, PgPool::Open(served->db->uri(), 1));
  store::PgChargebackRepository repo(pool.get());
  for (const auto& [cluster, lines] : Fleet()) {
    FLEETCAP_RETURN_IF_ERROR(repo.ReplaceHours(cluster, kChargebackStart, kChargebackEnd, lines, {}));
    served->lines.insert(served->lines.end(), lines.begin(), lines.end());
  }
  return served;
}

absl::StatusOr<HttpResult> ServedChargeback::Get(const std::string& target, const std::string& role) const {
  return HttpGet(api.http_base() + target, tokens.at(role));
}

}  // namespace fleetcap::testing
