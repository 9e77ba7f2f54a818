#include "services/api/request_admission.h"

#include "absl/strings/str_cat.h"
#include "services/api/status_mapping.h"

namespace fleetcap::api {

RequestAdmission::Ticket& RequestAdmission::Ticket::operator=(Ticket&& other) noexcept {
  if (this != &other) {
    if (owner_ != nullptr) owner_->Release(token_id_);
    owner_ = other.owner_;
    token_id_ = std::move(other.token_id_);
    other.owner_ = nullptr;
  }
  return *this;
}

RequestAdmission::Ticket::~Ticket() {
  if (owner_ != nullptr) owner_->Release(token_id_);
}

absl::StatusOr<RequestAdmission::Ticket> RequestAdmission::Admit(const std::string& token_id) {
  std::lock_guard<std::mutex> lock(mu_);
  int& mine = per_token_[token_id];
  if (mine >= limits_.per_token) {
    return WithRetryAfter(absl::ResourceExhaustedError(absl::StrCat("this token already has ", mine,
                                                                    " requests running, the most one token may; "
                                                                    "retry when one has answered")),
                          limits_.retry_after);
  }
  if (running_ >= limits_.total) {
    if (mine == 0) per_token_.erase(token_id);
    return WithRetryAfter(absl::ResourceExhaustedError(absl::StrCat("the API is running ", running_,
                                                                    " requests, the most it runs at once; retry "
                                                                    "shortly")),
                          limits_.retry_after);
  }
  ++mine;
  ++running_;
  return Ticket(this, token_id);
}

void RequestAdmission::Release(const std::string& token_id) {
  std::lock_guard<std::mutex> lock(mu_);
  --running_;
  auto it = per_token_.find(token_id);
  if (it != per_token_.end() && --it->second == 0) per_token_.erase(it);
}

}  // namespace fleetcap::api
