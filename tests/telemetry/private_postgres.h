#pragma once
// A PostgreSQL of one test's own (the shared one serves other tests), with
// durable settings, which the test may stop (a crash: immediate mode) and
// start again on the same port.

#include <string>
#include <vector>

#include "tests/support/test_dir.h"

namespace fleetcap::testing {

class PrivatePostgres {
 public:
  PrivatePostgres();  // uri() is empty when it could not start
  ~PrivatePostgres();
  PrivatePostgres(const PrivatePostgres&) = delete;
  PrivatePostgres& operator=(const PrivatePostgres&) = delete;

  const std::string& uri() const { return uri_; }
  bool Stop();
  bool Start();

 private:
  bool PgCtl(const std::vector<std::string>& args);
  TestDir dir_{"pgfault"};  // pg.sh's folder; the data directory is elsewhere
  std::string data_, port_, uri_;
};

}  // namespace fleetcap::testing
