#!/usr/bin/env bash
# The deploy/ manifests, checked offline (deploy/README.md, "Tests"):
# every overlay renders, meets the Kubernetes and Prometheus operator schemas
# and fleetcap's own rules, and passes only flags its binaries accept; every
# bad fixture in deploy/tests/fixtures is refused with the problems its
# expected.txt names (so the checks are shown to catch what they claim); the
# alerting rules load in promtool and its unit tests in deploy/tests/alerts
# fire what they expect.
#
#   scripts/check_deploy.sh [--bin NAME=PATH]...
#
# Installs the checker's Node packages itself (npm ci, from the committed
# package-lock.json) when they are missing or older than the lock file.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=deploy/tests
for tool in kubectl node npm; do
  command -v "$tool" >/dev/null || { echo "check_deploy: $tool not found (kubectl with Kustomize 4 or later, Node.js 18 or later)" >&2; exit 1; }
done
# The overlays use Kustomize 4's fields (labels, replicas, patches); Debian 12's
# own kubectl (1.20) embeds Kustomize 2 and would misread them.
kustomize=$(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: v\([0-9]*\).*/\1/p')
if [[ -z "$kustomize" || "$kustomize" -lt 4 ]]; then
  echo "check_deploy: kubectl embeds Kustomize ${kustomize:-of an unknown version}; the overlays need 4 or later" >&2
  exit 1
fi
if [[ ! -f "$tests/node_modules/.package-lock.json" || "$tests/package-lock.json" -nt "$tests/node_modules/.package-lock.json" ]]; then
  npm ci --prefix "$tests" --no-audit --no-fund --loglevel=error
fi

failed=0
for overlay in deploy/overlays/*/; do
  if ! node "$tests/check_manifests.mjs" "$@" "${overlay%/}"; then
    echo "FAIL: ${overlay%/} has problems" >&2
    failed=1
  fi
done

for fixture in "$tests"/fixtures/*/; do
  fixture=${fixture%/}
  # The flag fixture needs the binaries; without --bin it cannot be refused.
  if [[ $# -eq 0 && -f "$fixture/needs-binaries" ]]; then
    echo "$fixture: skipped (no --bin given)"
    continue
  fi
  if out=$(node "$tests/check_manifests.mjs" "$@" "$fixture"); then
    echo "FAIL: $fixture was accepted; it must be refused" >&2
    failed=1
    continue
  fi
  while IFS= read -r expected; do
    [[ -z "$expected" ]] && continue
    if ! grep -qxF "$fixture: $expected" <<<"$out"; then
      echo "FAIL: $fixture: expected the problem \"$expected\"; got:" >&2
      echo "$out" >&2
      failed=1
    fi
  done <"$fixture/expected.txt"
  echo "$fixture: refused as expected"
done
# The PrometheusRule's groups as a rules file: `promtool check rules` loads
# them (PromQL and templates parsed), `promtool test rules` runs each test of
# deploy/tests/alerts on them.
if command -v promtool >/dev/null; then
  rules_dir=$(mktemp -d)
  trap 'rm -rf "$rules_dir"' EXIT
  node "$tests/rule_groups.mjs" deploy/base/monitoring/prometheus-rules.yaml >"$rules_dir/rules.yaml"
  if ! promtool check rules "$rules_dir/rules.yaml"; then
    echo "FAIL: deploy/base/monitoring/prometheus-rules.yaml does not load in promtool" >&2
    failed=1
  fi
  for test in "$tests"/alerts/*.test.yaml; do
    cp "$test" "$rules_dir/"
    if ! promtool test rules "$rules_dir/$(basename "$test")"; then
      echo "FAIL: $test" >&2
      failed=1
    fi
  done
else
  echo "alerting rules: skipped (promtool not found)"
fi
exit "$failed"
