#!/usr/bin/env bash
# `make demo` / `make demo-stop`: the whole stack on the published openb trace.
#
#   start: installs what is missing, builds (release), starts a private
#          PostgreSQL under .fleetcap/, migrates, replays openb, starts
#          fleetcap-api, and prints where to look. Run twice, it reuses what runs.
#   stop:  stops everything start started.
#
# FLEETCAP_DATA (default ../shared/data) holds the published trace;
# FLEETCAP_HTTP_PORT (8080) and FLEETCAP_GRPC_PORT (8081) choose the ports.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
state="$root/.fleetcap"
data="${FLEETCAP_DATA:-$root/../shared/data}"
http_port="${FLEETCAP_HTTP_PORT:-8080}"
grpc_port="${FLEETCAP_GRPC_PORT:-8081}"
bin="$root/build/release"
api_pid_file="$state/api.pid"

api_running() { [ -f "$api_pid_file" ] && kill -0 "$(cat "$api_pid_file")" 2>/dev/null; }

start() {
  if [ ! -f "$data/openb/openb_node_list_gpu_node.csv" ]; then
    echo "demo: the published openb trace is not at $data/openb." >&2
    echo "demo: point FLEETCAP_DATA at a folder holding openb/openb_node_list_gpu_node.csv and" >&2
    echo "      openb/openb_pod_list_default.csv (github.com/alibaba/clusterdata, cluster-trace-gpu-v2023/csv)," >&2
    echo "      e.g.  FLEETCAP_DATA=/path/to/data make demo" >&2
    exit 1
  fi
  bash scripts/bootstrap.sh
  cmake --preset release >/dev/null
  cmake --build --preset release --target fleetcap-api fleetcap-ingest fleetcapctl
  mkdir -p "$state"

  local db
  db=$(bash scripts/pg.sh start "$state/pg")
  echo "demo: PostgreSQL at $db"

  if psql "$db" -tAc "SELECT 1 FROM clusters WHERE cluster = 'openb'" 2>/dev/null | grep -q 1; then
    echo "demo: cluster openb is already replayed"
  else
    "$bin/ingest/fleetcap-ingest" replay --migrate --trace openb --data "$data/openb" \
      --cluster openb --start 2026-01-01T00:00:00Z --db "$db"
  fi

  if api_running; then
    echo "demo: fleetcap-api is already running (pid $(cat "$api_pid_file"))"
  else
    nohup "$bin/services/api/fleetcap-api" --db "$db" --migrate \
      --grpc-listen "127.0.0.1:$grpc_port" --http-listen "127.0.0.1:$http_port" \
      --metrics-listen "127.0.0.1:0" >"$state/api.log" 2>&1 &
    echo $! > "$api_pid_file"
    for _ in $(seq 1 100); do
      grep -q "fleetcap-api ready" "$state/api.log" && break
      api_running || { cat "$state/api.log" >&2; exit 1; }
      sleep 0.1
    done
  fi

  # Control plane: a bootstrap admin token (kept under .fleetcap/, readable by you
  # alone), the openb policy, and one team token.
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
  if [ ! -s "$team_file" ]; then
    (umask 077; "$ctl" token create --role team:team-00 --description "make demo" \
      --server "127.0.0.1:$grpc_port" --token "$admin_token" 2>/dev/null > "$team_file")
  fi
  team_token=$(cat "$team_file")

  cat <<TXT

Tokens (also in $state/):
  admin:         $admin_token
  team:team-00:  $team_token
  export FLEETCAP_TOKEN=$admin_token   # then: fleetcapctl policy history --server 127.0.0.1:$grpc_port

fleetcap is running on the openb trace (trace second 0 = 2026-01-01T00:00:00Z).
  JSON API:  curl -H "Authorization: Bearer \$FLEETCAP_TOKEN" 'http://127.0.0.1:$http_port/v1/fleet/summary?cluster=openb&at=2026-05-25T22:47:29Z'
  policy:    $bin/services/ctl/fleetcapctl policy get --server 127.0.0.1:$grpc_port
  gRPC:      127.0.0.1:$grpc_port
  CLI:       $bin/services/ctl/fleetcapctl --server 127.0.0.1:$grpc_port fleet summary --cluster openb --at 2026-05-25T22:47:29Z
  logs:      $state/api.log
Stop everything with: make demo-stop
TXT
}

stop() {
  if api_running; then
    kill -TERM "$(cat "$api_pid_file")"
    for _ in $(seq 1 50); do api_running || break; sleep 0.1; done
    echo "demo: fleetcap-api stopped"
  fi
  rm -f "$api_pid_file"
  if [ -d "$state/pg" ]; then
    bash scripts/pg.sh stop "$state/pg"
    echo "demo: PostgreSQL stopped"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
