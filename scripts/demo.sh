#!/usr/bin/env bash
# `make demo` / `make demo-stop`: the whole stack on a live Kubernetes API.
#
#   start: installs what is missing, builds (release), starts a private
#          PostgreSQL under .fleetcap/ and fleetcap-api, stores the openb
#          trace sampled at a realistic load over the days before now
#          (`fleetcap-ingest replay --sample`, docs/replay.md "A realistic
#          load": the trace's pods drawn at a seasonal, slowly growing rate
#          until each GPU model holds its target share, on one node in
#          FLEETCAP_DEMO_NODE_STRIDE of each model), applies the openb policy
#          scaled to that cluster, gives every held minute of the window
#          utilisation telemetry (`fleetcap-ingest prometheus` taking
#          remote_write from fleetcap-telemetry-replay, which plays the DCGM
#          exporters with the published genai GPU duty cycle), starts
#          fleetcap-optimizer computing the chargeback of every closed hour
#          (and after it waste, rightsizing and budgets), gives the month
#          budgets set from the pace of that chargeback (demo_budgets below),
#          and prints where to look, the dashboard's URL first (fleetcap-api
#          serves the built web app, with a planner and a team token to sign
#          in with) and the admin token. Where the published trace is absent
#          it serves a synthetic cluster with the trace's shapes as a live
#          Kubernetes API (the test fixture, followed by `fleetcap-ingest
#          k8s`) instead. Run twice the same day, it reuses what runs.
#   check: opens the running demo's dashboard the way its printout says, in
#          headless Chromium (web/e2e/demo.e2e.ts): the sign-in page at the
#          printed URL, the planner token showing a fleet with history up to
#          the present, the team token showing its own bill.
#   stop:  stops everything start started.
#
# FLEETCAP_DATA (default ../shared/data) holds the published traces (openb/,
# and genai/ for the telemetry, skipped with a message when absent);
# FLEETCAP_DEMO_DAYS (14) is the sampled window's length, FLEETCAP_DEMO_NODE_STRIDE
# (40) keeps one node in so many of each model, FLEETCAP_DEMO_SEED (1) seeds the
# sample; FLEETCAP_DEMO_SPEED (200000) is how many trace seconds pass each
# second of the synthetic cluster's live replay;
# FLEETCAP_HTTP_PORT (8080) and FLEETCAP_GRPC_PORT (8081) choose the ports;
# FLEETCAP_DEMO_PRESET (release) the CMake preset built and run (`debug` reuses
# the build tree of `make test`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
state="$root/.fleetcap"
data="${FLEETCAP_DATA:-$root/../shared/data}"
speed="${FLEETCAP_DEMO_SPEED:-200000}"
days="${FLEETCAP_DEMO_DAYS:-14}"
stride="${FLEETCAP_DEMO_NODE_STRIDE:-40}"
seed="${FLEETCAP_DEMO_SEED:-1}"
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

# Clears cluster openb and what was computed from it: a sample of another day
# holds other pods, at other times.
clear_openb() {
  local db=$1
  psql "$db" -qc "DELETE FROM clusters WHERE cluster = 'openb'" >/dev/null 2>&1 || true
  psql "$db" -qc "TRUNCATE chargeback_hourly, chargeback_hourly_by_team, chargeback_daily, chargeback_daily_by_team, chargeback_monthly, chargeback_watermarks,
                  chargeback_recompute, chargeback_over_held, optimizer_state" >/dev/null 2>&1 || true
  # Its telemetry too: the pods' uids come from the sample, so the old
  # minutes would read as the new pods', and the receiver would take
  # the new minutes for late ones of devices it already wrote.
  running telemetry && kill -TERM "$(cat "$state/telemetry.pid")" && sleep 1
  for table in usage_minute usage_series_hour usage_series usage_hours_to_compact usage_hourly usage_hour_changes \
      usage_cluster_hourly usage_cluster_hour_changes telemetry_series telemetry_watermarks \
      telemetry_push_devices telemetry_push_counters telemetry_push_checkpoints; do
    psql "$db" -qc "DELETE FROM $table WHERE cluster = 'openb'" >/dev/null 2>&1 || true
  done
  rm -rf "$state/telemetry-wal" "$state/policy-stride" "$state/budgets-month"
}

