#!/usr/bin/env bash
# What one telemetry sample adds to the store, on disk (docs/benchmarks.md,
# "Telemetry at rest"): the published genai GPU duty cycle pushed over
# remote_write onto every minute a pod of the openb sample held a GPU over
# the last DAYS days, as `make demo` pushes it, and the database's size
# after VACUUM and CHECKPOINT before and after.
#
#   bash tests/bench/growth_per_sample.sh [NODE_STRIDE] [DAYS]   (default 8 7)
#
# NODE_STRIDE keeps one openb node in that many of each model (1: the whole
# trace, 6,212 GPUs). Environment: FLEETCAP_BIN (default build/release),
# FLEETCAP_DATA (default ../shared/data), UNTIL (`now`, the default, as the
# demo: the window ends now; `midnight`: at the start of today, UTC, so that
# every day of it has ended and given back usage_minute's pages).
#   1. `fleetcap-ingest replay --trace openb --sample` stores the sampled
#      cluster; one optimizer pass charges its hours; the size is taken;
#   2. `fleetcap-telemetry-replay` pushes the duty cycle to `fleetcap-ingest
#      prometheus`, and an optimizer pass with --usage-to-rest-budget 0s rolls
#      the minutes up and charges the hours again with them: the size is the
#      minutes as written (usage_minute), with their rollups;
#   3. every hour's minutes moved to rest (migration 0037), timed: the size
#      is the minutes at rest, with the same rollups.
# Prints the bytes per sample of 2 and of 3, and per table.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C  # join and sort agree on the order of table names
stride=${1:-8}
days=${2:-7}
bin=${FLEETCAP_BIN:-build/release}
data=${FLEETCAP_DATA:-../shared/data}
duty_cycle="$data/genai/pod_gpu_duty_cycle_anon.tar.gz"
[ -f "$data/openb/openb_node_list_gpu_node.csv" ] && [ -f "$duty_cycle" ] ||
  { echo "growth_per_sample: the openb trace and the genai duty cycle are not under $data" >&2; exit 1; }
find_bin() {
  local found
  found=$(find "$bin" -name "$1" -type f -perm -u+x 2>/dev/null | head -n 1)
  [ -n "$found" ] || {
    echo "growth_per_sample: $1 not found under $bin; build it: cmake --preset release &&" \
      "cmake --build --preset release --target fleetcap-ingest fleetcap-optimizer fleetcap-telemetry-replay" >&2
    exit 1
  }
  echo "$found"
}
ingest_bin=$(find_bin fleetcap-ingest)
optimizer_bin=$(find_bin fleetcap-optimizer)
replay_bin=$(find_bin fleetcap-telemetry-replay)

work=$(mktemp -d /tmp/fleetcap-growth-XXXXXX)
receiver=""
cleanup() {
  [ -n "$receiver" ] && kill "$receiver" 2>/dev/null || true
  bash scripts/pg.sh stop "$work/pg" >/dev/null 2>&1 || true
  local dir
  dir=$(cat "$work/pg/datadir" 2>/dev/null || true)
  case "$dir" in /tmp/fleetcap-pg-*) rm -rf "$dir" ;; esac
  rm -rf "$work"
}
trap cleanup EXIT

db=$(bash scripts/pg.sh start "$work/pg")
size() {
  psql "$db" -qc "VACUUM" -c "CHECKPOINT" >/dev/null
  psql "$db" -tAc "SELECT pg_database_size(current_database())"
}
tables() {
  # A partition counts in its root's line (usage_minute's hours, migration 0044, under their day's).
  psql "$db" -tAF' ' -c "SELECT coalesce(pg_partition_root(c.oid)::text, c.relname), sum(pg_total_relation_size(c.oid))
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
   WHERE c.relkind = 'r' GROUP BY 1" | sort -k1,1 >"$work/$1.tables"
}
optimizer_pass() {
  "$optimizer_bin" --db "$db" --once --close-delay 0s --log-level warn "$@" >>"$work/optimizer.out" 2>&1 ||
    { tail -20 "$work/optimizer.out" >&2; exit 1; }
}

