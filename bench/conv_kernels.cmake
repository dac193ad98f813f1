# Conv-family kernel throughput (GFLOP/s, fraction of FMA peak). Included by
# bench/CMakeLists.txt.
add_executable(conv_kernels_bench ${CMAKE_CURRENT_LIST_DIR}/conv_kernels_bench.cc)
target_link_libraries(conv_kernels_bench PRIVATE qforge_runtime
                      benchmark::benchmark_main)
