// Every text parameter of every HTTP route and every string field of every
// gRPC method, sent hostile (NUL at the start, middle or end, broken UTF-8,
// control characters, far too long) with admin, planner and team tokens,
// against the real fleetcap-api: the answer is 400 / INVALID_ARGUMENT naming
// the field, never data and never a 500. Empty values, which mean "no
// filter", never give the team anything of another team's and never a 500.
//
// The parameters are not listed here: each route names its own (asked with a
// parameter it does not know), and each method's fields come from its
// descriptor, so a route or field added later is covered without a row.

#include <cctype>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "fleetcap/v1/planning.grpc.pb.h"
#include "fleetcap/v1/token.grpc.pb.h"
#include "fleetcap/v1/views.grpc.pb.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "services/api/access_table.h"
#include "tests/api/two_team_fleet.h"
#include "tests/support/http_get.h"

namespace fleetcap {
namespace {

using ::testing::HasSubstr;

struct Hostile {
  std::string name;
  std::string value;
  bool fine_in_documents;  // a YAML document may hold line breaks and run long
};

const std::vector<Hostile>& HostileValues() {
  static const auto* values = new std::vector<Hostile>{
      {"NUL", std::string("\0", 1), false},
      {"NUL first", std::string("\0ads-ns", 7), false},
      {"NUL inside", std::string("vision\0-ns", 10), false},
      {"NUL last", std::string("vision-ns\0", 10), false},
      {"invalid UTF-8", "\xFF", false},
      {"overlong NUL", "\xC0\x80", false},
      {"UTF-16 surrogate", "\xED\xA0\x80", false},
      {"control character", "vision\x01-ns", false},
      {"line break", "vision-ns\nads-ns", true},
      {"10,000 bytes", std::string(10000, 'a'), true},
  };
  return *values;
}

// The roles that may call a route or method; only their answers say anything about its parameters.
const std::vector<std::string>& Roles() {
  static const auto* roles = new std::vector<std::string>{"admin", "planner", "team:vision"};
  return *roles;
}

std::string PercentEncode(const std::string& text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == ':') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// What another team's answer would carry: its namespace, pod or team name.
bool MentionsAnotherTeam(const std::string& body) {
  return body.find("ads-ns") != std::string::npos || body.find("p-ads") != std::string::npos ||
         body.find("\"ads\"") != std::string::npos;
}

class HostileParametersTest : public TwoTeamFleetTest {
 protected:
  // The parameters the GET route at `path` takes, as it names them when given one it does not know.
  static std::vector<std::string> ParametersOf(const std::string& path) {
    auto answer = testing::HttpRequest("GET", api_->http_base() + path + "?zz_unknown=1", "", api_->admin_token);
    EXPECT_TRUE(answer.ok());
    if (!answer.ok()) return {};
    EXPECT_EQ(answer->status, 400) << path << ": " << answer->body;
    const std::string message = nlohmann::json::parse(answer->body).value("message", "");
    const size_t list = message.find("expected one of ");
    EXPECT_NE(list, std::string::npos) << path << " does not name its parameters: " << message;
    if (list == std::string::npos) return {};
    return absl::StrSplit(message.substr(list + 16), ", ", absl::SkipEmpty());
  }

