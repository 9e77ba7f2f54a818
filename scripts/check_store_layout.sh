#!/usr/bin/env bash
# The store's layout (docs/architecture.md, "The store's layout"): every
# aggregate has its interface alone in store/X_repository.h, its PostgreSQL
# implementation in store/pg_X_repository.{h,cc}, its in-memory one in
# store/memory_X_repository.{h,cc}, and its contract in store/X_contract.h.
# No in-memory or fake repository is defined outside store/, in production or
# test code: a test that needs a repository uses the store's in-memory one.
# The one exception is a stand-in inside a single test file (a *_test.cc) that plays
# what no implementation does (a store that is away, counts no inventory can
# reach); it may not be named Memory* or Fake*, and no shared header outside
# store/ may implement a repository.
# Prints each breach and exits 1 if there is one.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# Aggregates exempt from the layout, each with its reason (none today).
declare -A exempt=()
# store/control_repositories.h is a bundle of several small aggregates (policy
# versions, tokens, audit) with pg_ and memory_ siblings of its own name; it
# does not match *_repository.h and is not checked here.

violations=0
breach() {
  echo "store layout: $*"
  violations=$((violations + 1))
}

for interface in store/*_repository.h; do
  base="${interface#store/}"
  [[ "$base" == pg_* || "$base" == memory_* ]] && continue
  name="${base%_repository.h}"
  [[ -n "${exempt[$name]+x}" ]] && continue
  for sibling in "pg_${name}_repository.h" "pg_${name}_repository.cc" "memory_${name}_repository.h" \
    "memory_${name}_repository.cc" "${name}_contract.h"; do
    [[ -f "store/$sibling" ]] || breach "$interface: store/$sibling is missing"
  done
  if grep -nE '^\s*class\s+(Pg|Memory|Fake)[A-Za-z]*' "$interface"; then
    breach "$interface: an implementation is defined in the interface header (above)"
  fi
done

# In-memory or fake repositories outside store/: a class named Memory*/Fake*
# that derives from a store repository interface, or whose name ends in
# Repository, or that stands in for one (Fake<Aggregate>).
while IFS= read -r hit; do
  breach "a repository implementation outside store/: $hit"
done < <(grep -rnE --include='*.h' --include='*.cc' \
  '^\s*(class|struct)\s+(Memory|Fake)[A-Za-z]*(\s+(final\s+)?:\s*public\s+(fleetcap::)?store::|Repository\b|Repositories\b)' \
  common ingest optimizer policy services tests 2>/dev/null || true)
while IFS= read -r hit; do
  breach "a store repository implemented outside store/ (not a stand-in inside one test file): $hit"
done < <(grep -rlE --include='*.h' --include='*.cc' --exclude='*_test.cc' \
  'public\s+(fleetcap::)?store::[A-Za-z]*Repository\b' \
  common ingest optimizer policy services tests 2>/dev/null || true)

if ((violations > 0)); then
  echo "store layout: $violations breach(es); see docs/architecture.md, \"The store's layout\""
  exit 1
fi
echo "store layout: every aggregate keeps its interface, PostgreSQL, in-memory and contract files"
