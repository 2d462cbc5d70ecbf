# kerncast probe: replay of recorded runs (any machine), option errors, and the GPU check.
set(probe_synthetic ${PROJECT_SOURCE_DIR}/tests/unit/probe/data/synthetic-gpu)

kerncast_add_cli_test(NAME probe_replay_synthetic
  ARGS probe --replay ${probe_synthetic}
  STDOUT ${PROJECT_SOURCE_DIR}/tests/golden/expected/probe_replay_synthetic.txt)
kerncast_add_cli_test(NAME probe_replay_synthetic_json
  ARGS probe --replay ${probe_synthetic}/raw.json --json -
  STDOUT_CONTAINS "\"schema\": \"kerncast.probe/1\"" "same_cache_as:texture")
kerncast_add_cli_test(NAME probe_replay_writes_machine_file
  ARGS probe --replay ${probe_synthetic} -o ${CMAKE_CURRENT_BINARY_DIR}/probe-synthetic-machine.json
  STDERR_CONTAINS "machine file written to" STDOUT_CONTAINS "l1           size_bytes")
kerncast_add_cli_test(NAME probe_replay_missing
  ARGS probe --replay ${PROJECT_SOURCE_DIR}/tests/unit/probe/data/no-such-run
  EXIT 1 STDERR_CONTAINS "cannot read probe record" "--replay takes a directory")
kerncast_add_cli_test(NAME probe_replay_bad_record
  ARGS probe --replay ${PROJECT_SOURCE_DIR}/tests/unit/probe/data/bad-kind.json
  EXIT 1 STDERR_CONTAINS "bad-kind.json:7:" "unknown benchmark kind \"sizes\"" "/benchmarks/0/kind")
kerncast_add_cli_test(NAME probe_replay_excludes_raw
  ARGS probe --replay ${probe_synthetic} --raw /tmp/x
  EXIT 2 STDERR_CONTAINS "excludes")
kerncast_add_cli_test(NAME probe_unknown_group
  ARGS probe --only l1,l3
  EXIT 2 STDERR_CONTAINS "unknown probe group \"l3\"" "did you mean \"l1\"" "valid groups")

# Without a GPU (CI) or without CUDA, measuring exits 3 and says what is missing.
if(NOT KERNCAST_GPU_PRESENT)
  if(KERNCAST_ENABLE_CUDA)
    kerncast_add_cli_test(NAME probe_without_gpu ARGS probe --only l1 EXIT 3
                          STDERR_CONTAINS "error:")
  else()
    kerncast_add_cli_test(NAME probe_without_cuda ARGS probe --only l1 EXIT 3
                          STDERR_CONTAINS "built without CUDA" "--replay")
  endif()
endif()
