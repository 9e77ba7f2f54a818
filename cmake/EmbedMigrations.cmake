# cmake -P script: writes OUTPUT, a C++ file holding every migration in
# MIGRATIONS_DIR (NNNN_name.sql, in order) and every repeatable function in
# FUNCTIONS_DIR (name.sql, by name), so each daemon carries the schema it was
# built for.
file(GLOB sql_files "${MIGRATIONS_DIR}/*.sql")
list(SORT sql_files)
set(body "")
foreach(path IN LISTS sql_files)
  get_filename_component(file_name "${path}" NAME_WE)
  if(NOT file_name MATCHES "^([0-9][0-9][0-9][0-9])_([a-z0-9_]+)$")
    message(FATAL_ERROR "migration ${path}: name must be NNNN_name.sql")
  endif()
  math(EXPR version "${CMAKE_MATCH_1}")
  file(READ "${path}" sql)
  string(APPEND body "    {${version}, \"${file_name}\", R\"fleetcap_sql(${sql})fleetcap_sql\"},\n")
endforeach()
file(GLOB function_files "${FUNCTIONS_DIR}/*.sql")
list(SORT function_files)
set(functions_body "")
foreach(path IN LISTS function_files)
  get_filename_component(file_name "${path}" NAME_WE)
  if(NOT file_name MATCHES "^fleetcap_[a-z0-9_]+$")
    message(FATAL_ERROR "function ${path}: name must be fleetcap_name.sql, the function it defines")
  endif()
  file(READ "${path}" sql)
  string(APPEND functions_body "    {\"${file_name}\", R\"fleetcap_sql(${sql})fleetcap_sql\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
"// Generated from store/migrations and store/functions by cmake/EmbedMigrations.cmake.\n"
"#include \"store/migrations.h\"\n\n"
"namespace fleetcap::store {\n\n"
"const std::vector<Migration>& BuiltinMigrations() {\n"
"  static const std::vector<Migration> kMigrations = {\n${body}  };\n"
"  return kMigrations;\n}\n\n"
"const std::vector<Repeatable>& BuiltinRepeatables() {\n"
"  static const std::vector<Repeatable> kRepeatables = {\n${functions_body}  };\n"
"  return kRepeatables;\n}\n\n}  // namespace fleetcap::store\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
