# LiteRT interop tests that need a C++ helper (tests/interop/README.md).
# Included from tests/CMakeLists.txt, after the qforge targets exist.

# The sanitizer build runs the unit tests only: no helper to build.
if(QFORGE_SANITIZE)
  return()
endif()

# qforge_make_inputs: writes the input tensors `qforge run --data` would feed
# a model as .npy, so that LiteRT gets the very same tensors.
add_executable(qforge_make_inputs ${CMAKE_CURRENT_LIST_DIR}/make_inputs.cc)
target_link_libraries(qforge_make_inputs PRIVATE qforge_cmd)

# qforge's float interpreter against LiteRT on every corpus model it covers.
add_test(NAME interop_float_vs_litert
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/float_vs_litert.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/../shared/corpus
                 $<TARGET_FILE:qforge_make_inputs>)
set_tests_properties(interop_float_vs_litert PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 1200)

# qforge's integer interpreter against LiteRT on whole quantized models
# (corpus twins, int_refs, models qforge quantizes): SQNR, top-1, and exact
# equality with TFLite's builtin kernels.
add_test(NAME interop_int_vs_litert
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/int_vs_litert.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/../shared/corpus
                 ${CMAKE_SOURCE_DIR}/testdata $<TARGET_FILE:qforge_make_inputs>)
set_tests_properties(interop_int_vs_litert PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 900)

# quantize --runtime tflm: the models run in TensorFlow Lite Micro, outputs
# bit-exact with qforge --rounding double (docs/runtimes.md).
add_test(NAME interop_tflm_profile
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tflm_profile.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/testdata
                 ${CMAKE_SOURCE_DIR}/../shared/corpus
                 ${CMAKE_SOURCE_DIR}/../shared/tools/tflm/bin/tflm_run)
set_tests_properties(interop_tflm_profile PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 600)

# quantize --runtime armnn: the models run in Arm NN 20.08 (CpuRef) with
# LiteRT's top-1 class (docs/runtimes.md).
add_test(NAME interop_armnn_profile
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/armnn_profile.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/testdata
                 ${CMAKE_SOURCE_DIR}/../shared/corpus
                 ${CMAKE_SOURCE_DIR}/../shared/tools/armnn/run.py)
set_tests_properties(interop_armnn_profile PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 600)

# Legality property test (docs/legality.md): random single-op models across
# extreme calibration ranges, quantized by qforge, must run in LiteRT within
# 1 LSB of qforge's interpreter. 300 cases per scheme by default; the long
# sweep runs 5000 per scheme with another seed.
add_test(NAME interop_op_property
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/op_property_litert.sh
                 $<TARGET_FILE:op_property_cases> 450 1)
set_tests_properties(interop_op_property PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME long_op_property
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/op_property_litert.sh
                 $<TARGET_FILE:op_property_cases> 5000 2)
set_tests_properties(long_op_property PROPERTIES
                     LABELS "interop;long" SKIP_RETURN_CODE 77 TIMEOUT 3600)

# The legality issue's patterns (masked attention, log(x*x + eps)): int8 and
# int16x8 models qforge writes run in LiteRT at >= 20 dB.
add_test(NAME interop_patterns_litert
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/pattern_litert.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/testdata)
set_tests_properties(interop_patterns_litert PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 600)

# Standalone RELUs folded into their producers (quantizer/fold_activations.h)
# on the bundled face detector: no RELU and no converters left inside, runs
# in LiteRT, qforge agrees with it.
add_test(NAME interop_fold_litert
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/fold_litert.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/testdata)
set_tests_properties(interop_fold_litert PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 600)

# Every model qforge writes runs in LiteRT (docs/legality.md): every corpus
# model both runtimes run, quantized with each scheme on the same inputs,
# then run in LiteRT. Long: about half an hour on 2 cores.
add_test(NAME long_quantize_sweep
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/float_vs_litert.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/../shared/corpus
                 $<TARGET_FILE:qforge_make_inputs> --samples 1
                 --quantize int8,int16x8,dynamic,float16)
set_tests_properties(long_quantize_sweep PROPERTIES
                     LABELS "interop;long" SKIP_RETURN_CODE 77 TIMEOUT 5400)

# Weight forms beside float activations (--scheme weight-only, --scheme
# dynamic --weight-bits 4, --block-size): LiteRT runs every form qforge
# writes, and qforge's interpreter agrees with it (docs/weight-forms.md).
add_test(NAME interop_weight_forms
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/weight_forms_litert.sh
                 $<TARGET_FILE:qforge> ${CMAKE_SOURCE_DIR}/testdata
                 ${CMAKE_SOURCE_DIR}/../shared/corpus)
set_tests_properties(interop_weight_forms PROPERTIES
                     LABELS "interop" SKIP_RETURN_CODE 77 TIMEOUT 600)
