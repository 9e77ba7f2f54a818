#include <curl/curl.h>

#include <mutex>

#include "absl/strings/str_cat.h"
#include "ingest/k8s/http_client.h"

namespace fleetcap::k8s {
namespace {

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

class CurlHttpClient : public HttpClient {
 public:
  CurlHttpClient(TlsConfig tls, const std::atomic<bool>* cancel) : tls_(std::move(tls)), cancel_(cancel) {
    GlobalInit();
    curl_ = curl_easy_init();
  }
  ~CurlHttpClient() override { curl_easy_cleanup(curl_); }

  absl::StatusOr<long> Get(const HttpGetRequest& request,
                           const std::function<bool(long, absl::string_view)>& on_body) override {
    if (curl_ == nullptr) return absl::InternalError("curl_easy_init failed");
    curl_easy_reset(curl_);
    struct Context {
      const std::function<bool(long, absl::string_view)>* on_body;
      const std::atomic<bool>* cancel;
      CURL* curl;
      bool stopped = false;
    } ctx{&on_body, cancel_, curl_};
    curl_easy_setopt(curl_, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl_, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
    curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(absl::ToInt64Milliseconds(request.connect_timeout)));
    if (request.total_timeout > absl::ZeroDuration()) {
      curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, static_cast<long>(absl::ToInt64Milliseconds(request.total_timeout)));
    }
    if (request.idle_timeout > absl::ZeroDuration()) {
      curl_easy_setopt(curl_, CURLOPT_LOW_SPEED_LIMIT, 1L);
      curl_easy_setopt(curl_, CURLOPT_LOW_SPEED_TIME,
                       std::max<long>(1, static_cast<long>(absl::ToInt64Seconds(request.idle_timeout))));
    }
    curl_slist* headers = nullptr;
    for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &ctx);
    curl_easy_setopt(
        curl_, CURLOPT_WRITEFUNCTION, +[](char* data, size_t size, size_t n, void* p) -> size_t {
          auto* c = static_cast<Context*>(p);
          if (c->cancel != nullptr && c->cancel->load()) return 0;
          long status = 0;
          curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
          if (!(*c->on_body)(status, absl::string_view(data, size * n))) {
            c->stopped = true;
            return 0;
          }
          return size * n;
        });
    curl_easy_setopt(curl_, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl_, CURLOPT_XFERINFODATA, &ctx);
    curl_easy_setopt(
        curl_, CURLOPT_XFERINFOFUNCTION, +[](void* p, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> int {
          auto* c = static_cast<Context*>(p);
          return c->cancel != nullptr && c->cancel->load() ? 1 : 0;
        });
    // TLS
    if (!tls_.ca_file.empty()) curl_easy_setopt(curl_, CURLOPT_CAINFO, tls_.ca_file.c_str());
    curl_blob ca{const_cast<char*>(tls_.ca_pem.data()), tls_.ca_pem.size(), CURL_BLOB_COPY};
    if (!tls_.ca_pem.empty()) curl_easy_setopt(curl_, CURLOPT_CAINFO_BLOB, &ca);
    if (!tls_.cert_file.empty()) curl_easy_setopt(curl_, CURLOPT_SSLCERT, tls_.cert_file.c_str());
    curl_blob cert{const_cast<char*>(tls_.cert_pem.data()), tls_.cert_pem.size(), CURL_BLOB_COPY};
    if (!tls_.cert_pem.empty()) {
      curl_easy_setopt(curl_, CURLOPT_SSLCERT_BLOB, &cert);
      curl_easy_setopt(curl_, CURLOPT_SSLCERTTYPE, "PEM");
    }
    if (!tls_.key_file.empty()) curl_easy_setopt(curl_, CURLOPT_SSLKEY, tls_.key_file.c_str());
    curl_blob key{const_cast<char*>(tls_.key_pem.data()), tls_.key_pem.size(), CURL_BLOB_COPY};
    if (!tls_.key_pem.empty()) {
      curl_easy_setopt(curl_, CURLOPT_SSLKEY_BLOB, &key);
      curl_easy_setopt(curl_, CURLOPT_SSLKEYTYPE, "PEM");
    }
    if (tls_.insecure) {
      curl_easy_setopt(curl_, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(curl_, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    const CURLcode rc = curl_easy_perform(curl_);
    curl_slist_free_all(headers);
    long status = 0;
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &status);
    if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && ctx.stopped)) return status;
    if (cancel_ != nullptr && cancel_->load()) return absl::CancelledError("stopping");
    return absl::UnavailableError(absl::StrCat("GET ", request.url, ": ", curl_easy_strerror(rc)));
  }

 private:
  TlsConfig tls_;
  const std::atomic<bool>* cancel_;
  CURL* curl_ = nullptr;
};

}  // namespace

std::unique_ptr<HttpClient> NewCurlHttpClient(TlsConfig tls, const std::atomic<bool>* cancel) {
  return std::make_unique<CurlHttpClient>(std::move(tls), cancel);
}

}  // namespace fleetcap::k8s
