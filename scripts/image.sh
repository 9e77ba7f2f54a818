#!/usr/bin/env bash
# Builds fleetcap's OCI image without any image registry (deploy/README.md,
# "The image"): a Debian 12 root file system made by mmdebstrap from the
# Debian archive, holding only the packages the release executables load,
# the executables, and the user 65532 the manifests run as; umoci turns it
# into an OCI image layout plus an oci-archive of it.
#
#   scripts/image.sh [--bin-dir DIR] [--out DIR] [--tag TAG]
#
#   --bin-dir  the CMake build holding the executables (default build/release)
#   --out      where the image goes (default build/image): oci/ (an OCI image
#              layout, tag TAG) and fleetcap-TAG.oci.tar (the same as an
#              oci-archive, for podman load, skopeo copy or ctr import)
#   --tag      the image's tag (default latest, as in deploy/base/kustomization.yaml)
#
# DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR pick the archive; SOURCE_DATE_EPOCH
# (default: the time of the last commit) fixes every timestamp, so two runs over
# the same binaries and the same archive give the same layer.
set -euo pipefail
cd "$(dirname "$0")/.."

bin_dir=build/release
out=build/image
tag=latest
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin-dir) bin_dir=${2:?--bin-dir needs a directory}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --tag) tag=${2:?--tag needs a value}; shift 2 ;;
    *) echo "image: unknown argument '$1' (expected --bin-dir, --out or --tag)" >&2; exit 2 ;;
  esac
done
[[ "$tag" =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$ ]] || { echo "image: --tag '$tag' is not a valid image tag" >&2; exit 2; }

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security_mirror=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)

# The tools (jq for scripts/check_image.sh), as Debian packages, installed the
# way scripts/bootstrap.sh does.
tools=(mmdebstrap umoci patchelf binutils jq)
missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo=""
  if [[ "$(id -u)" -ne 0 ]]; then sudo="sudo"; fi
  echo "image: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Where each executable sits in the build tree.
declare -A sources=(
  [fleetcap-ingest]=ingest/fleetcap-ingest
  [fleetcap-api]=services/api/fleetcap-api
  [fleetcap-optimizer]=optimizer/fleetcap-optimizer
  [fleetcapctl]=services/ctl/fleetcapctl
)
for name in "${!sources[@]}"; do
  [[ -x "$bin_dir/${sources[$name]}" ]] || {
    echo "image: $bin_dir/${sources[$name]} is missing; build it first (make image does: cmake --preset release && cmake --build --preset release)" >&2
    exit 1
  }
done

rm -rf "$out"
staging=$out/staging
mkdir -p "$staging/usr/local/bin"

# Debug information is stripped; the executables load only Debian's shared
# libraries, so a RUNPATH into the build tree is removed.
for name in $(printf '%s\n' "${!sources[@]}" | sort); do
  dest=$staging/usr/local/bin/$name
  strip --strip-unneeded -o "$dest" "$bin_dir/${sources[$name]}"
  chmod 0755 "$dest"
  if [[ -n "$(patchelf --print-rpath "$dest")" ]]; then
    patchelf --remove-rpath "$dest"
  fi
done

# The runtime packages: whichever Debian packages own the shared libraries the
# executables load here (ldd, dpkg -S), plus ca-certificates for TLS to
# PostgreSQL and the Kubernetes API. Libraries of the build tree are skipped.
lib_paths=$(for name in "${!sources[@]}"; do ldd "$bin_dir/${sources[$name]}"; done)
build_tree=$(realpath "$bin_dir")
mapfile -t libs < <(awk '/=>/ && $3 ~ /^\// {print $3}' <<<"$lib_paths" | sort -u | grep -v -e "^$PWD/" -e "^$build_tree/")
# dpkg records a library under one of its names: as loaded, resolved, or
# without /usr (Debian 12's merged /usr has both). One dpkg-query for all.
declare -A names_of=()
queries=()
for lib in "${libs[@]}"; do
  real=$(readlink -f "$lib")
  names_of[$lib]="$lib $real ${lib#/usr} ${real#/usr}"
  queries+=("$lib" "$real" "${lib#/usr}" "${real#/usr}")