# The openb policy for the sampled cluster: each flavor's capacity is the
# GPUs of that model stored, and the guarantees, limits and the fixed monthly
# cost are divided by the node stride, as the cluster is.
scaled_policy() {  # DB OUT
  local counts
  counts=$(psql "$1" -tAF= -c "SELECT model, count(*) FROM devices WHERE cluster = 'openb' GROUP BY model")
  awk -v stride="$stride" -v counts="$counts" '
    BEGIN { n = split(counts, rows, "\n"); for (i = 1; i <= n; i++) { split(rows[i], kv, "="); gpus[kv[1]] = kv[2] } }
    /^[a-z_]+:/ { section = $1 }
    section == "flavors:" && $1 == "model:" { model = $2 }
    section == "flavors:" && $1 == "capacity:" { sub(/capacity: .*/, "capacity: " (gpus[model] + 0)) }
    section == "allocation:" && ($1 == "guarantee:" || $1 == "borrowing_limit:" || $1 == "lending_limit:") {
      sub(/: .*/, ": " int($2 / stride))
    }
    section == "attribution:" && $1 == "amount:" {
      amount = $2; gsub(/"/, "", amount); sub(/amount: .*/, sprintf("amount: \"%.2f\"", amount / stride))
    }
    { print }' docs/examples/openb-policy.yaml > "$2"
}

