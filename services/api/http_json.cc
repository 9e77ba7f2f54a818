#include "services/api/http_json.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/json_nesting.h"
#include "common/status_macros.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "services/api/edge_text.h"
#include "services/api/status_mapping.h"

namespace fleetcap::api {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return absl::ascii_tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

absl::StatusOr<std::string> UrlDecode(absl::string_view in) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+') {
      out += ' ';
    } else if (in[i] == '%') {
      if (i + 2 >= in.size() || !absl::ascii_isxdigit(static_cast<unsigned char>(in[i + 1])) ||
          !absl::ascii_isxdigit(static_cast<unsigned char>(in[i + 2]))) {
        return absl::InvalidArgumentError(absl::StrCat("query: bad percent-escape in \"", in, "\""));
      }
      out += static_cast<char>(HexValue(in[i + 1]) * 16 + HexValue(in[i + 2]));
      i += 2;
    } else {
      out += in[i];
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<HttpQuery> ParseHttpQuery(absl::string_view query_string, const std::set<std::string>& list_parameters) {
  HttpQuery query;
  for (absl::string_view pair : absl::StrSplit(query_string, '&', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(pair, absl::MaxSplits('=', 1));
    FLEETCAP_ASSIGN_OR_RETURN(auto key, UrlDecode(kv.first));
    FLEETCAP_ASSIGN_OR_RETURN(auto value, UrlDecode(kv.second));
    auto [it, inserted] = query.emplace(key, value);
    if (!inserted && list_parameters.count(key) > 0) {
      absl::StrAppend(&it->second, ",", value);
    } else if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat("query parameter ", key, ": given more than once"));
    }
  }
  return query;
}

absl::Status OnlyKnownParameters(const HttpQuery& query, std::initializer_list<absl::string_view> known) {
  for (const auto& entry : query) {
    if (std::find(known.begin(), known.end(), entry.first) == known.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("query parameter ", entry.first, ": unknown; expected one of ", absl::StrJoin(known, ", ")));
    }
  }
  return absl::OkStatus();
}

const std::string* QueryValue(const HttpQuery& query, const std::string& key) {
  auto it = query.find(key);
  return it == query.end() ? nullptr : &it->second;
}

absl::Status ParseJsonBody(const std::string& body, google::protobuf::Message* message) {
  if (body.empty()) return absl::OkStatus();
  // Before protobuf's parser (docs/security.md, "Nesting").
  FLEETCAP_RETURN_IF_ERROR(NestingStatus("request body", CheckJsonNesting(body)));
  if (auto status = google::protobuf::util::JsonStringToMessage(body, message); !status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("request body: ", std::string(status.message().data(), status.message().size())));
  }
  return CheckEdgeMessage(*message);
}

HttpResponse JsonResponse(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  HttpResponse response;
  auto status = google::protobuf::util::MessageToJsonString(message, &response.body, options);
  if (!status.ok()) {
    return ErrorResponse(absl::InternalError(absl::StrCat("encoding JSON: ", status.ToString())));
  }
  return response;
}

HttpResponse ErrorResponse(const absl::Status& answered) {
  const absl::Status status = ForClient(answered);
  nlohmann::json body = {{"code", static_cast<int>(status.code())},
                         {"status", absl::StatusCodeToString(status.code())},
                         {"message", std::string(status.message())}};
  HttpResponse response{ToHttpStatus(status.code()),
                        body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
  if (const auto wait = RetryAfter(answered)) {
    const int64_t seconds = std::max<int64_t>(1, absl::ToInt64Seconds(absl::Ceil(*wait, absl::Seconds(1))));
    response.headers.emplace_back("Retry-After", std::to_string(seconds));
  }
  return response;
}

}  // namespace fleetcap::api
