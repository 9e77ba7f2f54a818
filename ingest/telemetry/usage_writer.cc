#include "ingest/telemetry/usage_writer.h"

#include <set>

#include "common/logging.h"
#include "common/status_macros.h"

namespace fleetcap::telemetry {
namespace {

store::PushProgress ProgressOf(const ClosedBatch& batch, const std::string& log_id) {
  store::PushProgress progress;
  for (const DeviceProgress& p : batch.progress) {
    progress.devices.push_back({p.device_id, p.closed_through_ms});
    for (const CanonicalSeries& c : p.carried) {
      progress.carried.push_back({p.device_id, c.key.namespace_, c.key.pod, std::string(FieldName(c.field)),
                                  c.points.back().ts_ms, c.points.back().value});
    }
  }
  // Counters of series that are gone (minute_window.cc forgets them).
  progress.counter_lookback_ms = kCounterLookbackMs;
  progress.log_id = log_id;
  progress.checkpoint = batch.checkpoint;
  return progress;
}

}  // namespace

absl::StatusOr<std::vector<StoredSeries>> UsageWriter::Identify(const std::vector<CanonicalSeries>& series) {
  // Forgotten hourly, all at once: the next write asks for its series in one
  // statement, which moves their last_seen, and a series that stopped being
  // written is no longer kept alive by this writer.
  const Clock& clock = options_.clock != nullptr ? *options_.clock : *RealClock::Instance();
  const absl::Duration now = clock.Monotonic();
  if (!series_.empty() && now - series_since_ >= kSeriesIdentitiesKept) series_.clear();
  if (series_.empty()) series_since_ = now;
  std::vector<store::SeriesName> missing;
  std::vector<SeriesId> missing_ids;
  std::set<SeriesId> seen;
  for (const auto& s : series) {
    SeriesId id{s.key.device_id, s.key.namespace_, s.key.pod, s.field};
    if (series_.count(id) > 0 || !seen.insert(id).second) continue;
    missing.push_back(
        {s.key.device_id, s.key.namespace_, s.key.pod, std::string(FieldName(s.field)), s.key.node, s.key.model});
    missing_ids.push_back(std::move(id));
  }
  if (!missing.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(auto identities, store_->IdentifySeries(cluster_, missing));
    for (size_t i = 0; i < missing_ids.size(); ++i) series_[missing_ids[i]] = identities[i];
  }
  std::vector<StoredSeries> out;
  out.reserve(series.size());
  for (const auto& s : series) {
    const auto& info = series_.at(SeriesId{s.key.device_id, s.key.namespace_, s.key.pod, s.field});
    StoredSeries stored;
    stored.device_id = s.key.device_id;
    stored.pod_uid = info.pod_uid;
    stored.namespace_ = s.key.namespace_;
    stored.pod = s.key.pod;
    stored.node = info.node;
    stored.model = info.model;
    stored.field = s.field;
    out.push_back(std::move(stored));
  }
  return out;
}

absl::StatusOr<int64_t> UsageWriter::Counted(absl::StatusOr<store::MinuteWriteResult> result) const {
  if (!result.ok()) return result.status();
  auto logger = Logger("telemetry");
  for (const store::SetAsideMinute& s : result->set_aside) {
    logger->warn("{} row set aside into the quarantine: {}: {}", s.record.source, s.record.object_key, s.record.reason);
    if (options_.metrics != nullptr) options_.metrics->Quarantined(s.record.source, s.label).Increment();
  }
  return result->written;
}

absl::StatusOr<int64_t> UsageWriter::UpsertMinuteRows(const std::vector<MinuteRow>& rows) {
  return Counted(store_->WriteMinutes(cluster_, rows, "pull"));
}

absl::StatusOr<int64_t> UsageWriter::WriteMinuteRows(const std::vector<MinuteRow>& rows) {
  return Counted(store_->WriteMinutes(cluster_, rows, "remote_write"));
}

absl::StatusOr<int64_t> UsageWriter::WriteClosed(const ClosedBatch& batch, const std::string& log_id) {
  std::vector<MinuteRow> rows;
  if (!batch.minutes.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(auto identities, Identify(batch.series));
    for (size_t i = 0; i < identities.size(); ++i) identities[i].points = batch.series[i].points;
    rows = AggregateMinutes(identities, batch.minutes);
  }
  return Counted(store_->WriteClosedMinutes(cluster_, rows, ProgressOf(batch, log_id)));
}

absl::StatusOr<PushState> UsageWriter::LoadPushState() {
  FLEETCAP_ASSIGN_OR_RETURN(const auto stored, store_->LoadPushState(cluster_));
  PushState state;
  state.checkpoint = stored.checkpoint;
  state.log_id = stored.log_id;
  std::map<std::string, size_t> index;
  for (const store::DeviceClosedThrough& d : stored.devices) {
    index[d.device_id] = state.devices.size();
    state.devices.push_back({d.device_id, d.closed_through_ms, {}});
  }
  for (const store::CarriedCounter& counter : stored.carried) {
    auto it = index.find(counter.device_id);
    CanonicalSeries c;
    if (it == index.end() || !ParseField(counter.field, &c.field)) continue;
    c.key.device_id = counter.device_id;
    c.key.namespace_ = counter.namespace_;
    c.key.pod = counter.pod;
    c.points.push_back({counter.ts_ms, counter.value});
    state.devices[it->second].carried.push_back(std::move(c));
  }
  return state;
}

}  // namespace fleetcap::telemetry
