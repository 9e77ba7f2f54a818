#!/usr/bin/env bash
# Checks the image scripts/image.sh built, from its files alone (no container
# runtime works on every build machine; deploy/README.md, "The image"):
#   - the configuration: a non-root numeric user, PATH, a default command, the labels;
#   - the layers' listings: the four executables present and executable, the
#     user 65532 in /etc/passwd, no compiler, linker, build tool or package
#     manager, no -dev package, no setuid or setgid file, no device node;
#   - as root: each executable's --help run inside the unpacked layers
#     (chroot, as user 65532), so every library it loads is in the image.
#
#   scripts/check_image.sh [--layout DIR] [--tag TAG]   (default build/image/oci, latest)
set -euo pipefail
cd "$(dirname "$0")/.."

layout=build/image/oci
tag=latest
while [[ $# -gt 0 ]]; do
  case "$1" in
    --layout) layout=${2:?--layout needs a directory}; shift 2 ;;
    --tag) tag=${2:?--tag needs a value}; shift 2 ;;
    *) echo "check_image: unknown argument '$1' (expected --layout or --tag)" >&2; exit 2 ;;
  esac
done
command -v jq >/dev/null || { echo "check_image: jq not found (scripts/image.sh installs it)" >&2; exit 1; }
[[ -f "$layout/index.json" ]] || { echo "check_image: $layout/index.json not found; run make image first" >&2; exit 1; }

executables=(fleetcap-api fleetcap-ingest fleetcap-optimizer fleetcapctl)
problems=()
problem() { problems+=("$1"); echo "  FAIL: $1"; }
blob() { echo "$layout/blobs/${1/://}"; }

manifest=$(jq -r --arg t "$tag" '.manifests[] | select(.annotations["org.opencontainers.image.ref.name"] == $t) | .digest' "$layout/index.json" | head -1)
[[ -n "$manifest" ]] || { echo "check_image: $layout has no image tagged '$tag'" >&2; exit 1; }
config=$(blob "$(jq -r .config.digest "$(blob "$manifest")")")
mapfile -t layers < <(jq -r '.layers[].digest' "$(blob "$manifest")")
echo "check_image: $layout:$tag, manifest $manifest, ${#layers[@]} layer(s)"

echo "configuration:"
user=$(jq -r '.config.User // ""' "$config")
echo "  user $user, cmd $(jq -c '.config.Cmd' "$config"), entrypoint $(jq -c '.config.Entrypoint' "$config")"
[[ "$user" =~ ^[0-9]+(:[0-9]+)?$ ]] || problem "the user '$user' is not numeric (runAsNonRoot needs a numeric uid)"
[[ "${user%%:*}" != "0" && -n "$user" ]] || problem "the image runs as root"
[[ "$user" == "65532:65532" ]] || problem "the user is '$user', not 65532:65532 as deploy/base's securityContext"
jq -e '.config.Env // [] | map(select(startswith("PATH="))) | .[0] // "" | split("=")[1] | split(":") | index("/usr/local/bin")' "$config" >/dev/null \
  || problem "PATH does not hold /usr/local/bin"
jq -e '(.config.Cmd // []) + (.config.Entrypoint // []) | length > 0' "$config" >/dev/null || problem "neither a command nor an entrypoint is set"
for label in title description revision created base.name; do
  value=$(jq -r --arg l "org.opencontainers.image.$label" '.config.Labels[$l] // ""' "$config")
  [[ -n "$value" ]] || problem "the label org.opencontainers.image.$label is missing"
done
[[ "$(jq -r .os "$config")/$(jq -r .architecture "$config")" == linux/amd64 ]] || problem "the platform is not linux/amd64"

# Every layer's entries, as "type+mode path" (a later layer could only add here:
# image.sh writes one layer and no whiteouts).
listing=$(mktemp)
trap 'rm -rf "$listing" "${rootfs:-}"' EXIT
for layer in "${layers[@]}"; do
  tar -tvzf "$(blob "$layer")" | awk '{mode=$1; $1=$2=$3=$4=$5=""; sub(/^ +/, ""); sub(/ -> .*/, ""); sub(/ link to .*/, ""); sub(/^\.\//, "/"); print mode, $0}'
done > "$listing"
echo "layers: $(wc -l < "$listing") entries"

echo "executables:"
for name in "${executables[@]}"; do
  entry=$(awk -v p="/usr/local/bin/$name" '$2 == p' "$listing")
  echo "  ${entry:-/usr/local/bin/$name missing}"
  [[ "$entry" =~ ^-rwxr-xr-x ]] || problem "/usr/local/bin/$name is missing or not a 0755 regular file"
done

echo "forbidden contents:"
# Compilers, linkers, build tools, package managers and headers: none of them
# belongs in a runtime image.
forbidden='^/usr/(local/)?(s?bin)/(gcc|g\+\+|cc|c\+\+|cpp|clang[^/]*|ld(\.(bfd|gold|lld))?|as|make|cmake|ninja|apt|apt-get|pip3?|python3?)$|^/usr/lib/gcc/|^/usr/include/.'
found=$(awk '{print $2}' "$listing" | grep -E "$forbidden" || true)
[[ -z "$found" ]] || problem "build tools or headers in the image: $(echo "$found" | head -5 | tr '\n' ' ')"
special=$(awk '$1 ~ /^-..[sS]|^-.....[sS]/ {print $2}' "$listing")
[[ -z "$special" ]] || problem "setuid or setgid files: $(echo "$special" | tr '\n' ' ')"
devices=$(awk '$1 ~ /^[bc]/ {print $2}' "$listing")
[[ -z "$devices" ]] || problem "device nodes: $(echo "$devices" | head -5 | tr '\n' ' ')"

# Files inside the layers: /etc/passwd and the package database.
extract() { for layer in "${layers[@]}"; do tar -xzOf "$(blob "$layer")" "./$1" 2>/dev/null || true; done; }
passwd_line=$(extract etc/passwd | awk -F: '$3 == 65532')
echo "  user 65532: ${passwd_line:-missing}"
[[ "$passwd_line" =~ :/usr/sbin/nologin$ ]] || problem "/etc/passwd has no user 65532 with the shell /usr/sbin/nologin"
dev_packages=$(extract var/lib/dpkg/status | awk '/^Package: / {p=$2} /^Status: install ok installed/ && p ~ /-dev$/ {print p}')
[[ -z "$dev_packages" ]] || problem "-dev packages installed: $(echo "$dev_packages" | tr '\n' ' ')"
echo "  $(extract var/lib/dpkg/status | grep -c '^Status: install ok installed') packages installed"

# Running the executables needs root (chroot); without it the listing checks stand alone.
if [[ "$(id -u)" -eq 0 ]]; then
  echo "run inside the layers (chroot, user 65532):"
  rootfs=$(mktemp -d)
  for layer in "${layers[@]}"; do tar -xzf "$(blob "$layer")" -C "$rootfs"; done
  for name in "${executables[@]}"; do
    if out=$(chroot --userspec=65532:65532 "$rootfs" "/usr/local/bin/$name" --help 2>&1); then
      echo "  $name --help: ok ($(echo "$out" | head -1))"
    else
      problem "$name --help failed inside the image: $(echo "$out" | tail -2 | tr '\n' ' ')"
    fi
  done
else
  echo "not root: the executables are not run inside the layers"
fi

if [[ ${#problems[@]} -gt 0 ]]; then
  echo "check_image: ${#problems[@]} problem(s)" >&2
  exit 1
fi
echo "check_image: ok"
