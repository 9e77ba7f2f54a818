#include "services/api/query_message.h"

#include <memory>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fleetcap/v1/policy.pb.h"
#include "fleetcap/v1/usage.pb.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/timestamp.pb.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A request with a field of every type a query can set, and one it cannot.
constexpr char kProbeFile[] = R"pb(
  name: "query_message_probe.proto"
  package: "probe"
  syntax: "proto3"
  dependency: "google/protobuf/timestamp.proto"
  enum_type {
    name: "ProbeColour"
    value { name: "PROBE_COLOUR_UNSPECIFIED" number: 0 }
    value { name: "PROBE_COLOUR_DARK_RED" number: 1 }
    value { name: "PROBE_COLOUR_BLUE" number: 2 }
  }
  message_type {
    name: "Probe"
    field { name: "name" number: 1 type: TYPE_STRING label: LABEL_OPTIONAL }
    field { name: "flag" number: 2 type: TYPE_BOOL label: LABEL_OPTIONAL }
    field { name: "small" number: 3 type: TYPE_INT32 label: LABEL_OPTIONAL }
    field { name: "big" number: 4 type: TYPE_INT64 label: LABEL_OPTIONAL }
    field { name: "count" number: 5 type: TYPE_UINT32 label: LABEL_OPTIONAL }
    field { name: "ratio" number: 6 type: TYPE_DOUBLE label: LABEL_OPTIONAL }
    field { name: "colour" number: 7 type: TYPE_ENUM type_name: ".probe.ProbeColour" label: LABEL_OPTIONAL }
    field { name: "at" number: 8 type: TYPE_MESSAGE type_name: ".google.protobuf.Timestamp" label: LABEL_OPTIONAL }
    field { name: "tags" number: 9 type: TYPE_STRING label: LABEL_REPEATED }
    field { name: "sizes" number: 10 type: TYPE_INT64 label: LABEL_REPEATED }
    field { name: "colours" number: 11 type: TYPE_ENUM type_name: ".probe.ProbeColour" label: LABEL_REPEATED }
    field { name: "nested" number: 12 type: TYPE_MESSAGE type_name: ".probe.Probe" label: LABEL_OPTIONAL }
  }
)pb";

class QueryMessageTest : public ::testing::Test {
 protected:
  QueryMessageTest() : pool_(google::protobuf::DescriptorPool::generated_pool()) {
    google::protobuf::Timestamp::descriptor();  // in the generated pool before the probe needs it
    google::protobuf::FileDescriptorProto file;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(kProbeFile, &file));
    EXPECT_NE(pool_.BuildFile(file), nullptr);
    descriptor_ = pool_.FindMessageTypeByName("probe.Probe");
  }

  std::unique_ptr<google::protobuf::Message> NewProbe() {
    return std::unique_ptr<google::protobuf::Message>(factory_.GetPrototype(descriptor_)->New());
  }

  // The probe `query` sets, as text format; or the error.
  absl::StatusOr<std::string> Map(const HttpQuery& query) {
    auto probe = NewProbe();
    if (auto status = QueryToMessage(query, probe.get()); !status.ok()) return status;
    std::string text;
    google::protobuf::TextFormat::Printer printer;
    printer.SetSingleLineMode(true);
    printer.PrintToString(*probe, &text);
    return text;
  }

  google::protobuf::DescriptorPool pool_;
  google::protobuf::DynamicMessageFactory factory_;
  const google::protobuf::Descriptor* descriptor_ = nullptr;
};

TEST_F(QueryMessageTest, EmptyQuerySetsNothing) { EXPECT_EQ(*Map({}), ""); }

TEST_F(QueryMessageTest, EachType) {
  auto text = Map({{"name", "vision"},
                   {"flag", "true"},
                   {"small", "-7"},
                   {"big", "9000000000"},
                   {"count", "12"},
                   {"ratio", "0.25"},
                   {"colour", "Dark_Red"},
                   {"at", "2026-01-01T01:00:00+01:00"}});
  ASSERT_THAT(text.status(), IsOk());
  EXPECT_EQ(*text,
            "name: \"vision\" flag: true small: -7 big: 9000000000 count: 12 ratio: 0.25 colour: PROBE_COLOUR_DARK_RED "
            "at { seconds: 1767225600 } ");
}

