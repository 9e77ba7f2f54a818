#!/usr/bin/env bash
# web_e2e_test (ctest, label integration, fixture pg): the dashboard end to
# end. Builds the web app, stands up the real stack over the demo data in a
# fresh database of the test PostgreSQL without waiting for real time, and
# runs the browser checks (`npm --prefix web run e2e`, web/e2e/) against it:
#
#   1. web/: `npm ci` when node_modules is missing or older than the
#      lockfile, then `npm run build` (web/dist);
#   2. fleetcap-api --migrate --web-root web/dist on free ports, its first
#      admin token (`fleetcap-api init`), the openb demo policy;
#   3. the published openb trace replayed straight into the store
#      (`fleetcap-ingest replay`), placed so that it ends within the current
#      hour as in `make demo`;
#   4. utilisation telemetry for its last FLEETCAP_E2E_TELEMETRY_DAYS days
#      (default 2): the genai duty cycle played by fleetcap-telemetry-replay
#      into `fleetcap-ingest prometheus` over remote_write;
#   5. one optimizer pass (`fleetcap-optimizer --once --close-delay 0s`):
#      the chargeback of every hour, then the allocation run and the
#      forecast run (the first pass always forecasts: none is stored yet),
#      which the Planning page's checks need: the step fails without it;
#   6. a planner token and a team:team-00 token (fleetcapctl token create);
#   7. the checks, with FLEETCAP_E2E_* set (web/e2e/support/env.ts).
#
# FLEETCAP_E2E_BASELINE_WEB_ROOT (optional): another build of the app (a
# built dist/, e.g. of the previous commit), served by a second fleetcap-api
# on the same database, so that the Fleet page's timing measures both builds
# in the same run (FLEETCAP_E2E_BASELINE_URL; web/e2e/fleet-ready.e2e.ts).
#
# Screenshots and timings.json go to FLEETCAP_E2E_OUT_DIR; the processes'
# logs to its logs/. Exits 77 (skipped) when the published openb trace is absent.
# FLEETCAP_E2E_FILES (e.g. "planning team-scope") runs only the check files
# whose names contain one of its words, for working on one page.
#
# Environment (set by tests/CMakeLists.txt): FLEETCAP_TEST_PG_DIR, FLEETCAP_API_BIN,
# FLEETCAP_INGEST_BIN, FLEETCAPCTL_BIN, FLEETCAP_OPTIMIZER_BIN,
# FLEETCAP_TELEMETRY_REPLAY_BIN, FLEETCAP_SHARED_DATA, FLEETCAP_E2E_OUT_DIR;
# FLEETCAP_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

for name in FLEETCAP_TEST_PG_DIR FLEETCAP_API_BIN FLEETCAP_INGEST_BIN FLEETCAPCTL_BIN FLEETCAP_OPTIMIZER_BIN \
    FLEETCAP_TELEMETRY_REPLAY_BIN FLEETCAP_E2E_OUT_DIR; do
  if [ -z "${!name:-}" ]; then
    echo "web_e2e: $name is not set: run it through ctest (ctest --preset debug -R web_e2e_test)" >&2
    exit 2
  fi
done
data="${FLEETCAP_SHARED_DATA:-$root/../shared/data}"
out="$FLEETCAP_E2E_OUT_DIR"
chromium="${FLEETCAP_CHROMIUM:-/usr/bin/chromium}"
telemetry_days="${FLEETCAP_E2E_TELEMETRY_DAYS:-2}"
team=team-00
other_team=team-07  # under another org (inference) than team-00 (training)

if [ ! -f "$data/openb/openb_node_list_gpu_node.csv" ]; then
  echo "web_e2e: the published openb trace is not at $data/openb: skipped"
  exit 77
fi
[ -x "$chromium" ] || { echo "web_e2e: no browser at $chromium: run scripts/bootstrap.sh (Debian's chromium)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/logs"
logs="$out/logs"
work=$(mktemp -d "${TMPDIR:-/tmp}/fleetcap-web-e2e.XXXXXX")
server_uri=$(bash scripts/pg.sh uri "$FLEETCAP_TEST_PG_DIR")
db_name="web_e2e_$$_$(date +%s)"
db="${server_uri%/*}/$db_name"
pids=()

cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  psql "$server_uri" -qc "DROP DATABASE IF EXISTS $db_name WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
  if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
    echo "web_e2e: failed; the processes' logs are in $logs" >&2
  fi
  exit "$status"
}
trap cleanup EXIT

