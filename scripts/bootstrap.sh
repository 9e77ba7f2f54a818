#!/usr/bin/env bash
# Installs exactly the Debian 12 packages that fleetcap's build, tests and demo
# need. Idempotent: when everything is installed it changes nothing and says so.
# Runs as root, or through sudo when not root.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config git
  # make fuzz: clang 14 and its libFuzzer, ASan and UBSan runtimes
  clang-14 libclang-rt-14-dev
  # the style of the tree (.clang-format), checked by make test
  clang-format-14
  # the function length check (scripts/check_function_length.py)
  python3
  # the forecast backtest's independent check (scripts/forecast_statsmodels.py)
  python3-statsmodels
  # libraries
  libgrpc++-dev libgrpc-dev protobuf-compiler protobuf-compiler-grpc libprotobuf-dev
  libpqxx-dev libpq-dev prometheus-cpp-dev libmicrohttpd-dev libgnutls28-dev libabsl-dev libspdlog-dev libfmt-dev
  nlohmann-json3-dev libssl-dev libcurl4-openssl-dev libgtest-dev libgmock-dev
  # policy documents and the telemetry metric mapping; remote_write's compression;
  # the sample log's checksums
  libyaml-cpp-dev libsnappy-dev zlib1g-dev
  # exact rationals: the drivers of a spend change (optimizer/insights)
  libgmp-dev
  # the allocation tests' independent LP solver (GLPK; tests only)
  libglpk-dev
  # the heterogeneity-aware allocation's LP solver (COIN-OR Clp)
  coinor-libclp-dev
  # servers and clients the tests and the demo start
  postgresql-15 postgresql-client-15 curl openssl time
  # telemetry tests and benchmark: a real Prometheus 2.42
  prometheus
)

# kubectl, the fixture API server's reference client: Debian ships it as
# kubernetes-client; a kubectl already installed (another package) is kept.
if ! command -v kubectl >/dev/null 2>&1; then
  packages+=(kubernetes-client)
fi

# Node.js and npm, for the deploy/ manifest checks (scripts/check_deploy.sh)
# and the web app: Debian's own where none is installed (another package's
# node, such as Node 20, is kept).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

# The dashboard's end-to-end test drives Debian's Chromium (headless, through
# playwright-core, which never downloads a browser of its own).
packages+=(chromium)

# PostgreSQL high availability tests (tests/ha): Patroni 3.0 (with its etcd
# client), etcd 3.4 and haproxy. The tests start their own on free ports; the
# packages' system services must not start and hold the default ports
# (2379/2380, 8008, 80), so the install runs under a policy-rc.d that refuses
# service starts and the services are disabled afterwards.
packages+=(patroni python3-etcd etcd-server etcd-client haproxy)
no_service_starts=(etcd patroni haproxy)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The web app needs Node.js 20 or newer (web/package.json engines); Debian
# 12's own nodejs is 18: said here, and make test and make demo stop on it.
node_version_note() {
  local major
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -lt 20 ]; then
    echo "bootstrap: Node.js $(node --version 2>/dev/null || echo missing) is older than 20: the dashboard" \
      "(web/) will not build; install Node.js 20 or newer" >&2
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#packages[@]} packages are installed"
  node_version_note
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "bootstrap: installing ${missing[*]}"
$sudo apt-get update -qq
policy_rc=/usr/sbin/policy-rc.d
if [ ! -e "$policy_rc" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy_rc" >/dev/null
  $sudo chmod 755 "$policy_rc"
  trap '$sudo rm -f "$policy_rc"' EXIT
fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
if [ -d /run/systemd/system ]; then
  for s in "${no_service_starts[@]}"; do $sudo systemctl disable --now "$s" >/dev/null 2>&1 || true; done
fi
node_version_note
