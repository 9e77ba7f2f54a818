#include "services/api/chargeback/chargeback_http_routes.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "services/exports/chargeback_format.h"

namespace fleetcap::api {
namespace {

constexpr int kLinesPerBatch = 1000;
// How JsonResponse opens a ChargebackReport: `lines` is its first field and always printed.
constexpr absl::string_view kLinesOpen = "{\"lines\":[";

// The answer to a request the query refused.
HttpResponse Refusal(const absl::Status& status) {
  HttpResponse response = ErrorResponse(status);
  // Too many lines: the answer, not the server, is too large (413, not 429).
  if (absl::IsResourceExhausted(status)) response.status = 413;
  return response;
}

// The lines of a report as the comma-separated JSON that JsonResponse puts
// between its "lines" brackets, rendered a batch at a time.
class LinesJson {
 public:
  void Add(v1::ChargebackLine&& line) {
    *batch_.add_lines() = std::move(line);
    if (batch_.lines_size() == kLinesPerBatch) Flush();
  }

  // Every line added, or INTERNAL when protobuf's printer did not render as expected.
  absl::StatusOr<std::string> Finish() {
    Flush();
    if (!status_.ok()) return status_;
    size_t size = pieces_.size();
    for (const std::string& piece : pieces_) size += piece.size();
    std::string joined;
    joined.reserve(size);
    for (std::string& piece : pieces_) {
      if (!joined.empty()) joined += ',';
      joined += piece;
      std::string().swap(piece);
    }
    return joined;
  }

 private:
  void Flush() {
    if (batch_.lines_size() == 0 || !status_.ok()) return;
    HttpResponse rendered = JsonResponse(batch_);
    batch_.clear_lines();
    const std::string& closing = EmptyReportClosing();
    if (rendered.status != 200 || !absl::StartsWith(rendered.body, kLinesOpen) ||
        !absl::EndsWith(rendered.body, closing)) {
      status_ = absl::InternalError("chargeback: protobuf's JSON printer rendered lines unlike a report");
      return;
    }
    pieces_.push_back(
        rendered.body.substr(kLinesOpen.size(), rendered.body.size() - kLinesOpen.size() - closing.size()));
  }

  // What follows the lines of a report with nothing else set: `],"totalCostMicro":"0","currency":""}`.
  static const std::string& EmptyReportClosing() {
    static const std::string* closing = [] {
      const std::string empty = JsonResponse(v1::ChargebackReport()).body;
      // An empty report opens with `{"lines":[` then `]`: the closing starts at that bracket.
      return new std::string(absl::StartsWith(empty, kLinesOpen) ? empty.substr(kLinesOpen.size()) : "");
    }();
    return *closing;
  }

  v1::ChargebackReport batch_;
  std::vector<std::string> pieces_;
  absl::Status status_;
};

}  // namespace

HttpResponse ChargebackJsonResponse(const ChargebackQuery& query, const Scope& scope,
                                    const v1::GetChargebackRequest& request) {
  LinesJson lines;
  auto report = query.Each(scope, request, [&](v1::ChargebackLine&& line) { lines.Add(std::move(line)); });
  if (!report.ok()) return Refusal(report.status());
  auto joined = lines.Finish();
  if (!joined.ok()) return ErrorResponse(joined.status());
  // The report's own rendering, its (empty) lines replaced by the lines rendered.
  HttpResponse response = JsonResponse(*report);
  if (response.status != 200) return response;
  if (!absl::StartsWith(response.body, absl::StrCat(kLinesOpen, "]"))) {
    return ErrorResponse(absl::InternalError("chargeback: protobuf's JSON printer rendered a report unexpectedly"));
  }
  std::string body;
  body.reserve(response.body.size() + joined->size());
  body.append(kLinesOpen.data(), kLinesOpen.size());
  body += *joined;
  std::string().swap(*joined);
  body.append(response.body, kLinesOpen.size(), std::string::npos);
  response.body = std::move(body);
  return response;
}

void AddChargebackRoutes(HttpGateway& gateway, const ChargebackQuery* query) {
  gateway.AddRoute(
      "GET", "/v1/chargeback",
      [query](const Scope& scope, const HttpQuery& params, const std::string&) {
        auto request = ChargebackRequestFromQuery(params);
        if (!request.ok()) return ErrorResponse(request.status());
        return ChargebackJsonResponse(*query, scope, *request);
      },
      QueryListParameters(*v1::GetChargebackRequest::descriptor()));
  gateway.AddRoute(
      "GET", "/v1/chargeback/export",
      [query](const Scope& scope, const HttpQuery& params, const std::string&) {
        QueryMapping mapping;
        mapping.explicit_parameters = {"format"};
        auto request = ChargebackRequestFromQuery(params, mapping);
        if (!request.ok()) return ErrorResponse(request.status());
        const std::string* format = QueryValue(params, "format");
        if (format == nullptr || (*format != "csv" && *format != "focus")) {
          return ErrorResponse(absl::InvalidArgumentError(
              format == nullptr ? "format: missing; give csv or focus"
                                : absl::StrCat("format: \"", format->substr(0, 64), "\" is not csv or focus")));
        }
        auto report = query->Run(scope, *request);
        if (!report.ok()) return Refusal(report.status());
        // The same rendering as `fleetcapctl chargeback --format csv|focus`.
        HttpResponse response;
        response.body = exports::RenderChargeback(
            *request, *report, *format == "csv" ? exports::ChargebackFormat::kCsv : exports::ChargebackFormat::kFocus);
        response.content_type = "text/csv; charset=utf-8";
        return response;
      },
      QueryListParameters(*v1::GetChargebackRequest::descriptor()));
}

}  // namespace fleetcap::api
