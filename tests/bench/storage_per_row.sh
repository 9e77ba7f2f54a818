#!/usr/bin/env bash
# Bytes per row of the store's tables, measured (docs/scaling.md, "Capacity").
#
#   tests/bench/storage_per_row.sh [NODES] [PODS] [MINUTES] [VALUES]   (default 250 4000 60 random)
#
# Starts a private PostgreSQL, migrates it with fleetcap-ingest, stores a
# synthetic cluster (openb shapes) with `fleetcap-ingest replay`, adds
# representative usage, rollups, chargeback lines and telemetry progress
# (storage_per_row.sql; VALUES `random` draws every minute's values from
# random(), `dcgm` makes them as dcgm-exporter's samples do, `gaps` takes
# some of those out and makes some odd: missing minutes, pods that came
# mid-hour, NULL fields, -0, subnormals, huge values), then prints per
# table the rows, the bytes on disk (pg_total_relation_size: heap, indexes,
# TOAST) and the bytes per row, and how far one day-partition of usage_minute
# compresses with zstd (a proxy for columnar storage, which is not available
# here). Then the reads by pgbench (p50 and p99) from usage_minute: one
# node's minutes over the day (READS reads each, default 200), and what the
# hourly rollups of the cluster's usage and of the pods' readings (the
# attribution's usage basis) read of an hour (ROLLUPS reads each, default
# 20), and the two as they read before migration 0047.
# Then the minutes moved to rest as the optimizer moves them (migration 0037,
# storage_at_rest.sql): timed, checked bit for bit against the rows written;
# kept as floats as before migration 0043, their bytes beside usage_minute's
# and the same reads from there, each answering as before; converted to
# decimals as 0043 converts them (storage_at_rest_decimals.sql): timed,
# checked, their bytes and the same reads again; last, the WAL and time of writing a device's minute
# again (storage_minute_writes.sql).
set -euo pipefail
cd "$(dirname "$0")/../.."
nodes=${1:-250}
pods=${2:-4000}
minutes=${3:-60}
values=${4:-random}
reads=${READS:-200}
rollups=${ROLLUPS:-20}
gaps=false
case "$values" in
  random) dcgm=false ;;
  dcgm) dcgm=true ;;
  gaps) dcgm=true gaps=true ;;
  *) echo "bench: VALUES is random, dcgm or gaps, not '$values'" >&2; exit 2 ;;
esac
ingest=""
for candidate in build/release/ingest/fleetcap-ingest build/debug/ingest/fleetcap-ingest; do
  [ -x "$candidate" ] && { ingest=$candidate; break; }
done
[ -n "$ingest" ] || { echo "bench: build fleetcap-ingest first (cmake --build --preset release)" >&2; exit 1; }

work=$(mktemp -d /tmp/fleetcap-storage-XXXXXX)
cleanup() {
  bash scripts/pg.sh stop "$work/pg" >/dev/null 2>&1 || true
  # As root the data directory is a folder of its own under /tmp (scripts/pg.sh).
  local data
  data=$(cat "$work/pg/datadir" 2>/dev/null || true)
  case "$data" in /tmp/fleetcap-pg-*) rm -rf "$data" ;; esac
  rm -rf "$work"
}
trap cleanup EXIT

db=$(bash scripts/pg.sh start "$work/pg")
"$ingest" replay --trace synthetic --nodes "$nodes" --pods "$pods" --seed 1 --cluster bench \
  --start 2026-03-01T00:00:00Z --db "$db" --migrate --log-level warn
psql "$db" -q -v minutes="$minutes" -v dcgm="$dcgm" -v gaps="$gaps" -f tests/bench/storage_per_row.sql
part_rows=$(psql "$db" -tAc "SELECT count(*) FROM usage_minute_20260302")
zstd_bytes=$(psql "$db" -qc "COPY (SELECT * FROM usage_minute_20260302) TO STDOUT" | zstd -3 -q -c | wc -c)
printf '\nusage_minute_20260302 as COPY text compressed by zstd -3: %d bytes for %d rows, %.1f bytes/row\n' \
  "$zstd_bytes" "$part_rows" "$(echo "$zstd_bytes / $part_rows" | bc -l)"

psql "$db" -q -f tests/bench/storage_at_rest_before.sql
psql "$db" -q -c "CREATE TABLE bench_nodes AS SELECT (row_number() OVER (ORDER BY node))::int AS i, node
                    FROM (SELECT DISTINCT node FROM usage_minute WHERE cluster = 'bench' AND pod_uid = '') n;
                  ALTER TABLE bench_nodes ADD PRIMARY KEY (i); ANALYZE bench_nodes;"
