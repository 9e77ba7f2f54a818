#!/usr/bin/env bash
# The dashboard's web app (web/) for make test, make demo and the end-to-end
# test:
#
#   scripts/web.sh check     Node.js >= 20 and npm are here (the app's engines)
#   scripts/web.sh install   `npm ci` when web/node_modules is missing or older
#                            than web/package-lock.json
#   scripts/web.sh build     install, then `npm run build` (web/dist, which
#                            fleetcap-api --web-root serves)
#   scripts/web.sh test      install, then the unit tests (`npm test`)
set -euo pipefail
cd "$(dirname "$0")/.."

check() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "web: node and npm are needed for the dashboard; run scripts/bootstrap.sh" >&2
    exit 1
  fi
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$major" -lt 20 ]; then
    echo "web: Node.js $(node --version) is too old: the dashboard needs Node.js 20 or newer" >&2
    echo "     (Debian 12's own nodejs is 18; install Node.js 20, e.g. from nodejs.org's Debian packages)" >&2
    exit 1
  fi
}

install() {
  check
  if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    echo "web: npm ci (web/node_modules is missing or older than the lockfile)"
    npm --prefix web ci --no-audit --no-fund
  fi
}

case "${1:-}" in
  check) check ;;
  install) install ;;
  build) install; npm --prefix web run build ;;
  test) install; npm --prefix web test ;;
  *) echo "usage: $0 check|install|build|test" >&2; exit 2 ;;
esac
