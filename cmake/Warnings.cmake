# Warnings for fleetcap's own code only: an INTERFACE target linked PRIVATE,
# so the flags never reach consumers or third-party headers.
add_library(fleetcap_warnings INTERFACE)
target_compile_options(fleetcap_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Wunused -Woverloaded-virtual
  # GoogleTest's assertion macros trip GCC's -Wnull-dereference at -O2, so
  # test binaries (FLEETCAP_GTEST) go without it.
  $<$<NOT:$<BOOL:$<TARGET_PROPERTY:FLEETCAP_GTEST>>>:-Wnull-dereference>
  -Wimplicit-fallthrough -Werror)
