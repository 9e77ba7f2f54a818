#include "ingest/k8s/connection.h"

#include <filesystem>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "common/file_read.h"
#include "common/yaml_nesting.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::k8s {
namespace {

// A bearer token is a few KiB (a service account's JWT); a kubeconfig holds
// a few contexts, each with its certificates inline.
constexpr size_t kMaxTokenFileBytes = 1024 * 1024;
constexpr size_t kMaxKubeconfigBytes = 4 * 1024 * 1024;

std::string Trimmed(std::string s) {
  absl::StripAsciiWhitespace(&s);
  return s;
}

std::string NoTrailingSlash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

}  // namespace

absl::StatusOr<KubeConnection> LoadKubeconfig(const std::string& path) {
  YAML::Node root;
  auto text = ReadWholeFile("--kubeconfig", path, kMaxKubeconfigBytes);
  if (!text.ok()) return absl::InvalidArgumentError(text.status().message());
  try {
    // Before the load, whose parser recurses once per level (docs/security.md, "Nesting").
    if (auto problem = CheckYamlNesting(*text)) return NestingError(absl::StrCat("--kubeconfig ", path), *problem);
    root = YAML::Load(*text);
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("--kubeconfig ", path, ": ", e.what()));
  }
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  auto relative = [&](const std::string& p) { return p.empty() || p[0] == '/' ? p : (dir / p).string(); };
  auto bad = [&](const std::string& field, const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("--kubeconfig ", path, ": ", field, ": ", why));
  };
  try {
    const std::string context_name = root["current-context"] ? root["current-context"].as<std::string>() : "";
    if (context_name.empty()) return bad("current-context", "not set");
    YAML::Node context, cluster, user;
    bool has_context = false, has_cluster = false, has_user = false;
    for (const auto& c : root["contexts"]) {
      if (c["name"].as<std::string>() == context_name) {
        context = c["context"];
        has_context = true;
      }
    }
    if (!has_context) return bad("contexts", absl::StrCat("no context named \"", context_name, "\""));
    const std::string cluster_name = context["cluster"] ? context["cluster"].as<std::string>() : "";
    const std::string user_name = context["user"] ? context["user"].as<std::string>() : "";
    for (const auto& c : root["clusters"]) {
      if (c["name"].as<std::string>() == cluster_name) {
        cluster = c["cluster"];
        has_cluster = true;
      }
    }
    if (!has_cluster) return bad("clusters", absl::StrCat("no cluster named \"", cluster_name, "\""));
    for (const auto& u : root["users"]) {
      if (u["name"].as<std::string>() == user_name) {
        user = u["user"];
        has_user = true;
      }
    }
    KubeConnection conn;
    conn.server = cluster["server"] ? NoTrailingSlash(cluster["server"].as<std::string>()) : "";
    if (conn.server.empty()) return bad("clusters[].cluster.server", "empty");
    if (cluster["certificate-authority"])
      conn.tls.ca_file = relative(cluster["certificate-authority"].as<std::string>());
    if (cluster["certificate-authority-data"]) {
      if (!absl::Base64Unescape(cluster["certificate-authority-data"].as<std::string>(), &conn.tls.ca_pem)) {
        return bad("certificate-authority-data", "not base64");
      }
    }
    if (cluster["insecure-skip-tls-verify"]) conn.tls.insecure = cluster["insecure-skip-tls-verify"].as<bool>();
    if (has_user) {
      if (user["exec"] || user["auth-provider"]) {
        return bad("users[].user", "exec and auth-provider plugins are not supported; use a token or a certificate");
      }
      if (user["token"]) conn.token = user["token"].as<std::string>();
      if (user["tokenFile"]) conn.token_file = relative(user["tokenFile"].as<std::string>());
      if (user["client-certificate"]) conn.tls.cert_file = relative(user["client-certificate"].as<std::string>());
      if (user["client-key"]) conn.tls.key_file = relative(user["client-key"].as<std::string>());
      if (user["client-certificate-data"] &&
          !absl::Base64Unescape(user["client-certificate-data"].as<std::string>(), &conn.tls.cert_pem)) {
        return bad("client-certificate-data", "not base64");
      }
      if (user["client-key-data"] &&
          !absl::Base64Unescape(user["client-key-data"].as<std::string>(), &conn.tls.key_pem)) {
        return bad("client-key-data", "not base64");
      }
    }
    return conn;
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("--kubeconfig ", path, ": ", e.what()));
  }
}

absl::StatusOr<KubeConnection> ResolveConnection(const ConnectionFlags& flags,
                                                 const std::function<std::string(const char*)>& getenv,
                                                 const std::string& service_account_dir) {
  if (!flags.kube_api.empty()) {
    if (!absl::StartsWith(flags.kube_api, "http://") && !absl::StartsWith(flags.kube_api, "https://")) {
      return absl::InvalidArgumentError(
          absl::StrCat("--kube-api: \"", flags.kube_api, "\" is not an http:// or https:// URL"));
    }
    KubeConnection conn;
    conn.server = NoTrailingSlash(flags.kube_api);
    conn.token_file = flags.token_file;
    conn.tls.ca_file = flags.ca_file;
    conn.tls.insecure = flags.insecure;
    return conn;
  }
  if (!flags.kubeconfig.empty()) return LoadKubeconfig(flags.kubeconfig);
  const std::string host = getenv("KUBERNETES_SERVICE_HOST");
  const std::string port = getenv("KUBERNETES_SERVICE_PORT");
  if (!host.empty() && !port.empty()) {
    KubeConnection conn;
    const bool ipv6 = host.find(':') != std::string::npos;
    conn.server = absl::StrCat("https://", ipv6 ? "[" : "", host, ipv6 ? "]" : "", ":", port);
    conn.token_file = service_account_dir + "/token";
    conn.tls.ca_file = service_account_dir + "/ca.crt";
    return conn;
  }
  return absl::InvalidArgumentError(
      "no Kubernetes API: give --kube-api URL (with --token-file/--ca-file), or --kubeconfig PATH, or run in a pod "
      "(KUBERNETES_SERVICE_HOST/_PORT)");
}

TokenSource::TokenSource(std::string token, std::string file, absl::Duration reread_every, const Clock* clock)
    : file_(std::move(file)), reread_every_(reread_every), clock_(clock), token_(std::move(token)) {}

std::string TokenSource::Get() {
  std::lock_guard<std::mutex> lock(mu_);
  if (file_.empty()) return token_;
  const absl::Time now = clock_->Now();
  if (stale_ || now - read_at_ >= reread_every_) {
    auto text = ReadWholeFile("--token-file", file_, kMaxTokenFileBytes);
    if (text.ok()) {
      std::string token = Trimmed(*text);
      if (token != token_ && ever_read_) ++reloads_;
      token_ = std::move(token);
      read_at_ = now;
      ever_read_ = true;
      stale_ = false;
    }
  }
  return token_;
}

void TokenSource::Invalidate() {
  std::lock_guard<std::mutex> lock(mu_);
  stale_ = true;
}

int TokenSource::reloads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reloads_;
}

}  // namespace fleetcap::k8s
