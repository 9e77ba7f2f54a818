#include "tests/telemetry/private_postgres.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>

#include "absl/strings/str_cat.h"
#include "tests/support/build_paths.h"
#include "tests/support/subprocess.h"

namespace fleetcap::testing {

PrivatePostgres::PrivatePostgres() {
  // Durable settings (not FLEETCAP_PG_FAST): an immediate stop is a crash,
  // and a commit acknowledged before it must survive.
  auto started =
      Run({"/bin/bash", fleetcap::testing::SourcePath("scripts/pg.sh"), "start", dir_.path()}, absl::Seconds(120));
  uri_ = started.out.substr(0, started.out.find('\n'));
  std::ifstream(dir_.path() + "/datadir") >> data_;
  std::ifstream(dir_.path() + "/port") >> port_;
}

PrivatePostgres::~PrivatePostgres() {
  Run({"/bin/bash", fleetcap::testing::SourcePath("scripts/pg.sh"), "stop", dir_.path()});
  Run({"/bin/rm", "-rf", data_});
}

bool PrivatePostgres::Stop() { return PgCtl({"-m", "immediate", "-w", "stop"}); }

bool PrivatePostgres::Start() {
  return PgCtl({"-l", data_ + "/server.log", "-w", "-o",
                absl::StrCat("-p ", port_, " -c listen_addresses=127.0.0.1 -c unix_socket_directories=", data_),
                "start"});
}

bool PrivatePostgres::PgCtl(const std::vector<std::string>& args) {
  std::vector<std::string> argv;
  if (geteuid() == 0) argv = {"/usr/sbin/runuser", "-u", "postgres", "--"};
  argv.push_back("/usr/lib/postgresql/15/bin/pg_ctl");
  argv.push_back("-D");
  argv.push_back(data_);
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = Run(argv, absl::Seconds(60));
  if (r.exit_code != 0) ADD_FAILURE() << "pg_ctl: " << r.out << r.err;
  return r.exit_code == 0;
}

}  // namespace fleetcap::testing
