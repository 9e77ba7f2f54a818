#include "services/ctl/control_commands.h"

#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/file_read.h"
#include "common/time_util.h"
#include "fleetcap/v1/audit.grpc.pb.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "fleetcap/v1/token.grpc.pb.h"
#include "policy/policy_diff.h"
#include "policy/policy_parser.h"
#include "proto_time.h"
#include "services/exports/proto_json.h"
#include "services/exports/table.h"

namespace fleetcap::ctl {

using exports::Table;

namespace {

std::string Json(const google::protobuf::Message& message) { return exports::ProtoJson(message); }

std::string Time(const google::protobuf::Timestamp& t) {
  return t.seconds() == 0 && t.nanos() == 0 ? "-" : FormatRfc3339(FromProtoTimestamp(t));
}

// Parses a command's flags; on --help prints it and sets `exit_code` to 0,
// on a bad flag or the wrong number of arguments to 2.
absl::StatusOr<std::string> ReadPolicyFile(const std::string& path) {
  return ReadWholeFile("policy", path, policy::kMaxPolicyBytes);
}

// Reads and validates FILE; prints every error to stderr. nullopt on failure (exit code set).
std::optional<std::pair<std::string, policy::PolicyDocument>> LoadPolicy(const std::string& path, int& exit_code) {
  auto text = ReadPolicyFile(path);
  if (!text.ok()) {
    exit_code = Fail(2, std::string(text.status().message()));
    return std::nullopt;
  }
  policy::ParsedPolicy parsed = policy::ParsePolicy(*text);
  if (!parsed.ok()) {
    std::cerr << policy::FormatPolicyErrors(path, parsed.errors);
    std::cerr << "fleetcapctl: " << path << ": " << parsed.errors.size() << " error"
              << (parsed.errors.size() == 1 ? "" : "s") << "\n";
    exit_code = 1;
    return std::nullopt;
  }
  return std::make_pair(std::move(*text), std::move(parsed.document));
}

// The active policy (version 0 and an empty document when there is none).
absl::StatusOr<v1::PolicyVersion> ActivePolicy(const ClientOptions& client, grpc::Status& rpc) {
  v1::PolicyVersion active;
  rpc = Call(client, &v1::PolicyService::Stub::GetPolicy, v1::GetPolicyRequest(), &active);
  if (rpc.error_code() == grpc::StatusCode::NOT_FOUND) return v1::PolicyVersion();
  if (!rpc.ok()) return absl::UnknownError("rpc");
  return active;
}

int PrintChanges(const v1::ApplyPolicyResponse& response, Format format, const std::string& headline) {
  if (format == Format::kJson) {
    std::cout << Json(response);
    return 0;
  }
  std::cout << headline << "\n";
  for (const auto& c : response.changes()) std::cout << "  " << c << "\n";
  return 0;
}

int RunValidate(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl policy validate",
                "FILE\n\nChecks a policy file; every error names the line, the field and what was expected.");
  Invocation inv;
  Parse(flags, inv, args, 1);
  if (inv.exit_code) return *inv.exit_code;
  int exit_code = 0;
  auto loaded = LoadPolicy(inv.positional[0], exit_code);
  if (!loaded) return exit_code;
  const auto& d = loaded->second;
  std::cout << inv.positional[0] << ": valid (" << d.teams.size() << " teams, " << d.namespaces.size()
            << " namespace rules, " << d.flavors.size() << " flavors, " << d.prices.size() << " prices, "
            << d.allocation.size() << " allocation entries)\n";
  return 0;
}

int RunDiff(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl policy diff",
                "FILE [flags]\n\nWhat applying FILE would change against the active policy.");
  Invocation inv;
  Parse(flags, inv, args, 1);
  if (inv.exit_code) return *inv.exit_code;
  int exit_code = 0;
  auto loaded = LoadPolicy(inv.positional[0], exit_code);
  if (!loaded) return exit_code;
  grpc::Status rpc;
  auto active = ActivePolicy(inv.client, rpc);
  if (!active.ok()) return FailRpc(rpc, inv.client);
  policy::PolicyDocument before;
  if (active->version() > 0) {
    policy::ParsedPolicy parsed = policy::ParsePolicy(active->document());
    if (!parsed.ok()) return Fail(1, "the active policy does not validate with this fleetcapctl (version skew?)");
    before = std::move(parsed.document);
  }
  v1::ApplyPolicyResponse response;
  for (const auto& c : policy::DiffPolicies(before, loaded->second)) response.add_changes(c);
  response.mutable_policy()->set_base_version(active->version());
  return PrintChanges(response, inv.format,
                      response.changes().empty()
                          ? absl::StrCat("no changes against version ", active->version())
                          : absl::StrCat(response.changes_size(), " change", response.changes_size() == 1 ? "" : "s",
                                         " against version ", active->version(), ":"));
}

