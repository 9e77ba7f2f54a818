#include "tests/ha/patroni_cluster.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/support/build_paths.h"
#include "tests/support/subprocess.h"

namespace fleetcap::testing {

absl::StatusOr<std::unique_ptr<PatroniCluster>> PatroniCluster::Start() {
  // A port found free can be taken by another test's process before Patroni
  // or PostgreSQL binds it: that start fails with "Address already in use",
  // or, when PostgreSQL's first start is what fails, with Patroni giving up
  // its bootstrap. A fresh cluster on new ports is the remedy: nothing under
  // test has run yet. Any other failure is the test's to report.
  absl::Status failed;
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::unique_ptr<PatroniCluster> cluster(new PatroniCluster());
    auto uri = cluster->Script("start");
    if (uri.ok()) {
      cluster->uri_ = *uri;
      return cluster;
    }
    failed = uri.status();
    if (!absl::StrContains(failed.message(), "Address already in use") &&
        !absl::StrContains(failed.message(), "Failed to bootstrap cluster")) {
      break;
    }
  }
  return failed;
}

PatroniCluster::~PatroniCluster() {
  Run({"/bin/bash", fleetcap::testing::SourcePath("tests/ha/patroni_cluster.sh"), "stop", dir_.path()});
}

absl::StatusOr<std::string> PatroniCluster::Script(const std::string& command, const std::string& node) const {
  std::vector<std::string> argv = {"/bin/bash", fleetcap::testing::SourcePath("tests/ha/patroni_cluster.sh"), command,
                                   dir_.path()};
  if (!node.empty()) argv.push_back(node);
  // start may rebuild a standby that cannot stream (patroni_cluster.sh).
  RunResult r = Run(argv, command == "start" ? absl::Seconds(300) : absl::Seconds(120));
  if (r.exit_code != 0) {
    return absl::InternalError(
        absl::StrCat("patroni_cluster.sh ", command, " ", node, " exited ", r.exit_code, ": ", r.err));
  }
  const std::string first_line = r.out.substr(0, r.out.find('\n'));
  return std::string(absl::StripAsciiWhitespace(first_line));
}

absl::StatusOr<std::string> PatroniCluster::NodeUri(const std::string& node, const std::string& params) const {
  auto port = Script("port", node);
  if (!port.ok()) return port.status();
  return absl::StrCat("postgresql://fleetcap@127.0.0.1:", *port, "/fleetcap", params.empty() ? "" : "?", params);
}

absl::StatusOr<std::string> PatroniCluster::Primary() const { return Script("primary"); }
absl::StatusOr<std::string> PatroniCluster::KillPrimary() const { return Script("kill-primary"); }
absl::Status PatroniCluster::WaitForPrimary(const std::string& node) const {
  return Script("wait-primary", node).status();
}
absl::StatusOr<std::string> PatroniCluster::Switchover() const { return Script("switchover"); }

}  // namespace fleetcap::testing
