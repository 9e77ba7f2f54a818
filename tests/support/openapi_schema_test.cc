#include "tests/support/openapi_schema.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A schema in the shape of Kueue's: a list-map of objects with a required
// name, a quantity that is an integer or a string, an enum and a bounded list.
const char* kSchema = R"(
type: object
properties:
  spec:
    type: object
    properties:
      mode:
        type: string
        enum: [A, B]
      labels:
        type: object
        additionalProperties:
          type: string
        maxProperties: 2
      weight:
        type: integer
        minimum: 1
      items:
        type: array
        maxItems: 2
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name:
              type: string
              pattern: ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
              maxLength: 5
            quota:
              anyOf:
                - type: integer
                - type: string
              pattern: ^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$
              x-kubernetes-int-or-string: true
)";

std::vector<std::string> Problems(const std::string& manifest) {
  return SchemaProblems(YAML::Load(kSchema), YAML::Load(manifest));
}

TEST(SchemaProblems, AcceptsAConformingManifest) {
  EXPECT_THAT(Problems("spec: {mode: A, labels: {a: x}, weight: 2, items: [{name: a, quota: \"1500m\"}, "
                       "{name: b, quota: 2}]}"),
              IsEmpty());
}

TEST(SchemaProblems, NamesEachViolationByItsPath) {
  EXPECT_THAT(Problems("spec: {extra: 1}"), ElementsAre(".spec.extra: unknown field"));
  EXPECT_THAT(Problems("spec: {mode: C}"), ElementsAre(HasSubstr(".spec.mode: \"C\" is not in the enum")));
  EXPECT_THAT(Problems("spec: {weight: \"2\"}"), ElementsAre(".spec.weight: expected integer, got string"));
  EXPECT_THAT(Problems("spec: {weight: 0}"), ElementsAre(HasSubstr(".spec.weight: 0 is below the minimum")));
  EXPECT_THAT(Problems("spec: {labels: {a: x, b: y, c: z}}"), ElementsAre(HasSubstr("more than 2 properties")));
  EXPECT_THAT(Problems("spec: {items: [{quota: 1}]}"), ElementsAre(".spec.items[0]: missing required field name"));
  EXPECT_THAT(Problems("spec: {items: [{name: Bad}]}"),
              ElementsAre(HasSubstr(".spec.items[0].name: \"Bad\" does not match")));
  EXPECT_THAT(Problems("spec: {items: [{name: toolong}]}"), ElementsAre(HasSubstr("longer than 5")));
  EXPECT_THAT(Problems("spec: {items: [{name: a, quota: 1.5x}]}"), ElementsAre(HasSubstr(".spec.items[0].quota")));
  EXPECT_THAT(Problems("spec: {items: [{name: a, quota: [1]}]}"),
              ElementsAre(HasSubstr("expected an integer or a string, got array")));
  EXPECT_THAT(Problems("spec: {items: [{name: a}, {name: b}, {name: c}]}"), ElementsAre(HasSubstr("more than 2")));
  EXPECT_THAT(Problems("spec: {items: [{name: a}, {name: a}]}"), ElementsAre(".spec.items[1]: repeats the key a"));
}

}  // namespace
}  // namespace fleetcap::testing
