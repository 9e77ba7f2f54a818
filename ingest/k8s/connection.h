#pragma once
// Where the Kubernetes API is and how to authenticate to it, as a real
// client finds out:
//   1. --kube-api URL, with --token-file and --ca-file (or --insecure);
//   2. --kubeconfig PATH: its current context's cluster (server,
//      certificate-authority[-data], insecure-skip-tls-verify) and user
//      (token, tokenFile, client-certificate[-data], client-key[-data]);
//   3. in a pod: KUBERNETES_SERVICE_HOST/_PORT with the service account's
//      token and CA under /var/run/secrets/kubernetes.io/serviceaccount/.
// The bearer token comes from a TokenSource, which reads a token file again
// periodically (projected service-account tokens rotate) and at once after
// the server refused it.

#include <functional>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/k8s/http_client.h"

namespace fleetcap::k8s {

struct KubeConnection {
  std::string server;  // scheme://host:port, no trailing slash
  TlsConfig tls;
  std::string token;       // a fixed token
  std::string token_file;  // or a file holding it
};

struct ConnectionFlags {
  std::string kube_api;
  std::string token_file;
  std::string ca_file;
  bool insecure = false;
  std::string kubeconfig;
};

inline constexpr char kServiceAccountDir[] = "/var/run/secrets/kubernetes.io/serviceaccount";

// INVALID_ARGUMENT naming the flag or kubeconfig field when nothing usable is
// configured; `getenv` reads the environment (injected for tests).
absl::StatusOr<KubeConnection> ResolveConnection(const ConnectionFlags& flags,
                                                 const std::function<std::string(const char*)>& getenv,
                                                 const std::string& service_account_dir = kServiceAccountDir);

absl::StatusOr<KubeConnection> LoadKubeconfig(const std::string& path);

// Thread-safe.
class TokenSource {
 public:
  TokenSource(std::string token, std::string file, absl::Duration reread_every, const Clock* clock);
  // The current token ("" when none), reading the file again when due.
  std::string Get();
  // The server refused the token: read the file again at the next Get.
  void Invalidate();
  int reloads() const;  // times the file was read and had changed

 private:
  const std::string file_;
  const absl::Duration reread_every_;
  const Clock* clock_;
  mutable std::mutex mu_;
  std::string token_;
  absl::Time read_at_ = absl::InfinitePast();
  bool ever_read_ = false;
  bool stale_ = false;
  int reloads_ = 0;
};

}  // namespace fleetcap::k8s
