#include "store/pg_control_repositories.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
namespace {

void AppendAudit(pqxx::work& txn, const AuditEntry& a) {
  txn.exec_params(
      "INSERT INTO audit_log (at, actor, action, target, details) "
      "VALUES ($1::timestamptz, $2, $3, $4, $5::jsonb)",
      FormatRfc3339(a.at), a.actor, a.action, a.target, a.details_json);
}

const std::string kPolicyColumns =
    absl::StrCat("version, document, ", EpochMicrosSql("applied_at"), ", applied_by, message, base_version");

PolicyVersionRecord PolicyFromRow(const pqxx::row& r) {
  PolicyVersionRecord p;
  p.version = r[0].as<int32_t>();
  p.document = r[1].as<std::string>();
  p.applied_at = MicrosField(r[2]);
  p.applied_by = r[3].as<std::string>();
  p.message = r[4].as<std::string>();
  if (!r[5].is_null()) p.base_version = r[5].as<int32_t>();
  return p;
}

const std::string kTokenColumns =
    absl::StrCat("token_id, encode(secret_hash, 'hex'), role, description, ", EpochMicrosSql("created_at"), ", ",
                 EpochMicrosSql("expires_at"), ", ", EpochMicrosSql("revoked_at"), ", created_by");

TokenRecord TokenFromRow(const pqxx::row& r) {
  TokenRecord t;
  t.token_id = r[0].as<std::string>();
  t.secret_hash = absl::HexStringToBytes(r[1].as<std::string>());
  t.role = r[2].as<std::string>();
  t.description = r[3].as<std::string>();
  t.created_at = MicrosField(r[4]);
  t.expires_at = MicrosField(r[5]);
  if (!r[6].is_null()) t.revoked_at = MicrosField(r[6]);
  t.created_by = r[7].as<std::string>();
  return t;
}

}  // namespace

absl::StatusOr<PolicyVersionRecord> PgPolicyRepository::One(const std::string& where, std::optional<int32_t> version) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    pqxx::result rows =
        version ? txn.exec_params(absl::StrCat("SELECT ", kPolicyColumns, " FROM policies ", where), *version)
                : txn.exec(absl::StrCat("SELECT ", kPolicyColumns, " FROM policies ", where));
    if (rows.empty()) {
      return absl::NotFoundError(version ? absl::StrCat("policy version ", *version, " does not exist")
                                         : std::string("no policy has been applied yet"));
    }
    return PolicyFromRow(rows[0]);
  } catch (const std::exception& e) {
    return PgError("reading the policy", e);
  }
}

absl::StatusOr<PolicyVersionRecord> PgPolicyRepository::Active() {
  return One("ORDER BY version DESC LIMIT 1", std::nullopt);
}

absl::StatusOr<int32_t> PgPolicyRepository::ActiveVersion() {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    return txn.exec("SELECT coalesce(max(version), 0) FROM policies")[0][0].as<int32_t>();
  } catch (const std::exception& e) {
    return PgError("reading the active policy version", e);
  }
}

absl::StatusOr<PolicyVersionRecord> PgPolicyRepository::Get(int32_t version) {
  return One("WHERE version = $1", version);
}

absl::StatusOr<std::vector<PolicyVersionRecord>> PgPolicyRepository::History() {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    std::vector<PolicyVersionRecord> out;
    for (const auto& row : txn.exec(absl::StrCat("SELECT ", kPolicyColumns, " FROM policies ORDER BY version DESC"))) {
      out.push_back(PolicyFromRow(row));
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("reading the policy history", e);
  }
}

