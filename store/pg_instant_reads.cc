#include "store/pg_instant_reads.h"

#include <map>
#include <optional>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/substitute.h"
#include "common/time_util.h"
#include "store/pg_instant_sql.h"

namespace fleetcap::store {
namespace {

std::optional<absl::Time> Micros(const pqxx::field& f) {
  if (f.is_null()) return std::nullopt;
  return absl::FromUnixMicros(f.as<int64_t>());
}

std::string Instant(pqxx::transaction_base& txn, absl::Time t) {
  return absl::StrCat(txn.quote(FormatRfc3339(t)), "::timestamptz");
}

// The sources of every cluster matching `cluster` at `at`.
std::vector<InstantSource> Sources(pqxx::transaction_base& txn, const std::string& cluster, absl::Time at) {
  std::vector<ClusterInstants> clusters;
  for (const auto& r : txn.exec_params(kInstantSourcesSql, cluster, FormatRfc3339(at))) {
    auto count = [](const pqxx::field& f) { return f.is_null() ? std::nullopt : std::optional(f.as<int64_t>()); };
    clusters.push_back({r[0].as<std::string>(), Micros(r[1]), Micros(r[2]), Micros(r[3]), Micros(r[4]), count(r[5]),
                        count(r[6]), count(r[7])});
  }
  return ChooseInstantSources(clusters, at);
}

// `sql` over the sources not read from the facts; nothing when there are none.
std::optional<pqxx::result> FromSources(pqxx::transaction_base& txn, const std::vector<InstantSource>& sources,
                                        const char* sql) {
  const std::string statement = FromSourcesSql(txn, sources, sql);
  if (statement.empty()) return std::nullopt;
  // The statement reads a few hundred rows by index, but its estimates for
  // a window near the ends of a column's histogram can pass the JIT's cost
  // thresholds: compiling it then took 0.2 to 0.8 s.
  txn.exec("SET LOCAL jit = off");
  return txn.exec(statement);
}

bool HorizonReached(pqxx::transaction_base& txn, const std::string& cluster, const std::string& instant) {
  return txn.exec_params1(kHorizonReachedSql, cluster, instant)[0].as<bool>();
}

}  // namespace

std::string FromSourcesSql(pqxx::transaction_base& txn, const std::vector<InstantSource>& sources, const char* sql) {
  std::vector<std::string> bases, holds, devices;
  for (const InstantSource& s : sources) {
    if (s.base == InstantSource::Base::kFacts) continue;
    const std::string cluster = txn.quote(s.cluster);
    bases.push_back(absl::StrCat(
        "(", cluster, ", ",
        s.base == InstantSource::Base::kCheckpoint ? Instant(txn, s.checkpoint) : "NULL::timestamptz", ")"));
    const std::string from = Instant(txn, s.from), to = Instant(txn, s.to);
    holds.push_back(absl::Substitute(kChangedHoldsOf, cluster, from, to, s.sign));
    devices.push_back(absl::Substitute(kChangedDevicesOf, cluster, from, to, s.sign));
  }
  if (bases.empty()) return "";
  return absl::StrCat("WITH w (cluster, base_at) AS (VALUES ", absl::StrJoin(bases, ", "), "),\n  changed_holds AS (",
                      absl::StrJoin(holds, "\n    UNION ALL"), "),\n  changed_devices AS (",
                      absl::StrJoin(devices, "\n    UNION ALL"), "),", kInstantChangesCtes, sql);
}

std::vector<ModelCount> SummaryAtInstant(pqxx::transaction_base& txn, const std::string& cluster, absl::Time at) {
  const std::string instant = FormatRfc3339(at);
  std::vector<ModelCount> out;
  if (HorizonReached(txn, cluster, instant)) {
    for (const auto& r : txn.exec_params(kSummarizeNowSql, cluster)) {
      out.push_back({r[0].as<std::string>(), r[1].as<int64_t>(), r[2].as<int64_t>()});
    }
    return out;
  }
  std::map<std::string, ModelCount> by_model;
  auto add = [&](const pqxx::result& rows) {
    for (const auto& r : rows) {
      ModelCount& m = by_model[r[0].as<std::string>()];
      m.devices += r[1].as<int64_t>();
      m.held_milli += r[2].as<int64_t>();
    }
  };
  const std::vector<InstantSource> sources = Sources(txn, cluster, at);
  if (auto rows = FromSources(txn, sources, kSummaryFromSourcesSql)) add(*rows);
  for (const InstantSource& s : sources) {
    if (s.base == InstantSource::Base::kFacts) add(txn.exec_params(kSummarizeAtSql, s.cluster, instant));
  }
  for (auto& [model, m] : by_model) {
    m.model = model;
    if (m.devices > 0) out.push_back(m);
  }
  return out;
}

std::vector<PodTeamEvidence> HoldersAtInstant(pqxx::transaction_base& txn, const std::string& cluster, absl::Time at) {
  const std::string instant = FormatRfc3339(at);
  std::map<std::tuple<std::string, std::string, std::string>, int64_t> held;
  auto add = [&](const pqxx::result& rows) {
    for (const auto& r : rows) {
      held[{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>()}] += r[3].as<int64_t>();
    }
  };
  if (HorizonReached(txn, cluster, instant)) {
    add(txn.exec_params(kHoldersNowSql, cluster));
  } else {
    const std::vector<InstantSource> sources = Sources(txn, cluster, at);
    if (auto rows = FromSources(txn, sources, kHoldersFromSourcesSql)) add(*rows);
    for (const InstantSource& s : sources) {
      if (s.base == InstantSource::Base::kFacts) add(txn.exec_params(kHoldersAtSql, s.cluster, instant));
    }
  }
  std::vector<PodTeamEvidence> out;
  for (const auto& [key, milli] : held) {
    if (milli != 0) out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), milli});
  }
  return out;
}

}  // namespace fleetcap::store
