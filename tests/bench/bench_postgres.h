#pragma once
// A private PostgreSQL for a benchmark, with its default (durable) settings:
// started by scripts/pg.sh in a folder of its own, stopped and its data
// removed when this goes.

#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_dir.h"

namespace fleetcap::bench {

class BenchPostgres {
 public:
  // nullptr (having said why) when PostgreSQL does not start.
  static std::unique_ptr<BenchPostgres> Start(const std::string& name, const std::string& pg_sh) {
    auto pg = std::unique_ptr<BenchPostgres>(new BenchPostgres(name, pg_sh));
    auto started = testing::Run({"/bin/bash", pg_sh, "start", pg->dir_.path()}, absl::Seconds(120));
    if (started.exit_code != 0) {
      std::cerr << "cannot start PostgreSQL: " << started.err << "\n";
      return nullptr;
    }
    pg->uri_ = started.out.substr(0, started.out.find('\n'));
    pg->running_ = true;
    return pg;
  }

  ~BenchPostgres() {
    if (!running_) return;
    std::string data;  // pg.sh may keep the data folder outside the bench's folder
    std::ifstream(dir_.path() + "/datadir") >> data;
    testing::Run({"/bin/bash", pg_sh_, "stop", dir_.path()});
    testing::Run({"/bin/rm", "-rf", data});
  }

  const std::string& uri() const { return uri_; }
  const std::string& dir() const { return dir_.path(); }

 private:
  BenchPostgres(const std::string& name, std::string pg_sh) : dir_(name), pg_sh_(std::move(pg_sh)) {}

  testing::TestDir dir_;
  std::string pg_sh_;
  std::string uri_;
  bool running_ = false;
};

}  // namespace fleetcap::bench
