#!/usr/bin/env bash
# The scale benchmark past one instance (issue 15, docs/benchmarks.md): several
# clusters' ingests into one PostgreSQL 15 with several API replicas serving
# reads, against the single instance (1 cluster, 1 replica) measured in the
# same run on the same server.
#
#   tests/bench/scale_bench.sh [NODES] [PODS] [MINUTES] [SECONDS]   (default 10000 100000 10 60)
#   tests/bench/scale_bench.sh --smoke      tiny sizes (40 nodes, 400 pods, 2 minutes, 3 s): a check, no figures
#
# Environment: FLEETCAP_BIN (default build/release), CLIENTS (read threads, 8),
# CLUSTERS (3) and REPLICAS (2) of the scale run.
#
# One private PostgreSQL (scripts/pg.sh, default durable settings); each run
# gets a database of its own on it. The fixture API servers serve synthetic
# clusters of NODES nodes and PODS pods (openb shapes, seeds 1, 2, 3; cluster
# c1 is the same in both runs). Per run:
#   1. inventory: one `fleetcap-ingest k8s` per cluster, all started at once;
#      the wall time until every one has printed "synced" (everything listed
#      and stored) gives inventory objects (nodes + pods) per second;
#   2. load, all at once: one `fleetcap-ingest prometheus` per cluster taking
#      remote_write from `fleetcap-telemetry-replay` (one DCGM sample per minute
#      for every pod on every device it holds, over the last MINUTES minutes,
#      whole minutes per request), until each ingest has written every minute
#      to PostgreSQL (samples stored per second); meanwhile `api_read_load`
#      sends CLIENTS threads of reads to the API replicas in turn for SECONDS s
#      (the fleet summary now and 90 minutes ago, capacity 90 days hourly by
#      model and by team, chargeback 30 days by team and 365 days by team and
#      month, a node's usage per minute over a day, a cluster's per hour over
#      30 days), and the optimizer makes one pass (`--once`: every closed hour
#      of every cluster, then allocation and forecasts), timed (its first
#      pass ran between 1 and 2, as a running optimizer's would have); each
#      API replica's peak resident memory is read before it stops;
#   3. checks: every cluster's nodes and devices in service equal its fixture's,
#      and the samples stored (the pods' minutes) equal the samples each
#      replay sent.
# Exits 1 when a check fails or any read failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

smoke=0
if [ "${1:-}" = "--smoke" ]; then
  smoke=1
  shift
fi
if [ "$smoke" = 1 ]; then
  nodes=40 pods=400 minutes=2 seconds=3
else
  nodes=${1:-10000}
  pods=${2:-100000}
  minutes=${3:-10}
  seconds=${4:-60}
fi
clients=${CLIENTS:-8}
clusters=${CLUSTERS:-3}
replicas=${REPLICAS:-2}
bin=${FLEETCAP_BIN:-build/release}

find_bin() {
  local found
  found=$(find "$bin" -name "$1" -type f -perm -u+x 2>/dev/null | head -n 1)
  [ -n "$found" ] || {
    echo "scale_bench: $1 not found under $bin; build it: cmake --preset release && cmake --build --preset release" \
      "--target fleetcap-ingest fleetcap-api fleetcap-optimizer fleetcap-k8s-fixture fleetcap-telemetry-replay" \
      "api_read_load" >&2
    exit 1
  }
  echo "$found"
}
ingest_bin=$(find_bin fleetcap-ingest)
api_bin=$(find_bin fleetcap-api)
fixture_bin=$(find_bin fleetcap-k8s-fixture)
replay_bin=$(find_bin fleetcap-telemetry-replay)
reads_bin=$(find_bin api_read_load)
optimizer_bin=$(find_bin fleetcap-optimizer)

work=$(mktemp -d /tmp/fleetcap-scale-XXXXXX)
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash scripts/pg.sh stop "$work/pg" >/dev/null 2>&1 || true
  local data
  data=$(cat "$work/pg/datadir" 2>/dev/null || true)
  case "$data" in /tmp/fleetcap-pg-*) rm -rf "$data" ;; esac
  rm -rf "$work"
}
trap cleanup EXIT

