#pragma once
// A policy version that trusts GPU-sharing annotations in every cluster, for
// ingest tests whose fixtures carry shares a scheduler set (the accelerator
// zoo, the openb trace). Without it the ingest sizes holds by the device
// request alone (docs/policy.md, "Trusted pod metadata").

#include "pqxx/pqxx"

namespace fleetcap::testing {

inline void TrustGpuSharesEverywhere(pqxx::connection& conn) {
  pqxx::nontransaction txn(conn);
  txn.exec(
      "INSERT INTO policies (version, document, applied_by, message) VALUES "
      "((SELECT coalesce(max(version), 0) + 1 FROM policies), "
      "E'version: 1\\ntrusted_pods:\\n  - gpu_share: true\\n', 'test', 'trust GPU shares')");
}

}  // namespace fleetcap::testing