TEST_F(QueryMessageTest, BoolForms) {
  EXPECT_EQ(*Map({{"flag", "1"}}), "flag: true ");
  EXPECT_EQ(*Map({{"flag", "FALSE"}}), "");
  EXPECT_THAT(Map({{"flag", "yes"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("flag: \"yes\" is not true or false")));
}

TEST_F(QueryMessageTest, EnumByShortNameInAnyCase) {
  EXPECT_EQ(*Map({{"colour", "blue"}}), "colour: PROBE_COLOUR_BLUE ");
  EXPECT_EQ(*Map({{"colour", "BLUE"}}), "colour: PROBE_COLOUR_BLUE ");
  // Empty leaves the enum unset, for the route's default.
  EXPECT_EQ(*Map({{"colour", ""}}), "");
  EXPECT_THAT(Map({{"colour", "green"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("colour: \"green\" is not dark_red or blue")));
  EXPECT_THAT(Map({{"colour", "unspecified"}}).status(), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(Map({{"colour", std::string(40, 'x')}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("colour: 40 bytes; give dark_red or blue")));
}

TEST_F(QueryMessageTest, UsageResolutionAsTheRoutesName) {
  v1::GetUsageRequest request;
  ASSERT_THAT(QueryToMessage({{"resolution", "Minute"}}, &request), IsOk());
  EXPECT_EQ(request.resolution(), v1::MINUTE);
  EXPECT_THAT(
      QueryToMessage({{"resolution", "week"}}, &request),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("resolution: \"week\" is not minute, hour or day")));
}

TEST_F(QueryMessageTest, IntegersWithinTheirFieldsRange) {
  EXPECT_EQ(*Map({{"small", "2147483647"}}), "small: 2147483647 ");
  EXPECT_THAT(Map({{"small", "2147483648"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("query parameter small: 2147483648 is outside -2147483648..2147483647")));
  EXPECT_THAT(Map({{"count", "-1"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("query parameter count: -1 is outside 0..")));
  EXPECT_THAT(Map({{"big", "99999999999999999999"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("query parameter big: expected a whole number")));
  for (const char* bad : {"", "1.5", "ten", "1e3", " 1x"}) {
    EXPECT_THAT(Map({{"big", bad}}).status(),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("query parameter big: expected a whole number")))
        << bad;
  }
}

TEST_F(QueryMessageTest, Doubles) {
  EXPECT_EQ(*Map({{"ratio", "1e3"}}), "ratio: 1000 ");
  for (const char* bad : {"", "half", "nan", "inf"}) {
    EXPECT_THAT(Map({{"ratio", bad}}).status(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ratio: \"")))
        << bad;
  }
}

TEST_F(QueryMessageTest, TimestampsAsRfc3339WithinRange) {
  EXPECT_EQ(*Map({{"at", "1970-01-01T00:00:01.5Z"}}), "at { seconds: 1 nanos: 500000000 } ");
  EXPECT_THAT(Map({{"at", "yesterday"}}).status(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at")));
  EXPECT_THAT(Map({{"at", ""}}).status(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at")));
  EXPECT_THAT(Map({{"at", "0001-01-01T00:00:00Z"}}).status(), IsOk());
}

TEST_F(QueryMessageTest, RepeatedFromCommaSeparatedValues) {
  EXPECT_EQ(*Map({{"tags", "a, b,,c "}}), "tags: \"a\" tags: \"b\" tags: \"c\" ");
  EXPECT_EQ(*Map({{"sizes", "1,2"}}), "sizes: 1 sizes: 2 ");
  EXPECT_EQ(*Map({{"colours", "blue,dark_red"}}), "colours: PROBE_COLOUR_BLUE colours: PROBE_COLOUR_DARK_RED ");
  EXPECT_EQ(*Map({{"tags", ""}}), "");
  EXPECT_THAT(Map({{"sizes", "1,x"}}).status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                                         HasSubstr("query parameter sizes: expected a whole number")));
}

TEST_F(QueryMessageTest, RepeatedKeysThroughParseHttpQuery) {
  auto query = ParseHttpQuery("tags=a&tags=b,c&name=x", QueryListParameters(*descriptor_));
  ASSERT_THAT(query.status(), IsOk());
  EXPECT_EQ(*Map(*query), "name: \"x\" tags: \"a\" tags: \"b\" tags: \"c\" ");
}

TEST_F(QueryMessageTest, UnknownParameterNamesItAndTheKnownOnes) {
  EXPECT_THAT(Map({{"name", "x"}, {"nested", "y"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("query parameter nested: unknown; expected one of name, flag, small, big, count, "
                                 "ratio, colour, at, tags, sizes, colours")));
  EXPECT_THAT(Map({{"zz", ""}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("query parameter zz: unknown")));
}

TEST_F(QueryMessageTest, ExplicitParametersAreKnownAndLeftAlone) {
  auto probe = NewProbe();
  QueryMapping mapping;
  mapping.explicit_parameters = {"format"};
  EXPECT_THAT(QueryToMessage({{"format", "csv"}, {"name", "x"}}, probe.get(), mapping), IsOk());
  EXPECT_EQ(probe->ShortDebugString(), "name: \"x\"");
  EXPECT_THAT(
      QueryToMessage({{"zz", "1"}}, probe.get(), mapping),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("expected one of name, flag, small, big, count, "
                                                             "ratio, colour, at, tags, sizes, colours, format")));
}

TEST_F(QueryMessageTest, TextPassesTheEdgeChecks) {
  EXPECT_THAT(Map({{"name", std::string("a\0b", 3)}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("name")));
  EXPECT_THAT(Map({{"name", "\xFF"}}).status(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("name")));
  EXPECT_THAT(Map({{"tags", std::string("a,b\0c", 5)}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tags")));
  EXPECT_THAT(Map({{"tags", std::string(100000, 'a')}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tags")));
}

TEST_F(QueryMessageTest, RouteFieldsAreNoParameters) {
  auto probe = NewProbe();
  QueryMapping mapping;
  mapping.explicit_parameters = {"when"};
  mapping.route_fields = {"at", "small"};
  EXPECT_THAT(QueryToMessage({{"when", "later"}, {"name", "x"}}, probe.get(), mapping), IsOk());
  EXPECT_THAT(QueryToMessage({{"small", "1"}}, probe.get(), mapping),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("query parameter small: unknown; expected one of name, flag, big, count, ratio, "
                                 "colour, tags, sizes, colours, when")));
}

TEST_F(QueryMessageTest, RequiredFieldsAbsentOrEmpty) {
  QueryMapping mapping;
  mapping.required = {"at", "name"};
  auto probe = NewProbe();
  EXPECT_THAT(QueryToMessage({{"at", "2026-01-01T00:00:00Z"}, {"name", "x"}}, probe.get(), mapping), IsOk());
  EXPECT_THAT(QueryToMessage({{"name", "x"}}, probe.get(), mapping),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at: missing; give an RFC 3339 time")));
  EXPECT_THAT(QueryToMessage({{"at", "2026-01-01T00:00:00Z"}, {"name", ""}}, probe.get(), mapping),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("name: missing")));
  // An unknown parameter is named before a missing one.
  EXPECT_THAT(QueryToMessage({{"zz", "1"}}, probe.get(), mapping),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("query parameter zz: unknown")));
}

TEST_F(QueryMessageTest, OfTwoBadParametersTheFirstFieldIsNamed) {
  EXPECT_THAT(Map({{"at", "x"}, {"small", "x"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("small")));
}

TEST_F(QueryMessageTest, ParametersAndListParameters) {
  EXPECT_THAT(QueryParameters(*v1::GetUsageRequest::descriptor()),
              ElementsAre("cluster", "device", "node", "model", "pod", "namespace", "start", "end", "resolution"));
  EXPECT_THAT(QueryListParameters(*descriptor_), ElementsAre("colours", "sizes", "tags"));
}

TEST(RequestFromBody, IsTheBodysJsonWithNoQueryAndWithinItsBound) {
  auto request = RequestFromBody<v1::RollbackPolicyRequest>({}, R"({"version": 3, "message": "back"})");
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->version(), 3);
  EXPECT_EQ(request->message(), "back");

  EXPECT_THAT(RequestFromBody<v1::RollbackPolicyRequest>({{"version", "3"}}, "{}"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("query parameter version")));
  EXPECT_THAT(RequestFromBody<v1::RollbackPolicyRequest>({}, R"({"version": 3})", 8),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("request body: 14 bytes, expected at most 8")));
  EXPECT_THAT(RequestFromBody<v1::RollbackPolicyRequest>({}, R"({"version": "three"})"),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(RequestFromBody<v1::RollbackPolicyRequest>({}, ""), IsOk());  // the empty message
}

}  // namespace
}  // namespace fleetcap::api
