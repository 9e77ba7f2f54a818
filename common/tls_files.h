#pragma once
// The PEM files of a TLS server, as flags give them: PREFIX-cert,
// PREFIX-key and, to demand client certificates, PREFIX-client-ca
// ("--tls" for fleetcap-api, "--remote-write-tls" for the remote_write
// receiver).

#include <cstddef>
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

// A PEM file's bound: a certificate chain or a CA bundle (the system's is a
// few hundred KiB) fits many times over.
inline constexpr size_t kMaxPemFileBytes = 4 * 1024 * 1024;

// The text of the PEM file at `path` (ReadWholeFile, common/file_read.h);
// errors name `flag` and the path.
absl::StatusOr<std::string> ReadPemFile(const std::string& flag, const std::string& path);

}  // namespace fleetcap