absl::StatusOr<PolicyVersionRecord> PgPolicyRepository::Apply(PolicyVersionRecord record,
                                                              std::optional<int32_t> base_version, AuditEntry audit) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  int32_t active = 0;
  try {
    pqxx::work txn(*lease);
    active = txn.exec("SELECT coalesce(max(version), 0) FROM policies")[0][0].as<int32_t>();
    if (base_version && *base_version != active) {
      return absl::FailedPreconditionError(absl::StrCat("the policy changed since version ", *base_version,
                                                        ": the active version is ", active,
                                                        "; review the new diff and apply again"));
    }
    record.version = active + 1;
    record.base_version = active == 0 ? std::nullopt : std::optional<int32_t>(active);
    // Two applies on the same base both try this version; the primary key lets exactly one win.
    auto row = txn.exec_params(
        absl::StrCat("INSERT INTO policies (version, document, applied_at, applied_by, message, base_version) "
                     "VALUES ($1, $2, $3::timestamptz, $4, $5, NULLIF($6, 0)) RETURNING ",
                     EpochMicrosSql("applied_at")),
        record.version, record.document, FormatRfc3339(record.applied_at), record.applied_by, record.message,
        record.base_version.value_or(0));
    record.applied_at = MicrosField(row[0][0]);
    audit.target = absl::StrCat("policy version ", record.version);
    AppendAudit(txn, audit);
    txn.commit();
    return record;
  } catch (const pqxx::unique_violation&) {
    return absl::FailedPreconditionError(
        absl::StrCat("another apply on version ", active, " won the race; review the new diff and apply again"));
  } catch (const std::exception& e) {
    return PgError("applying the policy", e);
  }
}

absl::Status PgTokenRepository::Create(const TokenRecord& t, AuditEntry audit) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    txn.exec_params(
        "INSERT INTO api_tokens (token_id, secret_hash, role, description, created_at, expires_at, created_by) "
        "VALUES ($1, decode($2, 'hex'), $3, $4, $5::timestamptz, $6::timestamptz, $7)",
        t.token_id, absl::BytesToHexString(t.secret_hash), t.role, t.description, FormatRfc3339(t.created_at),
        FormatRfc3339(t.expires_at), t.created_by);
    AppendAudit(txn, audit);
    txn.commit();
    return absl::OkStatus();
  } catch (const pqxx::unique_violation&) {
    return absl::AlreadyExistsError(absl::StrCat("token ", t.token_id, " already exists"));
  } catch (const std::exception& e) {
    return PgError("creating a token", e);
  }
}

absl::StatusOr<TokenRecord> PgTokenRepository::FindByHash(const std::string& secret_hash) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    auto rows = txn.exec_params(
        absl::StrCat("SELECT ", kTokenColumns, " FROM api_tokens WHERE secret_hash = decode($1, 'hex')"),
        absl::BytesToHexString(secret_hash));
    if (rows.empty()) return absl::NotFoundError("no such token");
    return TokenFromRow(rows[0]);
  } catch (const std::exception& e) {
    return PgError("looking up a token", e);
  }
}

absl::StatusOr<std::vector<TokenRecord>> PgTokenRepository::List() {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    std::vector<TokenRecord> out;
    for (const auto& row :
         txn.exec(absl::StrCat("SELECT ", kTokenColumns, " FROM api_tokens ORDER BY created_at, token_id"))) {
      out.push_back(TokenFromRow(row));
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("listing tokens", e);
  }
}

absl::StatusOr<TokenRecord> PgTokenRepository::Revoke(const std::string& token_id, absl::Time at, AuditEntry audit) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    auto rows = txn.exec_params(
        absl::StrCat("UPDATE api_tokens SET revoked_at = coalesce(revoked_at, $2::timestamptz) WHERE token_id = $1 "
                     "RETURNING ",
                     kTokenColumns),
        token_id, FormatRfc3339(at));
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("token \"", token_id, "\" does not exist"));
    AppendAudit(txn, audit);
    txn.commit();
    return TokenFromRow(rows[0]);
  } catch (const std::exception& e) {
    return PgError("revoking a token", e);
  }
}

absl::StatusOr<std::vector<AuditEntry>> PgAuditRepository::List(int64_t after_id, int limit,
                                                                const std::string& action) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    std::vector<AuditEntry> out;
    for (const auto& r :
         txn.exec_params(absl::StrCat("SELECT id, ", EpochMicrosSql("at"),
                                      ", actor, action, target, details::text FROM audit_log "
                                      "WHERE id > $1 AND ($2 = '' OR action = $2) ORDER BY id LIMIT $3"),
                         after_id, action, limit)) {
      AuditEntry a;
      a.id = r[0].as<int64_t>();
      a.at = MicrosField(r[1]);
      a.actor = r[2].as<std::string>();
      a.action = r[3].as<std::string>();
      a.target = r[4].as<std::string>();
      a.details_json = r[5].as<std::string>();
      out.push_back(std::move(a));
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("reading the audit log", e);
  }
}

}  // namespace fleetcap::store
