# Sanitizers, as an INTERFACE target linked PRIVATE by every fleetcap target:
#   FLEETCAP_SANITIZE  ASan + UBSan (the `asan` preset, gcc)
#   FLEETCAP_TSAN      ThreadSanitizer (the `tsan` preset, gcc)
#   FLEETCAP_FUZZ      libFuzzer's coverage + ASan + UBSan (the `fuzz` preset,
#                      clang); the fuzzers themselves link -fsanitize=fuzzer
#                      (tests/fuzz/CMakeLists.txt).
add_library(fleetcap_sanitizers INTERFACE)
if(FLEETCAP_SANITIZE)
  target_compile_options(fleetcap_sanitizers INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(fleetcap_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
if(FLEETCAP_TSAN)
  # -O1: TSan's checks make -O0 code several times slower still.
  target_compile_options(fleetcap_sanitizers INTERFACE -fsanitize=thread -fno-omit-frame-pointer -O1)
  target_link_options(fleetcap_sanitizers INTERFACE -fsanitize=thread)
endif()
if(FLEETCAP_FUZZ)
  target_compile_options(fleetcap_sanitizers INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(fleetcap_sanitizers INTERFACE -fsanitize=address,undefined)
endif()

# fleetcap_target(name): the options every fleetcap target gets.
function(fleetcap_target name)
  target_link_libraries(${name} PRIVATE fleetcap_warnings fleetcap_sanitizers)
endfunction()

# Every unit-test binary, so the asan pass builds only what it runs.
add_custom_target(unit_tests)

# fleetcap_unit_test(name SOURCES ... LIBS ...): a GoogleTest binary labelled `unit`.
function(fleetcap_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  fleetcap_target(${name})
  target_link_libraries(${name} PRIVATE ${T_LIBS} fleetcap::build_paths GTest::gmock_main)
  set_target_properties(${name} PROPERTIES FLEETCAP_GTEST ON)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS unit TIMEOUT 300)
  add_dependencies(unit_tests ${name})
endfunction()
