#include "optimizer/allocation/dominant_resource_fairness.h"

#include <queue>

#include "absl/numeric/int128.h"

#include "absl/strings/str_cat.h"
#include "optimizer/allocation/allocation_problem.h"

namespace fleetcap::allocation {
namespace {

absl::Status CheckUser(const std::vector<int64_t>& capacity, const DrfUser& u) {
  if (u.per_task.size() != capacity.size()) {
    return absl::InvalidArgumentError(absl::StrCat("user ", u.name, ": needs ", u.per_task.size(),
                                                   " resources per task, expected ", capacity.size()));
  }
  bool any = false;
  for (int64_t v : u.per_task) {
    if (v < 0 || v > kMaxDrfQuantity) {
      return absl::InvalidArgumentError(absl::StrCat("user ", u.name, ": per-task need ", v,
                                                     " is out of range (expected 0 to ", kMaxDrfQuantity, ")"));
    }
    any = any || v > 0;
  }
  if (!any) return absl::InvalidArgumentError(absl::StrCat("user ", u.name, ": a task that needs nothing"));
  if (u.weight < 1 || u.weight > kMaxWeight) {
    return absl::InvalidArgumentError(absl::StrCat("user ", u.name, ": weight ", u.weight, " is out of range"));
  }
  if (u.max_tasks && *u.max_tasks < 0) {
    return absl::InvalidArgumentError(absl::StrCat("user ", u.name, ": negative demand ", *u.max_tasks));
  }
  return absl::OkStatus();
}

// A user's weighted dominant share as the fraction tasks * need / (cap * weight).
struct Share {
  absl::int128 num;
  absl::int128 den;
};

}  // namespace

absl::StatusOr<std::vector<int64_t>> DominantResourceFairness(const std::vector<int64_t>& capacity,
                                                              const std::vector<DrfUser>& users) {
  for (int64_t c : capacity) {
    if (c < 0 || c > kMaxDrfQuantity) {
      return absl::InvalidArgumentError(
          absl::StrCat("capacity ", c, " is out of range (expected 0 to ", kMaxDrfQuantity, ")"));
    }
  }
  const size_t n = users.size();
  std::vector<int64_t> tasks(n, 0);
  std::vector<int> dominant(n, -1);  // the resource of the largest need/capacity; -1: one it cannot get
  for (size_t i = 0; i < n; ++i) {
    if (auto status = CheckUser(capacity, users[i]); !status.ok()) return status;
    for (size_t r = 0; r < capacity.size(); ++r) {
      if (users[i].per_task[r] == 0) continue;
      if (capacity[r] == 0) {
        dominant[i] = -1;
        break;
      }
      // need_r / cap_r > need_d / cap_d, exactly.
      if (dominant[i] < 0 || absl::int128(users[i].per_task[r]) * capacity[dominant[i]] >
                                 absl::int128(users[i].per_task[dominant[i]]) * capacity[r]) {
        dominant[i] = static_cast<int>(r);
      }
    }
  }
  auto share = [&](size_t i) -> Share {
    const int r = dominant[i];
    return {absl::int128(tasks[i]) * users[i].per_task[r], absl::int128(capacity[r]) * users[i].weight};
  };
  // The smallest share first; equal shares by name, then position.
  auto later = [&](size_t a, size_t b) {
    const Share sa = share(a), sb = share(b);
    const absl::int128 l = sa.num * sb.den, r = sb.num * sa.den;
    if (l != r) return l > r;
    if (users[a].name != users[b].name) return users[a].name > users[b].name;
    return a > b;
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> queue(later);
  for (size_t i = 0; i < n; ++i) {
    if (dominant[i] >= 0) queue.push(i);
  }
  std::vector<int64_t> left = capacity;
  while (!queue.empty()) {
    const size_t i = queue.top();
    queue.pop();
    if (users[i].max_tasks && tasks[i] >= *users[i].max_tasks) continue;
    bool fits = true;
    for (size_t r = 0; r < left.size(); ++r) fits = fits && users[i].per_task[r] <= left[r];
    if (!fits) continue;  // done: its next task fits nowhere any more
    for (size_t r = 0; r < left.size(); ++r) left[r] -= users[i].per_task[r];
    ++tasks[i];
    queue.push(i);
  }
  return tasks;
}

}  // namespace fleetcap::allocation
