#!/usr/bin/env bash
# A two-node PostgreSQL 15 cluster under Patroni 3.0 with one etcd 3.4, all
# on 127.0.0.1 on free ports, for the high availability tests.
#
#   patroni_cluster.sh start DIR       start etcd and both nodes, wait for a
#                                      primary and a streaming standby, create
#                                      database `fleetcap`, print the
#                                      multi-host URI (target_session_attrs=read-write)
#   patroni_cluster.sh primary DIR     print the primary's node name (node1|node2)
#   patroni_cluster.sh port DIR NODE   print NODE's PostgreSQL port
#   patroni_cluster.sh kill-primary DIR
#                                      SIGKILL the primary's Patroni and postmaster
#                                      (a crash), print the node's name
#   patroni_cluster.sh switchover DIR  a planned switchover to the standby
#   patroni_cluster.sh wait-primary DIR NODE
#                                      wait until NODE is the primary and accepts writes
#   patroni_cluster.sh stop DIR        kill everything, remove the data
#
# PostgreSQL refuses to run as root, so as root the nodes run as the
# unprivileged `postgres` user, in a folder of their own under /tmp (named in
# DIR/root) that it owns.
set -euo pipefail

usage() { echo "usage: $0 start|primary|port|kill-primary|switchover|wait-primary|stop DIR [NODE]" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
node_arg=${3:-}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

pgbin=/usr/lib/postgresql/15/bin
[ -x "$pgbin/postgres" ] || { echo "patroni_cluster.sh: PostgreSQL 15 not found; run scripts/bootstrap.sh" >&2; exit 1; }
command -v patroni >/dev/null && command -v etcd >/dev/null \
  || { echo "patroni_cluster.sh: patroni or etcd not found; run scripts/bootstrap.sh" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  local port
  for _ in $(seq 1 100); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && ! grep -qx "$port" "$dir/ports" 2>/dev/null; then
      echo "$port" >> "$dir/ports"
      echo "$port"
      return
    fi
  done
  echo "patroni_cluster.sh: no free port found" >&2
  return 1
}

root() { cat "$dir/root"; }
rest_port() { cat "$(root)/$1/rest_port"; }
pg_port() { cat "$(root)/$1/pg_port"; }
psql_at() { "$pgbin/psql" -X -q -h 127.0.0.1 -p "$1" -U fleetcap -d "${2:-postgres}" -tAc "$3"; }

# HTTP status of Patroni's REST endpoint PATH on NODE (000: no answer).
rest_status() {
  curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$(rest_port "$1")/$2" || true
}

primary() {
  for n in node1 node2; do
    if [ "$(rest_status "$n" primary)" = 200 ]; then echo "$n"; return 0; fi
  done
  return 1
}

other() { if [ "$1" = node1 ]; then echo node2; else echo node1; fi; }

# Waits until NODE is the primary, accepts writes, and (unless the other node
# is dead) the other streams from it. Up to $2 seconds.
wait_primary() {
  local node=$1 patience=$2 deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    if [ "$(rest_status "$node" primary)" = 200 ] \
       && [ "$(psql_at "$(pg_port "$node")" postgres "SELECT pg_is_in_recovery()" 2>/dev/null)" = f ]; then
      return 0
    fi
    sleep 0.2
  done
  echo "patroni_cluster.sh: $node is not the primary after ${patience}s" >&2
  return 1
}

wait_streaming() {
  local primary_node=$1 deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    if [ "$(psql_at "$(pg_port "$primary_node")" postgres \
           "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'" 2>/dev/null)" = 1 ]; then
      return 0
    fi
    sleep 0.2
  done
  echo "patroni_cluster.sh: no standby streams from $primary_node after $2s" >&2
  return 1
}

# Waits until NODE is the synchronous standby (Patroni's REST /sync answers
# 200): only then may a switchover go to it. Up to $2 seconds.
wait_sync() {
  local node=$1 deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    if [ "$(rest_status "$node" sync)" = 200 ]; then return 0; fi
    sleep 0.2
  done
  echo "patroni_cluster.sh: $node is not the synchronous standby after $2s" >&2
  return 1
}

uri() {
  echo "postgresql://fleetcap@127.0.0.1:$(pg_port node1),127.0.0.1:$(pg_port node2)/fleetcap?target_session_attrs=read-write&connect_timeout=2"
}

write_node_config() {
  local node=$1 scope=$2 etcd_port=$3 r
  r=$(root)
  mkdir -p "$r/$node"
  free_port > "$r/$node/rest_port"
  free_port > "$r/$node/pg_port"
  # ttl 10 s with a 1 s loop: the leader key of a dead primary expires within
  # 10 s and the standby takes over on its next loop (Patroni's rule:
  # loop_wait + 2 * retry_timeout <= ttl).
  cat > "$r/$node/patroni.yml" <<EOF
scope: $scope
namespace: /fleetcap/
name: $node
log:
  dir: $r/$node
  level: INFO
restapi:
  listen: 127.0.0.1:$(cat "$r/$node/rest_port")
  connect_address: 127.0.0.1:$(cat "$r/$node/rest_port")
etcd3:
  hosts: 127.0.0.1:$etcd_port
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    # A commit is acknowledged only once the standby has it, so a failover
    # loses no row a daemon was told is stored; Patroni then promotes only
    # the synchronous standby, whatever its replay lag.
    synchronous_mode: true
    maximum_lag_on_failover: 1073741824
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        wal_log_hints: "on"
  initdb:
    - encoding: UTF8
    - no-locale
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$(cat "$r/$node/pg_port")
  connect_address: 127.0.0.1:$(cat "$r/$node/pg_port")
  data_dir: $r/$node/data
  bin_dir: $pgbin
  pgpass: $r/$node/pgpass
  authentication:
    superuser:
      username: fleetcap
      password: fleetcap
    replication:
      username: replicator
      password: replicator
  parameters:
    unix_socket_directories: $r/$node
EOF
}

start_etcd() {
  local r=$1 client=$2 peer=$3
  setsid etcd --name fleetcap-ha --data-dir "$r/etcd" \
    --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
    --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "fleetcap-ha=http://127.0.0.1:$peer" >"$r/etcd.log" 2>&1 < /dev/null &
  echo $! > "$r/etcd.pid"
  local deadline=$((SECONDS + 30))
  until curl -s --max-time 1 "http://127.0.0.1:$client/health" | grep -q '"health":"true"'; do
    if [ $SECONDS -ge $deadline ] || ! kill -0 "$(cat "$r/etcd.pid")" 2>/dev/null; then
      echo "patroni_cluster.sh: etcd did not start:" >&2
      tail -n 5 "$r/etcd.log" >&2
      return 1
    fi
    sleep 0.2
  done
}

# Patroni runs in a session of its own (setsid): its process group is the
# group id recorded in NODE/patroni.pgid.
start_node() {
  local r=$1 node=$2
  if [ "$(id -u)" -eq 0 ]; then
    setsid runuser -u postgres -- patroni "$r/$node/patroni.yml" >"$r/$node/patroni.out" 2>&1 < /dev/null &
  else
    setsid patroni "$r/$node/patroni.yml" >"$r/$node/patroni.out" 2>&1 < /dev/null &
  fi
  echo $! > "$r/$node/patroni.pgid"
}

start() {
  if [ -f "$dir/root" ] && primary >/dev/null 2>&1; then uri; return; fi
  local r
  r=$(mktemp -d /tmp/fleetcap-ha-XXXXXX)
  chmod 755 "$r"
  echo "$r" > "$dir/root"
  # A port found free may be taken before etcd binds it: try new ones.
  local etcd_client etcd_peer started=0
  for _ in 1 2 3; do
    etcd_client=$(free_port)
    etcd_peer=$(free_port)
    if start_etcd "$r" "$etcd_client" "$etcd_peer"; then started=1; break; fi
    kill -KILL "$(cat "$r/etcd.pid")" 2>/dev/null || true
    rm -rf "$r/etcd"
  done
  [ "$started" = 1 ] || exit 1
  local scope
  scope="fleetcap-$(basename "$r")"
  write_node_config node1 "$scope" "$etcd_client"
  write_node_config node2 "$scope" "$etcd_client"
  [ "$(id -u)" -eq 0 ] && chown -R postgres: "$r/node1" "$r/node2"
  # node1 bootstraps the cluster; node2 then clones it as the standby.
  start_node "$r" node1
  # PostgreSQL's own lines (a port taken, say) come before Patroni's traceback.
  wait_primary node1 60 || { tail -n 80 "$r/node1/patroni.out" >&2; exit 1; }
  start_node "$r" node2
  if ! wait_streaming node1 40; then
    # Seen once on a loaded machine: node2's clone held WAL past node1's
    # flush position, so it could never stream. Rebuilding the standby is
    # what an operator would do; the cluster under test is then as asked.
    echo "patroni_cluster.sh: node2 does not stream; reinitialising it. node1's log:" >&2
    tail -n 30 "$r/node1/patroni.out" >&2
    patronictl -c "$r/node2/patroni.yml" reinit "$scope" node2 --force --wait >&2 || true
    wait_streaming node1 60 || { tail -n 30 "$r/node2/patroni.out" >&2; exit 1; }
  fi
  wait_sync node2 60 || { tail -n 30 "$r/node2/patroni.out" >&2; exit 1; }
  psql_at "$(pg_port node1)" postgres "CREATE DATABASE fleetcap"
  uri
}

postmaster_pid() {
  local pidfile
  pidfile="$(root)/$1/data/postmaster.pid"
  if [ -f "$pidfile" ]; then head -n 1 "$pidfile"; fi
}

# SIGKILL NODE's Patroni (its whole process group) and its postmaster.
kill_node() {
  local node=$1 pgid pm
  pm=$(postmaster_pid "$node")
  pgid=$(cat "$(root)/$node/patroni.pgid" 2>/dev/null || true)
  [ -n "$pgid" ] && kill -KILL -- "-$pgid" 2>/dev/null || true
  [ -n "$pm" ] && kill -KILL "$pm" 2>/dev/null || true
  return 0
}

kill_primary() {
  local node
  node=$(primary) || { echo "patroni_cluster.sh: no primary to kill" >&2; exit 1; }
  kill_node "$node"
  echo "$node"
}

switchover() {
  local from to
  from=$(primary) || { echo "patroni_cluster.sh: no primary" >&2; exit 1; }
  to=$(other "$from")
  wait_streaming "$from" 60
  wait_sync "$to" 60
  patronictl -c "$(root)/$from/patroni.yml" switchover --leader "$from" --candidate "$to" --force >&2
  wait_primary "$to" 60
  echo "$to"
}

stop() {
  [ -f "$dir/root" ] || return 0
  local r
  r=$(root)
  for n in node1 node2; do kill_node "$n"; done
  if [ -f "$r/etcd.pid" ]; then kill -KILL "$(cat "$r/etcd.pid")" 2>/dev/null || true; fi
  # The killed postmasters' backends notice and exit; wait for the folder to be free.
  sleep 0.5
  rm -rf "$r"
  rm -f "$dir/root" "$dir/ports"
}

case "$cmd" in
  start) start ;;
  primary) primary || { echo "patroni_cluster.sh: no primary" >&2; exit 1; } ;;
  port) [ -n "$node_arg" ] || usage; pg_port "$node_arg" ;;
  kill-primary) kill_primary ;;
  switchover) switchover ;;
  wait-primary) [ -n "$node_arg" ] || usage; wait_primary "$node_arg" 60 ;;
  stop) stop ;;
  *) usage ;;
esac
