#!/usr/bin/env bash
# `make demo` / `make demo-stop`: the whole stack on a live Kubernetes API.
#
#   start: installs what is missing, builds (release), starts a private
#          PostgreSQL under .fleetcap/, the fixture Kubernetes API server
#          serving the published openb trace as a live cluster (pods created,
#          bound, run and deleted at the trace's times, sped up), and
#          `fleetcap-ingest k8s` following it through list and watch, exactly
#          as it follows a production cluster; then fleetcap-api and, once the
#          ingest has caught up, utilisation telemetry for the pods of the
#          trace's last 7 days (`fleetcap-ingest prometheus` taking
#          remote_write from fleetcap-telemetry-replay, which plays the DCGM
#          exporters with the published genai GPU duty cycle), and
#          fleetcap-optimizer computing the chargeback of every closed hour,
#          and prints where to look, the dashboard's URL first (fleetcap-api
#          serves the built web app, with a planner and a team token to sign
#          in with). The trace is
#          placed so that it ends within the current hour: "the last 30 days"
#          of chargeback show its final month. Where the published trace is absent it serves a
#          synthetic cluster with the trace's shapes instead.
#          Run twice, it reuses what runs.
#   check: opens the running demo's dashboard the way its printout says, in
#          headless Chromium (web/e2e/demo.e2e.ts): the sign-in page at the
#          printed URL, the planner token showing a fleet with history up to
#          the present, the team token showing its own bill.
#   stop:  stops everything start started.
#
# FLEETCAP_DATA (default ../shared/data) holds the published traces (openb/,
# and genai/ for the telemetry, skipped with a message when absent);
# FLEETCAP_DEMO_SPEED (200000) is how many trace seconds pass each second;
# FLEETCAP_HTTP_PORT (8080) and FLEETCAP_GRPC_PORT (8081) choose the ports;
# FLEETCAP_DEMO_PRESET (release) the CMake preset built and run (`debug` reuses
# the build tree of `make test`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
state="$root/.fleetcap"
data="${FLEETCAP_DATA:-$root/../shared/data}"
speed="${FLEETCAP_DEMO_SPEED:-200000}"
http_port="${FLEETCAP_HTTP_PORT:-8080}"
grpc_port="${FLEETCAP_GRPC_PORT:-8081}"
preset="${FLEETCAP_DEMO_PRESET:-release}"
case "$preset" in
  release|debug) ;;
  *) echo "demo: FLEETCAP_DEMO_PRESET: \"$preset\" is not release or debug" >&2; exit 2 ;;
esac
bin="$root/build/$preset"

running() { [ -f "$state/$1.pid" ] && kill -0 "$(cat "$state/$1.pid")" 2>/dev/null; }

