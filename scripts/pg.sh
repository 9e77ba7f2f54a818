#!/usr/bin/env bash
# A private PostgreSQL 15 for the demo and the tests.
#
#   scripts/pg.sh start DIR   initdb into DIR (first time), start on a free port
#                             on 127.0.0.1, create database `fleetcap`, print its URI
#   scripts/pg.sh stop DIR    stop it
#   scripts/pg.sh uri DIR     print the URI of the running server
#
# PostgreSQL refuses to run as root, so as root the server runs as the
# unprivileged `postgres` user. FLEETCAP_PG_FAST=1 trades durability across an
# OS crash for speed (fsync off): for tests only.
set -euo pipefail

usage() { echo "usage: $0 start|stop|uri DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1
dir=$2
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$pgbin/pg_ctl" ] || { echo "pg.sh: PostgreSQL server binaries not found; run scripts/bootstrap.sh" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# The data directory lives in DIR when its owner can reach it; otherwise (a
# root-only parent folder) in a folder of its own under /tmp, named after DIR.
data_dir() {
  if [ -f "$dir/datadir" ]; then cat "$dir/datadir"; return; fi
  local data="$dir/data"
  if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$dir"; then
    data="/tmp/fleetcap-pg-$(echo -n "$dir" | md5sum | cut -c1-12)"
  fi
  echo "$data" > "$dir/datadir"
  echo "$data"
}

running() { [ -f "$dir/port" ] && as_owner "$pgbin/pg_ctl" -D "$(data_dir)" status >/dev/null 2>&1; }

uri() { echo "postgresql://fleetcap@127.0.0.1:$(cat "$dir/port")/fleetcap"; }

free_port() {
  local port
  for _ in $(seq 1 100); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  echo "pg.sh: no free port found" >&2
  return 1
}

start() {
  if running; then uri; return; fi
  local data
  data=$(data_dir)
  if [ ! -f "$data/PG_VERSION" ]; then
    mkdir -p "$data"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$data"
    chmod 700 "$data"
    as_owner "$pgbin/initdb" -D "$data" -U fleetcap --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
  fi
  local opts="-c listen_addresses=127.0.0.1 -c unix_socket_directories=$data -c max_connections=200"
  if [ "${FLEETCAP_PG_FAST:-0}" = 1 ]; then
    opts="$opts -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  fi
  local log="$data/server.log"
  for _ in 1 2 3; do
    local port
    port=$(free_port)
    if as_owner "$pgbin/pg_ctl" -D "$data" -l "$log" -w -t 60 -o "-p $port $opts" start >/dev/null; then
      echo "$port" > "$dir/port"
      "$pgbin/psql" -q -h 127.0.0.1 -p "$port" -U fleetcap -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'fleetcap'" | grep -q 1 \
        || "$pgbin/createdb" -h 127.0.0.1 -p "$port" -U fleetcap fleetcap
      uri
      return
    fi
  done
  echo "pg.sh: the server did not start; its log:" >&2
  tail -n 20 "$log" >&2
  exit 1
}

stop() {
  local data
  data=$(data_dir)
  if [ -f "$data/PG_VERSION" ]; then
    as_owner "$pgbin/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -f "$dir/port"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  uri) if running; then uri; else echo "pg.sh: no server running in $dir" >&2; exit 1; fi ;;
  *) usage ;;
esac
