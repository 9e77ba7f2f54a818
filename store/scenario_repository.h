#pragma once
// Saved what-if scenarios (docs/whatif.md, migration 0022): a name, the
// scenario document, and the comparison it gave when it was saved (the
// API's ScenarioComparison as proto3 JSON), for a planner to come back to.
// Only an explicit save writes here; running a scenario writes nothing.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

inline constexpr size_t kMaxScenarioNameBytes = 128;
inline constexpr size_t kMaxScenarioDocumentBytes = 64 * 1024;
inline constexpr size_t kMaxScenarioResultBytes = 16 * 1024 * 1024;

struct ScenarioDraft {
  std::string name;
  std::string document;        // the scenario YAML
  std::string result_json;     // a JSON object; read back in canonical form (keys sorted, no spaces)
  int32_t policy_version = 0;  // the active version it was compared with
  absl::Time saved_at;         // kept to the microsecond
  std::string saved_by;        // the actor, e.g. "token:abc"
};

struct ScenarioRecord {
  int64_t scenario_id = 0;
  ScenarioDraft saved;

  bool operator==(const ScenarioRecord& o) const;
};

// A row of the list: everything but the document and the result.
struct ScenarioSummary {
  int64_t scenario_id = 0;
  std::string name;
  int32_t policy_version = 0;
  absl::Time saved_at;
  std::string saved_by;

  bool operator==(const ScenarioSummary& o) const;
};

class ScenarioRepository {
 public:
  virtual ~ScenarioRepository() = default;

  // Stores `draft`, returning its id (larger than every earlier one's).
  // INVALID_ARGUMENT naming the field for an empty or too long name,
  // document or saved_by, a result that is not a JSON object of at most
  // kMaxScenarioResultBytes, or a negative policy version.
  virtual absl::StatusOr<int64_t> Save(const ScenarioDraft& draft) = 0;
  // The newest first, at most `limit` (1..1000), with ids below `before_id` when it is above 0.
  virtual absl::StatusOr<std::vector<ScenarioSummary>> List(int64_t before_id, int64_t limit) = 0;
  // NOT_FOUND naming the id for an unknown one.
  virtual absl::StatusOr<ScenarioRecord> Get(int64_t scenario_id) = 0;
};

// INVALID_ARGUMENT naming the field; what every implementation checks before storing.
absl::Status ValidateScenarioDraft(const ScenarioDraft& draft);
// `json` with its keys sorted and no spaces ("" when it is not JSON).
std::string CanonicalScenarioResult(const std::string& json);
absl::Time ScenarioTime(absl::Time t);

}  // namespace fleetcap::store
