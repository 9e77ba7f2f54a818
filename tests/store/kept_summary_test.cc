// The fleet summary's kept state (migrations 0032 and 0033, store/functions/
// fleetcap_fleet_now_*.sql and fleetcap_holders_now_*.sql) stays what the
// facts say through any sequence of writes: the inventory writer's batches
// (opens, closes, corrections of a model, rows seen twice), the deletes and
// updates of other writers, and pods whose namespace or team label changes,
// that go, or whose row comes after their holds. After each step the kept
// rows equal the open rows summed from the facts (per model, and per
// namespace and team), the horizon is not before the latest instant written,
// and SummarizeAt and HoldersAt answer as the facts do at instants before, at
// and after it, whether from the kept "now", from checkpoints built at some
// steps and forgotten by later writes (migration 0036), or from the facts.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/live_inventory_contract.h"
#include "store/pg_instant_checkpoints.h"
#include "store/pg_instant_sql.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_team_facts_repository.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using contract::T;
using ::fleetcap::testing::IsOk;

using SummaryRows = std::vector<ModelCount>;

class KeptSummaryTest : public testing::MigratedDatabaseTest {
 protected:
  SummaryRows Rows(const char* sql, const std::string& cluster, const std::string* instant) {
    pqxx::nontransaction txn(*conn_);
    auto rows = instant == nullptr ? txn.exec_params(sql, cluster) : txn.exec_params(sql, cluster, *instant);
    SummaryRows out;
    for (const auto& r : rows) out.push_back({r[0].as<std::string>(), r[1].as<int64_t>(), r[2].as<int64_t>()});
    return out;
  }
  // The kept rows, and the facts' at an instant after every one written.
  SummaryRows Kept(const std::string& cluster) { return Rows(kSummarizeNowSql, cluster, nullptr); }
  SummaryRows FromFacts(const std::string& cluster, absl::Time at) {
    const std::string instant = FormatRfc3339(at);
    return Rows(kSummarizeAtSql, cluster, &instant);
  }
  // Who held what, as (cluster, namespace, team, milli) summed per
  // (cluster, namespace, team), in order: what the team directory reads of it.
  using Holder = std::tuple<std::string, std::string, std::string, int64_t>;
  static std::vector<Holder> Summed(const std::vector<Holder>& rows) {
    std::map<std::tuple<std::string, std::string, std::string>, int64_t> sums;
    for (const auto& [cluster, ns, team, milli] : rows) sums[{cluster, ns, team}] += milli;
    std::vector<Holder> out;
    for (const auto& [key, milli] : sums) {
      out.emplace_back(std::get<0>(key), std::get<1>(key), std::get<2>(key), milli);
    }
    return out;
  }
  std::vector<Holder> HolderRows(const char* sql, const std::string& cluster, const std::string* instant) {
    pqxx::nontransaction txn(*conn_);
    std::vector<Holder> out;
    auto rows = instant == nullptr ? txn.exec_params(sql, cluster) : txn.exec_params(sql, cluster, *instant);
    for (const auto& r : rows) {
      out.emplace_back(r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<int64_t>());
    }
    return out;
  }
  std::vector<Holder> HoldersFromFacts(const std::string& cluster, absl::Time at) {
    const std::string instant = FormatRfc3339(at);
    return Summed(HolderRows(kHoldersAtSql, cluster, &instant));
  }
  // The kept rows (holders_now) as they are, one per (cluster, namespace, team).
  std::vector<Holder> KeptHolders(const std::string& cluster) {
    std::vector<Holder> out = HolderRows(kHoldersNowSql, cluster, nullptr);
    std::sort(out.begin(), out.end());
    return out;
  }
  static std::vector<Holder> Sorted(const std::vector<PodTeamEvidence>& pods) {
    std::vector<Holder> out;
    for (const auto& p : pods) out.emplace_back(p.cluster, p.namespace_name, p.team_label, p.held_milli);
    return Summed(out);
  }
  std::string Scalar(const std::string& sql) {
    pqxx::nontransaction txn(*conn_);
    auto r = txn.exec(sql);
    return r[0][0].is_null() ? "null" : r[0][0].as<std::string>();
  }
  void Exec(const std::string& sql) { pqxx::nontransaction(*conn_).exec(sql); }
};

