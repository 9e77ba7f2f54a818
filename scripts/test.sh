#!/usr/bin/env bash
# `make test`: installs what is missing, builds, runs the web app's unit
# tests and build, every unit and integration test (debug, with the
# dashboard's end-to-end test web_e2e_test), then the unit tests (with the fuzz targets' corpus
# and regression replays) again under ASan + UBSan, then the threaded parts
# under ThreadSanitizer (scripts/tsan.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh

jobs=$(nproc)
started=$(date +%s)

# The dashboard: its unit tests and its production build (web/dist, which
# the end-to-end test web_e2e_test serves through fleetcap-api).
bash scripts/web.sh test
bash scripts/web.sh build

cmake --preset debug
cmake --build --preset debug -- -j"$jobs"
ctest --preset debug -j"$jobs"

cmake --preset asan
cmake --build --preset asan --target unit_tests -- -j"$jobs"
ctest --preset asan -j"$jobs"

bash scripts/tsan.sh

echo "make test: all passed in $(( $(date +%s) - started ))s"
