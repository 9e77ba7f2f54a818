#include "tests/support/http_get.h"

#include <curl/curl.h>

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace fleetcap::testing {
namespace {

size_t Append(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

}  // namespace

absl::StatusOr<HttpResult> HttpGet(const std::string& url, const std::string& token) {
  return HttpRequest("GET", url, "", token);
}

absl::StatusOr<HttpResult> HttpRequest(const std::string& method, const std::string& url, const std::string& body,
                                       const std::string& token, const HttpTls& tls,
                                       const std::vector<std::string>& extra_headers) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return absl::InternalError("curl_easy_init failed");
  HttpResult result;
  curl_slist* headers = nullptr;
  const std::string authorization = "Authorization: Bearer " + token;
  if (!token.empty()) headers = curl_slist_append(headers, authorization.c_str());
  const bool typed = std::any_of(extra_headers.begin(), extra_headers.end(),
                                 [](const std::string& h) { return absl::StartsWithIgnoreCase(h, "Content-Type:"); });
  if (!body.empty() && !typed) headers = curl_slist_append(headers, "Content-Type: application/json");
  for (const auto& h : extra_headers) headers = curl_slist_append(headers, h.c_str());
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
  if (!body.empty() || method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  }
  if (headers != nullptr) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (!tls.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, tls.ca_file.c_str());
  if (!tls.cert_file.empty()) {
    curl_easy_setopt(curl, CURLOPT_SSLCERT, tls.cert_file.c_str());
    curl_easy_setopt(curl, CURLOPT_SSLKEY, tls.key_file.c_str());
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Append);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &result.body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 120L);
  CURLcode code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
  curl_off_t retry_after = 0;
  if (curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, &retry_after) == CURLE_OK && retry_after > 0) {
    result.retry_after_seconds = static_cast<long>(retry_after);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  if (code != CURLE_OK && result.status == 0) {
    return absl::UnavailableError(absl::StrCat(method, " ", url, ": ", curl_easy_strerror(code)));
  }
  return result;
}

}  // namespace fleetcap::testing
