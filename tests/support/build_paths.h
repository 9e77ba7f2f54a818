#ifndef FLEETCAP_TESTS_SUPPORT_BUILD_PATHS_H_
#define FLEETCAP_TESTS_SUPPORT_BUILD_PATHS_H_

// Where the tests find this build's programs, the tree's test data and the
// published data beside the tree (../shared/data), as absolute paths of the
// clone being built. They are defined in the one small file CMake writes into
// each build folder (build_paths.cc.in, tests/support/CMakeLists.txt) and never
// compiled into a test as a macro: every other object is then the same in any
// clone of the same commit, and a second clone's build takes it from ccache
// (scripts/check_relocatable.sh keeps it so).

#include <string>
#include <string_view>

namespace fleetcap::testing {

extern const char kSourceDir[];      // the source tree's root
extern const char kSharedDataDir[];  // ../shared/data beside it
extern const char kApiBin[];         // fleetcap-api
extern const char kIngestBin[];      // fleetcap-ingest
extern const char kCtlBin[];         // fleetcapctl
extern const char kOptimizerBin[];   // fleetcap-optimizer
// fleetcap-telemetry-replay; empty in builds without the integration tests (the asan pass).
extern const char kTelemetryReplayBin[];
// kubectl as found when the build was configured; empty when it was not.
extern const char kKubectlBin[];

// A file or folder of the source tree, given relative to its root.
inline std::string SourcePath(std::string_view relative) {
  return std::string(kSourceDir) + "/" + std::string(relative);
}

// A file or folder of the published data, given relative to ../shared/data.
inline std::string SharedDataPath(std::string_view relative) {
  return std::string(kSharedDataDir) + "/" + std::string(relative);
}

}  // namespace fleetcap::testing

#endif  // FLEETCAP_TESTS_SUPPORT_BUILD_PATHS_H_