done
owners=$(dpkg-query -S "${queries[@]}" 2>/dev/null || true)
packages=(ca-certificates)
for lib in "${libs[@]}"; do
  owner=""
  for name in ${names_of[$lib]}; do
    owner=$(awk -F': ' -v p="$name" '$2 == p {print $1; exit}' <<<"$owners" | cut -d, -f1 | cut -d: -f1)
    [[ -n "$owner" ]] && break
  done
  [[ -n "$owner" ]] || { echo "image: no Debian package owns $lib, which the executables load" >&2; exit 1; }
  packages+=("$owner")
done
mapfile -t packages < <(printf '%s\n' "${packages[@]}" | sort -u)
printf '%s\n' "${packages[@]}" > "$out/packages.txt"
echo "image: ${#packages[@]} runtime packages (listed in $out/packages.txt)"

# The root file system: Essential packages (no apt, no compiler) plus the
# runtime packages; documentation, manuals and translations left out; the
# user and group 65532 (deploy/base/*.yaml securityContext) without a home or
# login shell; the host's resolv.conf and hostname removed (the runtime
# provides them); no file is setuid or setgid (nothing in the image needs to
# become another user). Device nodes are dropped: the runtime makes /dev.
mmdebstrap --variant=essential \
  --include="$(IFS=,; echo "${packages[*]}")" \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/lintian/*' \
  --customize-hook="sync-in $staging /" \
  --customize-hook='echo "fleetcap:x:65532:65532:fleetcap:/nonexistent:/usr/sbin/nologin" >> "$1/etc/passwd"' \
  --customize-hook='echo "fleetcap:x:65532:" >> "$1/etc/group"' \
  --customize-hook='rm -f "$1/etc/resolv.conf" "$1/etc/hostname"; : > "$1/etc/machine-id"' \
  --customize-hook='rm -rf "$1"/var/cache/* "$1"/var/log/*.log "$1"/var/lib/apt/lists/*' \
  --customize-hook='find "$1" -xdev -type f -perm /6000 -exec chmod ug-s {} +' \
  bookworm "$out/rootfs.tar" \
  "deb $mirror bookworm main" \
  "deb $mirror bookworm-updates main" \
  "deb $security_mirror bookworm-security main"
mmtarfilter --path-exclude='/dev/*' < "$out/rootfs.tar" > "$out/layer.tar"
rm "$out/rootfs.tar"

# The OCI image: one layer, the configuration the manifests rely on (user
# 65532, the executables on PATH; each workload names its command, so there is
# no entrypoint and the default command is the API), and the standard labels.
image=$out/oci:$tag
umoci init --layout "$out/oci"
umoci new --image "$image"
umoci raw add-layer --image "$image" \
  --history.created "$created" --history.created_by "scripts/image.sh" \
  --history.comment "Debian 12 runtime packages and the fleetcap executables" \
  "$out/layer.tar"
umoci config --image "$image" --created "$created" --history.created "$created" \
  --history.created_by "scripts/image.sh (configuration)" \
  --os linux --architecture amd64 \
  --config.user 65532:65532 \
  --config.workingdir / \
  --config.env PATH=/usr/local/bin:/usr/bin:/bin \
  --config.cmd fleetcap-api \
  --config.label org.opencontainers.image.title=fleetcap \
  --config.label "org.opencontainers.image.description=fleetcap-ingest, fleetcap-api, fleetcap-optimizer and fleetcapctl on Debian 12" \
  --config.label org.opencontainers.image.revision="$revision" \
  --config.label org.opencontainers.image.created="$created" \
  --config.label org.opencontainers.image.base.name=debian:bookworm
umoci gc --layout "$out/oci"

# The same image as one oci-archive file, entries sorted and dated. Its only
# name is fleetcap:TAG, which podman load and ctr import take as the image's
# name (a bare TAG would load as localhost/TAG).
archive=$out/archive
cp -a "$out/oci" "$archive"
umoci tag --image "$archive:$tag" "fleetcap:$tag"
umoci rm --image "$archive:$tag"
tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
  -C "$archive" -cf "$out/fleetcap-$tag.oci.tar" .
rm -rf "$staging" "$archive" "$out/layer.tar"
echo "image: $out/oci:$tag and $out/fleetcap-$tag.oci.tar ($(du -h "$out/fleetcap-$tag.oci.tar" | cut -f1))"
