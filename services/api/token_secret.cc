#include "services/api/token_secret.h"

#include <openssl/rand.h>
#include <openssl/sha.h>

#include "absl/strings/escaping.h"

namespace fleetcap::api {

absl::StatusOr<NewTokenSecret> GenerateTokenSecret() {
  unsigned char secret[32];
  unsigned char id[6];
  if (RAND_bytes(secret, sizeof secret) != 1 || RAND_bytes(id, sizeof id) != 1) {
    return absl::InternalError("cannot draw random bytes for a token (OpenSSL RAND_bytes failed)");
  }
  NewTokenSecret out;
  out.token_id = absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(id), sizeof id));
  out.secret =
      "fct_" + absl::WebSafeBase64Escape(absl::string_view(reinterpret_cast<const char*>(secret), sizeof secret));
  out.hash = HashTokenSecret(out.secret);
  OPENSSL_cleanse(secret, sizeof secret);
  return out;
}

std::string HashTokenSecret(absl::string_view secret) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(secret.data()), secret.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof digest);
}

}  // namespace fleetcap::api
