#pragma once
// The Alibaba "openb" GPU cluster trace (USENIX ATC '23, "Beware of
// Fragmentation") as published: a node list and a pod list, CSV, with times in
// integer seconds from the trace start. Columns are found by header name so
// every pod list with the same columns reads the same way.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace fleetcap::openb {

inline constexpr char kOpenbNodeFile[] = "openb_node_list_gpu_node.csv";
inline constexpr char kOpenbDefaultPodFile[] = "openb_pod_list_default.csv";

// More GPUs than this on one node or in one pod is taken as a corrupt row,
// not as a request to allocate that many per-GPU counters.
inline constexpr int32_t kMaxGpusPerNode = 1024;

struct OpenbNode {
  std::string name;  // column `sn`
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int32_t gpus = 0;   // column `gpu`
  std::string model;  // "T4", "G2", ...; empty only for a node without GPUs
};

struct OpenbPod {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int32_t num_gpu = 0;
  int32_t gpu_milli = 0;  // per GPU; below 1000 only for a one-GPU sharing pod
  std::string gpu_spec;   // acceptable models separated by '|'; empty: any
  std::string qos;
  std::string phase;  // column `pod_phase`
  int64_t creation_s = 0;
  std::optional<int64_t> deletion_s;   // absent: still running at the end
  std::optional<int64_t> scheduled_s;  // absent: never scheduled
};

// A row that cannot be used, set aside so that it costs only itself.
struct SetAsideRow {
  std::string path;
  int line = 0;
  std::string reason;  // `path:line: column: what`
  std::string text;    // the row's fields, comma-separated
};

// Trace seconds beyond this (a century) would put times outside what the
// store can hold; such a row is malformed.
inline constexpr int64_t kMaxTraceSeconds = int64_t{100} * 365 * 24 * 3600;

struct OpenbTrace {
  std::vector<OpenbNode> nodes;
  std::vector<OpenbPod> pods;
  std::vector<SetAsideRow> set_aside;  // malformed rows of either list, left out
};

// The shapes of GPU request the trace has. Anything else (a multi-GPU pod
// asking for part of each GPU, a GPU pod asking for 0 milli) is kInvalid: the
// reader rejects it, and the placer leaves it unplaced if built by hand.
enum class GpuRequest {
  kNone,   // num_gpu == 0
  kWhole,  // num_gpu >= 1 whole GPUs (gpu_milli == 1000)
  kShare,  // gpu_milli (1..999) of one GPU (num_gpu == 1)
  kInvalid,
};
GpuRequest ClassifyGpuRequest(const OpenbPod& pod);

// Reads a node list (`sn,cpu_milli,memory_mib,gpu,model`). Names must be
// unique because device ids are derived from them. A malformed row is an
// error, or, with `set_aside`, appended there and left out.
absl::StatusOr<std::vector<OpenbNode>> ReadOpenbNodes(const std::string& path,
                                                      std::vector<SetAsideRow>* set_aside = nullptr);

// Reads a pod list (`name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,
// pod_phase,creation_time,deletion_time,scheduled_time`). Names must be unique
// because they become pod uids. Rows as ReadOpenbNodes.
absl::StatusOr<std::vector<OpenbPod>> ReadOpenbPods(const std::string& path,
                                                    std::vector<SetAsideRow>* set_aside = nullptr);

// Reads `dir/openb_node_list_gpu_node.csv` and `dir/<pod_file>`. A missing
// file is NotFound naming its path; a file that is not such a list (no
// header, missing columns, a row of the wrong width) is InvalidArgument naming
// `path:line: column`; a malformed row is set aside in `set_aside`.
absl::StatusOr<OpenbTrace> ReadOpenbTrace(const std::string& dir, const std::string& pod_file = kOpenbDefaultPodFile);

}  // namespace fleetcap::openb
