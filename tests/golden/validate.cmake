# kerncast validate (docs/codegen.md). --records runs from recorded measurements on any
# machine; the records in tests/golden/data/validate_star3d are synthetic (see its README).
set(validate_records tests/golden/data/validate_star3d)
kerncast_add_cli_test(NAME validate.star3d_records
  ARGS validate examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --records ${validate_records}
  STDOUT ${PROJECT_SOURCE_DIR}/tests/golden/expected/codegen_validate_star3d_records.txt)
kerncast_add_cli_test(NAME validate.star3d_records_json
  ARGS validate examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --records ${validate_records}
       --json -
  STDOUT_CONTAINS "\"schema\": \"kerncast.validation/1\"" "z_other_kernel_saxpy.json")
kerncast_add_cli_test(NAME validate.help ARGS validate --help
  STDOUT_CONTAINS "--records" "--sweep")
kerncast_add_cli_test(NAME validate.missing_machine
  ARGS validate examples/kernels/star3d_r4.yaml --records ${validate_records} EXIT 2
  STDERR_CONTAINS "--machine")
kerncast_add_cli_test(NAME validate.missing_directory
  ARGS validate examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --records no/such/dir EXIT 1
  STDERR_CONTAINS "no/such/dir")
kerncast_add_cli_test(NAME validate.records_with_sweep
  ARGS validate examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --records ${validate_records}
       --sweep other.txt EXIT 2 STDERR_CONTAINS "belong to the live mode")
# Timing options would be silently ignored on records: refused like the other live options.
kerncast_add_cli_test(NAME validate.records_with_warmup
  ARGS validate examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --records ${validate_records}
       --warmup 0 EXIT 2 STDERR_CONTAINS "--repeat, --warmup, --l2-flush and --save belong to")
kerncast_add_cli_test(NAME validate.records_with_l2_flush
  ARGS validate examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --records ${validate_records}
       --l2-flush EXIT 2 STDERR_CONTAINS "belong to the live mode")
kerncast_add_cli_test(NAME validate.bad_sweep_file
  ARGS validate examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb
       --sweep tests/unit/validate/data/bad_sweep.txt EXIT 1 STDERR_CONTAINS "bad_sweep.txt:3")
# The option checks come before the GPU is looked for.
kerncast_add_cli_test(NAME validate.negative_warmup
  ARGS validate examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb --warmup -1
  EXIT 2 STDERR_CONTAINS "--warmup must not be negative")

if(NOT KERNCAST_GPU_PRESENT)
  if(KERNCAST_ENABLE_CUDA)
    set(validate_no_gpu_message "needs a GPU")
  else()
    set(validate_no_gpu_message "built without CUDA")
  endif()
  kerncast_add_cli_test(NAME validate.live_without_gpu
    ARGS validate examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb -D nx=256 -D ny=256
    EXIT 3 STDERR_CONTAINS "${validate_no_gpu_message}")
else()
  kerncast_add_cli_test(NAME device.validate_star2d_sweep
    ARGS validate examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb -D nx=4096 -D ny=4096
         --sweep tests/unit/validate/data/star2d_sweep.txt --repeat 3
    STDOUT_CONTAINS "Spearman")
endif()
