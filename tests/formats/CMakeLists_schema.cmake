# Wire-compatibility check of qforge's .tflite schema against the upstream
# TensorFlow Lite schema. Included from tests/CMakeLists.txt.
#
# The test parses both .fbs files at run time (flatbuffers::Parser), so no
# flatc step is needed here. If the reference schema is absent the test
# reports itself as skipped.

if(NOT TARGET GTest::gtest_main)
  find_package(GTest REQUIRED)
endif()
if(NOT TARGET flatbuffers::flatbuffers)
  # Debian ships FlatBuffersConfig.cmake, so the package name is
  # case-sensitive: "FlatBuffers", not "flatbuffers".
  find_package(FlatBuffers CONFIG REQUIRED)
endif()
include(GoogleTest)

add_executable(schema_compat_test
  ${CMAKE_CURRENT_LIST_DIR}/schema_compat_test.cc)
target_compile_features(schema_compat_test PRIVATE cxx_std_17)
target_compile_definitions(schema_compat_test PRIVATE
  QFORGE_REFERENCE_SCHEMA="${CMAKE_SOURCE_DIR}/../shared/reference/tflite_schema.fbs"
  QFORGE_SCHEMA_DIR="${CMAKE_SOURCE_DIR}/formats/schema")
# GCC 12 reports a false -Wstringop-overread inside flatbuffers' reflection
# headers when inlining under -fsanitize; the code reads verified buffers.
target_compile_options(schema_compat_test PRIVATE
  $<$<CXX_COMPILER_ID:GNU>:-Wno-stringop-overread> ${QFORGE_TEST_COPTS})
target_link_libraries(schema_compat_test PRIVATE
  GTest::gtest_main flatbuffers::flatbuffers)

gtest_discover_tests(schema_compat_test
  DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "unit")