# wait_for NAME TEXT SECONDS: until .fleetcap/NAME.log has TEXT (or NAME exits).
wait_for() {
  local name=$1 text=$2 seconds=$3
  for _ in $(seq 1 $((seconds * 10))); do
    grep -q "$text" "$state/$name.log" 2>/dev/null && return 0
    running "$name" || { echo "demo: $name stopped; its log:" >&2; tail -n 20 "$state/$name.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "demo: $name did not say \"$text\" within ${seconds}s; its log: $state/$name.log" >&2
  exit 1
}

start_process() {  # NAME command...
  local name=$1; shift
  if running "$name"; then
    echo "demo: $name is already running (pid $(cat "$state/$name.pid"))"
    return 1
  fi
  nohup "$@" >"$state/$name.log" 2>&1 &
  echo $! >"$state/$name.pid"
}

start() {
  bash scripts/bootstrap.sh
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" --target fleetcap-api fleetcap-ingest fleetcapctl fleetcap-k8s-fixture \
    fleetcap-optimizer fleetcap-telemetry-replay
  # The dashboard, which fleetcap-api serves at / (--web-root).
  bash scripts/web.sh build
  mkdir -p "$state"

  local db cluster source at start_at chargeback_from chargeback_to explain_hour
  db=$(bash scripts/pg.sh start "$state/pg")
  echo "demo: PostgreSQL at $db"
  if [ -f "$data/openb/openb_node_list_gpu_node.csv" ]; then
    cluster=openb
    # Trace second 0 is placed so that the trace's last second (its latest
    # pod end) falls within the current hour, today (UTC): every event of the
    # trace is then in the past, and its last day is today. A start chosen
    # earlier today is kept, so that running the demo again reuses its store.
    local length now today start_s
    length=$(awk -F, 'NR > 1 && $10 + 0 > m { m = $10 + 0 } END { print m + 0 }' \
      "$data/openb/openb_pod_list_default.csv")
    now=$(date -u +%s)
    today=$(( now / 86400 * 86400 ))
    start_s=$(cat "$state/trace-start" 2>/dev/null || echo 0)
    if (( start_s + length < today || start_s + length > now )); then
      start_s=$(( (now / 3600 * 3600 - length) / 3600 * 3600 ))
      # A store placed on another day holds the trace at other times: start
      # the cluster and its chargeback afresh.
      psql "$db" -qc "DELETE FROM clusters WHERE cluster = 'openb'" >/dev/null 2>&1 || true
      psql "$db" -qc "TRUNCATE chargeback_hourly, chargeback_hourly_by_team, chargeback_daily, chargeback_daily_by_team, chargeback_monthly, chargeback_watermarks,
                      chargeback_recompute, chargeback_over_held, optimizer_state" >/dev/null 2>&1 || true
      # Its telemetry too: the pods' uids come from the trace, so the old
      # minutes would read as the new pods', and the receiver would take
      # the new minutes for late ones of devices it already wrote.
      running telemetry && kill -TERM "$(cat "$state/telemetry.pid")" && sleep 1
      for table in usage_minute usage_hourly usage_hour_changes telemetry_series telemetry_watermarks \
          telemetry_push_devices telemetry_push_counters telemetry_push_checkpoints; do
        psql "$db" -qc "DELETE FROM $table WHERE cluster = 'openb'" >/dev/null 2>&1 || true
      done
      rm -rf "$state/telemetry-wal"
      echo "$start_s" > "$state/trace-start"
    fi
    start_at=$(date -u -d "@$start_s" +%Y-%m-%dT%H:%M:%SZ)
    # A busy instant of the trace (second 12523649), an hour of it, and
    # the 30 days that end with the trace's last day.
    at=$(date -u -d "@$((start_s + 12523649))" +%Y-%m-%dT%H:%M:%SZ)
    explain_hour=$(date -u -d "@$(( (start_s + 12523649) / 3600 * 3600 ))" +%Y-%m-%dT%H:%M:%SZ)
    local trace_end_day=$(( (start_s + length) / 86400 * 86400 + 86400 ))
    chargeback_to=$(date -u -d "@$trace_end_day" +%Y-%m-%dT%H:%M:%SZ)
    chargeback_from=$(date -u -d "@$((trace_end_day - 30 * 86400))" +%Y-%m-%dT%H:%M:%SZ)
    echo "demo: the trace starts at $start_at, so that its last day is today"
    source=(--openb "$data/openb" --start "$start_at" --speed "$speed" --wait-for-watch)
  else
    echo "demo: the published openb trace is not at $data/openb: serving a synthetic cluster with its shapes."
    echo "      (FLEETCAP_DATA=/path/to/data make demo serves the trace; github.com/alibaba/clusterdata,"
    echo "      cluster-trace-gpu-v2023/csv)"
    cluster=synthetic
    at=2026-01-01T01:00:00Z
    explain_hour=2026-01-01T01:00:00Z
    chargeback_from=2026-01-01T00:00:00Z
    chargeback_to=2026-02-01T00:00:00Z
    source=(--synthetic-nodes 300 --synthetic-pods 3000 --seed 1)
  fi
  # A store written by the older replay-only demo holds other device ids: start that cluster afresh.
  if psql "$db" -tAc "SELECT 1 FROM devices WHERE cluster = '$cluster' AND device_id NOT LIKE '%/%' LIMIT 1" \
      2>/dev/null | grep -q 1; then
    echo "demo: clearing cluster $cluster, stored by the replay-only demo"
    psql "$db" -qc "DELETE FROM clusters WHERE cluster = '$cluster'"
  fi

  if start_process api "$bin/services/api/fleetcap-api" --db "$db" --migrate \
      --grpc-listen "127.0.0.1:$grpc_port" --http-listen "127.0.0.1:$http_port" --metrics-listen "127.0.0.1:0" --web-root "$root/web/dist"; then
    wait_for api "fleetcap-api ready" 30
  fi

  # Control plane first: a bootstrap admin token (kept under .fleetcap/,
  # readable by you alone) and the openb policy, which the ingest reads: it
  # trusts the trace's GPU-sharing annotations in cluster openb.
  local ctl="$bin/services/ctl/fleetcapctl" admin_file="$state/admin.token" team_file="$state/team-00.token"
  if [ ! -s "$admin_file" ]; then
    (umask 077; "$bin/services/api/fleetcap-api" init --db "$db" > "$admin_file") || {
      rm -f "$admin_file"
      echo "demo: no admin token file but the database has one; make demo-stop && rm -rf .fleetcap to start over" >&2
      exit 1
    }
  fi
  local admin_token team_token
  admin_token=$(cat "$admin_file")
  if ! "$ctl" policy get --server "127.0.0.1:$grpc_port" --token "$admin_token" >/dev/null 2>&1; then
    "$ctl" policy apply docs/examples/openb-policy.yaml --message "make demo: openb teams and prices" \
      --server "127.0.0.1:$grpc_port" --token "$admin_token" | sed -n 1p
  fi
  if start_process fixture "$bin/tests/k8s/fleetcap-k8s-fixture" "${source[@]}" --port-file "$state/fixture.port"; then
    wait_for fixture "fixture listening" 120
  fi
  local api_url="http://127.0.0.1:$(cat "$state/fixture.port")"
  echo "demo: Kubernetes API (fixture) at $api_url   (try: kubectl --server=$api_url get nodes)"
  if start_process ingest "$bin/ingest/fleetcap-ingest" k8s --cluster "$cluster" --kube-api "$api_url" \
      --db "$db" --migrate --metrics-listen 127.0.0.1:0; then
    wait_for ingest "synced cluster" 120
  fi
  if [ "$cluster" = openb ] && ! grep -q "replay finished" "$state/fixture.log"; then
    echo -n "demo: the trace is being played live at ${speed}x (about $((13000000 / speed)) s)"
    while ! grep -q "replay finished" "$state/fixture.log"; do
      running fixture || { echo; tail -n 20 "$state/fixture.log" >&2; exit 1; }
      echo -n "."
      sleep 2
    done
    echo
  fi
  if [ "$cluster" = openb ]; then
    # Every GPU pod of the trace ends deleted: the ingest has caught up when
    # it has stored each of them, none left alive.
    local gpu_pods
    gpu_pods=$(awk -F, 'NR > 1 && $4 > 0' "$data/openb/openb_pod_list_default.csv" | wc -l)
    for _ in $(seq 1 600); do
      [ "$(psql "$db" -tAc "SELECT count(*) || '/' || count(*) FILTER (WHERE deleted_at IS NULL)
                            FROM pods WHERE cluster = 'openb'")" = "$gpu_pods/0" ] && break
      sleep 0.2
    done
  fi

  # Utilisation telemetry for the trace's last 7 days, before the
  # optimizer's first pass so that it charges those hours with it. The
  # week ends now, to the minute; its chargeback starts at its first whole hour.
  local week_to week_from now_s
  now_s=$(date -u +%s)
  week_to=$(date -u -d "@$(( now_s / 60 * 60 ))" +%Y-%m-%dT%H:%M:%SZ)
  week_from=$(date -u -d "@$(( (now_s / 60 * 60 - 7 * 86400 + 3599) / 3600 * 3600 ))" +%Y-%m-%dT%H:%M:%SZ)
  local telemetry_note="no utilisation telemetry (see above): every line is charged as held and marked *"
  local duty_cycle="$data/genai/pod_gpu_duty_cycle_anon.tar.gz"
  if [ "$cluster" != openb ]; then
    echo "demo: no utilisation telemetry for the synthetic cluster"
  elif [ ! -f "$duty_cycle" ]; then
    echo "demo: the published genai duty cycle is not at $duty_cycle: no utilisation telemetry,"
    echo "      every line is charged as held and efficiency reads 0.0%"
  else
    # The receiver a Prometheus would remote_write to. --settle 20s: the
    # replay sends each minute once and in order, so a minute need not wait
    # long for late samples before it is written.
    if start_process telemetry "$bin/ingest/fleetcap-ingest" prometheus --cluster "$cluster" --db "$db" \
        --remote-write-listen 127.0.0.1:0 --wal-dir "$state/telemetry-wal" --settle 20s \
        --metrics-listen 127.0.0.1:0; then
      wait_for telemetry "fleetcap-ingest prometheus ready" 60
    fi
    local ready write_port metrics_port
    ready=$(grep -m1 "fleetcap-ingest prometheus ready" "$state/telemetry.log")
    write_port=$(sed -E 's/.*remote_write=([0-9]+).*/\1/' <<<"$ready")
    metrics_port=$(sed -E 's/.*metrics=([0-9]+).*/\1/' <<<"$ready")
    echo "demo: remote_write at http://127.0.0.1:$write_port/api/v1/write; playing the genai GPU duty cycle"
    echo "      onto every pod that held a GPU in the trace's last 7 days (once; skipped when stored)"
    if ! tar -xzOf "$duty_cycle" | "$bin/tests/fleetcap-telemetry-replay" --db "$db" --cluster "$cluster" \
        --duty-cycle - --until "$week_to" --days 7 --unless-stored \
        --remote-write-url "http://127.0.0.1:$write_port/api/v1/write" \
        --wait-written "http://127.0.0.1:$metrics_port/metrics" >"$state/telemetry-replay.log" 2>&1; then
      echo "demo: the telemetry replay failed; its log:" >&2
      tail -n 20 "$state/telemetry-replay.log" >&2
      exit 1
    fi
    sed 's/^/      /' "$state/telemetry-replay.log"
    telemetry_note="utilisation telemetry for the last 7 days (genai duty cycle, fleetcap-telemetry-replay)"
  fi

  # The chargeback of every closed hour, kept current: started once the
  # ingest has caught up, so its first pass sees the whole trace.
  if start_process optimizer "$bin/optimizer/fleetcap-optimizer" --db "$db" --metrics-listen 127.0.0.1:0; then
    echo -n "demo: the optimizer is computing the chargeback of the trace's hours"
    while ! grep -q "pass done" "$state/optimizer.log"; do
      running optimizer || { echo; tail -n 20 "$state/optimizer.log" >&2; exit 1; }
      echo -n "."
      sleep 2
    done
    echo
    # Allocation runs right after the pass: the quotas it recommends per team.
    while ! grep -qE "allocation (run [0-9]+ stored|not run|failed)" "$state/optimizer.log"; do
      running optimizer || { tail -n 20 "$state/optimizer.log" >&2; exit 1; }
      sleep 1
    done
    grep -E "allocation (run|not run|failed)" "$state/optimizer.log" | tail -n 1 | sed 's/^/demo: /'
    if "$ctl" recommendations --server "127.0.0.1:$grpc_port" --token "$admin_token" > "$state/recommendations.txt" 2>&1; then
      echo "demo: recommended quotas (first rows of $state/recommendations.txt):"
      head -n 8 "$state/recommendations.txt" | cut -c1-160 | sed 's/^/      /'
    else
      sed 's/^/demo: /' "$state/recommendations.txt"
    fi
  fi

  if [ ! -s "$team_file" ]; then
    (umask 077; "$ctl" token create --role team:team-00 --description "make demo" \
      --server "127.0.0.1:$grpc_port" --token "$admin_token" 2>/dev/null > "$team_file")
  fi
  team_token=$(cat "$team_file")
  local planner_file="$state/planner.token" planner_token
  if [ ! -s "$planner_file" ]; then
    (umask 077; "$ctl" token create --role planner --description "make demo: the dashboard" \
      --server "127.0.0.1:$grpc_port" --token "$admin_token" 2>/dev/null > "$planner_file")
  fi
  planner_token=$(cat "$planner_file")
  local week_text=""
  if [ "$cluster" = openb ]; then
    week_text="  the last 7 days, with $telemetry_note:
    $ctl --server 127.0.0.1:$grpc_port chargeback --from $week_from --to $chargeback_to --group-by team
    (USED_DEVICE_H and EFFICIENCY: what the teams' pods used of what they held)
"
  fi

  cat <<TXT

Dashboard:  http://127.0.0.1:$http_port/   (paste a token on its sign-in page)
  planner (the whole fleet):       $planner_token
  team:team-00 (its bill only):    $team_token

Tokens (also in $state/):
  admin:         $admin_token
  planner:       $planner_token
  team:team-00:  $team_token
  export FLEETCAP_TOKEN=$admin_token   # fleetcapctl reads it; then: fleetcapctl policy history

fleetcap is following cluster $cluster through its Kubernetes API (fixture at $api_url).
  JSON API:  curl -H "Authorization: Bearer \$FLEETCAP_TOKEN" 'http://127.0.0.1:$http_port/v1/fleet/summary?cluster=$cluster&at=$at'
  gRPC:      127.0.0.1:$grpc_port
  CLI:       $bin/services/ctl/fleetcapctl --server 127.0.0.1:$grpc_port fleet summary --cluster $cluster --at $at
  policy:    $bin/services/ctl/fleetcapctl --server 127.0.0.1:$grpc_port policy get
  kubectl:   kubectl --server=$api_url get pods -A
  logs:      $state/{fixture,ingest,telemetry,api,optimizer}.log

Chargeback (fleetcap-optimizer computes each hour once closed; README "How a team reads its bill"):
  the last 30 days per team:
    $ctl --server 127.0.0.1:$grpc_port chargeback --from $chargeback_from --to $chargeback_to --group-by team
  the same as FOCUS 1.2 rows:
    $ctl --server 127.0.0.1:$grpc_port chargeback --from $chargeback_from --to $chargeback_to --group-by team --format focus
$week_text  what makes up one team's hour:
    $ctl --server 127.0.0.1:$grpc_port chargeback explain --team team-00 --hour $explain_hour
  JSON API:
    curl -H "Authorization: Bearer \$FLEETCAP_TOKEN" 'http://127.0.0.1:$http_port/v1/chargeback?start=$chargeback_from&end=$chargeback_to&group_by=team'

Allocation (quotas per team and flavor from measured demand; README "How a scheduler reads its quotas"):
    $ctl --server 127.0.0.1:$grpc_port recommendations
  as Kueue objects (kueue.x-k8s.io/v1beta2), or Volcano Queues, for kubectl apply -f -:
    $ctl --server 127.0.0.1:$grpc_port recommendations --format kueue
    $ctl --server 127.0.0.1:$grpc_port recommendations --format volcano
  JSON API:
    curl -H "Authorization: Bearer \$FLEETCAP_TOKEN" 'http://127.0.0.1:$http_port/v1/recommendations'
Check the dashboard as printed (headless Chromium): make demo-check
Stop everything with: make demo-stop
TXT
}

check() {
  local planner_file="$state/planner.token" team_file="$state/team-00.token"
  running api || { echo "demo: fleetcap-api is not running: make demo first" >&2; exit 1; }
  [ -s "$planner_file" ] && [ -s "$team_file" ] || { echo "demo: no tokens under $state: make demo first" >&2; exit 1; }
  # The window the checks' environment names: the placed trace up to the next
  # whole hour (the synthetic cluster's month without the trace).
  local start_s end_s
  start_s=$(cat "$state/trace-start" 2>/dev/null || date -u -d 2026-01-01T00:00:00Z +%s)
  end_s=$(( $(date -u +%s) / 3600 * 3600 + 3600 ))
  FLEETCAP_E2E_BASE_URL="http://127.0.0.1:$http_port" \
  FLEETCAP_E2E_PLANNER_TOKEN="$(cat "$planner_file")" \
  FLEETCAP_E2E_TEAM_TOKEN="$(cat "$team_file")" \
  FLEETCAP_E2E_TEAM=team-00 \
  FLEETCAP_E2E_OTHER_TEAM=team-07 \
  FLEETCAP_E2E_START="$(date -u -d "@$start_s" +%Y-%m-%dT%H:%M:%SZ)" \
  FLEETCAP_E2E_END="$(date -u -d "@$end_s" +%Y-%m-%dT%H:%M:%SZ)" \
  FLEETCAP_E2E_OUT_DIR="$state/check" \
    npm --prefix web run e2e -- e2e/demo.e2e.ts
  echo "demo: the dashboard opens as printed; screenshots in $state/check/screenshots"
}

stop() {
  for name in optimizer api telemetry ingest fixture; do
    if running "$name"; then
      kill -TERM "$(cat "$state/$name.pid")"
      for _ in $(seq 1 50); do running "$name" || break; sleep 0.1; done
      echo "demo: $name stopped"
    fi
    rm -f "$state/$name.pid"
  done
  if [ -d "$state/pg" ]; then
    bash scripts/pg.sh stop "$state/pg"
    echo "demo: PostgreSQL stopped"
  fi
}

case "${1:-}" in
  start) start ;;
  check) check ;;
  stop) stop ;;
  *) echo "usage: $0 start|check|stop" >&2; exit 2 ;;
esac