int RunApply(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl policy apply",
                "FILE [--message M] [--base-version N] [flags]\n\nValidates FILE and activates it as a new version. "
                "Fails if the active version is not the one the diff was made against.");
  Invocation inv;
  std::string message;
  int64_t base_version = -1;
  flags.String("message", &message, "why, recorded in the history and the audit log");
  flags.Int("base-version", &base_version, "the version FILE was written against (default: the active one now)");
  Parse(flags, inv, args, 1);
  if (inv.exit_code) return *inv.exit_code;
  int exit_code = 0;
  auto loaded = LoadPolicy(inv.positional[0], exit_code);
  if (!loaded) return exit_code;
  if (base_version < 0) {
    grpc::Status rpc;
    auto active = ActivePolicy(inv.client, rpc);
    if (!active.ok()) return FailRpc(rpc, inv.client);
    base_version = active->version();
  }
  v1::ApplyPolicyRequest request;
  request.set_document(loaded->first);
  request.set_message(message);
  request.set_base_version(static_cast<int32_t>(base_version));
  v1::ApplyPolicyResponse response;
  grpc::Status status = Call(inv.client, &v1::PolicyService::Stub::ApplyPolicy, request, &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  return PrintChanges(response, inv.format,
                      absl::StrCat("applied version ", response.policy().version(), " (on ", base_version, "), ",
                                   response.changes_size(), " changes:"));
}

int RunGet(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl policy get",
                "[--version N] [flags]\n\nPrints the active policy document, or one version.");
  Invocation inv;
  int64_t version = 0;
  flags.Int("version", &version, "a version; 0 for the active one");
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  v1::GetPolicyRequest request;
  request.set_version(static_cast<int32_t>(version));
  v1::PolicyVersion response;
  grpc::Status status = Call(inv.client, &v1::PolicyService::Stub::GetPolicy, request, &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << (inv.format == Format::kJson ? Json(response) : response.document());
  return 0;
}

