#include "ingest/telemetry/normaliser.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace fleetcap::telemetry {
namespace {

constexpr uint64_t kStaleNanBits = 0x7ff0000000000002ULL;

const std::string* FindLabel(const Labels& labels, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    for (const auto& [key, value] : labels) {
      if (key == name && !value.empty()) return &value;
    }
  }
  return nullptr;
}

std::string LabelOr(const Labels& labels, const std::vector<std::string>& names) {
  const std::string* value = FindLabel(labels, names);
  return value == nullptr ? std::string() : *value;
}

// UTF-8 as PostgreSQL takes it: no NUL, no overlong forms, no surrogates,
// nothing past U+10FFFF.
bool StorableText(const std::string& text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const unsigned char c = *p;
    if (c == 0) return false;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int n;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (end - p <= n) return false;
    for (int i = 1; i <= n; ++i) {
      if ((p[i] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3f);
    }
    if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff))) {
      return false;
    }
    p += n + 1;
  }
  return true;
}

}  // namespace

bool StorableKey(const SeriesKey& key) {
  return StorableText(key.device_id) && StorableText(key.namespace_) && StorableText(key.pod) &&
         StorableText(key.node) && StorableText(key.model);
}

const char* DropReasonName(DropReason reason) {
  switch (reason) {
    case DropReason::kStale:
      return "stale";
    case DropReason::kNan:
      return "nan";
    case DropReason::kInf:
      return "inf";
    case DropReason::kNegative:
      return "negative";
    case DropReason::kSentinel:
      return "dcgm_blank";
    case DropReason::kNoDevice:
      return "no_device";
    case DropReason::kUnknownMetric:
      return "unmapped_metric";
    case DropReason::kLate:
      return "late";
    case DropReason::kFuture:
      return "future";
    case DropReason::kTooOld:
      return "too_old";
    case DropReason::kInvalidLabel:
      return "invalid_label";
  }
  return "unknown";
}

int64_t DropCounts::Total() const {
  int64_t total = 0;
  for (auto n : by_reason) total += n;
  return total;
}

void DropCounts::Merge(const DropCounts& other) {
  for (int i = 0; i < kDropReasonCount; ++i) by_reason[i] += other.by_reason[i];
}

bool IsStaleMarker(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits == kStaleNanBits;
}

std::optional<CanonicalSeries> Normaliser::Describe(const Labels& labels) const {
  const std::string* name = nullptr;
  for (const auto& [key, value] : labels) {
    if (key == "__name__") name = &value;
  }
  if (name == nullptr) return std::nullopt;
  const MetricRule* rule = mapping_->Find(*name);
  if (rule == nullptr) return std::nullopt;

  CanonicalSeries series;
  series.field = rule->field;
  series.key.node = LabelOr(labels, mapping_->node);
  series.key.model = LabelOr(labels, mapping_->model);
  series.key.namespace_ = LabelOr(labels, mapping_->namespace_);
  series.key.pod = LabelOr(labels, mapping_->pod);
  if (const std::string* device = FindLabel(labels, mapping_->device)) {
    series.key.device_id = *device;
  } else if (const std::string* index = FindLabel(labels, mapping_->device_index);
             index != nullptr && !series.key.node.empty()) {
    series.key.device_id = absl::StrCat(series.key.node, "/", *index);
  } else if (!series.key.node.empty() && absl::string_view(*name).size() > 5 &&
             absl::string_view(*name).substr(absl::string_view(*name).size() - 5) == "_node") {
    // TPU `*_node` metrics describe all of a node's chips together.
    series.key.device_id = absl::StrCat(series.key.node, "/node");
  } else {
    return std::nullopt;
  }
  // A MIG instance is a device of its own inside its parent GPU.
  if (const std::string* instance = FindLabel(labels, mapping_->mig_instance)) {
    absl::StrAppend(&series.key.device_id, "/mig-", *instance);
    const std::string profile = LabelOr(labels, mapping_->mig_profile);
    if (!profile.empty() && !series.key.model.empty()) absl::StrAppend(&series.key.model, " ", profile);
  }
  return series;
}

std::optional<CanonicalSeries> Normaliser::Normalise(const Labels& labels, const std::vector<Point>& points,
                                                     DropCounts* drops) const {
  const MetricRule* rule = nullptr;
  for (const auto& [key, value] : labels) {
    if (key == "__name__") rule = mapping_->Find(value);
  }
  if (rule == nullptr) {
    drops->Add(DropReason::kUnknownMetric, static_cast<int64_t>(points.size()));
    return std::nullopt;
  }
  std::optional<CanonicalSeries> series = Describe(labels);
  if (!series) {
    drops->Add(DropReason::kNoDevice, static_cast<int64_t>(points.size()));
    return std::nullopt;
  }
  if (!StorableKey(series->key)) {
    drops->Add(DropReason::kInvalidLabel, static_cast<int64_t>(points.size()));
    return std::nullopt;
  }
  const double scale = rule->scale;
  series->points.reserve(points.size());
  for (const Point& p : points) {
    if (IsStaleMarker(p.value)) {
      drops->Add(DropReason::kStale);
    } else if (std::isnan(p.value)) {
      drops->Add(DropReason::kNan);
    } else if (std::isinf(p.value)) {
      drops->Add(DropReason::kInf);
    } else if (p.value < 0) {
      drops->Add(DropReason::kNegative);
    } else if (p.value >= kDcgmBlankFloor) {
      drops->Add(DropReason::kSentinel);
    } else {
      series->points.push_back({p.ts_ms, p.value * scale});
    }
  }
  return series;
}

}  // namespace fleetcap::telemetry
