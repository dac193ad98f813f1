# Per-op integer agreement with LiteRT (tests/interop/int_ops_litert.mjs):
# included from tests/CMakeLists.txt. About 25 s of one core.
add_test(NAME interop_int_ops_litert
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/int_ops_litert.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/../shared/corpus)
set_tests_properties(interop_int_ops_litert PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 300)
