#include "common/tls_files.h"

#include "absl/strings/str_cat.h"
#include "common/file_read.h"
#include "common/status_macros.h"

namespace fleetcap {

absl::Status CheckTlsFiles(const TlsFiles& files, const std::string& flag_prefix) {
  if (files.cert.empty() != files.key.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag_prefix, "-cert and ", flag_prefix, "-key: give both or neither"));
  }
  if (!files.enabled() && !files.client_ca.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag_prefix, "-client-ca: needs ", flag_prefix, "-cert and ", flag_prefix, "-key"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadPemFile(const std::string& flag, const std::string& path) {
  FLEETCAP_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(flag, path, kMaxPemFileBytes));
  if (text.find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": \"", path, "\" is not a PEM file"));
  }
  return text;
}

}  // namespace fleetcap
