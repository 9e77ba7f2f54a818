#pragma once
// The PEM files of a TLS server, as flags give them: PREFIX-cert,
// PREFIX-key and, to demand client certificates, PREFIX-client-ca
// ("--tls" for fleetcap-api, "--remote-write-tls" for the remote_write
// receiver).

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace fleetcap {

// PEM files for TLS (and the CA that client certificates must chain to, when set).
struct TlsFiles {
  std::string cert;
  std::string key;
  std::string client_ca;
  bool enabled() const { return !cert.empty(); }
};

// Both the certificate and the key or neither, and a client CA only with them.
absl::Status CheckTlsFiles(const TlsFiles& files, const std::string& flag_prefix);

// The text of the PEM file at `path`; errors name `flag` and the path.
absl::StatusOr<std::string> ReadPemFile(const std::string& flag, const std::string& path);

}  // namespace fleetcap
