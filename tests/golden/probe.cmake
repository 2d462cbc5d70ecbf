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
# Real runs (kerncast's first, 2026-11-26; lab/measured/*/probe): the raw series, extracted at
# configure time, replay to the values the probe wrote on the GPU (its probe.txt there).
foreach(run h200 h100)
  set(probe_raw_dir ${CMAKE_CURRENT_BINARY_DIR}/measured-${run}-probe)
  set(probe_archive ${PROJECT_SOURCE_DIR}/lab/measured/${run}-2026-11-26/probe/raw.tar.xz)
  if(NOT EXISTS ${probe_raw_dir}/raw.json OR ${probe_archive} IS_NEWER_THAN ${probe_raw_dir}/raw.json)
    file(ARCHIVE_EXTRACT INPUT ${probe_archive} DESTINATION ${probe_raw_dir})
  endif()
endforeach()
kerncast_add_cli_test(NAME probe_replay_h200
  ARGS probe --replay ${CMAKE_CURRENT_BINARY_DIR}/measured-h200-probe/raw.json
  STDOUT_CONTAINS "NVIDIA H200" "size in (30343168, 30408704" "onset of the verified change point"
                  "L2 hits split into near 273 and far 304 cycles" "4102.16"
                  "size in (246784, 247296" "at carve-out preference 2 %")
kerncast_add_cli_test(NAME probe_replay_h100
  ARGS probe --replay ${CMAKE_CURRENT_BINARY_DIR}/measured-h100-probe/raw.json
  STDOUT_CONTAINS "NVIDIA H100 80GB HBM3" "size in (25886720, 25952256" "6415.04"
                  "3004.52")
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
