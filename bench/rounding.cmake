# Generator of the synthetic decoder block of the weight-rounding benchmark
# (bench/weights/rounding.sh). Included by bench/CMakeLists.txt.
add_executable(make_decoder_block
               ${CMAKE_CURRENT_LIST_DIR}/weights/make_decoder_block.cc)
target_link_libraries(make_decoder_block PRIVATE qforge_formats)