# The demo's budgets, for the month holding now (the openb policy has none):
# one per org and three teams, each set from the pace of its spend as a
# planner would, once the optimizer's first pass has charged the sampled
# window. The pace is the team's (and its subtree's) mean daily cost over the
# 7 complete UTC days before today, the rate the budget forecast uses
# (docs/insights.md, "Budgets"), times the days of the month. Each budget is
# its pace plus 10% headroom, rounded up to a whole 100; team-07's is 10%
# below its pace (a cut asked of it), so it is the one projected over.
# Prints the policy's budgets: section.
demo_budgets() {  # MONTH DAYS_IN_MONTH FROM TO fleetcapctl-args...
  local month=$1 month_days=$2 from=$3 to=$4 team factor week
  shift 4
  echo "budgets:"
  for team in training:1.10 inference:1.10 team-00:1.10 team-04:1.10 team-07:0.90; do
    factor=${team#*:}
    team=${team%%:*}
    week=$("$@" chargeback --from "$from" --to "$to" --team "$team" --format csv |
      awk -F, 'NR > 1 { sum += $15 } END { printf "%.6f", sum }')
    awk -v team="$team" -v month="$month" -v week="$week" -v days="$month_days" -v factor="$factor" 'BEGIN {
      amount = week / 7 * days * factor
      printf "  - team: %s\n    month: \"%s\"\n    amount: \"%d.00\"\n", team, month, int((amount + 99.999999) / 100) * 100
    }'
  done
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
  local now_s now_hour fresh=0
  now_s=$(date -u +%s)
  now_hour=$(( now_s / 3600 * 3600 ))
  if [ -f "$data/openb/openb_node_list_gpu_node.csv" ]; then
    cluster=openb
    # The sample's window ends when it is stored; one stored earlier today
    # is kept, so that running the demo again reuses its store.
    if [ "$(cat "$state/sample-day" 2>/dev/null)" != "$(( now_s / 86400 )) $days $stride $seed" ]; then
      fresh=1
      clear_openb "$db"
    fi
    # A store of the live-replay demo holds the fixture's device ids (node/gpuN).
    if psql "$db" -tAc "SELECT 1 FROM devices WHERE cluster = 'openb' AND device_id LIKE '%/%' LIMIT 1" \
        2>/dev/null | grep -q 1; then
      fresh=1
      clear_openb "$db"
    fi
  else
    echo "demo: the published openb trace is not at $data/openb: serving a synthetic cluster with its shapes."
    echo "      (FLEETCAP_DATA=/path/to/data make demo serves the trace; github.com/alibaba/clusterdata,"
    echo "      cluster-trace-gpu-v2023/csv)"
    cluster=synthetic
    start_at=2026-01-01T00:00:00Z
    at=2026-01-01T01:00:00Z
    explain_hour=2026-01-01T01:00:00Z
    chargeback_from=2026-01-01T00:00:00Z
    chargeback_to=2026-02-01T00:00:00Z
    source=(--synthetic-nodes 300 --synthetic-pods 3000 --seed 1)
  fi
  # A store written by the older replay-only demo holds other device ids: start that cluster afresh.
  if [ "$cluster" = synthetic ] && psql "$db" -tAc "SELECT 1 FROM devices WHERE cluster = '$cluster' AND device_id NOT LIKE '%/%' LIMIT 1" \
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
  local api_url=""
  if [ "$cluster" = openb ]; then
    if (( fresh )) || ! psql "$db" -tAc "SELECT 1 FROM devices WHERE cluster = 'openb' LIMIT 1" 2>/dev/null | grep -q 1; then
      echo "demo: sampling the openb trace at a realistic load over the last $days days"
      echo "      (fleetcap-ingest replay --sample, seed $seed, one node in $stride of each model; docs/replay.md)"
      if ! "$bin/ingest/fleetcap-ingest" replay --trace openb --data "$data/openb" --cluster openb --sample \
          --sample-days "$days" --sample-node-stride "$stride" --seed "$seed" --db "$db" --migrate \
          --metrics-listen 127.0.0.1:0 >"$state/replay.log" 2>"$state/replay.err"; then
        echo "demo: the sampled replay failed; its log:" >&2
        tail -n 20 "$state/replay.err" >&2
        exit 1
      fi
      date -u -d "$(grep -o 'sampled load [^ ]*' "$state/replay.log" | awk '{ print $3 }')" +%s > "$state/trace-start"
      echo "$(( now_s / 86400 )) $days $stride $seed" > "$state/sample-day"
    fi
    sed 's/^/      /' "$state/replay.log"
    # The openb policy, its capacities and quotas scaled to the sampled cluster.
    if [ "$(cat "$state/policy-stride" 2>/dev/null)" != "$stride" ]; then
      scaled_policy "$db" "$state/openb-policy.yaml"
      "$ctl" policy apply "$state/openb-policy.yaml" \
        --message "make demo: openb teams and prices, scaled to one node in $stride" \
        --server "127.0.0.1:$grpc_port" --token "$admin_token" | sed -n 1p
      echo "$stride" > "$state/policy-stride"
      rm -f "$state/budgets-month"  # the policy applied has none
    fi
    local start_s
    start_s=$(cat "$state/trace-start")
    start_at=$(date -u -d "@$start_s" +%Y-%m-%dT%H:%M:%SZ)
    at=$(date -u -d "@$now_s" +%Y-%m-%dT%H:%M:%SZ)
    explain_hour=$(date -u -d "@$(( now_hour - 3600 ))" +%Y-%m-%dT%H:%M:%SZ)
    chargeback_from=$start_at
    chargeback_to=$(date -u -d "@$(( now_hour + 3600 ))" +%Y-%m-%dT%H:%M:%SZ)
  else
    if ! "$ctl" policy get --server "127.0.0.1:$grpc_port" --token "$admin_token" >/dev/null 2>&1; then
      "$ctl" policy apply docs/examples/openb-policy.yaml --message "make demo: openb teams and prices" \
        --server "127.0.0.1:$grpc_port" --token "$admin_token" | sed -n 1p
    fi
    if start_process fixture "$bin/tests/k8s/fleetcap-k8s-fixture" "${source[@]}" --port-file "$state/fixture.port"; then
      wait_for fixture "fixture listening" 120
    fi
    api_url="http://127.0.0.1:$(cat "$state/fixture.port")"
    echo "demo: Kubernetes API (fixture) at $api_url   (try: kubectl --server=$api_url get nodes)"
    if start_process ingest "$bin/ingest/fleetcap-ingest" k8s --cluster "$cluster" --kube-api "$api_url" \
        --db "$db" --migrate --metrics-listen 127.0.0.1:0; then
      wait_for ingest "synced cluster" 120
    fi
  fi

  # Utilisation telemetry for every minute of the sampled window, before
  # the optimizer's first pass so that it charges those hours with it. The
  # window ends now, to the minute.
  local telemetry_to telemetry_minutes week_from week_to
  telemetry_to=$(date -u -d "@$(( now_s / 60 * 60 ))" +%Y-%m-%dT%H:%M:%SZ)
  telemetry_minutes=$(( (now_s / 60 * 60 - $(cat "$state/trace-start" 2>/dev/null || echo 0)) / 60 ))
  week_from=$(date -u -d "@$(( now_hour - 7 * 86400 ))" +%Y-%m-%dT%H:%M:%SZ)
  week_to=$(date -u -d "@$now_hour" +%Y-%m-%dT%H:%M:%SZ)
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
    echo "      onto every minute a pod held a GPU since $start_at (once; skipped when stored)"
    if ! tar -xzOf "$duty_cycle" | "$bin/tests/fleetcap-telemetry-replay" --db "$db" --cluster "$cluster" \
        --duty-cycle - --until "$telemetry_to" --minutes "$telemetry_minutes" --unless-stored \
        --remote-write-url "http://127.0.0.1:$write_port/api/v1/write" \
        --wait-written "http://127.0.0.1:$metrics_port/metrics" >"$state/telemetry-replay.log" 2>&1; then
      echo "demo: the telemetry replay failed; its log:" >&2
      tail -n 20 "$state/telemetry-replay.log" >&2
      exit 1
    fi
    sed 's/^/      /' "$state/telemetry-replay.log"
    telemetry_note="utilisation telemetry for every held minute (genai duty cycle, fleetcap-telemetry-replay)"
  fi

  # The chargeback of every closed hour, kept current: started once the
  # inventory is stored, so its first pass sees the whole window.
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

  # Budgets for the month holding now, from the chargeback the first pass
  # computed (demo_budgets above); once a month, and again after a fresh sample.
  local month
  month=$(date -u -d "@$now_s" +%Y-%m)
  if [ "$cluster" = openb ] && [ "$(cat "$state/budgets-month" 2>/dev/null)" != "$month" ]; then
    local today month_days
    today=$(( now_s / 86400 * 86400 ))
    month_days=$(date -u -d "$month-01 +1 month -1 day" +%d)
    { cat "$state/openb-policy.yaml"
      demo_budgets "$month" "$month_days" "$(date -u -d "@$(( today - 7 * 86400 ))" +%Y-%m-%dT%H:%M:%SZ)" \
        "$(date -u -d "@$today" +%Y-%m-%dT%H:%M:%SZ)" "$ctl" --server "127.0.0.1:$grpc_port" --token "$admin_token"
    } > "$state/openb-policy-budgets.yaml"
    "$ctl" policy apply "$state/openb-policy-budgets.yaml" \
      --message "make demo: budgets for $month at the pace of the last 7 days" \
      --server "127.0.0.1:$grpc_port" --token "$admin_token" | sed -n 1p
    echo "$month" > "$state/budgets-month"
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
  local week_text="" cluster_text window_text="the last 30 days per team"
  cluster_text="fleetcap is following cluster $cluster through its Kubernetes API (fixture at $api_url).
  kubectl:   kubectl --server=$api_url get pods -A"
  if [ "$cluster" = openb ]; then
    cluster_text="Cluster openb: the openb trace sampled at a realistic load from $start_at to now
  (seed $seed, one node in $stride of each GPU model; docs/replay.md \"A realistic load\"; $state/replay.log).
  held now per model:  $ctl --server 127.0.0.1:$grpc_port fleet summary --cluster openb
  waiting pods now:    curl -H \"Authorization: Bearer \$FLEETCAP_TOKEN\" 'http://127.0.0.1:$http_port/v1/fleet/pending?cluster=openb'"
    window_text="the whole sampled window per team"
    week_text="  the last 7 days, with $telemetry_note:
    $ctl --server 127.0.0.1:$grpc_port chargeback --from $week_from --to $chargeback_to --group-by team
    (USED_DEVICE_H and EFFICIENCY: what the teams' pods used of what they held)
"
  fi

  cat <<TXT

Dashboard:  http://127.0.0.1:$http_port/   (paste a token on its sign-in page)
  planner (the whole fleet):       $planner_token
  team:team-00 (its bill only):    $team_token

Tokens (files in $state/: admin.token, planner.token, team-00.token):
  admin:         $admin_token
  planner:       $planner_token
  team:team-00:  $team_token
  export FLEETCAP_TOKEN=$admin_token   # fleetcapctl reads it; then: fleetcapctl policy history

$cluster_text
  JSON API:  curl -H "Authorization: Bearer \$FLEETCAP_TOKEN" 'http://127.0.0.1:$http_port/v1/fleet/summary?cluster=$cluster&at=$at'
  gRPC:      127.0.0.1:$grpc_port
  CLI:       $bin/services/ctl/fleetcapctl --server 127.0.0.1:$grpc_port fleet summary --cluster $cluster --at $at
  policy:    $bin/services/ctl/fleetcapctl --server 127.0.0.1:$grpc_port policy get
  logs:      $state/{replay,fixture,ingest,telemetry,api,optimizer}.log

Chargeback (fleetcap-optimizer computes each hour once closed; README "How a team reads its bill"):
  $window_text:
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
Insights (README "What the demo's insights say"; the waste and rightsizing passes follow the first
chargeback pass: see "waste:" and "rightsizing" in $state/optimizer.log):
    $ctl --server 127.0.0.1:$grpc_port insights waste --from $chargeback_from --to $week_to
    $ctl --server 127.0.0.1:$grpc_port insights rightsize
    $ctl --server 127.0.0.1:$grpc_port insights changes --last 7d
    $ctl --server 127.0.0.1:$grpc_port insights budgets
  JSON API:
    curl -H "Authorization: Bearer \$FLEETCAP_TOKEN" 'http://127.0.0.1:$http_port/v1/insights/budgets'
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
