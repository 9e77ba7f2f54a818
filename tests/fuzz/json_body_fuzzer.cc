// Fuzz target: a JSON request body, as anyone with a token POSTs it to the
// API (services/api/http_json.h). The same text is read as each request that
// carries a document (scenarios, policies) and as a token request; it must
// fill the message or give INVALID_ARGUMENT, never an exception or a crash.

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fleetcap/v1/planning.pb.h"
#include "fleetcap/v1/policy.pb.h"
#include "fleetcap/v1/token.pb.h"
#include "services/api/http_json.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

template <typename Message>
void ReadAs(const std::string& body) {
  Message message;
  const absl::Status status = fleetcap::api::ParseJsonBody(body, &message);
  if (!status.ok() && status.code() != absl::StatusCode::kInvalidArgument) std::abort();
}

}  // namespace

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  ReadAs<v1::RunScenarioRequest>(body);
  ReadAs<v1::SaveScenarioRequest>(body);
  ReadAs<v1::ApplyPolicyRequest>(body);
  ReadAs<v1::CreateTokenRequest>(body);
  return 0;
}