int RunHistory(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl policy history", "[flags]\n\nEvery policy version, newest first.");
  Invocation inv;
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  v1::ListPolicyVersionsResponse response;
  grpc::Status status =
      Call(inv.client, &v1::PolicyService::Stub::ListPolicyVersions, v1::ListPolicyVersionsRequest(), &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderPolicyHistory(response, inv.format);
  return 0;
}

int RunRollback(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl policy rollback",
                "N [--message M] [flags]\n\nActivates version N's exact document as a new version.");
  Invocation inv;
  std::string message;
  flags.String("message", &message, "why; default \"rollback to version N\"");
  Parse(flags, inv, args, 1);
  if (inv.exit_code) return *inv.exit_code;
  int version = 0;
  if (!absl::SimpleAtoi(inv.positional[0], &version) || version <= 0) {
    return Fail(2, "N: \"" + inv.positional[0] + "\" is not a version number");
  }
  v1::RollbackPolicyRequest request;
  request.set_version(version);
  request.set_message(message);
  v1::ApplyPolicyResponse response;
  grpc::Status status = Call(inv.client, &v1::PolicyService::Stub::RollbackPolicy, request, &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  return PrintChanges(response, inv.format,
                      absl::StrCat("rolled back to version ", version, " as version ", response.policy().version(),
                                   ", ", response.changes_size(), " changes:"));
}

int RunTokenCreate(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl token create",
                "--role R [--description D] [--ttl-days N] [flags]\n\nCreates a bearer token and prints its secret "
                "once. Roles: admin, planner, scheduler, team:<name>.");
  Invocation inv;
  std::string role, description;
  int64_t ttl_days = 90;
  flags.String("role", &role, "admin, planner, scheduler or team:<name>");
  flags.String("description", &description, "what the token is for");
  flags.Int("ttl-days", &ttl_days, "lifetime in days");
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  if (role.empty()) return Fail(2, "--role: required (admin, planner, scheduler or team:<name>)");
  if (ttl_days <= 0) return Fail(2, "--ttl-days: expected 1 or more");
  v1::CreateTokenRequest request;
  request.set_role(role);
  request.set_description(description);
  request.set_ttl_seconds(ttl_days * 86400);
  v1::CreateTokenResponse response;
  grpc::Status status = Call(inv.client, &v1::TokenService::Stub::CreateToken, request, &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  if (inv.format == Format::kJson) {
    std::cout << Json(response);
    return 0;
  }
  std::cerr << "token " << response.token().token_id() << " (" << response.token().role() << ", expires "
            << Time(response.token().expires_at()) << "); the secret below is shown once\n";
  std::cout << response.secret() << "\n";
  return 0;
}

int RunTokenList(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl token list", "[flags]\n\nEvery token (never its secret).");
  Invocation inv;
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  v1::ListTokensResponse response;
  grpc::Status status = Call(inv.client, &v1::TokenService::Stub::ListTokens, v1::ListTokensRequest(), &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderTokens(response, inv.format);
  return 0;
}

int RunTokenRevoke(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl token revoke", "TOKEN_ID [flags]\n\nRevokes a token at once.");
  Invocation inv;
  Parse(flags, inv, args, 1);
  if (inv.exit_code) return *inv.exit_code;
  v1::RevokeTokenRequest request;
  request.set_token_id(inv.positional[0]);
  v1::TokenInfo response;
  grpc::Status status = Call(inv.client, &v1::TokenService::Stub::RevokeToken, request, &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << (inv.format == Format::kJson
                    ? Json(response)
                    : absl::StrCat("revoked token ", response.token_id(), " at ", Time(response.revoked_at()), "\n"));
  return 0;
}

int RunWhoAmI(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl token whoami", "[flags]\n\nThe calling token's id, role and scope.");
  Invocation inv;
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  v1::WhoAmIResponse response;
  grpc::Status status = Call(inv.client, &v1::TokenService::Stub::WhoAmI, v1::WhoAmIRequest(), &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << (inv.format == Format::kJson
                    ? Json(response)
                    : absl::StrCat("token ", response.token_id(), " role ", response.role(), "\n"));
  return 0;
}

int RunAudit(const std::vector<std::string>& args) {
  FlagSet flags("fleetcapctl audit",
                "[--limit N] [--after-id N] [--action A] [flags]\n\nThe audit log, oldest first (admins only).");
  Invocation inv;
  int64_t limit = 100, after_id = 0;
  std::string action;
  flags.Int("limit", &limit, "at most this many events (up to 1000)");
  flags.Int("after-id", &after_id, "only events after this id");
  flags.String("action", &action, "only this action (policy.apply, policy.rollback, token.create, token.revoke)");
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  if (limit <= 0 || limit > 1000) return Fail(2, "--limit: expected 1 to 1000");
  v1::ListAuditEventsRequest request;
  request.set_limit(static_cast<int32_t>(limit));
  request.set_after_id(after_id);
  request.set_action(action);
  v1::ListAuditEventsResponse response;
  grpc::Status status = Call(inv.client, &v1::AuditService::Stub::ListAuditEvents, request, &response);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderAudit(response, inv.format);
  return 0;
}

}  // namespace

std::vector<Command> PolicyCommands() {
  return {{{"policy", "validate"}, "FILE  check a policy file (line, field, expectation per error)", RunValidate},
          {{"policy", "diff"}, "FILE  what applying FILE would change", RunDiff},
          {{"policy", "apply"}, "FILE [--message M]  validate and activate as a new version", RunApply},
          {{"policy", "get"}, "[--version N]  print the active policy or one version", RunGet},
          {{"policy", "history"}, " every policy version", RunHistory},
          {{"policy", "rollback"}, "N  activate version N's document as a new version", RunRollback}};
}

std::vector<Command> TokenCommands() {
  return {{{"token", "create"}, "--role R  create a bearer token (secret shown once)", RunTokenCreate},
          {{"token", "list"}, " every token, never a secret", RunTokenList},
          {{"token", "revoke"}, "TOKEN_ID  revoke a token", RunTokenRevoke},
          {{"token", "whoami"}, " the calling token's id and role", RunWhoAmI}};
}

std::vector<Command> AuditCommands() {
  return {{{"audit"}, "[--limit N] [--action A]  the audit log (admins)", RunAudit}};
}

std::string RenderPolicyHistory(const v1::ListPolicyVersionsResponse& history, Format format) {
  if (format == Format::kJson) return Json(history);
  Table table({"VERSION", "APPLIED", "BY", "BASE", "MESSAGE"});
  for (const auto& v : history.versions()) {
    table.AddRow({std::to_string(v.version()), Time(v.applied_at()), v.applied_by(),
                  v.base_version() == 0 ? "-" : std::to_string(v.base_version()), v.message()});
  }
  return table.Render();
}

std::string RenderTokens(const v1::ListTokensResponse& tokens, Format format) {
  if (format == Format::kJson) return Json(tokens);
  Table table({"TOKEN", "ROLE", "CREATED", "EXPIRES", "REVOKED", "DESCRIPTION"});
  for (const auto& t : tokens.tokens()) {
    table.AddRow(
        {t.token_id(), t.role(), Time(t.created_at()), Time(t.expires_at()), Time(t.revoked_at()), t.description()});
  }
  return table.Render();
}

std::string RenderAudit(const v1::ListAuditEventsResponse& events, Format format) {
  if (format == Format::kJson) return Json(events);
  Table table({"ID", "AT", "ACTOR", "ACTION", "TARGET", "DETAILS"});
  for (const auto& e : events.events()) {
    table.AddRow({std::to_string(e.id()), Time(e.at()), e.actor(), e.action(), e.target(), e.details_json()});
  }
  return table.Render();
}

}  // namespace fleetcap::ctl
