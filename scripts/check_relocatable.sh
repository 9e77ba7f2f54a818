#!/usr/bin/env bash
# check_relocatable.sh SOURCE_DIR BUILD_DIR (a ctest entry): no compile
# command of the build defines a macro that holds a path of this clone (its
# source or build folder). Such an object differs from one clone to the next,
# so ccache cannot reuse it in a second clone of the same commit (CI's).
# Tests find their programs and data through tests/support/build_paths.h.
set -euo pipefail
source_dir=$1
build_dir=$2
commands="$build_dir/compile_commands.json"
[ -f "$commands" ] || { echo "relocatable: no $commands (CMAKE_EXPORT_COMPILE_COMMANDS)" >&2; exit 1; }

# -DNAME=... up to the next space, with the clone's source or build folder in it.
offending=$(grep -oE -- "-D[A-Za-z_][A-Za-z0-9_]*=[^ ]*" "$commands" |
  grep -F -e "$source_dir" -e "$(realpath "$build_dir")" | sort -u || true)
if [ -n "$offending" ]; then
  echo "relocatable: compile definitions hold a path of this clone (use tests/support/build_paths.h):" >&2
  echo "$offending" | sed 's/^/  /' >&2
  exit 1
fi
echo "relocatable: $(grep -c '"command"' "$commands") compile commands, none defines a path of this clone"
