#pragma once
// What every fleetcapctl command shares: the flags that say which server to
// ask and how (--server, --token, --format, --timeout), the channel, and the
// one-line errors people see.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/flags.h"
#include "grpcpp/grpcpp.h"

namespace fleetcap::ctl {

enum class Format { kTable, kJson };

// "table" or "json"; anything else is INVALID_ARGUMENT naming --format.
absl::StatusOr<Format> ParseFormat(const std::string& text);

struct ClientOptions {
  std::string server = "127.0.0.1:8081";
  std::string token;
  std::string format = "table";
  // What --help says --format takes; a command with formats of its own sets it before parsing.
  std::string format_help = "table or json";
  int64_t timeout_seconds = 10;
  // TLS: with a CA the channel is encrypted and the server verified; a client
  // certificate and key are sent when the server asks for one.
  std::string tls_ca;
  std::string tls_cert;
  std::string tls_key;

  void Register(FlagSet& flags);
  std::shared_ptr<grpc::Channel> Channel() const;
  // Sets the deadline and, when there is a token, the bearer credentials.
  void Prepare(grpc::ClientContext& context) const;
};

// One run of a command: the client options, the output format and the
// positional arguments, or the exit code when parsing already decided it
// (--help, a bad flag, a wrong number of arguments).
struct Invocation {
  ClientOptions client;
  Format format = Format::kTable;
  std::vector<std::string> positional;
  std::optional<int> exit_code;
};

// Registers the client flags on `flags`, parses `args`, and expects exactly
// `positional` positional arguments.
void Parse(FlagSet& flags, Invocation& inv, const std::vector<std::string>& args, size_t positional);

// As Parse, but --format is left to the command (it is in inv.client.format;
// inv.format is not set): for commands with formats beyond table and json.
void ParseWithOwnFormat(FlagSet& flags, Invocation& inv, const std::vector<std::string>& args, size_t positional);

// Prints one line to stderr ("fleetcapctl: ...") through the exit helper
// (common/exit.h) and returns `exit_code`.
int Fail(int exit_code, const std::string& message);

// Reports a failed RPC in one line; returns the exit code (1).
int FailRpc(const grpc::Status& status, const ClientOptions& options);

template <typename T>
struct NotDeduced {
  using type = T;
};

// One unary call of a generated stub's `method` (&v1::XService::Stub::Y)
// on the options' channel, with their deadline and token.
template <typename Stub, typename Request, typename Response>
grpc::Status Call(const ClientOptions& client,
                  grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                  const typename NotDeduced<Request>::type& request, Response* response) {
  Stub stub(client.Channel());
  grpc::ClientContext context;
  client.Prepare(context);
  return (stub.*method)(&context, request, response);
}

}  // namespace fleetcap::ctl
