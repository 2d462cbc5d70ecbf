# `cmake --install` into a fresh prefix gives a kerncast that runs from there, without the
# build tree or LD_LIBRARY_PATH (docs/build.md, "Install"); with CUDA its RUNPATH names the
# toolkit's library directory (libnvrtc may also be in the loader cache, as it is on the
# machines here, so running alone would not show that).
add_test(NAME cli.install.machines
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR}
          -DPREFIX=${CMAKE_CURRENT_BINARY_DIR}/install-test-prefix
          "-DNVRTC_DIR=$<$<BOOL:${KERNCAST_ENABLE_CUDA}>:${CUDAToolkit_LIBRARY_DIR}>"
          -P ${PROJECT_SOURCE_DIR}/tests/golden/install/check_install.cmake)
set_tests_properties(cli.install.machines PROPERTIES LABELS cli RUN_SERIAL TRUE)
