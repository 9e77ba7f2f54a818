#!/usr/bin/env bash
# `make test`: installs what is missing, builds, runs the web app's unit
# tests and build, every unit and integration test (debug, with the
# dashboard's end-to-end test web_e2e_test), then the unit tests (with the fuzz targets' corpus
# and regression replays) again under ASan + UBSan, then the threaded parts
# under ThreadSanitizer (scripts/tsan.sh). Each step's time is printed as it
# ends and again at the end; scripts/test_times.sh lists the slowest tests.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh

jobs=$(nproc)
started=$(date +%s)
steps=()
step() {  # step NAME COMMAND...: runs COMMAND, then says how long it took
  local name=$1 began took
  shift
  began=$(date +%s)
  "$@"
  took=$(( $(date +%s) - began ))
  steps+=("$(printf '%6ds  %s' "$took" "$name")")
  echo "make test: $name took ${took}s"
}

# The dashboard: its unit tests and its production build (web/dist, which
# the end-to-end test web_e2e_test serves through fleetcap-api).
step "web unit tests" bash scripts/web.sh test
step "web build" bash scripts/web.sh build

step "debug configure" cmake --preset debug
step "debug build" cmake --build --preset debug -- -j"$jobs"
# Twice as many tests as cores: most integration tests wait on servers and
# timeouts far more than they compute (the CPU they take is in docs/benchmarks.md).
step "debug tests" ctest --preset debug -j"$(( 2 * jobs ))"

step "asan configure" cmake --preset asan
step "asan build" cmake --build --preset asan --target unit_tests -- -j"$jobs"
step "asan tests" ctest --preset asan -j"$jobs"

step "tsan build and tests" bash scripts/tsan.sh

printf '%s\n' "${steps[@]}"
echo "make test: all passed in $(( $(date +%s) - started ))s"