// One random batch for `cluster`: few devices, pods and instants, so rows
// are opened, closed, seen again and corrected often.
InventoryChanges RandomBatch(std::mt19937& random, const std::string& cluster) {
  auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  const std::vector<std::string> models = {"A100", "H100", "L4"};
  InventoryChanges c;
  c.cluster = cluster;
  for (const auto& m : models) c.types.push_back({m, "nvidia", "nvidia.com/gpu"});
  const int records = 1 + pick(6);
  for (int i = 0; i < records; ++i) {
    const std::string device = absl::StrCat("g", pick(6));
    const absl::Time from = T(10 * pick(4));
    const std::optional<absl::Time> to =
        pick(3) == 0 ? std::optional<absl::Time>(from + absl::Minutes(1 + pick(50))) : std::nullopt;
    switch (pick(4)) {
      case 0:
        c.devices.push_back({device, "n1", 0, models[static_cast<size_t>(pick(3))], from, to});
        break;
      case 1: {
        const std::string uid = absl::StrCat("p", pick(8));
        // Now and then a pod goes while its hold is left open.
        const std::optional<absl::Time> deleted = pick(5) == 0 ? std::optional<absl::Time>(T(5)) : std::nullopt;
        c.pods.push_back({{uid, absl::StrCat("ns", pick(3)), uid, absl::StrCat("team", pick(3)), "Job", "train",
                           "Running", T(0), T(0), deleted, 1000, false},
                          "n1"});
        c.holds.push_back({uid, device, 1 + pick(1000), from, to});
        break;
      }
      case 2:
        c.close_devices.push_back({device, "", from, from + absl::Minutes(pick(60))});
        break;
      default:
        c.close_holds.push_back({absl::StrCat("p", pick(8)), device, from, from + absl::Minutes(pick(60))});
        break;
    }
  }
  return c;
}

