# fleetcap_generate_grpc(target): generates the C++ messages and gRPC stubs of
# the target's .proto sources, with the current source folder as import root.
function(fleetcap_generate_grpc target)
  get_target_property(grpc_cpp_plugin gRPC::grpc_cpp_plugin LOCATION)
  protobuf_generate(TARGET ${target} LANGUAGE cpp IMPORT_DIRS ${CMAKE_CURRENT_SOURCE_DIR})
  protobuf_generate(TARGET ${target} LANGUAGE grpc
    GENERATE_EXTENSIONS .grpc.pb.h .grpc.pb.cc
    PLUGIN "protoc-gen-grpc=${grpc_cpp_plugin}"
    IMPORT_DIRS ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC protobuf::libprotobuf gRPC::grpc++)
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_BINARY_DIR})
  # protoc gives every generated file the same file-local names (schemas,
  # file_default_instances), so these compile one file at a time.
  set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
endfunction()