"$ingest_bin" replay --trace openb --data "$data/openb" --cluster openb --sample --sample-days "$days" \
  --sample-node-stride "$stride" --db "$db" --migrate --log-level warn >"$work/replay.out"
optimizer_pass
psql "$db" -tAc "SELECT count(*) || ' GPUs, ' || (SELECT count(*) FROM pods) || ' pods' FROM devices" |
  sed 's/^/growth_per_sample: the openb sample: /'
before=$(size)
tables before

"$ingest_bin" prometheus --cluster openb --db "$db" --remote-write-listen 127.0.0.1:0 --wal-dir "$work/wal" \
  --settle 20s --metrics-listen 127.0.0.1:0 --log-level warn >"$work/receiver.out" 2>&1 &
receiver=$!
for _ in $(seq 600); do grep -q "fleetcap-ingest prometheus ready" "$work/receiver.out" && break; sleep 0.1; done
ready=$(grep -m1 "fleetcap-ingest prometheus ready" "$work/receiver.out")
write_port=$(sed -E 's/.*remote_write=([0-9]+).*/\1/' <<<"$ready")
metrics_port=$(sed -E 's/.*metrics=([0-9]+).*/\1/' <<<"$ready")
if [ "${UNTIL:-now}" = midnight ]; then
  until=$(date -u -d "@$(( $(date -u +%s) / 86400 * 86400 ))" +%Y-%m-%dT%H:%M:%SZ)
else
  until=$(date -u -d "@$(( $(date -u +%s) / 60 * 60 ))" +%Y-%m-%dT%H:%M:%SZ)
fi
tar -xzOf "$duty_cycle" | "$replay_bin" --db "$db" --cluster openb --duty-cycle - --until "$until" --days "$days" \
  --remote-write-url "http://127.0.0.1:$write_port/api/v1/write" \
  --wait-written "http://127.0.0.1:$metrics_port/metrics" >"$work/telemetry.out"
kill "$receiver"
wait "$receiver" || true
receiver=""
samples=$(sed -nE 's/.* holds, ([0-9]+) samples in .*/\1/p' "$work/telemetry.out")
[ -n "$samples" ] && [ "$samples" -gt 0 ] || { cat "$work/telemetry.out" >&2; exit 1; }
echo "growth_per_sample: $(tail -n 1 "$work/telemetry.out")"
optimizer_pass --usage-to-rest-budget 0s
written=$(size)
tables written
rows=$(psql "$db" -tAc "SELECT count(*) FROM usage_minute")

began=$(date +%s.%N)
moved=$(psql "$db" -tAc "SELECT coalesce(sum(fleetcap_compact_usage_hour(cluster, hour)), 0)
  FROM (SELECT cluster, hour FROM usage_hours_to_compact WHERE hour <= now() - interval '3 hours' ORDER BY hour DESC) h")
move_s=$(echo "$(date +%s.%N) - $began" | bc -l)
at_rest=$(size)
tables at_rest

printf '\ngrowth_per_sample: %d samples; %d minute rows written (devices and pods); %d moved to rest in %.1f s (%.0f rows/s)\n' \
  "$samples" "$rows" "$moved" "$move_s" "$(echo "$moved / $move_s" | bc -l)"
printf '| the store | database size | growth | bytes per sample |\n|---|---:|---:|---:|\n'
printf '| before the telemetry | %d | | |\n' "$before"
for state in written at_rest; do
  printf '| %s | %d | %d | %.1f |\n' "$( [ $state = written ] && echo "minutes as written (usage_minute)" || echo "minutes at rest")" \
    "${!state}" "$(( ${!state} - before ))" "$(echo "(${!state} - $before) / $samples" | bc -l)"
done
echo
echo "per table, bytes (growth over the telemetry's):"
join -a 1 -a 2 -e 0 -o 0,1.2,2.2 "$work/before.tables" "$work/written.tables" |
  join -a 1 -a 2 -e 0 -o 0,1.2,1.3,2.2 - "$work/at_rest.tables" |
  awk -v s="$samples" '{ w = $3 - $2; r = $4 - $2; if (w != 0 || r != 0)
    printf "  %-34s as written %+12d (%6.1f/sample)   at rest %+12d (%6.1f/sample)\n", $1, w, w / s, r, r / s }'
