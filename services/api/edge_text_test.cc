#include "services/api/edge_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fleetcap/v1/chargeback.pb.h"
#include "fleetcap/v1/usage.pb.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kNul("\0", 1);

TEST(EdgeText, NamesMatchTheirPattern) {
  EXPECT_THAT(CheckEdgeText("namespace", "vision-ns"), IsOk());
  EXPECT_THAT(CheckEdgeText("pod", "openb-pod-4895.x"), IsOk());
  EXPECT_THAT(CheckEdgeText("cluster", "openb"), IsOk());
  EXPECT_THAT(CheckEdgeText("model", "H100-SXM5-80GB"), IsOk());
  EXPECT_THAT(CheckEdgeText("device", "node-1/nvidia/0"), IsOk());
  EXPECT_THAT(CheckEdgeText("start", "2026-01-01T00:00:00+01:00"), IsOk());
  EXPECT_THAT(CheckEdgeText("group_by", "team,model"), IsOk());
  EXPECT_THAT(CheckEdgeText("role", "team:vision"), IsOk());
  EXPECT_THAT(CheckEdgeText("description", "Ads team's CI, ünïcode"), IsOk());
  EXPECT_THAT(CheckEdgeText("document", "version: 1\nteams:\n\t- x\r\n"), IsOk());
  // Empty means "no filter" for every field.
  EXPECT_THAT(CheckEdgeText("namespace", ""), IsOk());

  EXPECT_THAT(CheckEdgeText("namespace", "Vision"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("namespace")));
  EXPECT_THAT(CheckEdgeText("namespace", "-ns"), Not(IsOk()));
  EXPECT_THAT(CheckEdgeText("namespace", std::string(64, 'a')), Not(IsOk()));
  EXPECT_THAT(CheckEdgeText("pod", "a/b"), Not(IsOk()));
  EXPECT_THAT(CheckEdgeText("team", "team 1"), Not(IsOk()));
  EXPECT_THAT(CheckEdgeText("group_by", "team,,model"), Not(IsOk()));
  EXPECT_THAT(CheckEdgeText("description", std::string(1025, 'a')), Not(IsOk()));
  EXPECT_THAT(CheckEdgeText("description", "two\nlines"), Not(IsOk()));
}

TEST(EdgeText, NoFieldTakesNulControlOrBrokenUtf8) {
  for (const char* field :
       {"namespace", "pod", "cluster", "device", "start", "group_by", "description", "document", "no_such_field"}) {
    for (const std::string& bad : {kNul, kNul + "ns", "vision" + kNul + "ns", "ns" + kNul, std::string("\xFF"),
                                   std::string("\xC0\x80"), std::string("\xED\xA0\x80"), std::string("a\x01")}) {
      EXPECT_THAT(CheckEdgeText(field, bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(field)))
          << field << " " << ::testing::PrintToString(bad);
    }
  }
}

TEST(EdgeText, TheAnswerNeverEchoesTheBytes) {
  auto status = CheckEdgeText("namespace", "\xFF<script>");
  EXPECT_THAT(status.message(), Not(HasSubstr("script")));
}

TEST(EdgeText, QueriesCheckNamesAndValues) {
  EXPECT_THAT(CheckEdgeQuery({{"namespace", "vision-ns"}, {"start", "2026-01-01T00:00:00Z"}}), IsOk());
  EXPECT_THAT(CheckEdgeQuery({{"namespace", kNul}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("namespace")));
  EXPECT_THAT(CheckEdgeQuery({{"name" + kNul, "x"}}), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("query")));
}

TEST(EdgeText, MessagesCheckEveryStringFieldByItsPath) {
  v1::GetUsageRequest usage;
  usage.set_namespace_("vision-ns");
  EXPECT_THAT(CheckEdgeMessage(usage), IsOk());
  usage.set_pod("p" + kNul);
  EXPECT_THAT(CheckEdgeMessage(usage), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pod")));

  v1::GetChargebackRequest chargeback;
  chargeback.add_group_by("team");
  chargeback.add_group_by("x y");
  EXPECT_THAT(CheckEdgeMessage(chargeback), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("group_by[1]")));
}

}  // namespace
}  // namespace fleetcap::api
