#pragma once
// Where each table of the schema goes when the store moves to Citus
// (distributed PostgreSQL; docs/scaling.md): distributed by a column into a
// co-location group, a reference table copied to every node, or a table kept
// on the coordinator only. Declared once, here: the schema-readiness test
// (tests/store/distribution_plan_test.cc) holds the live catalog to it, so a
// new table, a key without its distribution column or a foreign key that
// would cross shards fails a test instead of a future migration to Citus.

#include <string>
#include <vector>

namespace fleetcap::store {

enum class TablePlacement {
  kDistributed,       // hash-distributed by `distribution_column`
  kReference,         // small, read everywhere: one copy on every node
  kCoordinatorLocal,  // written and read only through the coordinator
};

struct PlannedTable {
  std::string table;
  TablePlacement placement = TablePlacement::kReference;
  // For kDistributed: the column rows are sharded by, and the co-location
  // group (tables of one group keep equal distribution values on one node,
  // so joins and foreign keys on that column stay on the node).
  std::string distribution_column;
  std::string colocation_group;
  // True for a table partitioned by time whose old partitions are converted
  // to columnar storage (docs/scaling.md, "Columnar for old partitions").
  bool time_partitioned = false;
};

// Every table of the schema (partitions are covered by their parent).
const std::vector<PlannedTable>& DistributionPlan();

// The table's entry, or nullptr when the plan does not classify it.
const PlannedTable* FindPlannedTable(const std::string& table);

const char* TablePlacementName(TablePlacement placement);

}  // namespace fleetcap::store