step_started=$(date +%s.%N)
step() {  # prints how long the previous step took, then names the next
  local now
  now=$(date +%s.%N)
  awk -v a="$step_started" -v b="$now" -v what="$1" 'BEGIN { printf "web_e2e: (%.1fs) %s\n", b - a, what }'
  step_started=$now
}

# wait_for_line FILE TEXT SECONDS PID: until FILE has TEXT (or PID exits).
wait_for_line() {
  local file=$1 text=$2 seconds=$3 pid=$4
  for _ in $(seq 1 $((seconds * 10))); do
    grep -q "$text" "$file" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { echo "web_e2e: stopped before \"$text\"; $file:" >&2; tail -n 20 "$file" >&2; exit 1; }
    sleep 0.1
  done
  echo "web_e2e: no \"$text\" within ${seconds}s; $file:" >&2
  tail -n 20 "$file" >&2
  exit 1
}

# 1. The web app.
step "building the web app"
bash scripts/web.sh build >"$logs/web-build.log" 2>&1 || { tail -n 30 "$logs/web-build.log" >&2; exit 1; }

# 2. The API, its admin token and the demo policy.
step "starting fleetcap-api on a fresh database"
psql "$server_uri" -qc "CREATE DATABASE $db_name" >/dev/null
"$FLEETCAP_API_BIN" --db "$db" --migrate --grpc-listen 127.0.0.1:0 --http-listen 127.0.0.1:0 \
  --metrics-listen 127.0.0.1:0 --web-root web/dist >"$logs/api.log" 2>&1 &
pids+=($!)
wait_for_line "$logs/api.log" "fleetcap-api ready" 60 "${pids[-1]}"
ready=$(grep -m1 "fleetcap-api ready" "$logs/api.log")
grpc="127.0.0.1:$(sed -E 's/.*grpc=([0-9]+).*/\1/' <<<"$ready")"
base_url="http://127.0.0.1:$(sed -E 's/.*http=([0-9]+).*/\1/' <<<"$ready")"
admin_token=$("$FLEETCAP_API_BIN" init --db "$db" 2>>"$logs/api.log")
ctl() { "$FLEETCAPCTL_BIN" --server "$grpc" --token "$admin_token" "$@"; }
ctl policy apply docs/examples/openb-policy.yaml --message "web e2e: openb teams and prices" >>"$logs/ctl.log"
baseline_url=""
if [ -n "${FLEETCAP_E2E_BASELINE_WEB_ROOT:-}" ]; then
  [ -f "$FLEETCAP_E2E_BASELINE_WEB_ROOT/index.html" ] || {
    echo "web_e2e: FLEETCAP_E2E_BASELINE_WEB_ROOT: no index.html in $FLEETCAP_E2E_BASELINE_WEB_ROOT" >&2
    exit 2
  }
  step "starting a second fleetcap-api serving the baseline app $FLEETCAP_E2E_BASELINE_WEB_ROOT"
  "$FLEETCAP_API_BIN" --db "$db" --grpc-listen 127.0.0.1:0 --http-listen 127.0.0.1:0 --metrics-listen 127.0.0.1:0 \
    --web-root "$FLEETCAP_E2E_BASELINE_WEB_ROOT" >"$logs/api-baseline.log" 2>&1 &
  pids+=($!)
  wait_for_line "$logs/api-baseline.log" "fleetcap-api ready" 60 "${pids[-1]}"
  baseline_url="http://127.0.0.1:$(grep -m1 "fleetcap-api ready" "$logs/api-baseline.log" | sed -E 's/.*http=([0-9]+).*/\1/')"
fi

# 3. The trace, ending within the current hour.
step "replaying the openb trace"
length=$(awk -F, 'NR > 1 && $10 + 0 > m { m = $10 + 0 } END { print m + 0 }' "$data/openb/openb_pod_list_default.csv")
now=$(date -u +%s)
start_s=$(( (now / 3600 * 3600 - length) / 3600 * 3600 ))
end_s=$(( now / 3600 * 3600 + 3600 ))
start_at=$(date -u -d "@$start_s" +%Y-%m-%dT%H:%M:%SZ)
end_at=$(date -u -d "@$end_s" +%Y-%m-%dT%H:%M:%SZ)
"$FLEETCAP_INGEST_BIN" replay --trace openb --data "$data/openb" --cluster openb --start "$start_at" \
  --db "$db" >"$logs/replay.log" 2>&1 || { tail -n 20 "$logs/replay.log" >&2; exit 1; }

