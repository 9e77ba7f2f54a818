#pragma once
// Bearer token secrets: 256 random bits from OpenSSL's RAND_bytes, written
// as "fct_" + unpadded base64url, and their SHA-256 (the only form stored).

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fleetcap::api {

struct NewTokenSecret {
  std::string token_id;  // 12 hex digits, public
  std::string secret;    // shown once to the caller
  std::string hash;      // SHA-256 of `secret`, 32 raw bytes
};

// INTERNAL if the random generator fails.
absl::StatusOr<NewTokenSecret> GenerateTokenSecret();

std::string HashTokenSecret(absl::string_view secret);

}  // namespace fleetcap::api
