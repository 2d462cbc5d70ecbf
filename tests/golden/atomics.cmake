# kerncast atomics: Dong & Pai's shared-memory atomic utilization (docs/atomics.md).
set(atomics_data tests/unit/models/atomics/data) # relative: reports print the path
set(atomics_expected ${CMAKE_CURRENT_SOURCE_DIR}/expected)

# Counters with known answers (synthetic CSV, hand table): U = 0.5 for both launches.
kerncast_add_cli_test(NAME atomics_ncu_csv
  ARGS atomics --ncu-csv ${atomics_data}/ncu_atomics.csv -m ${atomics_data}/hand-table-machine.json
  STDOUT ${atomics_expected}/atomics_ncu_csv.txt)
kerncast_add_cli_test(NAME atomics_ncu_csv_json
  ARGS atomics --ncu-csv ${atomics_data}/ncu_atomics.csv -m ${atomics_data}/hand-table-machine.json
       --json -
  STDOUT_CONTAINS "\"utilization\": 0.5" "\"schema\": \"kerncast.atomics/1\"")
# A built-in machine has no measured table: the inputs, and a clear statement.
kerncast_add_cli_test(NAME atomics_ncu_csv_without_table
  ARGS atomics --ncu-csv ${atomics_data}/ncu_atomics.csv -m h100-sxm5-80gb
  STDOUT_CONTAINS "machine 'h100-sxm5-80gb' lacks a measured shared-memory atomic service-time table")
kerncast_add_cli_test(NAME atomics_ncu_csv_missing_metric EXIT 1
  ARGS atomics --ncu-csv ${atomics_data}/ncu_missing_wavefronts.csv -m h100-sxm5-80gb
  STDERR_CONTAINS "missing metric l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum")
kerncast_add_cli_test(NAME atomics_ncu_csv_malformed EXIT 1
  ARGS atomics --ncu-csv ${atomics_data}/ncu_malformed.csv -m h100-sxm5-80gb
  STDERR_CONTAINS "ncu_malformed.csv:3")

# Static forecasts of the case study's kernels.
kerncast_add_cli_test(NAME atomics_forecast_histogram_solid
  ARGS atomics examples/kernels/histogram.yaml -m h100-sxm5-80gb
  STDOUT ${atomics_expected}/atomics_forecast_histogram_solid.txt)
kerncast_add_cli_test(NAME atomics_forecast_reordered_uniform_table
  ARGS atomics examples/kernels/histogram_reordered.yaml -m ${atomics_data}/hand-table-machine.json
       --input uniform --block 64 -D n=1024 --operation add --kernel-cycles 1000
  STDOUT ${atomics_expected}/atomics_forecast_reordered_uniform_table.txt)
kerncast_add_cli_test(NAME atomics_forecast_absmax
  ARGS atomics examples/kernels/absmax_f32.yaml -m h100-sxm5-80gb
  STDOUT_CONTAINS "CAS loop is counted as one CAS warp-instruction")
kerncast_add_cli_test(NAME atomics_forecast_no_shared_atomics EXIT 1
  ARGS atomics examples/kernels/matmul_naive.yaml -m h100-sxm5-80gb
  STDERR_CONTAINS "has no shared-memory atomics")
kerncast_add_cli_test(NAME atomics_bad_input_distribution EXIT 2
  ARGS atomics examples/kernels/histogram.yaml -m h100-sxm5-80gb --input striped
  STDERR_CONTAINS "--input must be solid or uniform")
kerncast_add_cli_test(NAME atomics_two_forms EXIT 2
  ARGS atomics examples/kernels/histogram.yaml --ncu-csv x.csv -m h100-sxm5-80gb
  STDERR_CONTAINS "give exactly one of")

# The table measured on an H200 (2026-11-26, lab/measured/h200-2026-11-26/atomics): its raw
# record replays to the medians the run printed (add, n = 1: 207 cycles fetch-and-add, 122 CAS
# at e = 1, 188 CAS at e = 32).
kerncast_add_cli_test(NAME atomics_replay_h200
  ARGS atomics --replay ${PROJECT_SOURCE_DIR}/lab/measured/h200-2026-11-26/atomics/raw.json
  STDOUT_CONTAINS "of NVIDIA H200 from a raw record"
                  "add         1   1              207              122"
                  "add         1  32              207              188")
