// fleetcap-optimizer as it runs: the real binary on a real PostgreSQL,
// computing the chargeback of a small inventory written through the store.

#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_chargeback_repository.h"
#include "store/pg_control_repositories.h"
#include "store/pg_live_inventory_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/pg_sessions.h"
#include "tests/support/rows_where.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_chargeback.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

constexpr int64_t kMicroPerHour = 3'600'000;  // 3.60 a device-hour: 1000 micro-units a second

// Research owns namespace ml; an H100 costs 3.60 an hour everywhere.
constexpr const char* kPolicy = R"(version: 1
teams:
  - name: research
namespaces:
  - namespace: ml
    team: research
prices:
  - model: H100
    from: 2025-01-01T00:00:00Z
    per_device_hour: "3.60"
)";

absl::Time HourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

class OptimizerDaemonTest : public testing::MigratedDatabaseTest {
 protected:
  OptimizerDaemonTest() : MigratedDatabaseTest(3) {}

  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    // History starts five whole hours ago: GPU-0 throughout, half of it held
    // by a pod of ml; GPU-1 from half an hour in.
    h0_ = HourOf(RealClock::Instance()->Now()) - absl::Hours(5);
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
    c.nodes = {{{"node-1", "", 0, 0, h0_, std::nullopt}, ""}};
    c.devices = {{"GPU-0", "node-1", 0, "H100", h0_, std::nullopt},
                 {"GPU-1", "node-1", 1, "H100", h0_ + absl::Minutes(30), std::nullopt}};
    c.pods = {
        {{"uid-a", "ml", "train-0", "", "Job", "train", "Running", h0_, h0_, std::nullopt, 500, false}, "node-1"}};
    c.holds = {{"uid-a", "GPU-0", 500, h0_, std::nullopt}};
    store::PgLiveInventoryRepository inventory(pool());
    ASSERT_THAT(inventory.Apply(c), IsOk());
    store::PgPolicyRepository policies(pool());
    store::PolicyVersionRecord policy;
    policy.document = kPolicy;
    policy.applied_by = "test";
    store::AuditEntry audit;
    audit.actor = "test";
    audit.action = "policy.apply";
    ASSERT_THAT(policies.Apply(policy, std::nullopt, audit), IsOk());
  }

  std::vector<std::string> Optimizer(std::vector<std::string> args) {
    std::vector<std::string> argv = {fleetcap::testing::kOptimizerBin};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--db", db_->uri()});
    if (args[0] != "recompute") argv.insert(argv.end(), {"--close-delay", "0s"});
    return argv;
  }

  // Sums of the hours [start, end) grouped by team and line kind, one per hour.
  std::vector<store::ChargebackSum> Hours(absl::Time start, absl::Time end) {
    store::PgChargebackRepository chargeback(pool());
    store::ChargebackFilter filter;
    filter.start = start;
    filter.end = end;
    store::ChargebackGroupBy by;
    by.team = true;
    by.line_kind = true;
    auto sums = chargeback.Lines(filter, by, store::ChargebackResolution::kHour);
    EXPECT_THAT(sums, IsOk());
    return sums.ok() ? *sums : std::vector<store::ChargebackSum>{};
  }

  int64_t Total(absl::Time start, absl::Time end) {
    int64_t total = 0;
    for (const auto& s : Hours(start, end)) total += s.total_cost_micro;
    return total;
  }

  // The recompute marks of `cluster` still stored, leased or not.
  int64_t Marks(const std::string& cluster) {
    return static_cast<int64_t>(testing::RowsWhere(testing::StoredRecomputeMarks(*conn_), [&](const auto& mark) {
                                  return mark.cluster == cluster;
                                }).size());
  }

  // Waits (up to a minute) until some connection waits for `ReplaceHours`'
  // lock of a cluster: the optimizer has computed the hours and is about to
  // store them.
  bool WaitForReplaceHoursBlocked() {
    for (int i = 0; i < 600; ++i) {
      const int64_t waiting = testing::SessionsWaitingOnAdvisoryLock(*conn_, "fleetcap.chargeback:");
      if (waiting > 0) return true;
      absl::SleepFor(absl::Milliseconds(100));
    }
    return false;
  }

  absl::Time h0_;
};

