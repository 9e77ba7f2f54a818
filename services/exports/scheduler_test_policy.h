#pragma once
// A small org tree and recommendation set the scheduler export tests share:
// an org with two teams (vision has two namespaces, speech a pattern) and a
// root team of its own (ads); two NVIDIA flavors and a TPU flavor.

#include <string>
#include <vector>

#include "optimizer/allocation/recommendation.h"
#include "policy/policy_document.h"
#include "policy/policy_parser.h"

namespace fleetcap::exports::testing {

inline constexpr const char* kSchedulerTestPolicy = R"(version: 1
teams:
  - name: research
    kind: org
    weight: 3
  - name: vision
    parent: research
    weight: 2
  - name: speech
    parent: research
  - name: ads
namespaces:
  - namespace: cv-train
    team: vision
  - namespace: cv-serve
    team: vision
  - pattern: "speech-*"
    team: speech
flavors:
  - name: a100
    model: A100-SXM4-80GB
    pool: a100-pool
    capacity: 16
  - name: t4
    model: T4
    pool: t4-pool
    capacity: 32
  - name: v5p
    model: tpu-v5p
    capacity: 8
allocation:
  - team: vision
    flavor: a100
    guarantee: 8
    borrowing_limit: 4
    lending_limit: 2
  - team: speech
    flavor: a100
    guarantee: 4
  - team: ads
    flavor: t4
    guarantee: 10
)";

inline policy::PolicyDocument SchedulerTestPolicy() {
  policy::ParsedPolicy parsed = policy::ParsePolicy(kSchedulerTestPolicy);
  return parsed.document;
}

// vision: a100 9.5 of g 8 (b 4, l 2), t4 1.5 borrowed; speech: a100 4 and
// v5p 2; ads (a root team): t4 10 of g 10.
inline std::vector<allocation::Recommendation> SchedulerTestRows() {
  return {
      {"vision", "a100", 12000, 8000, 9500, 4000, 2000, "fair_share", ""},
      {"vision", "t4", 1500, 0, 1500, std::nullopt, 0, "demand", ""},
      {"speech", "a100", 6000, 4000, 4000, std::nullopt, 4000, "guarantee", ""},
      {"speech", "v5p", 2000, 0, 2000, std::nullopt, 0, "demand", ""},
      {"ads", "t4", 10000, 10000, 10000, std::nullopt, 10000, "demand", ""},
  };
}

}  // namespace fleetcap::exports::testing
