# Tests of formats/data (npy/npz, images, wav, --data specs, SampleSource).
include(GoogleTest)
add_executable(formats_data_test
  ${CMAKE_CURRENT_LIST_DIR}/array_fit_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/content_hash_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/data_source_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/data_spec_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fingerprint_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/image_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lazy_content_hash_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/npy_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/npz_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/test_util.cc
  ${CMAKE_CURRENT_LIST_DIR}/wav_test.cc
)
# It compiles xxHash's scalar code inline (XXH_INLINE_ALL), which must not
# meet another <xxhash.h> in a unity source.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/content_hash_test.cc
  PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON SKIP_PRECOMPILE_HEADERS ON)
qforge_pch(formats_data_test <gtest/gtest.h>)
target_compile_options(formats_data_test PRIVATE ${QFORGE_TEST_COPTS})
target_link_libraries(formats_data_test PRIVATE qforge_data qforge_formats
                      GTest::gtest_main GTest::gmock)
target_compile_definitions(formats_data_test PRIVATE
  QFORGE_TESTDATA_DATA_DIR="${CMAKE_CURRENT_LIST_DIR}/../../../testdata/data")
gtest_discover_tests(formats_data_test DISCOVERY_MODE PRE_TEST
                     PROPERTIES LABELS "unit")
