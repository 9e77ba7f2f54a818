#include "services/ctl/client.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace fleetcap::ctl {

absl::StatusOr<Format> ParseFormat(const std::string& text) {
  if (text == "table") return Format::kTable;
  if (text == "json") return Format::kJson;
  return absl::InvalidArgumentError(absl::StrCat("--format: \"", text, "\" is not table or json"));
}

void ClientOptions::Register(FlagSet& flags) {
  flags.String("server", &server, "fleetcap-api gRPC HOST:PORT", "FLEETCAP_SERVER");
  flags.String("token", &token, "API bearer token", "FLEETCAP_TOKEN");
  flags.String("format", &format, "table or json");
  flags.Int("timeout", &timeout_seconds, "seconds to wait for an answer");
}

std::shared_ptr<grpc::Channel> ClientOptions::Channel() const {
  return grpc::CreateChannel(server, grpc::InsecureChannelCredentials());
}

void ClientOptions::Prepare(grpc::ClientContext& context) const {
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(timeout_seconds));
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
}

int Fail(int exit_code, const std::string& message) {
  std::cerr << "fleetcapctl: " << absl::StrReplaceAll(message, {{"\n", " "}}) << "\n";
  return exit_code;
}

int FailRpc(const grpc::Status& status, const ClientOptions& options) {
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE ||
      status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    return Fail(1, absl::StrCat("cannot reach fleetcap-api at ", options.server, ": ", status.error_message()));
  }
  return Fail(1, absl::StrCat(absl::StatusCodeToString(static_cast<absl::StatusCode>(status.error_code())), ": ",
                              status.error_message()));
}

}  // namespace fleetcap::ctl
