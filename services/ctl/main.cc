// fleetcapctl: the command-line client of fleetcap-api.

#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "common/flags.h"
#include "fleetcap_version.h"
#include "grpcpp/grpcpp.h"
#include "services/ctl/fleet_commands.h"

namespace {

constexpr const char* kUsage = R"(<command> [flags]

commands:
  fleet summary [--cluster C] [--at T]   accelerators in service and held, per model)";

int Fail(int code, const std::string& message) {
  // One line, whatever the server said.
  std::cerr << "fleetcapctl: " << absl::StrReplaceAll(message, {{"\n", " "}}) << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fleetcap;
  std::string server = "127.0.0.1:8081";
  std::string token;
  std::string format_text = "table";
  int64_t timeout_seconds = 10;
  std::string cluster;
  std::string at;
  FlagSet flags("fleetcapctl", kUsage);
  flags.String("server", &server, "fleetcap-api gRPC HOST:PORT", "FLEETCAP_SERVER");
  flags.String("token", &token, "API bearer token", "FLEETCAP_TOKEN");
  flags.String("format", &format_text, "table or json");
  flags.Int("timeout", &timeout_seconds, "seconds to wait for an answer");
  flags.String("cluster", &cluster, "a cluster name; empty for all (fleet summary)");
  flags.String("at", &at, "an RFC 3339 instant; empty for now (fleet summary)");

  auto parsed = flags.Parse(Args(argc, argv));
  if (!parsed.ok()) return Fail(2, std::string(parsed.status().message()));
  if (parsed->help) {
    std::cout << flags.Help();
    return 0;
  }
  if (parsed->version) {
    std::cout << "fleetcapctl " << FLEETCAP_VERSION << "\n";
    return 0;
  }
  auto format = ctl::ParseFormat(format_text);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  const std::string command = absl::StrJoin(parsed->positional, " ");
  if (command != "fleet summary") {
    return Fail(2, command.empty() ? "no command given (see fleetcapctl --help)"
                                   : absl::StrCat("unknown command \"", command, "\" (see fleetcapctl --help)"));
  }

  auto request = ctl::FleetSummaryRequest(cluster, at);
  if (!request.ok()) return Fail(2, std::string(request.status().message()));
  auto channel = grpc::CreateChannel(server, grpc::InsecureChannelCredentials());
  auto stub = v1::FleetService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(timeout_seconds));
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  v1::FleetSummary summary;
  grpc::Status status = stub->GetFleetSummary(&context, *request, &summary);
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE ||
      status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    return Fail(1, absl::StrCat("cannot reach fleetcap-api at ", server, ": ", status.error_message()));
  }
  if (!status.ok()) {
    return Fail(1, absl::StrCat(absl::StatusCodeToString(static_cast<absl::StatusCode>(status.error_code())),
                                ": ", status.error_message()));
  }
  std::cout << ctl::RenderFleetSummary(summary, *format);
  return 0;
}
