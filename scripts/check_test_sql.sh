#!/usr/bin/env bash
# Tests read and write stored rows through named helpers, not SQL of their
# own (docs/contributing.md, "How a test reads stored rows"): a test asks a
# store interface (a repository, InventoryReader) or a helper of
# tests/support/ (stored_usage.h, stored_inventory.h, ...), so a table that
# changes is fixed in one place. SQL in test code is allowed only where SQL
# is what is under test or what is shared:
#   store/         the PostgreSQL implementations, their contracts and unit tests
#   tests/store/   the store's integration tests
#   tests/sql/     the schema's own SQL (migrations, functions, the SQL baseline)
#   tests/support/ the helpers themselves
#   tests/bench/   benchmarks
# Test code is every C++ file under tests/, every *_test.cc, and every file
# that includes GoogleTest. A statement is a string literal that starts with
# SELECT, INSERT, UPDATE, DELETE, WITH, LOCK or TRUNCATE and a space, or a
# line of a raw string that starts one. Prints each and exits 1 if there is one.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

allowed='^(store|tests/store|tests/sql|tests/support|tests/bench)/'
literal='"[[:space:]]*(SELECT|INSERT|UPDATE|DELETE|WITH|LOCK|TRUNCATE)[[:space:]]'
raw_literal='R"[^(]*\([[:space:]]*(SELECT|INSERT|UPDATE|DELETE|WITH|LOCK|TRUNCATE)([[:space:]]|$)'
raw_line='^[[:space:]]*(SELECT[[:space:]]|INSERT INTO[[:space:]]|DELETE FROM[[:space:]]|UPDATE[[:space:]]+[a-z_]+[[:space:]]+SET[[:space:]]|WITH[[:space:]]+[a-z_]+[[:space:]]+AS[[:space:]]*\()'

test_files() {
  find tests -type f \( -name '*.cc' -o -name '*.h' \)
  find common ingest optimizer policy services -type f -name '*_test.cc'
  grep -rlE --include='*.cc' --include='*.h' '#include <(gtest|gmock)/' common ingest optimizer policy services || true
}

violations=0
while IFS= read -r file; do
  [[ "$file" =~ $allowed ]] && continue
  while IFS= read -r hit; do
    echo "test SQL: $file:$hit"
    violations=$((violations + 1))
  done < <(grep -nE "$literal|$raw_literal|$raw_line" "$file" || true)
done < <(test_files | sort -u)

if ((violations > 0)); then
  echo "test SQL: $violations statement(s) outside store/, tests/store/, tests/sql/, tests/support/ and tests/bench/;"
  echo "read or seed the rows through a store interface or a helper of tests/support/ (docs/contributing.md)"
  exit 1
fi
echo "test SQL: tests read and write stored rows through store interfaces and tests/support/ helpers"
