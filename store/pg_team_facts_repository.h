#pragma once
// TeamFactsRepository on PostgreSQL.

#include "common/pg_pool.h"
#include "store/team_facts_repository.h"

namespace fleetcap::store {

class PgTeamFactsRepository : public TeamFactsRepository {
 public:
  // `pool` must outlive the repository.
  explicit PgTeamFactsRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<std::vector<PodTeamEvidence>> HoldersAt(const std::string& cluster, absl::Time at) override;
  absl::StatusOr<std::vector<PodTeamEvidence>> PodsOfNamespace(const std::string& cluster,
                                                               const std::string& namespace_name, absl::Time start,
                                                               absl::Time end) override;
  absl::StatusOr<std::map<std::pair<std::string, std::string>, NamespaceLabels>> Namespaces(
      const std::string& cluster, const std::string& namespace_name) override;
  absl::StatusOr<std::vector<PolicyVersionRecord>> PoliciesAfter(int32_t after_version) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store