# 4. Telemetry for the trace's last days.
duty_cycle="$data/genai/pod_gpu_duty_cycle_anon.tar.gz"
if [ -f "$duty_cycle" ]; then
  step "playing ${telemetry_days} days of genai GPU duty cycle as telemetry"
  "$FLEETCAP_INGEST_BIN" prometheus --cluster openb --db "$db" --remote-write-listen 127.0.0.1:0 \
    --wal-dir "$work/telemetry-wal" --settle 5s --metrics-listen 127.0.0.1:0 >"$logs/telemetry.log" 2>&1 &
  pids+=($!)
  wait_for_line "$logs/telemetry.log" "fleetcap-ingest prometheus ready" 60 "${pids[-1]}"
  ready=$(grep -m1 "fleetcap-ingest prometheus ready" "$logs/telemetry.log")
  write_port=$(sed -E 's/.*remote_write=([0-9]+).*/\1/' <<<"$ready")
  metrics_port=$(sed -E 's/.*metrics=([0-9]+).*/\1/' <<<"$ready")
  tar -xzOf "$duty_cycle" | "$FLEETCAP_TELEMETRY_REPLAY_BIN" --db "$db" --cluster openb --duty-cycle - \
    --until "$(date -u -d "@$(( now / 60 * 60 ))" +%Y-%m-%dT%H:%M:%SZ)" --days "$telemetry_days" \
    --remote-write-url "http://127.0.0.1:$write_port/api/v1/write" \
    --wait-written "http://127.0.0.1:$metrics_port/metrics" >"$logs/telemetry-replay.log" 2>&1 \
    || { tail -n 20 "$logs/telemetry-replay.log" >&2; exit 1; }
else
  echo "web_e2e: no genai duty cycle at $duty_cycle: no telemetry, every hour is charged as held"
fi

# 5. One optimizer pass: chargeback of every closed hour, then allocation and forecast.
step "one optimizer pass (chargeback, allocation and forecast)"
"$FLEETCAP_OPTIMIZER_BIN" --once --close-delay 0s --db "$db" --metrics-listen 127.0.0.1:0 \
  >"$logs/optimizer.log" 2>&1 || { tail -n 20 "$logs/optimizer.log" >&2; exit 1; }
grep -E "pass done|allocation|forecast" "$logs/optimizer.log" | sed 's/^/web_e2e:   /' || true
if ! grep -q "forecast run [0-9]* stored" "$logs/optimizer.log"; then
  echo "web_e2e: the optimizer pass stored no forecast, which the Planning page's checks read; $logs/optimizer.log:" >&2
  grep -i "forecast" "$logs/optimizer.log" >&2 || tail -n 20 "$logs/optimizer.log" >&2
  exit 1
fi

# 6. The tokens the checks sign in with.
step "tokens: planner and team:$team"
planner_token=$(ctl token create --role planner --description "web e2e" 2>>"$logs/ctl.log")
team_token=$(ctl token create --role "team:$team" --description "web e2e" 2>>"$logs/ctl.log")

# 7. The checks.
step "the browser checks (npm --prefix web run e2e) against $base_url"
FLEETCAP_E2E_BASE_URL="$base_url" \
FLEETCAP_E2E_PLANNER_TOKEN="$planner_token" \
FLEETCAP_E2E_TEAM_TOKEN="$team_token" \
FLEETCAP_E2E_TEAM="$team" \
FLEETCAP_E2E_OTHER_TEAM="$other_team" \
FLEETCAP_E2E_START="$start_at" \
FLEETCAP_E2E_END="$end_at" \
FLEETCAP_E2E_OUT_DIR="$out" \
FLEETCAP_E2E_BASELINE_URL="$baseline_url" \
FLEETCAP_CHROMIUM="$chromium" \
  npm --prefix web run e2e -- ${FLEETCAP_E2E_FILES:-}
step "done; screenshots and timings.json in $out"