TEST_F(KeptSummaryTest, RandomWritesKeepTheSummaryExact) {
  PgLiveInventoryRepository repo(pool());
  PgTeamFactsRepository team_facts(pool());
  std::mt19937 random(20260101);
  const std::vector<std::string> clusters = {"k0", "k1"};
  const absl::Time after_all = T(100000);
  for (const std::string& c : clusters) ASSERT_THAT(repo.Apply(RandomBatch(random, c)), IsOk());
  // Checkpoints every 10 minutes of the random instants (T(0) to about T(110)).
  PgInstantCheckpoints checkpoints(pool(), absl::Minutes(10));
  const SimulatedClock clock(after_all);
  int64_t built = 0;
  for (int step = 0; step < 160; ++step) {
    const std::string& cluster = clusters[random() % 2];
    if (random() % 4 == 0) {
      auto fill = checkpoints.Fill(clock, absl::Hours(1));
      ASSERT_THAT(fill, IsOk());
      EXPECT_TRUE(fill->complete);
      built += fill->built;
    }
    // Half the steps are the inventory writer's; the others are another
    // writer's deletes (retention, a correction), updates and truncates, and
    // pods changing namespace or team, going, or coming after their holds.
    const int kind = static_cast<int>(random() % 20);
    if (kind == 0) {
      Exec(absl::StrCat("DELETE FROM holds WHERE cluster = '", cluster, "' AND device_id = 'g", random() % 6, "'"));
    } else if (kind == 1) {
      Exec(absl::StrCat("DELETE FROM devices WHERE cluster = '", cluster, "' AND device_id = 'g", random() % 6, "'"));
    } else if (kind == 2) {
      Exec(absl::StrCat("UPDATE holds SET milli = 1 + (milli * 7) % 1000, held_to = CASE WHEN held_to IS NULL",
                        " THEN held_from + interval '5 minutes' END WHERE cluster = '", cluster, "' AND pod_uid = 'p",
                        random() % 8, "'"));
    } else if (kind == 3) {
      Exec(absl::StrCat("UPDATE devices SET model = 'L4' WHERE cluster = '", cluster, "' AND device_id = 'g",
                        random() % 6, "'"));
    } else if (kind == 4 && step % 3 == 0) {
      Exec("TRUNCATE holds");
    } else if (kind == 4 && step % 3 == 1) {
      Exec("TRUNCATE pods");
    } else if (kind == 5) {
      // A pod's team label changes (and, in the same statement, others keep theirs).
      Exec(absl::StrCat("UPDATE pods SET team = CASE WHEN pod_uid IN ('p", random() % 8, "', 'q", random() % 4,
                        "') THEN 'team' || ", random() % 4, " ELSE team END WHERE cluster = '", cluster, "'"));
    } else if (kind == 6) {
      // A pod's namespace changes, or its namespace and team both.
      Exec(absl::StrCat("UPDATE pods SET namespace = 'ns", random() % 3, "', team = CASE WHEN ", random() % 2,
                        " = 0 THEN team ELSE 'team' || ", random() % 3, " END WHERE cluster = '", cluster,
                        "' AND pod_uid IN ('p", random() % 8, "', 'q", random() % 4, "')"));
    } else if (kind == 7) {
      Exec(absl::StrCat("DELETE FROM pods WHERE cluster = '", cluster, "' AND pod_uid IN ('p", random() % 8, "', 'q",
                        random() % 4, "')"));
    } else if (kind == 8) {
      // A hold written before its pod's row (open, or now and then closed).
      const std::string from = FormatRfc3339(T(10 * static_cast<int>(random() % 4)));
      const std::string to =
          random() % 4 == 0 ? absl::StrCat("'", from, "'::timestamptz + interval '7 minutes'") : "NULL";
      Exec(absl::StrCat("INSERT INTO holds (cluster, pod_uid, device_id, milli, held_from, held_to) VALUES ('", cluster,
                        "', 'q", random() % 4, "', 'g", random() % 6, "', ", 1 + random() % 1000, ", '", from, "', ",
                        to, ") ON CONFLICT DO NOTHING"));
    } else if (kind == 9) {
      // ... and the pod's row after it.
      Exec(absl::StrCat("INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name,",
                        " created_at) VALUES ('", cluster, "', 'q", random() % 4, "', 'ns", random() % 3,
                        "', 'q', 'team", random() % 3, "', 'Job', 'train', '", FormatRfc3339(T(0)),
                        "') ON CONFLICT DO NOTHING"));
    } else {
      ASSERT_THAT(repo.Apply(RandomBatch(random, cluster)), IsOk()) << "step " << step;
    }
    for (const std::string c : {"", "k0", "k1"}) {
      const std::string where = absl::StrCat("step ", step, " cluster '", c, "'");
      const SummaryRows facts = FromFacts(c, after_all);
      ASSERT_EQ(Kept(c), facts) << where;
      ASSERT_EQ(KeptHolders(c), HoldersFromFacts(c, after_all)) << where;
      for (const absl::Time at : {T(0), T(10), T(20), T(25), T(30), T(45), T(61), T(95), after_all}) {
        auto got = repo.SummarizeAt(c, at);
        ASSERT_THAT(got, IsOk());
        EXPECT_EQ(*got, FromFacts(c, at)) << where << " at " << FormatRfc3339(at);
        auto holders = team_facts.HoldersAt(c, at);
        ASSERT_THAT(holders, IsOk());
        EXPECT_EQ(Sorted(*holders), HoldersFromFacts(c, at)) << where << " at " << FormatRfc3339(at);
      }
    }
    // The checkpoints kept are those no write has touched since they were
    // built: each equals the facts at its instant.
    const pqxx::result kept_instants = pqxx::nontransaction(*conn_).exec(
        "SELECT cluster, (extract(epoch FROM at) * 1000000)::bigint FROM instant_checkpoints");
    for (const auto& r : kept_instants) {
      const std::string c = r[0].as<std::string>();
      const absl::Time at = absl::FromUnixMicros(r[1].as<int64_t>());
      const std::string instant = FormatRfc3339(at);
      EXPECT_EQ(Rows("SELECT model, devices, held_milli FROM summary_checkpoints WHERE cluster = $1"
                     " AND at = $2::timestamptz AND devices > 0 ORDER BY model",
                     c, &instant),
                FromFacts(c, at))
          << "step " << step << " checkpoint " << c << " " << instant;
    }
    // The horizon is never before an instant a row names (deletes leave it
    // where it was: it only vouches that nothing is later).
    for (const std::string& c : clusters) {
      EXPECT_EQ(Scalar(absl::StrCat("SELECT coalesce((SELECT horizon FROM fleet_now_horizon WHERE cluster = '", c,
                                    "') >= max(greatest(f, t)), max(f) IS NULL) FROM (SELECT in_service_from f,",
                                    " in_service_to t FROM devices WHERE cluster = '", c,
                                    "' UNION ALL SELECT held_from, held_to FROM holds WHERE cluster = '", c, "') r")),
                "t")
          << "step " << step << " cluster " << c;
    }
  }
  EXPECT_GT(built, 0);
}

