#include "store/pg_instant_reads.h"

#include <map>
#include <optional>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/time_util.h"
#include "store/instant_sources.h"
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
    clusters.push_back({r[0].as<std::string>(), Micros(r[1]), Micros(r[2]), Micros(r[3])});
  }
  return ChooseInstantSources(clusters, at);
}

// `sql` after WITH w AS (the sources not read from the facts), and the
// changes' CTEs; nothing when every source is the facts'.
std::optional<pqxx::result> FromSources(pqxx::transaction_base& txn, const std::vector<InstantSource>& sources,
                                        const char* sql) {
  std::vector<std::string> rows;
  for (const InstantSource& s : sources) {
    if (s.base == InstantSource::Base::kFacts) continue;
    rows.push_back(absl::StrCat(
        "(", txn.quote(s.cluster), ", ",
        s.base == InstantSource::Base::kCheckpoint ? Instant(txn, s.checkpoint) : "NULL::timestamptz", ", ",
        Instant(txn, s.from), ", ", Instant(txn, s.to), ", ", s.sign, ")"));
  }
  if (rows.empty()) return std::nullopt;
  return txn.exec(absl::StrCat("WITH w (cluster, base_at, lo, hi, sign) AS (VALUES ", absl::StrJoin(rows, ", "), "),",
                               kInstantChangesCtes, sql));
}

bool HorizonReached(pqxx::transaction_base& txn, const std::string& cluster, const std::string& instant) {
  return txn.exec_params1(kHorizonReachedSql, cluster, instant)[0].as<bool>();
}

}  // namespace

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
