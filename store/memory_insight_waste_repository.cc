#include "store/memory_insight_waste_repository.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "store/chargeback_repository.h"

namespace fleetcap::store {
namespace {

template <typename Row>
void EraseHours(std::vector<Row>& rows, const std::string& cluster, absl::Time start, absl::Time end) {
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](const Row& r) { return r.cluster == cluster && r.hour >= start && r.hour < end; }),
             rows.end());
}

// Whether `p` is of one of `filter`'s workloads (any when it names none).
bool OfWorkloads(const WasteFilter& filter, const IdlePieceRecord& p) {
  return filter.workloads.empty() ||
         std::any_of(filter.workloads.begin(), filter.workloads.end(), [&](const WasteWorkload& w) {
           return w.team == p.team && w.namespace_name == p.namespace_name && w.workload == p.workload;
         });
}

absl::Status AddWorkloadHour(const WorkloadHourRecord& h, WorkloadHourRecord* sum) {
  const char* what = "waste workload hours";
  for (auto [add, to] : {std::pair{h.held_milli_seconds, &sum->held_milli_seconds},
                         std::pair{h.observed_milli_seconds, &sum->observed_milli_seconds},
                         std::pair{h.active_milli_seconds, &sum->active_milli_seconds},
                         std::pair{h.sm_observed_milli_seconds, &sum->sm_observed_milli_seconds},
                         std::pair{h.both_minutes, &sum->both_minutes},
                         std::pair{h.both_held_milli_seconds, &sum->both_held_milli_seconds},
                         std::pair{h.both_duty_milli_seconds, &sum->both_duty_milli_seconds},
                         std::pair{h.both_sm_milli_seconds, &sum->both_sm_milli_seconds}}) {
    if (absl::Status s = AddChecked(add, to, what); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

// The rows staged until Commit, checked together as each part comes.
class MemoryInsightWasteRepository::Replacement : public WasteHoursReplacement {
 public:
  Replacement(MemoryInsightWasteRepository* repo, std::string cluster, absl::Time start, absl::Time end)
      : repo_(repo), cluster_(std::move(cluster)), start_(start), end_(end) {}

  absl::Status Add(const std::vector<IdlePieceRecord>& pieces, const std::vector<WorkloadHourRecord>& hours) override {
    if (failed_) return absl::FailedPreconditionError("waste: a part of this replacement failed");
    const size_t pieces_before = pieces_.size(), hours_before = hours_.size();
    pieces_.insert(pieces_.end(), pieces.begin(), pieces.end());
    hours_.insert(hours_.end(), hours.begin(), hours.end());
    absl::Status s = CheckWasteReplacement(cluster_, start_, end_, pieces_, hours_);
    if (!s.ok()) {
      pieces_.resize(pieces_before);
      hours_.resize(hours_before);
      failed_ = true;
    }
    return s;
  }

  absl::Status Commit() override {
    if (failed_) return absl::FailedPreconditionError("waste: a part of this replacement failed");
    repo_->Replace(cluster_, start_, end_, pieces_, hours_);
    failed_ = true;  // once
    return absl::OkStatus();
  }

 private:
  MemoryInsightWasteRepository* repo_;
  const std::string cluster_;
  const absl::Time start_, end_;
  std::vector<IdlePieceRecord> pieces_;
  std::vector<WorkloadHourRecord> hours_;
  bool failed_ = false;
};

absl::StatusOr<std::unique_ptr<WasteHoursReplacement>> MemoryInsightWasteRepository::BeginReplaceHours(
    const std::string& cluster, absl::Time start, absl::Time end) {
  if (absl::Status s = CheckWasteHours(start, end); !s.ok()) return s;
  return std::unique_ptr<WasteHoursReplacement>(std::make_unique<Replacement>(this, cluster, start, end));
}

void MemoryInsightWasteRepository::Replace(const std::string& cluster, absl::Time start, absl::Time end,
                                           const std::vector<IdlePieceRecord>& pieces,
                                           const std::vector<WorkloadHourRecord>& hours) {
  std::lock_guard<std::mutex> lock(mu_);
  EraseHours(pieces_, cluster, start, end);
  EraseHours(hours_, cluster, start, end);
  pieces_.insert(pieces_.end(), pieces.begin(), pieces.end());
  hours_.insert(hours_.end(), hours.begin(), hours.end());
}

absl::StatusOr<std::optional<absl::Time>> MemoryInsightWasteRepository::Watermark(const std::string& cluster) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = watermarks_.find(cluster);
  if (it == watermarks_.end()) return std::optional<absl::Time>();
  return std::optional<absl::Time>(it->second);
}

absl::Status MemoryInsightWasteRepository::AdvanceWatermark(const std::string& cluster, absl::Time through) {
  if (!IsWholeHour(through)) {
    return absl::InvalidArgumentError(
        absl::StrCat("waste: watermark of ", cluster, " through: ", FormatRfc3339(through), " is not a whole hour"));
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, added] = watermarks_.try_emplace(cluster, through);
  if (!added) it->second = std::max(it->second, through);
  return absl::OkStatus();
}

absl::Status MemoryInsightWasteRepository::MarkHours(const std::string& cluster, const std::vector<absl::Time>& hours,
                                                     absl::Time noted_at) {
  for (absl::Time h : hours) {
    if (!IsWholeHour(h)) {
      return absl::InvalidArgumentError(absl::StrCat("waste: mark ", FormatRfc3339(h), " is not a whole hour"));
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (absl::Time h : hours) marks_[{cluster, h}] = noted_at;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<WasteMark>> MemoryInsightWasteRepository::Marks(const std::string& cluster,
                                                                           absl::Time before, int limit) {
  if (limit < 0) return absl::InvalidArgumentError(absl::StrCat("waste: marks limit ", limit, " is below 0"));
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<WasteMark> out;
  for (auto it = marks_.lower_bound({cluster, absl::InfinitePast()});
       it != marks_.end() && it->first.first == cluster && it->first.second < before &&
       static_cast<int>(out.size()) < limit;
       ++it) {
    out.push_back({it->first.second, it->second});
  }
  return out;
}

absl::Status MemoryInsightWasteRepository::ClearMarks(const std::string& cluster, const std::vector<WasteMark>& marks) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const WasteMark& m : marks) {
    auto it = marks_.find({cluster, m.hour});
    if (it != marks_.end() && it->second == m.noted_at) marks_.erase(it);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<IdlePieceRecord>> MemoryInsightWasteRepository::Pieces(const WasteFilter& filter) const {
  if (absl::Status s = CheckWasteFilter(filter); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<IdlePieceRecord> out;
  for (const IdlePieceRecord& p : pieces_) {
    if (WasteSelects(filter, p.cluster, p.hour, p.team, p.namespace_name) && OfWorkloads(filter, p)) {
      out.push_back(p);
    }
  }
  std::sort(out.begin(), out.end(), [](const IdlePieceRecord& a, const IdlePieceRecord& b) {
    return std::tie(a.cluster, a.pod_uid, a.start) < std::tie(b.cluster, b.pod_uid, b.start);
  });
  if (filter.max_pieces > 0 && static_cast<int64_t>(out.size()) > filter.max_pieces + 1) {
    out.resize(static_cast<size_t>(filter.max_pieces + 1));
  }
  return out;
}

absl::StatusOr<std::vector<WorkloadHourRecord>> MemoryInsightWasteRepository::WorkloadSums(
    const WasteFilter& filter) const {
  if (absl::Status s = CheckWasteFilter(filter); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::tuple<std::string, std::string, std::string>, WorkloadHourRecord> sums;
  for (const WorkloadHourRecord& h : hours_) {
    if (!WasteSelects(filter, h.cluster, h.hour, h.team, h.namespace_name)) continue;
    WorkloadHourRecord& sum = sums[{h.team, h.namespace_name, h.workload}];
    sum.hour = filter.start;
    sum.team = h.team;
    sum.namespace_name = h.namespace_name;
    sum.workload = h.workload;
    if (absl::Status s = AddWorkloadHour(h, &sum); !s.ok()) return s;
  }
  std::vector<WorkloadHourRecord> out;
  for (auto& [key, sum] : sums) out.push_back(std::move(sum));
  return out;
}

absl::StatusOr<std::vector<WorkloadWasteRecord>> MemoryInsightWasteRepository::WasteSums(
    const WasteFilter& filter) const {
  WasteFilter every_workload = filter;
  every_workload.workloads.clear();
  FLEETCAP_ASSIGN_OR_RETURN(std::vector<WorkloadHourRecord> times, WorkloadSums(every_workload));
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::tuple<std::string, std::string, std::string>, WorkloadWasteRecord> sums;
  for (WorkloadHourRecord& t : times) sums[{t.team, t.namespace_name, t.workload}].time = std::move(t);
  for (const IdlePieceRecord& p : pieces_) {
    if (!WasteSelects(filter, p.cluster, p.hour, p.team, p.namespace_name)) continue;
    WorkloadWasteRecord& sum = sums[{p.team, p.namespace_name, p.workload}];
    sum.time.hour = filter.start;
    sum.time.team = p.team;
    sum.time.namespace_name = p.namespace_name;
    sum.time.workload = p.workload;
    FLEETCAP_RETURN_IF_ERROR(AddChecked(p.wasted_milli_seconds, &sum.wasted_milli_seconds, "waste pieces"));
    FLEETCAP_RETURN_IF_ERROR(AddChecked(p.wasted_cost_micro, &sum.wasted_cost_micro, "waste pieces"));
    // A piece that continues a run of the window is not a run of its own.
    const bool continues = p.start == p.hour && std::any_of(pieces_.begin(), pieces_.end(), [&](const auto& q) {
                             return q.cluster == p.cluster && q.pod_uid == p.pod_uid &&
                                    q.hour == p.hour - absl::Hours(1) && q.end == p.start;
                           });
    if (!continues || p.hour == filter.start) ++sum.run_count;
  }
  std::vector<WorkloadWasteRecord> out;
  for (auto& [key, sum] : sums) out.push_back(std::move(sum));
  return out;
}

}  // namespace fleetcap::store
