#!/usr/bin/env bash
# Time is injected (common/clock.h): production code asks a Clock for the time,
# its sleeps and its timed waits, so that what depends on time is tested on
# simulated time. This check (a ctest entry) fails naming each line outside
# common/clock.* and the executables' main.cc that reads the wall or
# monotonic clock, sleeps, or waits with a timeout by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

# Reads of a clock, sleeps, and waits that time out on the real clock.
patterns=(
  'absl::(Now|SleepFor|GetCurrentTimeNanos)\('
  '(system_clock|steady_clock|high_resolution_clock)::now'
  'this_thread::sleep_(for|until)'
  '(^|[^[:alnum:]_.>])(time|sleep|usleep|nanosleep|gettimeofday|clock_gettime)\('
  '(\.|->)wait_(for|until)\('
  '(WithTimeout|WithDeadline)\('
)
pattern=$(IFS='|'; echo "${patterns[*]}")

found=0
while IFS= read -r file; do
  # Comments may speak of time; only code counts.
  if hits=$(sed -e 's|//.*$||' "$file" | grep -nE "$pattern"); then
    while IFS= read -r hit; do
      echo "${file}:${hit}" >&2
      found=1
    done <<<"$hits"
  fi
done < <(find common ingest optimizer services store policy -type f \( -name '*.cc' -o -name '*.h' \) \
           ! -name '*_test.cc' ! -name 'main.cc' ! -path 'common/clock.h' ! -path 'common/clock.cc' | sort)

if (( found )); then
  echo "clock use: the lines above read the clock, sleep or wait with a timeout directly;" \
       "take a Clock (common/clock.h) instead (docs/contributing.md, \"Time is injected\")" >&2
  exit 1
fi
echo "clock use: production code reads time only through common/clock.h"
