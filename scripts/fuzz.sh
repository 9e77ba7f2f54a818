#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets (clang, ASan + UBSan; the `fuzz`
# preset) and runs each for FUZZ_SECONDS (default 60). Every target starts from
# its committed seed corpus (tests/fuzz/corpus/<target>/, never written to);
# what it learns is kept in build/fuzz/corpus/<target>/ for the next run.
# A crash is written to build/fuzz/crashes/<target>/ and fails the run; once
# fixed, its input goes to tests/fuzz/regressions/<target>/, where `make test`
# replays it. `make fuzz FUZZ_TARGETS="policy_parser kubeconfig"` runs some.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-$(ls tests/fuzz/corpus)}

bash scripts/bootstrap.sh
cmake --preset fuzz
cmake --build --preset fuzz -- -j"$(nproc)"

failed=()
for t in $targets; do
  work=build/fuzz/corpus/$t crashes=build/fuzz/crashes/$t
  mkdir -p "$work" "$crashes"
  echo "fuzz: $t for ${seconds}s"
  # -timeout: an input taking 10 s is a finding (a hang), not a slow machine.
  if ! "build/fuzz/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$crashes/" "$work" "tests/fuzz/corpus/$t" \
      > "build/fuzz/$t.log" 2>&1; then
    failed+=("$t")
    tail -n 40 "build/fuzz/$t.log"
  fi
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "build/fuzz/$t.log" || true
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: crashes in ${failed[*]}: inputs under build/fuzz/crashes/, logs in build/fuzz/<target>.log"
  exit 1
fi
echo "fuzz: no crash in $(echo $targets | wc -w) targets, ${seconds}s each"
