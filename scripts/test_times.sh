#!/usr/bin/env bash
# test_times.sh [N] [BUILD_DIR...]: the N (default 15) slowest ctest entries
# of the last ctest run in each build folder (default: build/debug, build/asan
# and build/tsan, where they exist), slowest first, with the folder's name.
# Each entry over 60 s is either made faster or has its reason in
# docs/benchmarks.md, "Build and test time".
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-15}
shift || true
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  for d in build/debug build/asan build/tsan; do [ -d "$d" ] && dirs+=("$d"); done
fi

for dir in "${dirs[@]}"; do
  log="$dir/Testing/Temporary/LastTest.log"
  [ -f "$log" ] || { echo "test_times: no ctest run in $dir" >&2; continue; }
  # LastTest.log: "N/M Testing: NAME" opens an entry, "Test time = S sec" closes it.
  awk -v preset="$(basename "$dir")" '
    /^[0-9]+\/[0-9]+ Testing: / { name = $3 }
    /^Test time = / { printf "%10.1f s  %-6s %s\n", $4, preset, name }
  ' "$log"
done | sort -rn | head -n "$count"
