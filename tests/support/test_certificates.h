#pragma once
// Certificates made at test time by the openssl command, in a folder of
// their own (removed with the object), valid for a day:
//   ca.pem, ca.key            the test CA
//   server.pem, server.key    signed by ca, for 127.0.0.1 and localhost
//   client.pem, client.key    a client certificate signed by ca
//   other-ca.pem, other-ca.key  a second CA
//   rogue.pem, rogue.key      a client certificate signed by other-ca

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "absl/status/statusor.h"
#include "tests/support/test_dir.h"

namespace fleetcap::testing {

class TestCertificates {
 public:
  static absl::StatusOr<std::unique_ptr<TestCertificates>> Make();
  TestCertificates(const TestCertificates&) = delete;
  TestCertificates& operator=(const TestCertificates&) = delete;

  // The path of `name` (e.g. "server.pem") in the folder.
  std::string File(const std::string& name) const { return dir_.path() + "/" + name; }

 private:
  TestCertificates() = default;
  TestDir dir_{"certs"};
};

// A test suite whose tests share one set of TestCertificates.
class CertificatesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto made = TestCertificates::Make();
    ASSERT_TRUE(made.ok()) << made.status();
    certs_ = made->release();
  }
  static void TearDownTestSuite() {
    delete certs_;
    certs_ = nullptr;
  }
  static std::string File(const std::string& name) { return certs_->File(name); }

 private:
  static inline TestCertificates* certs_ = nullptr;
};

}  // namespace fleetcap::testing
