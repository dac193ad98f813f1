# This core's int8 VNNI and fp32 FMA peaks (bench/speed/ort.mjs reports
# each model's share of them). Included by bench/CMakeLists.txt.
add_executable(peak_bench ${CMAKE_CURRENT_LIST_DIR}/peak_bench.cc)
