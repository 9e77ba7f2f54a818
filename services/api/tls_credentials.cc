#include "services/api/tls_credentials.h"

namespace fleetcap::api {

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(const TlsFiles& tls) {
  if (auto checked = CheckTlsFiles(tls, "--tls"); !checked.ok()) return checked;
  if (!tls.enabled()) return grpc::InsecureServerCredentials();
  auto cert = ReadPemFile("--tls-cert", tls.cert);
  if (!cert.ok()) return cert.status();
  auto key = ReadPemFile("--tls-key", tls.key);
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({*key, *cert});
  if (!tls.client_ca.empty()) {
    auto ca = ReadPemFile("--tls-client-ca", tls.client_ca);
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *ca;
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace fleetcap::api