# The table the fixed benchmark measured on the H200 (one global atomic per warp) replays to
# what the run printed, and is the built-in h200-sxm-141gb's: the forecast uses it (T(n, e, c)
# = 910 cycles for histogram's 64 queued warps, e = 32, popc_inc).
kerncast_add_cli_test(NAME atomics_replay_h200_fixed
  ARGS atomics --replay ${PROJECT_SOURCE_DIR}/lab/measured/h200-2026-11-26/atomics-fixed/raw.json
  STDOUT_CONTAINS "add        64  32             1077             4377")
kerncast_add_cli_test(NAME atomics_forecast_h200_measured_table
  ARGS atomics examples/kernels/histogram.yaml -m h200-sxm-141gb
  STDOUT_CONTAINS "T(n,e,c) (cycles)" "910" "source 'h200-atomics-2026-11-26' (measured")
# The microbenchmark's record replayed without a GPU (invented values).
kerncast_add_cli_test(NAME atomics_replay
  ARGS atomics --replay ${atomics_data}/synthetic-raw.json
  STDOUT ${atomics_expected}/atomics_replay.txt)
# ... and written into a machine: the built-in's text with the table and its source added.
kerncast_add_cli_test(NAME atomics_replay_into_machine
  ARGS atomics --replay ${atomics_data}/synthetic-raw.json -m h100-sxm5-80gb
       -o ${CMAKE_BINARY_DIR}/atomics_replay_h100.json
  STDERR_CONTAINS "atomics_replay_h100.json is built-in machine 'h100-sxm5-80gb' "
                  "(machines/h100-sxm5-80gb.json) as written, with only the changed members")

# Without a GPU: measuring and --run exit 3 and say what is missing.
if(NOT KERNCAST_GPU_PRESENT)
  if(KERNCAST_ENABLE_CUDA)
    kerncast_add_cli_test(NAME atomics_measure_without_gpu ARGS atomics --measure-table EXIT 3
                          STDERR_CONTAINS "error:")
  else()
    kerncast_add_cli_test(NAME atomics_measure_without_cuda ARGS atomics --measure-table EXIT 3
                          STDERR_CONTAINS "built without CUDA" "--replay")
  endif()
  kerncast_add_cli_test(NAME atomics_run_without_gpu EXIT 3
    ARGS atomics examples/kernels/histogram.yaml -m h100-sxm5-80gb --run
    STDERR_CONTAINS "error:")
endif()

# --run --input solid fills the integer arrays the kernel reads with their innermost subscript;
# a kernel without one is refused before the GPU is asked; counters carry their own input.
kerncast_add_cli_test(NAME atomics_run_solid_without_integer_input EXIT 1
  ARGS atomics examples/kernels/star2d_r1.yaml -m h100-sxm5-80gb --run --input solid
  STDERR_CONTAINS "--run --input solid fills the global integer arrays the kernel only reads, and it reads none")
kerncast_add_cli_test(NAME atomics_input_with_counters EXIT 2
  ARGS atomics --ncu-csv tests/unit/models/atomics/data/ncu_atomics.csv -m a100-sxm4-40gb
       --input uniform
  STDERR_CONTAINS "--input belongs to KERNEL")

# --sweep: one forecast per value of a parameter (golden table), and its usage errors.
kerncast_add_cli_test(NAME atomics_sweep
  ARGS atomics examples/kernels/histogram.yaml -m tests/unit/models/atomics/data/hand-table-machine.json
       --operation add --block 32 --sweep n=32,128,1024 --kernel-cycles 100000
  STDOUT ${atomics_expected}/atomics_sweep.txt)
kerncast_add_cli_test(NAME atomics_sweep_no_values EXIT 2
  ARGS atomics examples/kernels/histogram.yaml -m a100-sxm4-40gb --sweep n
  STDERR_CONTAINS "--sweep must be NAME=V1,V2,...")
kerncast_add_cli_test(NAME atomics_sweep_not_integer EXIT 2
  ARGS atomics examples/kernels/histogram.yaml -m a100-sxm4-40gb --sweep n=1,x
  STDERR_CONTAINS "--sweep n: 'x' is not an integer")
kerncast_add_cli_test(NAME atomics_sweep_with_counters EXIT 2
  ARGS atomics --ncu-csv tests/unit/models/atomics/data/ncu_atomics.csv -m a100-sxm4-40gb --sweep n=1
  STDERR_CONTAINS "--sweep belongs to the static forecast")
kerncast_add_cli_test(NAME atomics_sweep_unknown_parameter EXIT 1
  ARGS atomics examples/kernels/histogram.yaml -m a100-sxm4-40gb --sweep pixels=1,2
  STDERR_CONTAINS "pixels")
