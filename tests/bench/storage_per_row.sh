#!/usr/bin/env bash
# Bytes per row of the store's tables, measured (docs/scaling.md, "Capacity").
#
#   tests/bench/storage_per_row.sh [NODES] [PODS] [MINUTES]     (default 250 4000 60)
#
# Starts a private PostgreSQL, migrates it with fleetcap-ingest, stores a
# synthetic cluster (openb shapes) with `fleetcap-ingest replay`, adds
# representative usage, rollups, chargeback lines and telemetry progress
# (storage_per_row.sql), then prints per table the rows, the bytes on disk
# (pg_total_relation_size: heap, indexes, TOAST) and the bytes per row, and
# how far one day-partition of usage_minute compresses with zstd (a proxy for
# columnar storage, which is not available here).
set -euo pipefail
cd "$(dirname "$0")/../.."
nodes=${1:-250}
pods=${2:-4000}
minutes=${3:-60}
ingest=""
for candidate in build/release/ingest/fleetcap-ingest build/debug/ingest/fleetcap-ingest; do
  [ -x "$candidate" ] && { ingest=$candidate; break; }
done
[ -n "$ingest" ] || { echo "bench: build fleetcap-ingest first (cmake --build --preset release)" >&2; exit 1; }

work=$(mktemp -d /tmp/fleetcap-storage-XXXXXX)
cleanup() {
  bash scripts/pg.sh stop "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

db=$(bash scripts/pg.sh start "$work/pg")
"$ingest" replay --trace synthetic --nodes "$nodes" --pods "$pods" --seed 1 --cluster bench \
  --start 2026-03-01T00:00:00Z --db "$db" --migrate --log-level warn
psql "$db" -q -v minutes="$minutes" -f tests/bench/storage_per_row.sql
part_rows=$(psql "$db" -tAc "SELECT count(*) FROM usage_minute_20260302")
zstd_bytes=$(psql "$db" -qc "COPY usage_minute_20260302 TO STDOUT" | zstd -3 -q -c | wc -c)
printf '\nusage_minute_20260302 as COPY text compressed by zstd -3: %d bytes for %d rows, %.1f bytes/row\n' \
  "$zstd_bytes" "$part_rows" "$(echo "$zstd_bytes / $part_rows" | bc -l)"
