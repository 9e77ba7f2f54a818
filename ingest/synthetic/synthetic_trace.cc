#include "ingest/synthetic/synthetic_trace.h"

#include <algorithm>
#include <random>
#include <vector>

#include "absl/strings/str_format.h"

namespace fleetcap::synthetic {
namespace {

struct Weighted {
  int value;
  int weight;
};

template <typename Rng>
int Draw(Rng& rng, const std::vector<Weighted>& table) {
  int total = 0;
  for (const auto& w : table) total += w.weight;
  int r = static_cast<int>(rng() % static_cast<uint64_t>(total));
  for (const auto& w : table) {
    if ((r -= w.weight) < 0) return w.value;
  }
  return table.back().value;
}

// A value from 21 quantiles (0%, 5%, ..., 100%), interpolated.
template <typename Rng>
int64_t FromQuantiles(Rng& rng, const std::vector<int64_t>& q) {
  const uint64_t r = rng() % 1000000;
  const double pos = static_cast<double>(r) / 1000000.0 * static_cast<double>(q.size() - 1);
  const size_t k = static_cast<size_t>(pos);
  const double f = pos - static_cast<double>(k);
  return static_cast<int64_t>(static_cast<double>(q[k]) + f * static_cast<double>(q[k + 1] - q[k]));
}

}  // namespace

openb::OpenbTrace SyntheticTrace(const SyntheticOptions& options) {
  // The published trace's shapes (openb_node_list_gpu_node.csv, openb_pod_list_default.csv).
  struct NodeShape {
    const char* model;
    int gpus;
    int count;
    int64_t cpu_milli;
    int64_t memory_mib;
  };
  static const std::vector<NodeShape> kNodes = {
      {"G2", 8, 549, 96000, 786432},     {"T4", 2, 387, 96000, 393216},     {"P100", 2, 131, 64000, 262144},
      {"G3", 8, 39, 128000, 786432},     {"V100M16", 4, 28, 96000, 393216}, {"V100M32", 8, 21, 96000, 786432},
      {"V100M16", 1, 19, 32000, 131072}, {"T4", 4, 17, 96000, 393216},      {"V100M32", 4, 9, 96000, 393216},
      {"V100M16", 8, 8, 96000, 786432},  {"P100", 1, 3, 32000, 131072},     {"A10", 1, 2, 32000, 131072}};
  static const std::vector<Weighted> kNumGpu = {{0, 1088}, {1, 6989}, {2, 16}, {4, 15}, {8, 44}};
  // Of one-GPU pods, 3911 ask for a whole GPU; the rest share (gpu_milli).
  static const std::vector<Weighted> kShare = {
      {1000, 3911}, {810, 1078}, {470, 750}, {320, 328}, {650, 253}, {230, 140}, {460, 128},
      {590, 75},    {160, 74},   {550, 72},  {220, 62},  {370, 47},  {110, 24},  {480, 19},
      {50, 7},      {330, 7},    {350, 6},   {270, 4},   {440, 2},   {140, 1},   {290, 1}};
  static const std::vector<int64_t> kLifetime = {4,   50,   73,   112,  146,  175,  210,  267,  356,   492,   616,
                                                 810, 1001, 1255, 1674, 2246, 3204, 4328, 7764, 18162, 200000};
  static const std::vector<int64_t> kWait = {0, 0, 0,  0,  0,  1,  1,  1,   1,   2,    2,
                                             3, 3, 20, 33, 34, 36, 60, 106, 600, 14330};
  static const std::vector<Weighted> kCpu = {{3152, 1592}, {11300, 874}, {8000, 837},
                                             {11908, 778}, {4000, 666},  {12000, 336}};
  static const std::vector<Weighted> kMemory = {{5600, 1592}, {49152, 1148}, {30517, 787}, {47104, 786}, {24576, 268}};
  std::mt19937_64 rng(options.seed);
  openb::OpenbTrace trace;
  std::vector<Weighted> node_table;
  for (size_t k = 0; k < kNodes.size(); ++k) node_table.push_back({static_cast<int>(k), kNodes[k].count});
  for (int i = 0; i < options.nodes; ++i) {
    const NodeShape& s = kNodes[static_cast<size_t>(Draw(rng, node_table))];
    trace.nodes.push_back({absl::StrFormat("synthetic-node-%05d", i), s.cpu_milli, s.memory_mib, s.gpus, s.model});
  }
  constexpr int64_t kHorizon = 3600;
  for (int i = 0; i < options.pods; ++i) {
    openb::OpenbPod p;
    p.name = absl::StrFormat("synthetic-pod-%06d", i);
    p.num_gpu = Draw(rng, kNumGpu);
    p.gpu_milli = p.num_gpu == 1 ? Draw(rng, kShare) : (p.num_gpu > 0 ? 1000 : 0);
    p.cpu_milli = Draw(rng, kCpu);
    p.memory_mib = Draw(rng, kMemory);
    p.qos = "LS";
    p.creation_s = static_cast<int64_t>(rng() % kHorizon);
    p.scheduled_s = p.creation_s + FromQuantiles(rng, kWait);
    const int64_t end = *p.scheduled_s + std::max<int64_t>(1, FromQuantiles(rng, kLifetime));
    if (end < kHorizon) p.deletion_s = end;
    p.phase = "Running";
    trace.pods.push_back(std::move(p));
  }
  return trace;
}

}  // namespace fleetcap::synthetic
