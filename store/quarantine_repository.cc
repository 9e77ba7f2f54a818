#include "store/quarantine_repository.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace fleetcap::store {

std::string BoundedQuarantinePayload(std::string payload) {
  // Payloads are hostile bytes (binary protobuf, broken UTF-8, NULs) and the
  // column is text: anything but printable ASCII, tab and newline is kept
  // as a \xNN escape, so every record can be stored and read back.
  static constexpr char kCut[] = "...[cut]";
  static constexpr size_t kLimit = kMaxQuarantinePayloadBytes - (sizeof(kCut) - 1);
  std::string out;
  out.reserve(std::min(payload.size(), kLimit));
  for (unsigned char c : payload) {
    std::string piece = (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' ? std::string(1, static_cast<char>(c))
                                                                          : absl::StrFormat("\\x%02x", c);
    if (out.size() + piece.size() > kLimit) return out + kCut;
    out += piece;
  }
  return out;
}

}  // namespace fleetcap::store
