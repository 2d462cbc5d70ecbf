# cmake -DBUILD_DIR=... -DPREFIX=... [-DNVRTC_DIR=...] -P check_install.cmake
# Installs the build into PREFIX, runs PREFIX/bin/kerncast machines with a clean library path,
# and checks the documentation landed beside it. PREFIX is removed afterwards.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${status}):\n${out}\n${err}")
endif()

set(binary "${PREFIX}/bin/kerncast")
if(NOT EXISTS "${binary}")
  message(FATAL_ERROR "no ${binary} after cmake --install:\n${out}")
endif()
if(NVRTC_DIR)
  file(READ_ELF "${binary}" RUNPATH runpath RPATH rpath)
  if(NOT "${runpath}:${rpath}" MATCHES "(^|:)${NVRTC_DIR}(:|$)")
    message(FATAL_ERROR "installed kerncast's RUNPATH '${runpath}' (RPATH '${rpath}') does not "
                        "name ${NVRTC_DIR}, where libnvrtc is")
  endif()
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH "${binary}" machines
                WORKING_DIRECTORY "${PREFIX}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "installed kerncast machines exited with ${status}:\n${out}\n${err}")
endif()
if(NOT out MATCHES "a100-sxm4-40gb")
  message(FATAL_ERROR "installed kerncast machines did not list the built-in machines:\n${out}")
endif()
foreach(doc README.md gpu-runtime.md build.md)
  if(NOT EXISTS "${PREFIX}/share/doc/kerncast/${doc}")
    message(FATAL_ERROR "${doc} was not installed to ${PREFIX}/share/doc/kerncast")
  endif()
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
