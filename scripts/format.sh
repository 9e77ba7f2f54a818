#!/usr/bin/env bash
# `make format` rewrites every C++ file to .clang-format; `format.sh --check`
# (a ctest entry) fails naming the files that are not.
set -euo pipefail
cd "$(dirname "$0")/.."

formatter=$(command -v clang-format-14 || command -v clang-format || true)
if [[ -z "$formatter" ]]; then
  echo "format: clang-format-14 is not installed (scripts/bootstrap.sh installs it)" >&2
  exit 1
fi

mapfile -t files < <(git ls-files '*.cc' '*.h' ':!:tests/fuzz/corpus/**')
if [[ "${1:-}" == "--check" ]]; then
  # A hundred files per clang-format, one per core: one process per file took
  # over a minute. Each misformatted line is reported as FILE:LINE:COL: error.
  if ! report=$(printf '%s\0' "${files[@]}" | xargs -0 -n 100 -P "$(nproc)" "$formatter" --dry-run --Werror 2>&1); then
    mapfile -t unformatted < <(grep -oE '^[^:[:space:]]+:[0-9]+:[0-9]+: error' <<<"$report" | cut -d: -f1 | sort -u)
    if (( ${#unformatted[@]} == 0 )); then
      printf 'format: clang-format failed:\n%s\n' "$report" >&2
      exit 1
    fi
    printf 'format: not formatted as .clang-format says (run make format):\n' >&2
    printf '  %s\n' "${unformatted[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  "$formatter" -i "${files[@]}"
fi