TEST_F(OptimizerDaemonTest, OnceWritesEveryClosedHourAndASecondOnceNothingNew) {
  const absl::Time closed = HourOf(RealClock::Instance()->Now());
  auto first = testing::Run(Optimizer({"--once"}));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const int64_t hours = (closed - h0_) / absl::Hours(1);
  EXPECT_THAT(first.out, HasSubstr(absl::StrCat("pass done, ", hours, " hours computed")));

  // The first hour by hand: the pod's half of GPU-0 directly (1.80), and the
  // idle rest of GPU-0 (1.80) and half an hour of GPU-1 (1.80) shared to
  // research, its only team.
  const auto first_hour = Hours(h0_, h0_ + absl::Hours(1));
  ASSERT_EQ(first_hour.size(), 1u);
  EXPECT_EQ(first_hour[0].team, "research");
  EXPECT_EQ(first_hour[0].line_kind, "workload");
  EXPECT_EQ(first_hour[0].held_milli_seconds, 500 * 3600);
  EXPECT_EQ(first_hour[0].direct_cost_micro, 1'800'000);
  EXPECT_EQ(first_hour[0].idle_cost_micro, 3'600'000);
  EXPECT_EQ(first_hour[0].total_cost_micro, 5'400'000);
  const auto second_hour = Hours(h0_ + absl::Hours(1), h0_ + absl::Hours(2));
  ASSERT_EQ(second_hour.size(), 1u);
  EXPECT_EQ(second_hour[0].direct_cost_micro, 1'800'000);
  EXPECT_EQ(second_hour[0].total_cost_micro, 7'200'000);
  // The whole: the price times every device-second in service.
  const int64_t device_seconds =
      (closed - h0_) / absl::Seconds(1) + (closed - h0_ - absl::Minutes(30)) / absl::Seconds(1);
  EXPECT_EQ(Total(h0_, closed), device_seconds * kMicroPerHour / 3600);

  const absl::Time closed_again = HourOf(RealClock::Instance()->Now());
  auto second = testing::Run(Optimizer({"--once"}));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.out,
              HasSubstr(absl::StrCat("pass done, ", (closed_again - closed) / absl::Hours(1), " hours computed")));
}

TEST_F(OptimizerDaemonTest, RecomputeRewritesTheHoursAsked) {
  ASSERT_EQ(testing::Run(Optimizer({"--once"})).exit_code, 0);
  // An inventory correction: GPU-2 was in service all along.
  store::InventoryChanges late;
  late.cluster = "c1";
  late.devices = {{"GPU-2", "node-1", 2, "H100", h0_, std::nullopt}};
  store::PgLiveInventoryRepository inventory(pool());
  ASSERT_THAT(inventory.Apply(late), IsOk());

  auto recompute = testing::Run(Optimizer(
      {"recompute", "--from", FormatRfc3339(h0_ + absl::Hours(1)), "--to", FormatRfc3339(h0_ + absl::Hours(3))}));
  ASSERT_EQ(recompute.exit_code, 0) << recompute.err;
  EXPECT_THAT(recompute.out, HasSubstr("recomputed 2 hours"));
  EXPECT_EQ(Total(h0_, h0_ + absl::Hours(1)), 5'400'000);  // not asked: as it was
  EXPECT_EQ(Total(h0_ + absl::Hours(1), h0_ + absl::Hours(3)), 2 * 3 * kMicroPerHour);
  EXPECT_EQ(Total(h0_ + absl::Hours(3), h0_ + absl::Hours(4)), 2 * kMicroPerHour);
}

