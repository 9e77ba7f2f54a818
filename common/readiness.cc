#include "common/readiness.h"

#include "absl/strings/str_cat.h"

namespace fleetcap {

absl::Status Readiness::Check() {
  {
    std::lock_guard<std::mutex> lock(answer_mu_);
    if (answered_ && clock_->Monotonic() - answered_at_ < cache_for_) return answer_;
  }
  std::unique_lock<std::mutex> checking(check_mu_, std::try_to_lock);
  if (!checking.owns_lock()) {
    std::lock_guard<std::mutex> lock(answer_mu_);
    const absl::Duration running = clock_->Monotonic() - check_started_;
    if (running > kStuckAfter) {
      return absl::UnavailableError(absl::StrCat("store unreachable: no answer for ",
                                                 absl::FormatDuration(absl::Trunc(running, absl::Seconds(1)))));
    }
    if (answered_) return answer_;
    return absl::UnavailableError("store: first readiness check still running");
  }
  {
    std::lock_guard<std::mutex> lock(answer_mu_);
    check_started_ = clock_->Monotonic();
  }
  absl::Status status = CheckNow();
  std::lock_guard<std::mutex> lock(answer_mu_);
  answered_ = true;
  answer_ = status;
  answered_at_ = clock_->Monotonic();
  return status;
}

absl::Status Readiness::CheckNow() {
  if (conn_ == nullptr || !conn_->is_open()) {
    // A store that accepts the connection but never answers fails the check
    // rather than holding it.
    auto conn = PgConnect(db_, absl::Seconds(5));
    if (!conn.ok()) {
      conn_.reset();
      return absl::UnavailableError(absl::StrCat("store unreachable: ", conn.status().message()));
    }
    conn_ = std::move(*conn);
  }
  absl::Status schema = check_schema_(*conn_);
  if (absl::IsUnavailable(schema) || absl::IsDeadlineExceeded(schema)) {
    conn_.reset();  // lost: the next check reconnects
    return absl::UnavailableError(absl::StrCat("store unreachable: ", schema.message()));
  }
  if (!schema.ok()) return absl::FailedPreconditionError(absl::StrCat("schema not current: ", schema.message()));
  return absl::OkStatus();
}

}  // namespace fleetcap