  // `target` ("/v1/usage?cluster=c1&...") with `parameter` set to `value` (added when absent).
  static std::string WithParameter(const std::string& target, const std::string& parameter, const std::string& value) {
    const size_t query = target.find('?');
    std::string out = target.substr(0, query) + "?" + parameter + "=" + PercentEncode(value);
    if (query == std::string::npos) return out;
    for (absl::string_view pair : absl::StrSplit(target.substr(query + 1), '&', absl::SkipEmpty())) {
      if (!absl::StartsWith(pair, parameter + "=")) absl::StrAppend(&out, "&", pair);
    }
    return out;
  }
};

bool Allowed(const std::string& role, api::Access access) {
  if (role == "admin") return true;
  if (role == "planner") return access != api::Access::kAdmin;
  return access == api::Access::kTeamRead || access == api::Access::kRecommendations ||
         access == api::Access::kAnyCaller;
}

TEST_F(HostileParametersTest, EveryQueryParameterOfEveryRoute) {
  int routes = 0, requests = 0;
  for (const auto& [key, access] : api::AccessTable()) {
    if (!absl::StartsWith(key, "GET ")) continue;
    const std::string path = key.substr(4);
    const std::string base = HttpTarget(key);
    ++routes;
    for (const std::string& parameter : ParametersOf(path)) {
      for (const std::string& role : Roles()) {
        if (!Allowed(role, access)) continue;
        for (const Hostile& hostile : HostileValues()) {
          const std::string target = WithParameter(base, parameter, hostile.value);
          auto answer = testing::HttpRequest("GET", api_->http_base() + target, "", tokens_.at(role));
          ++requests;
          ASSERT_TRUE(answer.ok()) << key << " " << parameter << " " << hostile.name;
          EXPECT_EQ(answer->status, 400) << key << " as " << role << ", " << parameter << " " << hostile.name << ": "
                                         << answer->body.substr(0, 300);
          EXPECT_THAT(answer->body, HasSubstr(parameter)) << key << " as " << role << ", " << hostile.name;
        }
        // Values that are well-formed for some parameters: empty ("no filter"),
        // and the first and last instants a time may name.
        for (const std::string& legal :
             {std::string(), std::string("0001-01-01T00:00:00Z"), std::string("9999-12-31T23:59:59Z")}) {
          auto answer = testing::HttpRequest("GET", api_->http_base() + WithParameter(base, parameter, legal), "",
                                             tokens_.at(role));
          ASSERT_TRUE(answer.ok());
          EXPECT_LT(answer->status, 500) << key << " as " << role << ", " << parameter << "=" << legal << ": "
                                         << answer->body;
          if (role == "team:vision" && answer->status == 200) {
            EXPECT_FALSE(MentionsAnotherTeam(answer->body))
                << key << ", " << parameter << "=" << legal << ": " << answer->body;
          }
        }
      }
    }
  }
  std::cout << routes << " routes, " << requests << " hostile requests\n";
}

// The request message each POST route reads from its JSON body.
const std::map<std::string, const google::protobuf::Descriptor*>& Bodies() {
  static const auto* bodies = new std::map<std::string, const google::protobuf::Descriptor*>{
      {"POST /v1/policy", v1::ApplyPolicyRequest::descriptor()},
      {"POST /v1/policy/rollback", v1::RollbackPolicyRequest::descriptor()},
      {"POST /v1/tokens", v1::CreateTokenRequest::descriptor()},
      {"POST /v1/tokens/revoke", v1::RevokeTokenRequest::descriptor()},
      {"POST /v1/scenarios/run", v1::RunScenarioRequest::descriptor()},
      {"POST /v1/scenarios", v1::SaveScenarioRequest::descriptor()},
      {"POST /v1/views", v1::SaveViewRequest::descriptor()},
      {"POST /v1/views/remove", v1::RemoveViewRequest::descriptor()},
  };
  return *bodies;
}

// A JSON string holding `value` byte for byte: NUL and control characters
// escaped as JSON says, anything else (broken UTF-8 included) as it is.
std::string JsonString(const std::string& value) {
  std::string out = "\"";
  for (unsigned char c : value) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

bool IsDocument(const google::protobuf::FieldDescriptor* field) {
  return field->name() == "document" || field->name() == "scenario_yaml";
}

TEST_F(HostileParametersTest, EveryFieldOfEveryJsonBody) {
  for (const auto& [key, access] : api::AccessTable()) {
    if (absl::StartsWith(key, "POST ")) {
      EXPECT_EQ(Bodies().count(key), 1u) << key << ": add its request message";
    }
  }
  for (const auto& [key, descriptor] : Bodies()) {
    const api::Access access = api::AccessFor(key);
    for (int i = 0; i < descriptor->field_count(); ++i) {
      const google::protobuf::FieldDescriptor* field = descriptor->field(i);
      if (field->type() != google::protobuf::FieldDescriptor::TYPE_STRING) continue;
      for (const std::string& role : Roles()) {
        if (!Allowed(role, access)) continue;
        for (const Hostile& hostile : HostileValues()) {
          if (IsDocument(field) && hostile.fine_in_documents) continue;
          const std::string value = JsonString(hostile.value);
          const std::string body =
              "{\"" + field->json_name() + "\": " + (field->is_repeated() ? "[" + value + "]" : value) + "}";
          auto answer = testing::HttpRequest("POST", api_->http_base() + key.substr(5), body, tokens_.at(role));
          ASSERT_TRUE(answer.ok());
          EXPECT_EQ(answer->status, 400) << key << " as " << role << ", " << field->name() << " " << hostile.name
                                         << ": " << answer->body.substr(0, 300);
          // Broken UTF-8 is refused by the JSON parser itself, as the body's fault.
          const std::string names =
              answer->body.find("request body") != std::string::npos ? "request body" : field->name();
          EXPECT_THAT(answer->body, HasSubstr(names)) << key << ", " << hostile.name;
        }
      }
    }
  }
}

TEST_F(HostileParametersTest, EveryStringFieldOfEveryMethod) {
  google::protobuf::DynamicMessageFactory factory;
  int calls = 0;
  for (const std::string& method : AllFleetcapMethods()) {
    // Streams are asked through their own test: their answer is the first message, not a status.
    if (absl::EndsWith(method, "/WatchRecommendations")) continue;
    const std::string name = std::string(absl::StripPrefix(method, "/"));
    const auto* rpc = google::protobuf::DescriptorPool::generated_pool()->FindMethodByName(
        std::string(name.substr(0, name.find('/'))) + "." + name.substr(name.find('/') + 1));
    ASSERT_NE(rpc, nullptr) << method;
    const google::protobuf::Descriptor* descriptor = rpc->input_type();
    const api::Access access = api::AccessFor(method);
    for (int i = 0; i < descriptor->field_count(); ++i) {
      const google::protobuf::FieldDescriptor* field = descriptor->field(i);
      if (field->type() != google::protobuf::FieldDescriptor::TYPE_STRING) continue;
      for (const std::string& role : Roles()) {
        if (!Allowed(role, access)) continue;
        for (const Hostile& hostile : HostileValues()) {
          if (IsDocument(field) && hostile.fine_in_documents) continue;
          std::unique_ptr<google::protobuf::Message> request(factory.GetPrototype(descriptor)->New());
          ASSERT_TRUE(request->ParseFromString(GrpcRequest(method)));
          if (field->is_repeated()) {
            request->GetReflection()->AddString(request.get(), field, hostile.value);
          } else {
            request->GetReflection()->SetString(request.get(), field, hostile.value);
          }
          grpc::Status status = CallBytes(method, "Bearer " + tokens_.at(role), request->SerializeAsString());
          ++calls;
          EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
              << method << " as " << role << ", " << field->name() << " " << hostile.name << ": "
              << status.error_message().substr(0, 300);
        }
        std::unique_ptr<google::protobuf::Message> empty(factory.GetPrototype(descriptor)->New());
        ASSERT_TRUE(empty->ParseFromString(GrpcRequest(method)));
        empty->GetReflection()->ClearField(empty.get(), field);
        grpc::Status status = CallBytes(method, "Bearer " + tokens_.at(role), empty->SerializeAsString());
        EXPECT_NE(status.error_code(), grpc::StatusCode::INTERNAL) << method << " " << field->name() << " empty";
        EXPECT_NE(status.error_code(), grpc::StatusCode::UNKNOWN) << method << " " << field->name() << " empty";
      }
    }
  }
  std::cout << calls << " hostile calls\n";
}

// The finding that opened this: a NUL namespace read as "no namespace" by the
// store, after the authorizer had matched it to the team's own.
TEST_F(HostileParametersTest, ANulNamespaceNeverReadsAnotherTeamsUsage) {
  const std::string team = tokens_.at("team:vision");
  for (const std::string query : {"namespace=%00&pod=p-ads", "namespace=%00", "namespace=vision-ns%00&pod=p-ads"}) {
    auto answer = testing::HttpGet(api_->http_base() +
                                       "/v1/usage?cluster=c1&start=2026-01-01T00:00:00Z&"
                                       "end=2026-01-01T01:00:00Z&" +
                                       query,
                                   team);
    ASSERT_TRUE(answer.ok());
    EXPECT_EQ(answer->status, 400) << query << ": " << answer->body;
    EXPECT_FALSE(MentionsAnotherTeam(answer->body)) << query;
  }
  v1::GetUsageRequest request = VisionUsageRequest(std::string("\0", 1));
  v1::UsageReport report;
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + team);
  auto stub = v1::UsageService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  grpc::Status status = stub->GetUsage(&context, request, &report);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_EQ(report.ByteSizeLong(), 0u);
}

}  // namespace
}  // namespace fleetcap