// An instance SIGKILLed after it took the marked hours and before it stored
// them must not lose them: the next instance recomputes those hours.
TEST_F(OptimizerDaemonTest, HoursMarkedByAnInstanceKilledWhileRecomputingAreRecomputedByTheNext) {
  ASSERT_EQ(testing::Run(Optimizer({"--once"})).exit_code, 0);
  const absl::Time closed = HourOf(RealClock::Instance()->Now());
  // An inventory correction: GPU-2 was in service all along. The triggers
  // mark every computed hour of c1.
  store::InventoryChanges late;
  late.cluster = "c1";
  late.devices = {{"GPU-2", "node-1", 2, "H100", h0_, std::nullopt}};
  store::PgLiveInventoryRepository inventory(pool());
  ASSERT_THAT(inventory.Apply(late), IsOk());
  ASSERT_GT(Marks("c1"), 0);

  // Holding the lock ReplaceHours takes for c1 stops the first instance
  // between taking the marks and storing the recomputed hours; there it dies.
  testing::LockAdvisory(*conn_, "fleetcap.chargeback:c1");
  auto killed = testing::Subprocess::Start(Optimizer({"--once", "--recompute-lease", "1s"}));
  ASSERT_THAT(killed, IsOk());
  ASSERT_TRUE(WaitForReplaceHoursBlocked()) << (*killed)->Stderr();
  EXPECT_EQ((*killed)->Stop(SIGKILL).exit_code, 128 + SIGKILL);
  testing::UnlockAdvisory(*conn_, "fleetcap.chargeback:c1");
  EXPECT_EQ(Total(h0_ + absl::Hours(1), h0_ + absl::Hours(2)), 2 * kMicroPerHour);  // not stored
  ASSERT_GT(Marks("c1"), 0) << "the killed instance took the marks with it";

  // Once its lease has run out, the next instance takes the marks again.
  for (int i = 0; i < 600; ++i) {
    const absl::Time now = absl::Now();
    if (testing::RowsWhere(testing::StoredRecomputeMarks(*conn_), [&](const testing::StoredRecomputeMark& mark) {
          return mark.taken_until && *mark.taken_until > now;
        }).empty()) {
      break;
    }
    absl::SleepFor(absl::Milliseconds(100));
  }
  auto next = testing::Run(Optimizer({"--once"}));
  ASSERT_EQ(next.exit_code, 0) << next.err;
  EXPECT_EQ(Total(h0_, h0_ + absl::Hours(1)), 5'400'000 + kMicroPerHour);
  EXPECT_EQ(Total(h0_ + absl::Hours(1), h0_ + absl::Hours(2)), 3 * kMicroPerHour);
  const int64_t device_seconds =
      2 * (closed - h0_) / absl::Seconds(1) + (closed - h0_ - absl::Minutes(30)) / absl::Seconds(1);
  EXPECT_EQ(Total(h0_, closed), device_seconds * kMicroPerHour / 3600);
  EXPECT_EQ(Marks("c1"), 0);
}

TEST_F(OptimizerDaemonTest, RecomputeRefusesHoursThatAreNotWhole) {
  auto refused =
      testing::Run(Optimizer({"recompute", "--from", "2026-01-01T00:30:00Z", "--to", "2026-01-01T02:00:00Z"}));
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("--from: 2026-01-01T00:30:00Z is not a whole hour"));
}

TEST_F(OptimizerDaemonTest, ASecondInstanceSharesTheWorkServesMetricsAndSigtermEndsCleanly) {
  ASSERT_EQ(testing::Run(Optimizer({"--once"})).exit_code, 0);
  store::PgChargebackRepository chargeback(pool());
  ASSERT_THAT(chargeback.MarkForRecompute("c1", {h0_ + absl::Hours(2)}, "late telemetry"), IsOk());
  auto running = testing::Subprocess::Start(Optimizer({"--metrics-listen", "127.0.0.1:0", "--interval", "1h"}));
  ASSERT_THAT(running, IsOk());
  auto port_line = (*running)->WaitForLine("fleetcap-optimizer: metrics on port ", absl::Seconds(30));
  ASSERT_THAT(port_line, IsOk()) << (*running)->Stderr();
  ASSERT_THAT((*running)->WaitForLine("fleetcap-optimizer: pass done", absl::Seconds(60)), IsOk())
      << (*running)->Stderr();
  const std::string port = port_line->substr(std::string("fleetcap-optimizer: metrics on port ").size());
  auto scraped = testing::HttpGet(absl::StrCat("http://127.0.0.1:", port, "/metrics"));
  ASSERT_THAT(scraped, IsOk());
  EXPECT_THAT(scraped->body, HasSubstr("fleetcap_optimizer_lag_seconds 0"));
  EXPECT_THAT(scraped->body, HasSubstr("fleetcap_optimizer_hours_computed_total "));
  EXPECT_THAT(scraped->body, HasSubstr("fleetcap_optimizer_recomputations_total{reason=\"late telemetry\"} 1"));
  EXPECT_THAT(scraped->body, HasSubstr("fleetcap_optimizer_pass_seconds"));
  EXPECT_THAT(scraped->body, HasSubstr("fleetcap_optimizer_fleet_lock_held 1"));
  EXPECT_THAT(scraped->body, HasSubstr("fleetcap_optimizer_cluster_passes_total{cluster=\"c1\"} 1"));
  EXPECT_THAT(scraped->body, HasSubstr("fleetcap_optimizer_cluster_hours_computed_total{cluster=\"c1\"} 1"));

  // A second instance does not wait: it takes the cluster no pass holds, and
  // leaves the fleet's work to the first, which keeps the fleet lock.
  auto second = testing::Run(Optimizer({"--once"}));
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.out, HasSubstr("pass done"));
  EXPECT_THAT(second.err, HasSubstr("clusters [c1]"));
  EXPECT_THAT(second.err, HasSubstr("the fleet's work is another instance's"));

  const testing::RunResult stopped = (*running)->Stop(SIGTERM);
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  // Once it has ended, the next instance takes the fleet lock.
  auto third = testing::Run(Optimizer({"--once"}));
  EXPECT_EQ(third.exit_code, 0) << third.err;
  EXPECT_THAT(third.err, HasSubstr("took the fleet lock"));
}

