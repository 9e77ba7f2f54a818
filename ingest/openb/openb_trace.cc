#include "ingest/openb/openb_trace.h"

#include <filesystem>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "common/status_macros.h"
#include "ingest/openb/csv_file.h"

namespace fleetcap::openb {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

SetAsideRow SetAside(const CsvFile& csv, const CsvFile::Row& row, const absl::Status& status) {
  return {csv.path(), row.line, std::string(status.message()), absl::StrJoin(row.fields, ",")};
}

// Names become ids downstream, so a repeated name would silently merge two
// nodes or pods; it is reported against the second occurrence.
absl::Status CheckUnique(const CsvFile& csv, const CsvFile::Row& row, size_t column,
                         absl::flat_hash_map<std::string, int>& first_line) {
  const std::string& name = row.fields[column];
  if (name.empty()) return csv.FieldError(row, column, "is empty");
  auto [it, inserted] = first_line.emplace(name, row.line);
  if (!inserted) {
    return csv.FieldError(row, column, absl::StrCat("\"", name, "\" repeats line ", it->second));
  }
  return absl::OkStatus();
}

}  // namespace

GpuRequest ClassifyGpuRequest(const OpenbPod& pod) {
  if (pod.num_gpu == 0) return GpuRequest::kNone;
  if (pod.num_gpu < 0) return GpuRequest::kInvalid;
  if (pod.gpu_milli == 1000) return GpuRequest::kWhole;
  if (pod.num_gpu == 1 && pod.gpu_milli > 0 && pod.gpu_milli < 1000) return GpuRequest::kShare;
  return GpuRequest::kInvalid;
}

absl::StatusOr<std::vector<OpenbNode>> ReadOpenbNodes(const std::string& path, std::vector<SetAsideRow>* set_aside) {
  FLEETCAP_ASSIGN_OR_RETURN(CsvFile csv, CsvFile::Read(path));
  constexpr absl::string_view kColumns[] = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};
  FLEETCAP_ASSIGN_OR_RETURN(std::vector<size_t> col, csv.Columns(kColumns));
  enum { kSn, kCpu, kMemory, kGpu, kModel };

  std::vector<OpenbNode> nodes;
  nodes.reserve(csv.rows().size());
  absl::flat_hash_map<std::string, int> first_line;
  auto read_row = [&](const CsvFile::Row& row) -> absl::StatusOr<OpenbNode> {
    OpenbNode node;
    FLEETCAP_RETURN_IF_ERROR(CheckUnique(csv, row, col[kSn], first_line));
    node.name = row.fields[col[kSn]];
    FLEETCAP_ASSIGN_OR_RETURN(node.cpu_milli, csv.Int(row, col[kCpu], 0, kInt64Max));
    FLEETCAP_ASSIGN_OR_RETURN(node.memory_mib, csv.Int(row, col[kMemory], 0, kInt64Max));
    FLEETCAP_ASSIGN_OR_RETURN(int64_t gpus, csv.Int(row, col[kGpu], 0, kMaxGpusPerNode));
    node.gpus = static_cast<int32_t>(gpus);
    node.model = row.fields[col[kModel]];
    // Every device needs a model; CPU-only nodes (all_node list) have none.
    if (node.gpus > 0 && node.model.empty()) {
      return csv.FieldError(row, col[kModel], absl::StrCat("is empty on a node with ", node.gpus, " GPUs"));
    }
    return node;
  };
  for (const CsvFile::Row& row : csv.rows()) {
    auto node = read_row(row);
    if (node.ok()) {
      nodes.push_back(std::move(*node));
    } else if (set_aside != nullptr) {
      set_aside->push_back(SetAside(csv, row, node.status()));
    } else {
      return node.status();
    }
  }
  return nodes;
}

