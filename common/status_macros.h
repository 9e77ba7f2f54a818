#pragma once
// Early-return helpers for absl::Status / absl::StatusOr. Debian's Abseil
// (20220623) does not ship these, so they live here once.

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define FLEETCAP_CONCAT_INNER_(a, b) a##b
#define FLEETCAP_CONCAT_(a, b) FLEETCAP_CONCAT_INNER_(a, b)

// Returns the status of `expr` from the enclosing function if it is not OK.
#define FLEETCAP_RETURN_IF_ERROR(expr)                   \
  do {                                                   \
    ::absl::Status fleetcap_status_ = (expr);            \
    if (!fleetcap_status_.ok()) return fleetcap_status_; \
  } while (0)

// Evaluates a StatusOr expression; on error returns its status, otherwise
// moves the value into `lhs` (which may be a declaration).
#define FLEETCAP_ASSIGN_OR_RETURN(lhs, expr) \
  FLEETCAP_ASSIGN_OR_RETURN_IMPL_(FLEETCAP_CONCAT_(fleetcap_statusor_, __LINE__), lhs, expr)

#define FLEETCAP_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.ok()) return tmp.status();                   \
  lhs = std::move(tmp).value()
