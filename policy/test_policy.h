#pragma once
// A complete, valid policy used by the unit tests (docs/policy.md shows the same shape).

namespace fleetcap::policy {

inline constexpr const char* kTestPolicy = R"(version: 1
currency: USD
teams:
  - name: research
    kind: org
    cost_centre: CC-100
  - name: vision
    parent: research
    weight: 2
  - name: speech
    parent: research
  - name: vision-detect
    kind: project
    parent: vision
namespaces:
  - namespace: cv-train
    team: vision
  - pattern: "speech-*"
    team: speech
    cluster: "eu-*"
team_label_keys: [fleetcap.io/team, team]
flavors:
  - name: t4-default
    model: T4
    pool: default
    cluster: "*"
    capacity: 100
prices:
  - model: T4
    from: 2026-01-01T00:00:00Z
    to: 2026-02-01T00:00:00Z
    per_device_hour: "0.35"
  - model: T4
    from: 2026-02-01T00:00:00Z
    per_device_hour: "0.40"
  - model: T4
    cluster: eu-1
    from: 2026-01-01T00:00:00Z
    per_device_hour: "0.45"
attribution:
  basis: max
  idle: share
  idle_scope: node
  shared_namespaces: [kube-system]
  fixed_monthly_costs:
    - name: support contract
      amount: "1200.00"
allocation:
  - team: vision
    flavor: t4-default
    guarantee: 40
    borrowing_limit: 20
    lending_limit: 10
  - team: speech
    flavor: t4-default
    guarantee: 30.5
    weight: 3
trusted_pods:
  - namespace: "shared-*"
    team_label: true
  - cluster: eu-1
    gpu_share: true
)";

}  // namespace fleetcap::policy
