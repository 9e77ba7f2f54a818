#ifndef FLEETCAP_STORE_PG_TIME_SQL_H_
#define FLEETCAP_STORE_PG_TIME_SQL_H_

// How the PostgreSQL repositories move instants across the wire: timestamptz
// columns are read as whole microseconds since the epoch (bigint), never as
// text, and bigint columns of seconds or microseconds become absl::Time.

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"

namespace fleetcap::store {

// SQL reading the timestamptz `column` as microseconds since the epoch.
inline std::string EpochMicrosSql(absl::string_view column) {
  return absl::StrCat("(extract(epoch FROM ", column, ") * 1000000)::bigint");
}

// A bigint field of microseconds since the epoch.
inline absl::Time MicrosField(const pqxx::field& f) { return absl::FromUnixMicros(f.as<int64_t>()); }

// A bigint field of seconds since the epoch.
inline absl::Time SecondsField(const pqxx::field& f) { return absl::FromUnixSeconds(f.as<int64_t>()); }

}  // namespace fleetcap::store

#endif  // FLEETCAP_STORE_PG_TIME_SQL_H_
