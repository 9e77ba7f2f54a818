#include "tests/support/table_rows.h"

#include "absl/strings/str_cat.h"

namespace fleetcap::testing {

std::string TableRows(pqxx::connection& conn, const std::string& table) {
  pqxx::read_transaction txn(conn);
  auto generated = txn.exec_params(
      "SELECT coalesce(array_agg(a.attname::text), '{}') FROM pg_attrdef d"
      " JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum"
      " WHERE d.adrelid = to_regclass($1)"
      "   AND (pg_get_expr(d.adbin, d.adrelid) LIKE '%now()%' OR pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%')",
      table);
  const std::string skipped = generated[0][0].as<std::string>();
  return txn
      .exec(absl::StrCat("SELECT coalesce(string_agg(r, E'\\n' ORDER BY r), '') FROM (SELECT (to_jsonb(t) - ",
                         txn.quote(skipped), "::text[])::text AS r FROM ", txn.quote_name(table), " t) s"))[0][0]
      .as<std::string>();
}

}  // namespace fleetcap::testing