// After a pass, the instance doing the fleet's work exports each budget of
// the month: its amount, and its team's spend through the fleet's watermark
// as the chargeback stored it, in the currency's units.
TEST_F(OptimizerDaemonTest, TheFleetsInstanceExportsTheBudgetsOfTheMonthAfterAPass) {
  const absl::Time now = RealClock::Instance()->Now();
  const absl::CivilMonth month = absl::ToCivilMonth(now, absl::UTCTimeZone());
  const std::string month_text = absl::StrFormat("%04d-%02d", month.year(), month.month());
  store::PgPolicyRepository policies(pool());
  store::PolicyVersionRecord policy;
  policy.document =
      absl::StrCat(kPolicy, "budgets:\n  - {team: research, month: ", month_text, ", amount: \"1000\"}\n");
  policy.applied_by = "test";
  policy.applied_at = h0_;
  store::AuditEntry audit;
  audit.actor = "test";
  audit.action = "policy.apply";
  ASSERT_THAT(policies.Apply(policy, 1, audit), IsOk());
  auto running = testing::Subprocess::Start(Optimizer({"--metrics-listen", "127.0.0.1:0", "--interval", "1h"}));
  ASSERT_THAT(running, IsOk());
  auto port_line = (*running)->WaitForLine("fleetcap-optimizer: metrics on port ", absl::Seconds(30));
  ASSERT_THAT(port_line, IsOk()) << (*running)->Stderr();
  ASSERT_THAT((*running)->WaitForLine("fleetcap-optimizer: pass done", absl::Seconds(60)), IsOk())
      << (*running)->Stderr();
  // The budgets are computed after the pass's allocation and forecast; their
  // gauges are there once the counter says so.
  const std::string port = port_line->substr(std::string("fleetcap-optimizer: metrics on port ").size());
  std::string body;
  for (int i = 0; i < 300 && !absl::StrContains(body, "fleetcap_optimizer_budget_runs_total{result=\"computed\"} 1");
       ++i) {
    auto scraped = testing::HttpGet(absl::StrCat("http://127.0.0.1:", port, "/metrics"));
    ASSERT_THAT(scraped, IsOk());
    body = scraped->body;
    absl::SleepFor(absl::Milliseconds(100));
  }
  const std::string labels = absl::StrCat("{currency=\"USD\",month=\"", month_text, "\",team=\"research\"} ");
  EXPECT_THAT(body, HasSubstr(absl::StrCat("fleetcap_budget_amount", labels, "1000\n")));
  const absl::Time month_start = absl::FromCivil(month, absl::UTCTimeZone());
  int64_t spent = 0;
  for (const auto& sum : Hours(std::max(h0_, month_start), HourOf(now))) {
    if (sum.team == "research") spent += sum.total_cost_micro;
  }
  const size_t at = body.find("fleetcap_budget_spent" + labels);
  ASSERT_NE(at, std::string::npos) << body;
  const std::string value = body.substr(at + labels.size() + 21, body.find('\n', at) - at - labels.size() - 21);
  EXPECT_NEAR(std::stod(value), static_cast<double>(spent) / 1e6, 1e-9) << value;
  EXPECT_GT(spent, 0);
  EXPECT_THAT(body, HasSubstr("fleetcap_budget_projected" + labels));
  const testing::RunResult stopped = (*running)->Stop(SIGTERM);
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
}

}  // namespace
}  // namespace fleetcap
