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
  unformatted=()
  for f in "${files[@]}"; do
    if ! "$formatter" --dry-run --Werror "$f" >/dev/null 2>&1; then unformatted+=("$f"); fi
  done
  if (( ${#unformatted[@]} )); then
    printf 'format: not formatted as .clang-format says (run make format):\n' >&2
    printf '  %s\n' "${unformatted[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  "$formatter" -i "${files[@]}"
fi
