#include "services/api/tls_credentials.h"

#include "common/status_macros.h"

namespace fleetcap::api {

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(const TlsFiles& tls) {
  FLEETCAP_RETURN_IF_ERROR(CheckTlsFiles(tls, "--tls"));
  if (!tls.enabled()) return grpc::InsecureServerCredentials();
  FLEETCAP_ASSIGN_OR_RETURN(auto cert, ReadPemFile("--tls-cert", tls.cert));
  FLEETCAP_ASSIGN_OR_RETURN(auto key, ReadPemFile("--tls-key", tls.key));
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({key, cert});
  if (!tls.client_ca.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(auto ca, ReadPemFile("--tls-client-ca", tls.client_ca));
    options.pem_root_certs = ca;
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace fleetcap::api
