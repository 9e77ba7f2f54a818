#pragma once
// `fleetcapctl policy ...`, `token ...` and `audit`: the control plane from
// the command line. `policy validate` and the local half of `policy diff`
// and `policy apply` use the same parser and validator as the server.

#include <string>
#include <vector>

#include "fleetcap/v1/audit.pb.h"
#include "fleetcap/v1/policy.pb.h"
#include "fleetcap/v1/token.pb.h"
#include "services/ctl/client.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> PolicyCommands();
std::vector<Command> TokenCommands();
std::vector<Command> AuditCommands();

std::string RenderPolicyHistory(const v1::ListPolicyVersionsResponse& history, Format format);
std::string RenderTokens(const v1::ListTokensResponse& tokens, Format format);
std::string RenderAudit(const v1::ListAuditEventsResponse& events, Format format);

}  // namespace fleetcap::ctl
