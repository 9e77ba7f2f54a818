#pragma once
// Policy YAML -> PolicyDocument, with every problem reported at once: each
// error names the line, the field (a path like `prices[2].to`) and what was
// expected. Parsing then validation (policy_validation.h) is ParsePolicy().

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "policy/policy_document.h"

namespace fleetcap::policy {

struct PolicyError {
  int line = 0;    // 1-based; 0 when the error is about the whole document
  int column = 0;  // 1-based; 0 when unknown
  std::string field;
  std::string message;
};

struct ParsedPolicy {
  PolicyDocument document;          // meaningful only when errors is empty
  std::vector<PolicyError> errors;  // ordered by line
  bool ok() const { return errors.empty(); }
};

// Largest document accepted, in bytes.
inline constexpr size_t kMaxPolicyBytes = 2 * 1024 * 1024;

// Parses and validates `text`.
ParsedPolicy ParsePolicy(absl::string_view text);

// "SOURCE:LINE:COLUMN: FIELD: MESSAGE" (SOURCE and position omitted when empty/0).
std::string FormatPolicyError(absl::string_view source, const PolicyError& error);
// All errors, one per line.
std::string FormatPolicyErrors(absl::string_view source, const std::vector<PolicyError>& errors);

}  // namespace fleetcap::policy
