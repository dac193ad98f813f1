# Generator of the model-scale memory benchmark's model
# (bench/big_model/run.sh). Included by bench/CMakeLists.txt.
add_executable(make_big_model ${CMAKE_CURRENT_LIST_DIR}/big_model/make_big_model.cc)
add_dependencies(make_big_model qforge_schema_gen)
target_include_directories(make_big_model PRIVATE ${CMAKE_BINARY_DIR})
target_link_libraries(make_big_model PRIVATE flatbuffers::flatbuffers)
