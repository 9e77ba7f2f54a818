#!/usr/bin/env bash
# The initial-sync benchmark of fleetcap-ingest k8s (docs/benchmarks.md).
#
#   tests/bench/k8s_initial_sync.sh [NODES] [PODS] [SEED]     (default 10000 200000 1)
#
# Serves a synthetic cluster (openb shapes, deterministic by seed) from the
# fixture API server, then in the same run measures, with GNU time:
#   1. kubectl get pods -A -o json > /dev/null          (kubectl's fetch alone)
#   2. fleetcap-ingest k8s --exit-after-sync            (list everything and store it in PostgreSQL)
# against the same fixture, and prints wall time and peak memory of each.
# Uses the release build (cmake --preset release) and a private PostgreSQL
# with its default, durable settings.
set -euo pipefail
cd "$(dirname "$0")/../.."
nodes=${1:-10000}
pods=${2:-200000}
seed=${3:-1}
bin=build/release
for target in fleetcap-api fleetcap-ingest fleetcap-k8s-fixture; do
  [ -n "$(find "$bin" -name "$target" -type f 2>/dev/null | head -n 1)" ] || {
    echo "bench: build the release first: cmake --preset release && cmake --build --preset release" >&2; exit 1; }
done
command -v kubectl >/dev/null || { echo "bench: kubectl is missing (scripts/bootstrap.sh)" >&2; exit 1; }

work=$(mktemp -d /tmp/fleetcap-bench-XXXXXX)
fixture_pid=""
cleanup() {
  [ -n "$fixture_pid" ] && kill "$fixture_pid" 2>/dev/null && wait "$fixture_pid" 2>/dev/null || true
  bash scripts/pg.sh stop "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

db=$(bash scripts/pg.sh start "$work/pg")
# The synthetic cluster's GPU shares stand for a sharing scheduler's: trusted, as in the demo's policy
# (without it every shared pod would hold whole GPUs; docs/policy.md, "Trusted pod metadata").
"$bin/services/api/fleetcap-api" init --db "$db" --migrate >/dev/null
psql "$db" -qc "INSERT INTO policies (version, document, applied_by, message)
  VALUES (1, E'version: 1\\ntrusted_pods:\\n  - cluster: bench\\n    gpu_share: true\\n', 'bench', 'trust GPU shares')"
echo "bench: building a synthetic cluster of $nodes nodes and $pods pods (seed $seed)"
"$bin/tests/k8s/fleetcap-k8s-fixture" --synthetic-nodes "$nodes" --synthetic-pods "$pods" --seed "$seed" \
  --port-file "$work/port" >"$work/fixture.out" 2>"$work/fixture.err" &
fixture_pid=$!
for _ in $(seq 1 1200); do
  grep -q "fixture listening" "$work/fixture.out" 2>/dev/null && break
  kill -0 "$fixture_pid" 2>/dev/null || { cat "$work/fixture.err" >&2; exit 1; }
  sleep 0.25
done
cat "$work/fixture.err"
url="http://127.0.0.1:$(cat "$work/port")"
mkdir -p "$work/home"

echo "bench: kubectl get pods -A -o json > /dev/null"
/usr/bin/time -f "%e %M" -o "$work/kubectl.time" env HOME="$work/home" KUBECONFIG="$work/home/none" \
  kubectl --server="$url" get pods -A -o json >/dev/null 2>"$work/kubectl.err" \
  || { cat "$work/kubectl.err" >&2; exit 1; }
read -r kubectl_s kubectl_kib <"$work/kubectl.time"
echo "bench: fleetcap-ingest k8s --exit-after-sync"
/usr/bin/time -f "%e %M" -o "$work/ingest.time" "$bin/ingest/fleetcap-ingest" k8s --cluster bench --kube-api "$url" \
  --db "$db" --migrate --exit-after-sync --log-level warn >"$work/ingest.out" 2>"$work/ingest.err" \
  || { cat "$work/ingest.err" >&2; exit 1; }
read -r ingest_s ingest_kib <"$work/ingest.time"
stored=$(psql "$db" -tAc "SELECT (SELECT count(*) FROM nodes), (SELECT count(*) FROM devices),
  (SELECT count(*) FROM pods), (SELECT count(*) FROM holds), (SELECT count(*) FROM pending_demand)")
IFS='|' read -r s_nodes s_devices s_pods s_holds s_demand <<<"$stored"

printf '\n| run | wall time | peak memory |\n|---|---:|---:|\n'
printf '| `kubectl get pods -A -o json > /dev/null` | %.1f s | %d MiB |\n' "$kubectl_s" $((kubectl_kib / 1024))
printf '| `fleetcap-ingest k8s` initial sync into PostgreSQL | %.1f s | %d MiB |\n' "$ingest_s" $((ingest_kib / 1024))
printf '\nstored: %s nodes, %s devices, %s accelerator pods, %s holds, %s waits\n' \
  "$s_nodes" "$s_devices" "$s_pods" "$s_holds" "$s_demand"