die() {
  echo "scale_bench: $*" >&2
  exit 1
}

# start NAME COMMAND...: runs it in the background, its output in $work/NAME.out and .err.
start() {
  local name=$1
  shift
  "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
  eval "pid_$name=$!"
}

# wait_line NAME TEXT SECONDS: until NAME's stdout has a line with TEXT; prints that line.
wait_line() {
  local name=$1 text=$2 limit=$3 pid_var="pid_$1" i
  for ((i = 0; i < limit * 10; i++)); do
    if grep -q -- "$text" "$work/$name.out" 2>/dev/null; then
      grep -m 1 -- "$text" "$work/$name.out"
      return
    fi
    kill -0 "${!pid_var}" 2>/dev/null || { cat "$work/$name.err" >&2; die "$name exited before \"$text\""; }
    sleep 0.1
  done
  cat "$work/$name.err" >&2
  die "$name: no \"$text\" after $limit s"
}

stop() {
  local name pid_var
  for name in "$@"; do
    pid_var="pid_$name"
    kill "${!pid_var}" 2>/dev/null || true
    wait "${!pid_var}" 2>/dev/null || true
  done
}

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.6f\", $1 }"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
rfc3339() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }

# The window of the telemetry: MINUTES whole minutes ending at the current
# minute. The clusters' pods arrive over one trace hour that ends an hour
# before it, so every running pod holds its devices through the window.
until_s=$(($(date -u +%s) / 60 * 60))
since_s=$((until_s - minutes * 60))
fixture_start=$(rfc3339 $((until_s - 7200)))
hour_s=$((until_s / 3600 * 3600))
# usage_minute has partitions from the current UTC day on (the ingest makes them), so the window may not
# start on the day before.
[ $((since_s / 86400)) = $((until_s / 86400)) ] ||
  die "the telemetry window would begin before 00:00 UTC; run again after $((minutes + 1)) minutes past midnight"

# The duty cycle the replays play (value,timestamp_anon,container_ip): made
# up here, 16 containers x 120 readings, so that the benchmark needs no data.
awk 'BEGIN { print "value,timestamp_anon,container_ip";
  for (c = 0; c < 16; c++) for (i = 0; i < 120; i++) printf "%d,%d,10.0.0.%d\n", (i * 37 + c * 11) % 101, i * 60, c }' \
  >"$work/duty.csv"

uri=$(bash scripts/pg.sh start "$work/pg")
echo "scale_bench: PostgreSQL at $uri; $nodes nodes and $pods pods per cluster, $minutes minutes of telemetry," \
  "$seconds s of reads by $clients clients"

# The fixtures: all clusters built at once, served for both runs.
for ((k = 1; k <= clusters; k++)); do
  start "fixture$k" "$fixture_bin" --synthetic-nodes "$nodes" --synthetic-pods "$pods" --seed "$k" \
    --start "$fixture_start"
