#pragma once
// The listening socket of a server, made from a HOST:PORT flag, and the
// number of files a server that holds many connections may open.

#include <string>

#include "absl/status/statusor.h"

namespace fleetcap {

// A non-blocking TCP socket listening on `listen`: HOST:PORT, [IPv6]:PORT
// or a bare PORT (every interface); port 0 picks a free one. `backlog` is the
// queue of connections not yet accepted. Errors say what failed, not which flag.
absl::StatusOr<int> ListenTcp(const std::string& listen, int backlog);

// The port `fd` listens on.
int ListeningPort(int fd);

// Raises this process's soft limit of open files to its hard limit (each
// connection is one) and returns the limit now in force.
long RaiseOpenFileLimit();

}  // namespace fleetcap
