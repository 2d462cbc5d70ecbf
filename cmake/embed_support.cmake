# Shared by the build-time generators that embed text files into C++ raw string literals
# (src/machine/embed_machines.cmake, src/report/embed_html_assets.cmake); runs in script mode.

# Stops the build when `text` (read from `file`) contains the raw string's closing delimiter.
function(kerncast_check_raw_string_delimiter text delimiter file)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw-string delimiter )${delimiter}\"")
  endif()
endfunction()

# Writes `content` to `output` only when it differs, so unrelated reconfigures rebuild nothing.
function(kerncast_write_if_changed output content)
  if(EXISTS "${output}")
    file(READ "${output}" previous)
    if(previous STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${output}" "${content}")
endfunction()
