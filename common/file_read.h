#pragma once
// The one way a whole file is read: bounded, refused by its size before it is
// read, and with errors that say what the file was for and where it is.
// Streaming readers (a trace's lines, the sample log's segments) are not
// whole-file reads and keep their own loops.

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace fleetcap {

// The bytes of the file at `path`, at most `max_bytes` of them. `what` says
// what the file is for (a flag such as "--tls-cert", or "scenario") and
// heads every message:
//   NOT_FOUND         <what>: cannot read "<path>": <reason>  (it is not there)
//   UNAVAILABLE       <what>: cannot read "<path>": <reason>  (it is there but
//                     cannot be opened, is a directory, or a read failed)
//   INVALID_ARGUMENT  <what>: "<path>" is larger than <max_bytes> bytes
// so a caller may take NOT_FOUND for "no such data" and anything else as a
// fault.
// A regular file over the bound is refused by its size, before any of it is
// read; anything else (a pipe, a file growing while it is read) after
// max_bytes + 1 bytes.
absl::StatusOr<std::string> ReadWholeFile(const std::string& what, const std::string& path, size_t max_bytes);

}  // namespace fleetcap
