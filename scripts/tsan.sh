#!/usr/bin/env bash
# `make tsan`: the threaded parts under ThreadSanitizer (gcc; the `tsan`
# preset): the remote_write receiver and push pipeline, the minute window,
# the sample log's group commit, the list/watch watchers and the API server.
# Which test binaries run is the `tsan` build and test presets' choice
# (CMakePresets.json); docs/security.md says why those. Third-party libraries
# are not instrumented; the few reports that come from inside them are
# suppressed in tests/tsan.supp, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
started=$(date +%s)

cmake --preset tsan
cmake --build --preset tsan -- -j"$jobs"
ctest --preset tsan -j"$jobs"

echo "make tsan: all passed in $(( $(date +%s) - started ))s"
