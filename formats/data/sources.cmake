# formats/data: the data-input layer (npy/npz, images, wav, `--data` specs).
# Included by formats/CMakeLists.txt before it creates qforge_formats.
list(APPEND QFORGE_FORMATS_DATA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/array_fit.cc
  ${CMAKE_CURRENT_LIST_DIR}/convert.cc
  ${CMAKE_CURRENT_LIST_DIR}/data_source.cc
  ${CMAKE_CURRENT_LIST_DIR}/data_spec.cc
  ${CMAKE_CURRENT_LIST_DIR}/file_range.cc
  ${CMAKE_CURRENT_LIST_DIR}/fingerprint.cc
  ${CMAKE_CURRENT_LIST_DIR}/image.cc
  ${CMAKE_CURRENT_LIST_DIR}/npy.cc
  ${CMAKE_CURRENT_LIST_DIR}/stb_guard.cc
  ${CMAKE_CURRENT_LIST_DIR}/stb_image_impl.cc
  ${CMAKE_CURRENT_LIST_DIR}/wav.cc
  ${CMAKE_CURRENT_LIST_DIR}/zip.cc
)

# stb_image 2.27's JPEG IDCT overflows int on hostile coefficients (UBSan
# finds it in seconds of fuzzing). -fwrapv makes that wrap-around defined,
# so a corrupt file decodes to the same garbage everywhere instead of being
# undefined behaviour. Memory-safety bugs are screened in stb_guard.cc.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/stb_image_impl.cc
                            PROPERTIES COMPILE_OPTIONS -fwrapv)

# np.savez_compressed writes DEFLATE zip entries; zlib (Debian zlib1g-dev)
# inflates them. stb_image comes from libstb-dev (STB_INCLUDE_DIR).
find_package(ZLIB REQUIRED)
list(APPEND QFORGE_FORMATS_DATA_LIBS ZLIB::ZLIB)
# xxHash (Debian libxxhash-dev) hashes data file contents for the data
# fingerprint: XXH3 runs at memory speed where FNV-1a's byte loop took a
# quarter of calibration time.
find_package(PkgConfig REQUIRED)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
list(APPEND QFORGE_FORMATS_DATA_LIBS PkgConfig::XXHASH)
# The target does not exist yet; link once this directory has been read.
cmake_language(DEFER CALL target_link_libraries qforge_formats PUBLIC
               ${QFORGE_FORMATS_DATA_LIBS})
