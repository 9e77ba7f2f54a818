#pragma once
// A TeamFactsRepository for unit tests: the namespace evidence and policy
// versions it is given; the pod reads the optimizer does not use are not
// implemented.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "store/team_facts_repository.h"

namespace fleetcap::chargeback {

class FakeTeamFacts : public store::TeamFactsRepository {
 public:
  void AddNamespace(const std::string& cluster, store::NamespaceLabels ns) {
    namespaces_[{cluster, ns.name}] = std::move(ns);
  }
  // Applies `document` as the next version at `applied_at`.
  int32_t Apply(std::string document, absl::Time applied_at) {
    store::PolicyVersionRecord r;
    r.version = static_cast<int32_t>(policies_.size()) + 1;
    r.document = std::move(document);
    r.applied_at = applied_at;
    policies_.push_back(std::move(r));
    return policies_.back().version;
  }

  absl::StatusOr<std::vector<store::PodTeamEvidence>> HoldersAt(const std::string&, absl::Time) override {
    return absl::UnimplementedError("HoldersAt");
  }
  absl::StatusOr<std::vector<store::PodTeamEvidence>> PodsOfNamespace(const std::string&, const std::string&,
                                                                      absl::Time, absl::Time) override {
    return absl::UnimplementedError("PodsOfNamespace");
  }
  absl::StatusOr<std::map<std::pair<std::string, std::string>, store::NamespaceLabels>> Namespaces(
      const std::string& cluster, const std::string& namespace_name) override {
    std::map<std::pair<std::string, std::string>, store::NamespaceLabels> out;
    for (const auto& [key, ns] : namespaces_) {
      if ((cluster.empty() || key.first == cluster) && (namespace_name.empty() || key.second == namespace_name)) {
        out[key] = ns;
      }
    }
    return out;
  }
  absl::StatusOr<std::vector<store::PolicyVersionRecord>> PoliciesAfter(int32_t after_version) override {
    std::vector<store::PolicyVersionRecord> out;
    for (const auto& p : policies_) {
      if (p.version > after_version) out.push_back(p);
    }
    return out;
  }

 private:
  std::map<std::pair<std::string, std::string>, store::NamespaceLabels> namespaces_;
  std::vector<store::PolicyVersionRecord> policies_;
};

}  // namespace fleetcap::chargeback
