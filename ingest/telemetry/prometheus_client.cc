#include "ingest/telemetry/prometheus_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/json_nesting.h"
#include "common/logging.h"
#include "nlohmann/json.hpp"

namespace fleetcap::telemetry {
namespace {

size_t Append(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

std::string Seconds(absl::Time t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", absl::ToUnixMillis(t) / 1000.0);
  return buf;
}

std::string Escape(CURL* curl, const std::string& text) {
  char* escaped = curl_easy_escape(curl, text.c_str(), static_cast<int>(text.size()));
  std::string out(escaped);
  curl_free(escaped);
  return out;
}

// [seconds, "value"], as Prometheus sends a point; nullopt for anything else
// (a time no millisecond count can hold, a value that is not a number).
std::optional<Point> ParsePoint(const nlohmann::json& pair) {
  if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_string()) return std::nullopt;
  const double t = pair[0].get<double>();
  if (!std::isfinite(t) || std::abs(t) > 1e15) return std::nullopt;
  const std::string v = pair[1].get<std::string>();
  char* end = nullptr;
  const double value = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size()) return std::nullopt;
  return Point{static_cast<int64_t>(std::llround(t * 1000)), value};
}

}  // namespace

ParsedResponse ParseQueryRangeResponse(long http_status, const std::string& body) {
  ParsedResponse out;
  nlohmann::json doc;
  // Read like a body that is not JSON: nothing deeper than the nesting limit reaches the parser.
  if (auto problem = CheckJsonNesting(body)) {
    out.retryable = http_status >= 500 || http_status == 429 || http_status == 0;
    out.status = out.retryable
                     ? absl::UnavailableError(absl::StrCat("Prometheus answered HTTP ", http_status))
                     : absl::InternalError(absl::StrCat("Prometheus answered HTTP ", http_status, " with a body: line ",
                                                        problem->line, ": ", problem->message));
    return out;
  }
  try {
    doc = nlohmann::json::parse(body);
  } catch (const std::exception& e) {
    out.retryable = http_status >= 500 || http_status == 429 || http_status == 0;
    out.status = out.retryable ? absl::UnavailableError(absl::StrCat("Prometheus answered HTTP ", http_status))
                               : absl::InternalError(absl::StrCat("Prometheus answered HTTP ", http_status,
                                                                  " with a body that is not JSON: ", e.what()));
    return out;
  }
  try {
    if (doc.contains("warnings")) {
      for (const auto& w : doc["warnings"]) out.warnings.push_back(w.get<std::string>());
    }
    if (doc.value("status", "") != "success") {
      const std::string type = doc.value("errorType", "");
      const std::string message = absl::StrCat("Prometheus ", type.empty() ? "error" : type, ": ",
                                               doc.value("error", std::string("(no message)")));
      out.retryable = type == "timeout" || type == "unavailable" || http_status >= 500;
      if (out.retryable) {
        out.status = absl::UnavailableError(message);
      } else if (type == "bad_data") {
        out.status = absl::InvalidArgumentError(absl::StrCat(message, " (a bug in fleetcap's query: please report)"));
      } else {
        out.status = absl::InternalError(message);
      }
      return out;
    }
    const auto& data = doc.at("data");
    if (data.value("resultType", "") != "matrix") {
      out.status = absl::InternalError(
          absl::StrCat("Prometheus: resultType \"", data.value("resultType", ""), "\", expected matrix"));
      return out;
    }
    // A series or point that is not what Prometheus sends costs only itself:
    // skipped and counted, the rest of the answer is used.
    for (const auto& item : data.at("result")) {
      RangeSeries series;
      try {
        for (const auto& [name, value] : item.at("metric").items()) {
          series.labels.emplace_back(name, value.get<std::string>());
        }
      } catch (const std::exception&) {
        out.skipped +=
            item.contains("values") && item["values"].is_array() ? std::max<int64_t>(1, item["values"].size()) : 1;
        continue;
      }
      for (const auto& pair : item.at("values")) {
        if (auto point = ParsePoint(pair)) {
          series.points.push_back(*point);
        } else {
          ++out.skipped;
        }
      }
      out.series.push_back(std::move(series));
    }
  } catch (const std::exception& e) {
    out.status = absl::InternalError(absl::StrCat("Prometheus response: unexpected shape: ", e.what()));
  }
  return out;
}

PrometheusClient::PrometheusClient(std::string base_url, PrometheusClientOptions options, const Clock* clock)
    : base_url_(std::move(base_url)), options_(options), clock_(clock) {
  while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
}

absl::StatusOr<std::vector<RangeSeries>> PrometheusClient::QueryRange(const std::string& query, absl::Time start,
                                                                      absl::Time end, absl::Duration step) {
  auto log = Logger("telemetry");
  absl::Duration backoff = options_.backoff;
  absl::Status last;
  for (int attempt = 1; attempt <= options_.attempts; ++attempt) {
    CURL* curl = curl_easy_init();
    if (curl == nullptr) return absl::InternalError("curl_easy_init failed");
    const std::string url =
        absl::StrCat(base_url_, "/api/v1/query_range?query=", Escape(curl, query), "&start=", Seconds(start),
                     "&end=", Seconds(end), "&step=", absl::ToDoubleSeconds(step));
    std::string body;
    long http_status = 0;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Append);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(absl::ToInt64Milliseconds(options_.timeout)));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    const CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &http_status);
    curl_easy_cleanup(curl);
    ParsedResponse parsed;
    if (code != CURLE_OK) {
      parsed.retryable = true;
      parsed.status = absl::UnavailableError(absl::StrCat("Prometheus at ", base_url_, ": ", curl_easy_strerror(code)));
    } else {
      parsed = ParseQueryRangeResponse(http_status, body);
    }
    for (const auto& w : parsed.warnings) log->warn("Prometheus warning for {}: {}", query, w);
    if (parsed.skipped > 0) log->warn("{} malformed points in the answer to {} skipped", parsed.skipped, query);
    if (parsed.status.ok()) return std::move(parsed.series);
    last = parsed.status;
    if (!parsed.retryable) return last;
    if (attempt < options_.attempts) {
      ++retries_;
      log->warn("query_range attempt {} failed ({}); retrying in {}", attempt, last.ToString(),
                absl::FormatDuration(backoff));
      clock_->SleepFor(backoff);
      backoff *= 2;
    }
  }
  return absl::UnavailableError(absl::StrCat(last.message(), " (after ", options_.attempts, " attempts)"));
}

}  // namespace fleetcap::telemetry
