#include "services/api/planning/scenario_operations.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "google/protobuf/util/json_util.h"
#include "optimizer/whatif/scenario_parser.h"
#include "optimizer/whatif/scenario_run.h"
#include "policy/text_rules.h"
#include "proto_time.h"
#include "services/api/planning/scenario_proto.h"

namespace fleetcap::api {

absl::StatusOr<v1::ScenarioComparison> ScenarioOperations::Compare(const std::string& yaml) const {
  whatif::ParsedScenario parsed = whatif::ParseScenario(yaml);
  FLEETCAP_RETURN_IF_ERROR(whatif::ScenarioErrors(parsed.errors));
  FLEETCAP_ASSIGN_OR_RETURN(const whatif::PlanningState state,
                            planning_state::LoadPlanningState(stores_, options_, clock_->Now(), parsed.document));
  FLEETCAP_ASSIGN_OR_RETURN(const whatif::ScenarioComparison comparison,
                            whatif::RunScenario(state, parsed.document, forecaster_));
  v1::ScenarioComparison out = ScenarioComparisonToProto(comparison, state.history_end);
  // The version the baseline ran with, also the one a save records.
  out.mutable_baseline()->set_policy_version(state.policy_version);
  return out;
}

absl::StatusOr<v1::ScenarioComparison> ScenarioOperations::Run(const Scope&,
                                                               const v1::RunScenarioRequest& request) const {
  return Compare(request.scenario_yaml());
}

absl::StatusOr<v1::SavedScenario> ScenarioOperations::Save(const Scope& scope,
                                                           const v1::SaveScenarioRequest& request) const {
  if (request.name().empty() || request.name().size() > store::kMaxScenarioNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("name: ", request.name().size(), " bytes, expected 1 to ", store::kMaxScenarioNameBytes));
  }
  FLEETCAP_RETURN_IF_ERROR(policy::CheckFreeText("name", request.name(), store::kMaxScenarioNameBytes, false));
  FLEETCAP_ASSIGN_OR_RETURN(v1::ScenarioComparison result, Compare(request.scenario_yaml()));
  std::string json;
  if (auto s = google::protobuf::util::MessageToJsonString(result, &json); !s.ok()) {
    return absl::InternalError(absl::StrCat("scenario result as JSON: ", std::string(s.message())));
  }
  store::ScenarioDraft draft;
  draft.name = request.name();
  draft.document = request.scenario_yaml();
  draft.result_json = json;
  draft.policy_version = result.baseline().policy_version();
  draft.saved_at = clock_->Now();
  draft.saved_by = scope.actor();
  FLEETCAP_ASSIGN_OR_RETURN(int64_t id, saved_->Save(draft));
  v1::SavedScenario out;
  out.set_id(id);
  out.set_name(draft.name);
  out.set_policy_version(draft.policy_version);
  *out.mutable_saved_at() = ToProtoTimestamp(store::ScenarioTime(draft.saved_at));
  out.set_saved_by(draft.saved_by);
  out.set_scenario_yaml(draft.document);
  *out.mutable_result() = std::move(result);
  return out;
}

absl::StatusOr<v1::ScenarioList> ScenarioOperations::List(const Scope&, const v1::ListScenariosRequest& request) const {
  if (request.before_id() < 0) {
    return absl::InvalidArgumentError(absl::StrCat("before_id: ", request.before_id(), " is negative"));
  }
  if (request.limit() < 0 || request.limit() > 1000) {
    return absl::InvalidArgumentError(absl::StrCat("limit: ", request.limit(), " is outside 0..1000"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto rows, saved_->List(request.before_id(), request.limit() == 0 ? 100 : request.limit()));
  v1::ScenarioList out;
  for (const auto& r : rows) {
    v1::SavedScenario* s = out.add_scenarios();
    s->set_id(r.scenario_id);
    s->set_name(r.name);
    s->set_policy_version(r.policy_version);
    *s->mutable_saved_at() = ToProtoTimestamp(r.saved_at);
    s->set_saved_by(r.saved_by);
  }
  return out;
}

absl::StatusOr<v1::SavedScenario> ScenarioOperations::Get(const Scope&, const v1::GetScenarioRequest& request) const {
  if (request.id() <= 0) return absl::InvalidArgumentError(absl::StrCat("id: ", request.id(), " is not a scenario id"));
  FLEETCAP_ASSIGN_OR_RETURN(store::ScenarioRecord r, saved_->Get(request.id()));
  v1::SavedScenario out;
  out.set_id(r.scenario_id);
  out.set_name(r.saved.name);
  out.set_policy_version(r.saved.policy_version);
  *out.mutable_saved_at() = ToProtoTimestamp(r.saved.saved_at);
  out.set_saved_by(r.saved.saved_by);
  out.set_scenario_yaml(r.saved.document);
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;  // a result saved by a newer build
  if (auto s = google::protobuf::util::JsonStringToMessage(r.saved.result_json, out.mutable_result(), options);
      !s.ok()) {
    return absl::InternalError(absl::StrCat("scenario ", r.scenario_id, ": stored result: ", std::string(s.message())));
  }
  return out;
}

}  // namespace fleetcap::api
