#include "ingest/telemetry/pull_ingester.h"

#include <algorithm>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "common/time_util.h"

namespace fleetcap::telemetry {
namespace {

std::string LabelKey(const Labels& labels) {
  Labels sorted = labels;
  std::sort(sorted.begin(), sorted.end());
  std::string key;
  for (const auto& [k, v] : sorted) absl::StrAppend(&key, k, "\x1f", v, "\x1e");
  return key;
}

template <typename Map>
std::optional<double> Find(const Map& by_minute, int64_t m) {
  auto it = by_minute.find(m);
  return it == by_minute.end() ? std::nullopt : std::optional<double>(it->second);
}

}  // namespace

MinuteAnswers PullIngester::AnswersOf(const Collected& c, int64_t m) {
  MinuteAnswers a;
  a.minute_ms = m;
  a.count = Find(c.count, m).value_or(0);
  a.sum = Find(c.sum, m).value_or(0);
  a.max = Find(c.max, m).value_or(0);
  a.min = Find(c.min, m).value_or(0);
  a.last = Find(c.last, m);
  a.previous_last = Find(c.last, m - kMinuteMs);
  return a;
}

PullIngester::PullIngester(RangeQuerier* client, const MetricMapping* mapping, UsageWriter* writer,
                           store::UsageWriteRepository* store, TelemetryMetrics* metrics, const Clock* clock,
                           PullOptions options)
    : client_(client),
      mapping_(mapping),
      normaliser_(mapping),
      writer_(writer),
      store_(store),
      metrics_(metrics),
      clock_(clock),
      options_(options) {
  for (const auto& [name, rule] : mapping_->metrics) metric_names_.push_back(name);
  std::sort(metric_names_.begin(), metric_names_.end());
}

absl::StatusOr<absl::Time> PullIngester::ReadWatermark() {
  FLEETCAP_ASSIGN_OR_RETURN(const auto through, store_->Watermarks(writer_->cluster()));
  // All metrics move together; one without a watermark has none yet.
  absl::Time lowest = absl::InfiniteFuture();
  for (const auto& name : metric_names_) {
    auto it = through.find(name);
    if (it == through.end()) return absl::InfinitePast();
    lowest = std::min(lowest, it->second);
  }
  return lowest;
}

absl::Status PullIngester::WriteWatermark(absl::Time through) {
  FLEETCAP_RETURN_IF_ERROR(store_->AdvanceWatermarks(writer_->cluster(), metric_names_, through));
  for (const auto& name : metric_names_) {
    metrics_->WatermarkLag(name).Set(absl::ToDoubleSeconds(clock_->Now() - through));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::map<std::string, PullIngester::Collected>> PullIngester::QueryMinutes(
    const std::string& name, const MetricRule& rule, absl::Time from, absl::Time to, PullReport* report) {
  const absl::Duration step = absl::Minutes(1);
  const absl::Duration last_ms = absl::Milliseconds(59'999);
  // A counter also needs the minute before the window, for its first increase.
  const absl::Time start = from + last_ms - (rule.counter ? step : absl::ZeroDuration());
  const absl::Time end = to - absl::Milliseconds(1);
  std::vector<std::pair<std::string, std::map<int64_t, double> Collected::*>> queries = {
      {"count_over_time", &Collected::count}};
  if (rule.counter) {
    queries.push_back({"last_over_time", &Collected::last});
  } else {
    queries.insert(
        queries.end(),
        {{"sum_over_time", &Collected::sum}, {"max_over_time", &Collected::max}, {"min_over_time", &Collected::min}});
  }
  std::map<std::string, Collected> collected;
  for (const auto& [function, member] : queries) {
    auto result = client_->QueryRange(absl::StrCat(function, "(", name, "[59999ms])"), start, end, step);
    ++report->queries;
    metrics_->PullQueries(result.ok() ? "ok" : "error").Increment();
    if (!result.ok()) return result.status();
    for (auto& series : *result) {
      // *_over_time drops __name__ but last_over_time keeps it: join without it.
      series.labels.erase(std::remove_if(series.labels.begin(), series.labels.end(),
                                         [](const auto& l) { return l.first == "__name__"; }),
                          series.labels.end());
      Collected& c = collected[LabelKey(series.labels)];
      if (c.labels.empty()) c.labels = series.labels;
      for (const Point& p : series.points) (c.*member)[MinuteOf(p.ts_ms)] = p.value;
    }
  }
  return collected;
}

void PullIngester::AddSeries(const std::string& name, const MetricRule& rule, const Collected& c, absl::Time from,
                             absl::Time now, Chunk* chunk) const {
  std::vector<std::pair<int64_t, MinuteVerdict>> minutes;
  int64_t samples = 0;
  for (const auto& [m, n] : c.count) {
    minutes.emplace_back(m, PullMinuteStats(AnswersOf(c, m), rule));
    samples += minutes.back().second.samples;
  }
  chunk->received += samples;
  Labels labels = c.labels;
  labels.emplace_back("__name__", name);
  auto canonical = normaliser_.Describe(labels);
  if (!canonical) {
    chunk->drops.Add(DropReason::kNoDevice, samples);
    return;
  }
  if (!StorableKey(canonical->key)) {
    chunk->drops.Add(DropReason::kInvalidLabel, samples);
    return;
  }
  StatSeries s;
  for (const auto& [m, v] : minutes) {
    if (m < absl::ToUnixMillis(from) || v.samples == 0) continue;
    if (const auto outside = options_.window.Check(m, now)) {
      chunk->drops.Add(*outside, v.samples);
    } else if (v.dropped) {
      chunk->drops.Add(*v.dropped, v.samples);
    } else if (v.stats) {
      s.minutes.push_back(*v.stats);
    }
  }
  if (s.minutes.empty()) return;
  chunk->described.push_back(std::move(*canonical));
  chunk->stats.push_back(std::move(s));
}

absl::StatusOr<int64_t> PullIngester::StoreChunk(Chunk chunk, PullReport* report) {
  metrics_->Received("pull").Increment(static_cast<double>(chunk.received));
  metrics_->Dropped("pull", chunk.drops);
  FLEETCAP_ASSIGN_OR_RETURN(auto identities, writer_->Identify(chunk.described));
  for (size_t i = 0; i < chunk.stats.size(); ++i) chunk.stats[i].identity = std::move(identities[i]);
  FLEETCAP_ASSIGN_OR_RETURN(const int64_t written, writer_->UpsertMinuteRows(AggregateMinuteStats(chunk.stats)));
  metrics_->Accepted("pull").Increment(static_cast<double>(chunk.received - chunk.drops.Total()));
  metrics_->MinuteRows().Increment(static_cast<double>(written));
  ++report->chunks;
  return written;
}

absl::StatusOr<int64_t> PullIngester::FetchChunk(absl::Time from, absl::Time to, PullReport* report) {
  const absl::Time now = clock_->Now();
  Chunk chunk;
  for (const auto& name : metric_names_) {
    const MetricRule* rule = mapping_->Find(name);
    if (rule == nullptr) continue;  // names come from the mapping itself
    FLEETCAP_ASSIGN_OR_RETURN(const auto collected, QueryMinutes(name, *rule, from, to, report));
    for (const auto& [key, c] : collected) AddSeries(name, *rule, c, from, now, &chunk);
  }
  return StoreChunk(std::move(chunk), report);
}

absl::StatusOr<PullReport> PullIngester::RunOnce() {
  const absl::Time now = clock_->Now();
  const absl::Time now_minute = absl::FromUnixMillis(MinuteOf(absl::ToUnixMillis(now)));
  // An explicit --until is taken as given: the caller vouches that its
  // minutes are complete (a backfill of a closed window).
  const absl::Time to = options_.until == absl::InfiniteFuture()
                            ? now_minute
                            : absl::FromUnixMillis(MinuteOf(absl::ToUnixMillis(options_.until)));
  FLEETCAP_ASSIGN_OR_RETURN(absl::Time from, ReadWatermark());
  if (from == absl::InfinitePast()) {
    from = options_.since != absl::InfinitePast() ? options_.since : now_minute - absl::Hours(1);
  } else if (!backfilled_ && options_.since < from) {
    from = options_.since;
  }
  backfilled_ = true;
  from = absl::FromUnixMillis(MinuteOf(absl::ToUnixMillis(from)));
  PullReport report;
  report.from = from;
  report.to = to;
  const absl::Duration chunk = absl::Minutes(std::max(1, options_.max_points));
  for (absl::Time a = from; a < to; a += chunk) {
    const absl::Time b = std::min(to, a + chunk);
    FLEETCAP_ASSIGN_OR_RETURN(const int64_t rows, FetchChunk(a, b, &report));
    report.rows += rows;
    // Minutes still inside the settle window stay behind the watermark.
    FLEETCAP_RETURN_IF_ERROR(WriteWatermark(std::min(b, now_minute - options_.settle)));
  }
  return report;
}

}  // namespace fleetcap::telemetry
