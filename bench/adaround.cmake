# AdaRound optimizer time on one realistic layer. Included by
# bench/CMakeLists.txt.
add_executable(adaround_bench ${CMAKE_CURRENT_LIST_DIR}/adaround_bench.cc)
target_link_libraries(adaround_bench PRIVATE qforge_quantizer
                      benchmark::benchmark_main)
# GCC bug 105593 (see quantizer/CMakeLists.txt): the layer's target is a GEMM.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/adaround_bench.cc APPEND
               PROPERTY COMPILE_OPTIONS -Wno-maybe-uninitialized
               -Wno-uninitialized)
endif()
