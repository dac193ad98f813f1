# libFuzzer targets (configure with -DQFORGE_FUZZ=ON and clang; built and
# run by scripts/test.sh --fuzz and scripts/fuzz.sh, whose corpora and
# dictionaries are listed in tests/fuzz/targets.sh).
function(qforge_fuzzer name)
  cmake_parse_arguments(F "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${F_SOURCES})
  target_link_libraries(${name} PRIVATE ${F_LIBS})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_compile_definitions(${name} PRIVATE
    QFORGE_TESTDATA_DIR="${CMAKE_SOURCE_DIR}/testdata")
endfunction()

set(D ${CMAKE_CURRENT_LIST_DIR})
qforge_fuzzer(tflite_reader_fuzzer SOURCES ${D}/tflite_reader_fuzzer.cc
              LIBS qforge_formats)
qforge_fuzzer(model_run_fuzzer
              SOURCES ${D}/model_run_fuzzer.cc ${D}/fuzz_inputs.cc
              LIBS qforge_quantizer qforge_calibration qforge_formats)
qforge_fuzzer(stats_fuzzer SOURCES ${D}/stats_fuzzer.cc
              LIBS qforge_quantizer qforge_calibration qforge_formats)
qforge_fuzzer(partial_report_fuzzer SOURCES ${D}/partial_report_fuzzer.cc
              LIBS qforge_report)
foreach(kind npy wav image)
  qforge_fuzzer(${kind}_fuzzer
                SOURCES ${D}/${kind}_fuzzer.cc ${D}/data_fuzz_util.cc
                LIBS qforge_data qforge_formats)
endforeach()
qforge_fuzzer(recipe_fuzzer SOURCES ${D}/recipe_fuzzer.cc
              LIBS qforge_quantizer qforge_calibration qforge_formats)
