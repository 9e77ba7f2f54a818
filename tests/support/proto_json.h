#pragma once
// An API answer's proto3 JSON read back into its message, for the tests that
// hold the HTTP answers to what they expect; a body that is not the message
// fails the test, naming the body.

#include <string>

#include <gtest/gtest.h>

#include "google/protobuf/util/json_util.h"

namespace fleetcap::testing {

template <typename Message>
Message ParseJson(const std::string& body) {
  Message message;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(body, &message).ok()) << body;
  return message;
}

}  // namespace fleetcap::testing