absl::StatusOr<std::vector<OpenbPod>> ReadOpenbPods(const std::string& path, std::vector<SetAsideRow>* set_aside) {
  FLEETCAP_ASSIGN_OR_RETURN(CsvFile csv, CsvFile::Read(path));
  constexpr absl::string_view kColumns[] = {"name",          "cpu_milli",     "memory_mib",    "num_gpu",
                                            "gpu_milli",     "gpu_spec",      "qos",           "pod_phase",
                                            "creation_time", "deletion_time", "scheduled_time"};
  FLEETCAP_ASSIGN_OR_RETURN(std::vector<size_t> col, csv.Columns(kColumns));
  enum { kName, kCpu, kMemory, kNumGpu, kGpuMilli, kGpuSpec, kQos, kPhase, kCreation, kDeletion, kScheduled };

  std::vector<OpenbPod> pods;
  pods.reserve(csv.rows().size());
  absl::flat_hash_map<std::string, int> first_line;
  auto read_row = [&](const CsvFile::Row& row) -> absl::StatusOr<OpenbPod> {
    OpenbPod pod;
    FLEETCAP_RETURN_IF_ERROR(CheckUnique(csv, row, col[kName], first_line));
    pod.name = row.fields[col[kName]];
    FLEETCAP_ASSIGN_OR_RETURN(pod.cpu_milli, csv.Int(row, col[kCpu], 0, kInt64Max));
    FLEETCAP_ASSIGN_OR_RETURN(pod.memory_mib, csv.Int(row, col[kMemory], 0, kInt64Max));
    FLEETCAP_ASSIGN_OR_RETURN(int64_t num_gpu, csv.Int(row, col[kNumGpu], 0, kMaxGpusPerNode));
    pod.num_gpu = static_cast<int32_t>(num_gpu);
    FLEETCAP_ASSIGN_OR_RETURN(int64_t gpu_milli, csv.Int(row, col[kGpuMilli], 0, 1000));
    pod.gpu_milli = static_cast<int32_t>(gpu_milli);
    if (ClassifyGpuRequest(pod) == GpuRequest::kInvalid) {
      return csv.FieldError(row, col[kGpuMilli],
                            absl::StrCat(pod.gpu_milli, " with num_gpu ", pod.num_gpu,
                                         ": only a one-GPU pod may ask for part of a GPU, and a GPU pod for"
                                         " more than 0"));
    }
    pod.gpu_spec = row.fields[col[kGpuSpec]];
    pod.qos = row.fields[col[kQos]];
    pod.phase = row.fields[col[kPhase]];
    FLEETCAP_ASSIGN_OR_RETURN(pod.creation_s, csv.Int(row, col[kCreation], 0, kMaxTraceSeconds));
    FLEETCAP_ASSIGN_OR_RETURN(pod.deletion_s, csv.OptionalInt(row, col[kDeletion], 0, kMaxTraceSeconds));
    FLEETCAP_ASSIGN_OR_RETURN(pod.scheduled_s, csv.OptionalInt(row, col[kScheduled], 0, kMaxTraceSeconds));
    return pod;
  };
  for (const CsvFile::Row& row : csv.rows()) {
    auto pod = read_row(row);
    if (pod.ok()) {
      pods.push_back(std::move(*pod));
    } else if (set_aside != nullptr) {
      set_aside->push_back(SetAside(csv, row, pod.status()));
    } else {
      return pod.status();
    }
  }
  return pods;
}

absl::StatusOr<OpenbTrace> ReadOpenbTrace(const std::string& dir, const std::string& pod_file) {
  const std::filesystem::path base(dir);
  OpenbTrace trace;
  FLEETCAP_ASSIGN_OR_RETURN(trace.nodes, ReadOpenbNodes((base / kOpenbNodeFile).string(), &trace.set_aside));
  FLEETCAP_ASSIGN_OR_RETURN(trace.pods, ReadOpenbPods((base / pod_file).string(), &trace.set_aside));
  return trace;
}

}  // namespace fleetcap::openb
