#pragma once
// HTTPS for the civetweb servers (fleetcap-api's HTTP gateway and the
// remote_write receiver): the certificate and key in the one PEM file
// civetweb reads, TLS 1.2 or later, and, when a client CA is given, client
// certificates demanded and verified against it.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/tls_files.h"

namespace fleetcap {

class CivetwebTls {
 public:
  // Checks that civetweb can load OpenSSL (see common/openssl_compat/) and
  // writes the combined PEM file. `flag_prefix` names the flags in errors:
  // "--tls" gives "--tls-cert: ..." and "--tls-key: ...".
  static absl::StatusOr<std::unique_ptr<CivetwebTls>> Prepare(const TlsFiles& files, const std::string& flag_prefix);
  // civetweb reads the combined file during mg_start only: it is removed here.
  ~CivetwebTls();
  CivetwebTls(const CivetwebTls&) = delete;
  CivetwebTls& operator=(const CivetwebTls&) = delete;

  // Appends civetweb's TLS options (the strings live as long as this object).
  // The listening port needs an "s" suffix as well.
  void AppendOptions(std::vector<const char*>* options) const;

 private:
  CivetwebTls(std::string pem_path, std::string client_ca)
      : pem_path_(std::move(pem_path)), client_ca_(std::move(client_ca)) {}
  std::string pem_path_;
  std::string client_ca_;
};

}  // namespace fleetcap