node_count=$(psql "$db" -tAc "SELECT count(*) FROM bench_nodes")
hours=$(((minutes + 59) / 60))
# p50 and p99 of a pgbench script's reads, from its per-read log (the third
# column is the latency in microseconds), after as many reads unmeasured.
read_latency() {
  local script=$1 count=$2 log_dir="$work/pgbench-$1"
  rm -rf "$log_dir" && mkdir -p "$log_dir"  # (a layout read again: its own log)
  pgbench -n -D nodes="$node_count" -D hours="$hours" -f "tests/bench/$script" -t "$count" "$db" >/dev/null
  (cd "$log_dir" && pgbench -n -D nodes="$node_count" -D hours="$hours" -f "$OLDPWD/tests/bench/$script" \
    -t "$count" -l --log-prefix=reads "$db" >/dev/null)
  cut -d' ' -f3 "$log_dir"/reads.* | sort -n | awk '{ v[NR] = $1 }
    END { printf "p50 %.1f ms, p99 %.1f ms over %d reads\n", v[int(NR * 0.5 + 0.5)] / 1000, v[int(NR * 0.99 + 0.5)] / 1000, NR }'
}
# A script's answer for the first node and hour.
answer() {
  sed -e '/^\\set/d' -e 's/:n\b/1/g' -e 's/:h\b/0/g' "tests/bench/$1" | psql "$db" -qtA -v ON_ERROR_STOP=1 -f -
}
# Whether two answers agree: the same rows and fields, a field that differs
# as text a number within 1e-9 of the other (a sum of floats may add its rows
# in another order; the rows themselves were checked bit for bit above).
same_answers() {
  [ -n "$1" ] && [ "$(echo "$1" | wc -l)" -eq "$(echo "$2" | wc -l)" ] || return 1
  paste -d '\n' <(echo "$1") <(echo "$2") | awk -F'|' '
    NR % 2 == 1 { n = split($0, a, "|"); next }
    {
      if (split($0, b, "|") != n) bad = 1
      for (i = 1; i <= n; i++) {
        if (a[i] == b[i]) continue
        if (a[i] !~ /^-?[0-9.e+-]+$/ || b[i] !~ /^-?[0-9.e+-]+$/) { bad = 1; continue }
        d = a[i] - b[i]; m = (a[i] < 0 ? -a[i] : a[i])
        if ((d < 0 ? -d : d) > 1e-9 * m) bad = 1
      }
    }
    END { exit bad }'
}
# The reads from usage_minute, as written; then the minutes moved to rest
# (storage_at_rest.sql) and the same reads from there, each checked to answer
# as before the move.
declare -A answers
time_reads() {
  local read=$1 what=$2 count=$3 layout=$4 label=$5 got
  got=$(answer "storage_${read}_${layout}.sql")
  if [ "$layout" = today ]; then
    answers[$read]=$got
  elif ! same_answers "${answers[$read]}" "$got"; then
    echo "bench: $what read at rest differs from usage_minute's:" >&2
    diff <(echo "${answers[$read]}") <(echo "$got") | head -20 >&2
    exit 1
  fi
  printf '%s (%d rows), %s %s\n' "$what" "$(echo "$got" | grep -c .)" "$label" \
    "$(read_latency "storage_${read}_${layout}.sql" "$count")"
}
all_reads() {
  echo
  time_reads node_minutes "one node of $node_count, its devices per minute over the day" "$reads" "$@"
  time_reads cluster_hour "the cluster's hourly rollup, one hour (of $hours)" "$rollups" "$@"
  time_reads pod_readings "the pods' readings of one hour (of $hours), usage_hourly's rollup" "$rollups" "$@"
}
all_reads today "from usage_minute (as written):"
# The rollups' reads as they were before migration 0047, the baseline of
# theirs above (the same answers).
psql "$db" -q -f tests/bench/storage_rollups_before_0047.sql
time_reads cluster_hour "the cluster's hourly rollup, one hour (of $hours)" "$rollups" before_0047 \
  "from usage_minute, read as before migration 0047:"
time_reads pod_readings "the pods' readings of one hour (of $hours), usage_hourly's rollup" "$rollups" before_0047 \
  "from usage_minute, read as before migration 0047:"
psql "$db" -q -f tests/bench/storage_at_rest.sql
all_reads at_rest "at rest, floats (before):     "
psql "$db" -q -f tests/bench/storage_at_rest_decimals.sql
all_reads at_rest "at rest, decimals (after):    "
printf '\na device minute written again (a late sample), 1,000 of them, after a CHECKPOINT:\n'
psql "$db" -q -f tests/bench/storage_minute_writes.sql