// An instant a day and more from the horizon and from any checkpoint is
// summed from the facts current then.
TEST_F(KeptSummaryTest, FarFromAnyKnownSummaryTheFactsAnswer) {
  PgLiveInventoryRepository repo(pool());
  PgTeamFactsRepository team_facts(pool());
  InventoryChanges c;
  c.cluster = "k0";
  c.types.push_back({"A100", "nvidia", "nvidia.com/gpu"});
  c.devices.push_back({"g0", "n1", 0, "A100", T(-5000), std::nullopt});
  c.pods.push_back(
      {{"p0", "ns0", "p0", "team0", "Job", "train", "Running", T(-5000), T(-5000), std::nullopt, 1000, false}, "n1"});
  c.holds.push_back({"p0", "g0", 250, T(-5000), T(0)});
  ASSERT_THAT(repo.Apply(c), IsOk());
  const absl::Time at = T(-4000);
  auto got = repo.SummarizeAt("", at);
  ASSERT_THAT(got, IsOk());
  EXPECT_EQ(*got, (SummaryRows{{"A100", 1, 250}}));
  EXPECT_EQ(*got, FromFacts("", at));
  auto holders = team_facts.HoldersAt("k0", at);
  ASSERT_THAT(holders, IsOk());
  EXPECT_EQ(Sorted(*holders), (std::vector<Holder>{{"k0", "ns0", "team0", 250}}));
}

// A clock whose every reading of the monotonic time is a second later: a
// budget of N seconds lasts N readings, whatever the machine's speed.
class TickingClock : public Clock {
 public:
  explicit TickingClock(absl::Time now) : now_(now) {}
  absl::Time Now() const override { return now_; }
  absl::Duration Monotonic() const override { return absl::Seconds(++ticks_); }
  void SleepFor(absl::Duration) const override {}
  bool SleepUnlessStopped(absl::Duration, const std::atomic<bool>& stop) const override { return stop; }
  bool WaitFor(std::unique_lock<std::mutex>&, std::condition_variable&, absl::Duration,
               const std::function<bool()>& done) const override {
    return done();
  }

 private:
  absl::Time now_;
  mutable int64_t ticks_ = 0;
};

// A budget too short for every cluster's history reaches every cluster's
// most recent instants before any cluster's oldest.
TEST_F(KeptSummaryTest, TheBudgetIsSharedByTheClusters) {
  PgLiveInventoryRepository repo(pool());
  std::mt19937 random(7);
  for (const std::string c : {"k0", "k1", "k2"}) ASSERT_THAT(repo.Apply(RandomBatch(random, c)), IsOk());
  // A checkpoint a minute: some 100 instants a cluster, 8 built a transaction.
  PgInstantCheckpoints checkpoints(pool(), absl::Minutes(1));
  auto fill = checkpoints.Fill(TickingClock(T(100000)), absl::Seconds(30));
  ASSERT_THAT(fill, IsOk());
  EXPECT_FALSE(fill->complete);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT cluster) FROM instant_checkpoints"), "3");
  // Each cluster's newest missing instant was built.
  EXPECT_EQ(Scalar("SELECT count(*) FROM (SELECT cluster, max(at) m FROM instant_checkpoints GROUP BY cluster) c"
                   " WHERE m = date_bin(interval '1 minute', (SELECT horizon FROM fleet_now_horizon f"
                   " WHERE f.cluster = c.cluster), 'epoch')"),
            "3");
}

}  // namespace
}  // namespace fleetcap::store
