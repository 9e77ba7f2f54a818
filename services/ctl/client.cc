#include "services/ctl/client.h"

#include <iostream>

#include "grpc/support/time.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/exit.h"
#include "common/file_read.h"
#include "common/tls_files.h"

namespace fleetcap::ctl {

absl::StatusOr<Format> ParseFormat(const std::string& text) {
  if (text == "table") return Format::kTable;
  if (text == "json") return Format::kJson;
  return absl::InvalidArgumentError(absl::StrCat("--format: \"", text, "\" is not table or json"));
}

void ClientOptions::Register(FlagSet& flags) {
  flags.String("server", &server, "fleetcap-api gRPC HOST:PORT", "FLEETCAP_SERVER");
  flags.Secret("token", &token, "API bearer token", "FLEETCAP_TOKEN");
  flags.String("format", &format, format_help);
  flags.Int("timeout", &timeout_seconds, "seconds to wait for an answer");
  flags.String("tls-ca", &tls_ca, "PEM CA to verify the server with; enables TLS", "FLEETCAP_TLS_CA");
  flags.String("tls-cert", &tls_cert, "PEM client certificate, when the server requires one");
  flags.String("tls-key", &tls_key, "PEM key of --tls-cert");
}

namespace {
// A PEM file's text; one that cannot be read is empty, as it always was
// here, and the TLS handshake then fails.
std::string ReadPem(const std::string& flag, const std::string& path) {
  auto text = ReadWholeFile(flag, path, kMaxPemFileBytes);
  return text.ok() ? std::move(*text) : std::string();
}
}  // namespace

std::shared_ptr<grpc::Channel> ClientOptions::Channel() const {
  if (tls_ca.empty()) return grpc::CreateChannel(server, grpc::InsecureChannelCredentials());
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = ReadPem("--tls-ca", tls_ca);
  if (!tls_cert.empty()) {
    ssl.pem_cert_chain = ReadPem("--tls-cert", tls_cert);
    ssl.pem_private_key = ReadPem("--tls-key", tls_key);
  }
  return grpc::CreateChannel(server, grpc::SslCredentials(ssl));
}

void ClientOptions::Prepare(grpc::ClientContext& context) const {
  // A timespan is a deadline relative to when the call starts; gRPC reads its own clock.
  context.set_deadline(gpr_time_from_seconds(timeout_seconds, GPR_TIMESPAN));
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
}

void ParseWithOwnFormat(FlagSet& flags, Invocation& inv, const std::vector<std::string>& args, size_t positional) {
  inv.client.Register(flags);
  auto parsed = flags.Parse(args);
  if (!parsed.ok()) {
    inv.exit_code = Fail(2, std::string(parsed.status().message()));
    return;
  }
  if (parsed->help) {
    std::cout << flags.Help();
    inv.exit_code = 0;
    return;
  }
  if (parsed->positional.size() != positional) {
    inv.exit_code = Fail(2, parsed->positional.size() > positional
                                ? "unexpected argument \"" + parsed->positional[positional] + "\""
                                : std::string("missing argument (see --help)"));
    return;
  }
  inv.positional = std::move(parsed->positional);
}

void Parse(FlagSet& flags, Invocation& inv, const std::vector<std::string>& args, size_t positional) {
  ParseWithOwnFormat(flags, inv, args, positional);
  if (inv.exit_code) return;
  auto format = ParseFormat(inv.client.format);
  if (!format.ok()) {
    inv.exit_code = Fail(2, std::string(format.status().message()));
    return;
  }
  inv.format = *format;
}

int Fail(int exit_code, const std::string& message) {
  // A server's message may span lines; a failure is reported on one.
  return ExitCode("fleetcapctl", absl::UnknownError(absl::StrReplaceAll(message, {{"\n", " "}})), exit_code);
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
