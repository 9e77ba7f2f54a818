#include "common/civetweb_tls.h"

#include <civetweb.h>
#include <unistd.h>

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace fleetcap {

absl::StatusOr<std::unique_ptr<CivetwebTls>> CivetwebTls::Prepare(const TlsFiles& files,
                                                                  const std::string& flag_prefix) {
  // civetweb loads OpenSSL at run time; the binaries carry the one symbol it
  // misses in OpenSSL 3 (common/openssl_compat/). Should loading still fail,
  // serving "https" without it would crash on the first request, so refuse.
  if ((mg_init_library(MG_FEATURES_TLS) & MG_FEATURES_TLS) == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        flag_prefix, "-cert: the HTTP server library (civetweb) cannot load OpenSSL here, so HTTPS is unavailable"));
  }
  FLEETCAP_RETURN_IF_ERROR(CheckTlsFiles(files, flag_prefix));
  FLEETCAP_ASSIGN_OR_RETURN(auto cert, ReadPemFile(flag_prefix + "-cert", files.cert));
  FLEETCAP_ASSIGN_OR_RETURN(auto key, ReadPemFile(flag_prefix + "-key", files.key));
  if (!files.client_ca.empty()) {
    if (auto ca = ReadPemFile(flag_prefix + "-client-ca", files.client_ca); !ca.ok()) return ca.status();
  }
  // Readable by us alone (mkstemp's 0600), for the moment mg_start takes.
  char path[] = "/tmp/fleetcap-https-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return absl::InternalError("cannot create a temporary file for the HTTPS certificate");
  const std::string both = key + "\n" + cert;
  const bool written = write(fd, both.data(), both.size()) == static_cast<ssize_t>(both.size());
  close(fd);
  auto out = std::unique_ptr<CivetwebTls>(new CivetwebTls(path, files.client_ca));
  if (!written) return absl::InternalError("cannot write the HTTPS certificate file");
  return out;
}

CivetwebTls::~CivetwebTls() { std::remove(pem_path_.c_str()); }

void CivetwebTls::AppendOptions(std::vector<const char*>* options) const {
  // ssl_protocol_version 4: TLS 1.2 and later only.
  options->insert(options->end(), {"ssl_certificate", pem_path_.c_str(), "ssl_protocol_version", "4"});
  if (!client_ca_.empty()) {
    // "yes" refuses a handshake without a certificate that chains to the CA.
    options->insert(options->end(), {"ssl_ca_file", client_ca_.c_str(), "ssl_verify_peer", "yes"});
  }
}

}  // namespace fleetcap