done
declare -a fixture_url fixture_nodes fixture_devices fixture_pods
for ((k = 1; k <= clusters; k++)); do
  line=$(wait_line "fixture$k" "fixture listening" 1200)
  fixture_url[$k]=${line##* }
  built=$(grep -m 1 "synthetic cluster of" "$work/fixture$k.err")
  # "fixture: synthetic cluster of N nodes (D accelerators) and P pods built in T"
  read -r fixture_nodes[$k] fixture_devices[$k] fixture_pods[$k] < <(
    echo "$built" | sed -E 's/.* of ([0-9]+) nodes \(([0-9]+) accelerators\) and ([0-9]+) pods.*/\1 \2 \3/')
  echo "scale_bench: cluster c$k: ${fixture_nodes[$k]} nodes, ${fixture_devices[$k]} accelerators," \
    "${fixture_pods[$k]} pods at ${fixture_url[$k]}"
done

failed=0
summary=()

# run LABEL CLUSTERS REPLICAS
run() {
  local label=$1 n=$2 r=$3 k a
  local db="${uri%/*}/$label"
  psql "$uri" -qc "CREATE DATABASE $label" >/dev/null
  "$api_bin" init --db "$db" --migrate >"$work/init_$label.out" 2>&1 || { cat "$work/init_$label.out" >&2; die "init"; }
  # The synthetic clusters' GPU shares stand for a sharing scheduler's: trusted
  # (docs/policy.md, "Trusted pod metadata"), as in the initial-sync benchmark.
  psql "$db" -qc "INSERT INTO policies (version, document, applied_by, message)
    VALUES (1, E'version: 1\\ntrusted_pods:\\n  - gpu_share: true\\n', 'bench', 'trust GPU shares')"
  echo
  echo "scale_bench: run $label: $n cluster(s), $r API replica(s); load average $(loadavg)"

  # 1. Inventory: every cluster's initial sync at once.
  local began synced_at objects=0 left
  began=$(now)
  for ((k = 1; k <= n; k++)); do
    start "k8s_${label}_$k" "$ingest_bin" k8s --cluster "c$k" --kube-api "${fixture_url[$k]}" --db "$db" \
      --log-level warn
    objects=$((objects + fixture_nodes[k] + fixture_pods[k]))
  done
  for ((k = 1; k <= n; k++)); do wait_line "k8s_${label}_$k" "synced cluster" 1800 >/dev/null; done
  synced_at=$(now)
  local sync_s
  sync_s=$(calc "$synced_at - $began")
  printf 'scale_bench: %s: %d inventory objects (nodes + pods) synced in %.1f s\n' "$label" "$objects" "$sync_s"

  # The optimizer that runs beside a live fleet: one pass before the load, so
  # that the store has what a running optimizer keeps (the closed hours so
  # far, the fleet summary's checkpoints); the pass timed below is the next.
  local warm_began
  warm_began=$(now)
  "$optimizer_bin" --db "$db" --once --close-delay 0s --log-level warn >"$work/optimizer_warm_$label.out" 2>&1 || {
    cat "$work/optimizer_warm_$label.out" >&2
    die "the optimizer's first pass failed"
  }
  printf 'scale_bench: %s: the optimizer'"'"'s first pass (before the load) took %.1f s; %s checkpoints of the fleet summary\n' \
    "$label" "$(calc "$(now) - $warm_began")" "$(psql "$db" -tAc "SELECT count(*) FROM instant_checkpoints")"

  # 2. Load: telemetry into every cluster's receiver and reads on every replica, at once.
  local apis="" write_url metrics_url line
  for ((k = 1; k <= n; k++)); do
    start "prom_${label}_$k" "$ingest_bin" prometheus --cluster "c$k" --db "$db" \
      --remote-write-listen 127.0.0.1:0 --wal-dir "$work/wal_${label}_$k" --settle 1s \
      --metrics-listen 127.0.0.1:0 --log-level warn
  done
  for ((a = 1; a <= r; a++)); do
    start "api_${label}_$a" "$api_bin" --db "$db" --grpc-listen 127.0.0.1:0 --http-listen 127.0.0.1:0 \
      --metrics-listen 127.0.0.1:0 --log-level warn
  done
  for ((a = 1; a <= r; a++)); do
    line=$(wait_line "api_${label}_$a" "fleetcap-api ready" 60)
    apis="$apis${apis:+,}http://127.0.0.1:$(echo "$line" | sed -E 's/.* http=([0-9]+).*/\1/')"
  done
  local load_before
  load_before=$(loadavg)
  began=$(now)
  for ((k = 1; k <= n; k++)); do
    line=$(wait_line "prom_${label}_$k" "fleetcap-ingest prometheus ready" 60)
    write_url="http://127.0.0.1:$(echo "$line" | sed -E 's/.*remote_write=([0-9]+).*/\1/')/api/v1/write"
    metrics_url="http://127.0.0.1:$(echo "$line" | sed -E 's/.*metrics=([0-9]+).*/\1/')/metrics"
    start "replay_${label}_$k" "$replay_bin" --db "$db" --cluster "c$k" --duty-cycle "$work/duty.csv" \
      --remote-write-url "$write_url" --until "$(rfc3339 "$until_s")" --minutes "$minutes" \
      --wait-written "$metrics_url"
  done
  # The planner's reads of the fleet-scale issue, over the windows they name
  # (the store holds the last few hours: these time the reads at the fleet's
  # size, not at a year of history, which the per-read benchmarks seed).
  local q_since q_until q_past day_start end_hour d90 d30 d365
  q_since=$(rfc3339 "$since_s")
  q_until=$(rfc3339 "$until_s")
  q_past=$(rfc3339 $((until_s - 5400)))
  day_start=$(rfc3339 $((until_s - 86400)))
  end_hour=$(rfc3339 $((hour_s + 3600)))
  d90=$(rfc3339 $((hour_s + 3600 - 90 * 86400)))
  d30=$(rfc3339 $((hour_s + 3600 - 30 * 86400)))
  d365=$(rfc3339 $((hour_s + 3600 - 365 * 86400)))
  start "reads_$label" "$reads_bin" --db "$db" --api "$apis" --clients "$clients" --seconds "$seconds" -- \
    "fleet summary, now=/v1/fleet/summary" \
    "fleet summary, 90 minutes ago=/v1/fleet/summary?at=$q_past" \
    "capacity, 90 days hourly by model=/v1/fleet/capacity?start=$d90&end=$end_hour&resolution=hour&group_by=model" \
    "capacity, 90 days hourly by team=/v1/fleet/capacity?start=$d90&end=$end_hour&resolution=hour&group_by=team" \
    "chargeback, 30 days by team=/v1/chargeback?start=$d30&end=$end_hour&group_by=team" \
    "chargeback, 365 days by team and month=/v1/chargeback?start=$d365&end=$end_hour&group_by=team&resolution=month" \
    "usage of a node, per minute over a day=/v1/usage?cluster=c1&node=synthetic-node-00001&start=$day_start&end=$q_until&resolution=minute" \
    "usage of cluster c1, per hour over 30 days=/v1/usage?cluster=c1&start=$d30&end=$end_hour&resolution=hour"
  # The optimizer's pass over the whole fleet, beside the load: the closed
  # hours of every cluster's chargeback, then allocation and forecasts.
  start "optimizer_$label" /usr/bin/time -f "%e %M" -o "$work/optimizer_$label.time" \
    "$optimizer_bin" --db "$db" --once --close-delay 0s --log-level warn
  # Each replay exits once its ingest has written every minute; the last exit ends the ingest's clock.
  local written_at="" pid_var
  while :; do
    left=0
    for ((k = 1; k <= n; k++)); do
      pid_var="pid_replay_${label}_$k"
      kill -0 "${!pid_var}" 2>/dev/null && left=$((left + 1))
    done
    [ "$left" = 0 ] && break
    sleep 0.1
  done
  written_at=$(now)
  local load_during
  load_during=$(loadavg)
  for ((k = 1; k <= n; k++)); do
    pid_var="pid_replay_${label}_$k"
    wait "${!pid_var}" || {
      cat "$work/replay_${label}_$k.err" >&2
      die "the telemetry replay of c$k failed"
    }
  done
  local optimizer_s optimizer_kib
  pid_var="pid_optimizer_$label"
  wait "${!pid_var}" || {
    cat "$work/optimizer_$label.err" >&2
    die "the optimizer's pass failed"
  }
  read -r optimizer_s optimizer_kib <"$work/optimizer_$label.time"
  local reads_ok=1
  pid_var="pid_reads_$label"
  wait "${!pid_var}" || reads_ok=0
  # Each replica's peak resident memory, through the whole run.
  local peaks=""
  for ((a = 1; a <= r; a++)); do
    pid_var="pid_api_${label}_$a"
    peaks="$peaks${peaks:+, }$(awk '/^VmHWM:/ { printf "%.0f MiB", $2 / 1024 }' "/proc/${!pid_var}/status")"
  done
  local load_after
  load_after=$(loadavg)
  local write_s
  write_s=$(calc "$written_at - $began")

  # 3. Checks: inventory equal to the fixtures', every sample sent stored.
  local sent=0 stored=0 c_sent c_stored c_nodes c_devices
  for ((k = 1; k <= n; k++)); do
    c_sent=$(sed -nE 's/.* holds, ([0-9]+) samples in .*/\1/p' "$work/replay_${label}_$k.out")
    IFS='|' read -r c_nodes c_devices c_stored < <(psql "$db" -tAc "SELECT
      (SELECT count(*) FROM nodes WHERE cluster = 'c$k' AND in_service_to IS NULL),
      (SELECT count(*) FROM devices WHERE cluster = 'c$k' AND in_service_to IS NULL),
      (SELECT coalesce(sum(samples), 0) FROM fleetcap_usage_minutes('c$k', '-infinity', 'infinity') WHERE pod_uid <> '')")
    sent=$((sent + c_sent))
    stored=$((stored + c_stored))
    local verdict=ok
    if [ "$c_nodes" != "${fixture_nodes[$k]}" ] || [ "$c_devices" != "${fixture_devices[$k]}" ] ||
      [ "$c_stored" != "$c_sent" ] || [ "$c_sent" = 0 ]; then
      verdict=WRONG
      failed=1
    fi
    echo "scale_bench: $label c$k: nodes $c_nodes (fixture ${fixture_nodes[$k]}), devices $c_devices" \
      "(fixture ${fixture_devices[$k]}), samples stored $c_stored (sent $c_sent): $verdict"
  done
  printf 'scale_bench: %s: %d samples sent and stored in %.1f s (from the first request until every ingest had' \
    "$label" "$sent" "$write_s"
  printf ' written every minute)\n'
  echo "scale_bench: $label: the optimizer's pass (--once, every closed hour of every cluster, allocation," \
    "forecasts) took $optimizer_s s beside the load, peak memory $((optimizer_kib / 1024)) MiB:"
  sed 's/^/  /' "$work/optimizer_$label.out"
  echo "scale_bench: $label: the API replicas' peak resident memory: $peaks"
  echo "scale_bench: $label: reads (${apis}):"
  cat "$work/reads_$label.out"
  [ "$reads_ok" = 1 ] || {
    cat "$work/reads_$label.err" >&2
    echo "scale_bench: $label: reads failed" >&2
    failed=1
  }
  echo "scale_bench: $label: load average before the load $load_before, when the telemetry was written" \
    "$load_during, after the reads $load_after"
  local all
  all=$(grep '^| all |' "$work/reads_$label.out" || echo "| all | 0 | 0 | 0 | 0 | 0 | 0 | 0 |")
  IFS='|' read -r _ _ _ rps p50 _ p99 _ _ <<<"$all"
  summary+=("$(printf '| %s | %d | %d | %d | %.1f s | %.0f | %d | %.1f s | %.0f | %s | %s | %s | %s |' \
    "$label" "$n" "$r" "$objects" "$sync_s" "$(calc "$objects / $sync_s")" "$sent" "$write_s" \
    "$(calc "$sent / $write_s")" "$(echo $rps)" "$(echo $p50)" "$(echo $p99)" "$load_before")")

  for ((a = 1; a <= r; a++)); do stop "api_${label}_$a"; done
  for ((k = 1; k <= n; k++)); do stop "prom_${label}_$k" "k8s_${label}_$k"; done
}

run single 1 1
run scale "$clusters" "$replicas"

echo
echo "| run | clusters | API replicas | inventory objects | initial sync | objects/s | samples | written in |" \
  "samples/s | reads/s | read p50 ms | read p99 ms | load average before |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${summary[@]}"
[ "$failed" = 0 ] || die "a check failed (above)"
[ "$smoke" = 1 ] && echo "scale_bench: smoke run passed"
exit 0
