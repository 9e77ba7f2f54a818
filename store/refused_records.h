#pragma once
// One record the store cannot take costs only itself, in every writer of
// batches (inventory changes, minute rows): a batch the store refuses is
// written again in halves, down to single records, and each record refused
// alone is set aside; every other record is written as the whole batch would
// have written it. A batch with one bad record among n costs about 2 log2(n)
// writes, not n.
//
// Splitting is safe only where writing consecutive parts of a batch in order
// stores what writing the whole batch stores (see store/live_inventory_records.h
// for the inventory's order, and store/pg_usage_repository.cc for minutes).

#include <cstddef>
#include <functional>

#include "absl/status/status.h"

namespace fleetcap::store {

struct RefusedRecords {
  // Writes records [begin, end): OK, a refusal (`refused` says), or an outage.
  std::function<absl::Status(size_t begin, size_t end)> write;
  // Whether a failed write is the records' fault (the store refused a value
  // it cannot hold), so that a part of it may succeed; otherwise an outage.
  std::function<bool(const absl::Status&)> refused;
  // Record `i`, refused alone with `refusal`, is set aside.
  std::function<void(size_t i, const absl::Status& refusal)> set_aside;
};

// Writes records [0, n) given that writing them all at once was refused with
// `refusal`. Returns OK, or the first outage; `written` is then the number of
// records, from the first, that were written or set aside.
absl::Status WriteAroundRefusals(size_t n, const absl::Status& refusal, const RefusedRecords& how, size_t& written);

}  // namespace fleetcap::store
