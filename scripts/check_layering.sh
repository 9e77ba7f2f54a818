#!/usr/bin/env bash
# The include layering of docs/architecture.md ("What each folder may
# include"), checked on every #include "folder/..." of the tree. Test code
# (*_test.cc and the files that include GoogleTest) may include everything.
# Prints each include that crosses a layer and exits 1 if there is one.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# folder -> the project folders its code may include besides itself.
# `fleetcap/` is the generated API (proto/fleetcap/v1). Under services/,
# each sub-folder is a layer of its own: the API and the client share the
# exports, and neither includes the other.
declare -A allowed=(
  [common]=""
  [store]="common"
  [policy]="common"
  [ingest]="common store policy"
  [optimizer]="common store policy"
  [services/exports]="fleetcap common policy optimizer"
  [services/api]="fleetcap common store policy optimizer services/exports"
  [services/ctl]="fleetcap common store policy optimizer services/exports"
)
project_folders="common store policy ingest optimizer services/exports services/api services/ctl tests fleetcap"
# Sub-folders that may include more than their folder: optimizer/commands/
# wires the fleetcap-optimizer executable, and `allocate` prints the API's
# RecommendationSet through the exports (docs/architecture.md).
declare -A widened=(
  [optimizer/commands]="fleetcap services/exports"
)

# The layer of a path: its first folder, or its first two under services/.
layer() {
  local top="${1%%/*}"
  if [[ "$top" == services ]]; then
    local rest="${1#services/}"
    echo "services/${rest%%/*}"
  else
    echo "$top"
  fi
}

violations=0
for folder in "${!allowed[@]}"; do
  [[ -d "$folder" ]] || continue
  while IFS= read -r -d '' file; do
    [[ "$file" == *_test.cc ]] && continue
    grep -qE '^#include <(gtest|gmock)/' "$file" && continue
    may_include="${allowed[$folder]}"
    for sub in "${!widened[@]}"; do
      [[ "$file" == "$sub"/* ]] && may_include+=" ${widened[$sub]}"
    done
    while IFS=: read -r line target; do
      top=$(layer "$target")
      [[ " $project_folders " == *" $top "* ]] || continue  # a library, or a file of the same folder
      [[ "$top" == "$folder" ]] && continue
      [[ " $may_include " == *" $top "* ]] && continue
      echo "$file:$line: includes \"$target\", but $folder/ may include only: ${may_include:-nothing of the project}" >&2
      violations=$((violations + 1))
    done < <(grep -nE '^\s*#\s*include\s+"[^"]+/' "$file" | sed -E 's/^([0-9]+):\s*#\s*include\s+"([^"]+)".*/\1:\2/')
  done < <(find "$folder" \( -name '*.h' -o -name '*.cc' \) -print0)
done

if ((violations > 0)); then
  echo "check_layering: $violations include(s) cross a layer (see docs/architecture.md)" >&2
  exit 1
fi
echo "check_layering: every include keeps to its layer"
