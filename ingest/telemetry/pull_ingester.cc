#include "ingest/telemetry/pull_ingester.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/time_util.h"

namespace fleetcap::telemetry {
namespace {

constexpr double kDcgmBlankFloor = 9223372036854775792.0;

std::string LabelKey(const Labels& labels) {
  Labels sorted = labels;
  std::sort(sorted.begin(), sorted.end());
  std::string key;
  for (const auto& [k, v] : sorted) absl::StrAppend(&key, k, "\x1f", v, "\x1e");
  return key;
}

// One series' answers to the per-minute queries, by evaluation minute.
struct Collected {
  Labels labels;
  std::map<int64_t, double> count, sum, max, min, last;
};

}  // namespace

PullIngester::PullIngester(RangeQuerier* client, const MetricMapping* mapping, UsageWriter* writer,
                           store::UsageWriteRepository* store, TelemetryMetrics* metrics, const Clock* clock,
                           PullOptions options)
    : client_(client),
      mapping_(mapping),
      writer_(writer),
      store_(store),
      metrics_(metrics),
      clock_(clock),
      options_(options) {
  for (const auto& [name, rule] : mapping_->metrics) metric_names_.push_back(name);
  std::sort(metric_names_.begin(), metric_names_.end());
}

absl::StatusOr<absl::Time> PullIngester::ReadWatermark() {
  auto through = store_->Watermarks(writer_->cluster());
  if (!through.ok()) return through.status();
  // All metrics move together; one without a watermark has none yet.
  absl::Time lowest = absl::InfiniteFuture();
  for (const auto& name : metric_names_) {
    auto it = through->find(name);
    if (it == through->end()) return absl::InfinitePast();
    lowest = std::min(lowest, it->second);
  }
  return lowest;
}

absl::Status PullIngester::WriteWatermark(absl::Time through) {
  if (auto status = store_->AdvanceWatermarks(writer_->cluster(), metric_names_, through); !status.ok()) {
    return status;
  }
  for (const auto& name : metric_names_) {
    metrics_->WatermarkLag(name).Set(absl::ToDoubleSeconds(clock_->Now() - through));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> PullIngester::FetchChunk(absl::Time from, absl::Time to, PullReport* report) {
  const absl::Duration step = absl::Minutes(1);
  const absl::Duration last_ms = absl::Milliseconds(59'999);
  DropCounts drops;
  std::vector<CanonicalSeries> described;
  std::vector<StatSeries> stats;
  int64_t received = 0;
  Normaliser normaliser(mapping_);
  const absl::Time now = clock_->Now();
  for (const auto& name : metric_names_) {
    const MetricRule* found = mapping_->Find(name);
    if (found == nullptr) continue;  // names come from the mapping itself
    const MetricRule& rule = *found;
    std::map<std::string, Collected> collected;
    // A counter also needs the minute before the window, for its first increase.
    const absl::Time start = from + last_ms - (rule.counter ? step : absl::ZeroDuration());
    const absl::Time end = to - absl::Milliseconds(1);
    std::vector<std::pair<std::string, std::map<int64_t, double> Collected::*>> queries = {
        {"count_over_time", &Collected::count}};
    if (rule.counter) {
      queries.push_back({"last_over_time", &Collected::last});
    } else {
      queries.insert(queries.end(), {{"sum_over_time", &Collected::sum},
                                     {"max_over_time", &Collected::max},
                                     {"min_over_time", &Collected::min}});
    }
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
    for (auto& [key, c] : collected) {
      Labels labels = c.labels;
      labels.emplace_back("__name__", name);
      auto canonical = normaliser.Describe(labels);
      // A count no minute can hold (a Prometheus answering nonsense) counts nothing.
      const auto is_count = [](double n) { return n >= 0 && n <= static_cast<double>(kMinuteMs); };
      int64_t n_total = 0;
      for (const auto& [m, n] : c.count) n_total += is_count(n) ? static_cast<int64_t>(n) : 0;
      received += n_total;
      if (!canonical) {
        drops.Add(DropReason::kNoDevice, n_total);
        continue;
      }
      if (!StorableKey(canonical->key)) {
        drops.Add(DropReason::kInvalidLabel, n_total);
        continue;
      }
      StatSeries s;
      for (const auto& [m, n_value] : c.count) {
        if (!is_count(n_value)) continue;
        const int n = static_cast<int>(n_value);
        if (m < absl::ToUnixMillis(from) || n == 0) continue;
        if (const auto outside = options_.window.Check(m, now)) {
          drops.Add(*outside, n);
          continue;
        }
        MinuteStats ms{m, n, 0, 0};
        if (rule.counter) {
          auto cur = c.last.find(m), prev = c.last.find(m - kMinuteMs);
          if (cur == c.last.end()) continue;
          if (!std::isfinite(cur->second) || cur->second < 0 || cur->second >= kDcgmBlankFloor) {
            drops.Add(std::isfinite(cur->second) ? (cur->second < 0 ? DropReason::kNegative : DropReason::kSentinel)
                                                 : DropReason::kNan, n);
            continue;
          }
          const double now_v = cur->second * rule.scale;
          ms.sum = prev == c.last.end() ? 0
                   : now_v >= prev->second * rule.scale ? now_v - prev->second * rule.scale
                                                        : now_v;
          ms.max = now_v;
        } else {
          const double sum = c.sum[m], max = c.max[m], min = c.min[m];
          // *_over_time cannot leave single samples out: a minute holding a
          // value that is no measurement is dropped whole, and counted.
          if (!std::isfinite(sum) || !std::isfinite(max) || !std::isfinite(min)) {
            drops.Add(std::isnan(sum) ? DropReason::kNan : DropReason::kInf, n);
            continue;
          }
          if (min < 0) {
            drops.Add(DropReason::kNegative, n);
            continue;
          }
          if (max >= kDcgmBlankFloor) {
            drops.Add(DropReason::kSentinel, n);
            continue;
          }
          ms.sum = sum * rule.scale;
          ms.max = max * rule.scale;
        }
        s.minutes.push_back(ms);
      }
      if (s.minutes.empty()) continue;
      described.push_back(std::move(*canonical));
      stats.push_back(std::move(s));
    }
  }
  metrics_->Received("pull").Increment(static_cast<double>(received));
  metrics_->Dropped("pull", drops);
  auto identities = writer_->Identify(described);
  if (!identities.ok()) return identities.status();
  for (size_t i = 0; i < stats.size(); ++i) stats[i].identity = std::move((*identities)[i]);
  auto rows = AggregateMinuteStats(stats);
  auto written = writer_->UpsertMinuteRows(rows);
  if (!written.ok()) return written.status();
  metrics_->Accepted("pull").Increment(static_cast<double>(received - drops.Total()));
  metrics_->MinuteRows().Increment(static_cast<double>(*written));
  ++report->chunks;
  return *written;
}

absl::StatusOr<PullReport> PullIngester::RunOnce() {
  const absl::Time now = clock_->Now();
  const absl::Time now_minute = absl::FromUnixMillis(MinuteOf(absl::ToUnixMillis(now)));
  // An explicit --until is taken as given: the caller vouches that its
  // minutes are complete (a backfill of a closed window).
  const absl::Time to = options_.until == absl::InfiniteFuture()
                            ? now_minute
                            : absl::FromUnixMillis(MinuteOf(absl::ToUnixMillis(options_.until)));
  auto watermark = ReadWatermark();
  if (!watermark.ok()) return watermark.status();
  absl::Time from = *watermark;
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
    auto rows = FetchChunk(a, b, &report);
    if (!rows.ok()) return rows.status();
    report.rows += *rows;
    // Minutes still inside the settle window stay behind the watermark.
    if (auto status = WriteWatermark(std::min(b, now_minute - options_.settle)); !status.ok()) return status;
  }
  return report;
}

}  // namespace fleetcap::telemetry
