# kerncast run (docs/gpu-runtime.md). Usage errors are found before the GPU is touched, so
# they are tested everywhere; the "no GPU" / "no CUDA" messages only where that is the case.
set(saxpy_source tests/unit/runtime/data/saxpy.cu)
set(saxpy_arguments --cuda-source ${saxpy_source} --kernel saxpy --grid 4 --block 256
    --scalar n:i32:1024 --scalar a:f32:2.5 --buffer x:f32:1024 --buffer y:f32:1024
    --buffer out:f32:1024:zero)

kerncast_add_cli_test(NAME run.help ARGS run --help STDOUT_CONTAINS "--cuda-source" "--l2-flush")
kerncast_add_cli_test(NAME run.missing_options ARGS run EXIT 2 STDERR_CONTAINS "--cuda-source")
# --grid / --block take the launch grammar of every command (kernel/launch_text.hpp).
kerncast_add_cli_test(NAME run.bad_grid
  ARGS run --cuda-source ${saxpy_source} --kernel saxpy --grid 0 --block 256 EXIT 2
  STDERR_CONTAINS "--grid: '0' is not a launch triple")
kerncast_add_cli_test(NAME run.bad_block
  ARGS run --cuda-source ${saxpy_source} --kernel saxpy --grid 4 --block 32x4x4x2 EXIT 2
  STDERR_CONTAINS "--block: '32x4x4x2' has more than three values")
kerncast_add_cli_test(NAME run.grid_beyond_dim3
  ARGS run --cuda-source ${saxpy_source} --kernel saxpy --grid 5000000000x1 --block 256 EXIT 2
  STDERR_CONTAINS "--grid: '5000000000x1' has an extent beyond 4294967295")
kerncast_add_cli_test(NAME run.bad_buffer
  ARGS run --cuda-source ${saxpy_source} --kernel saxpy --grid 1 --block 1 --buffer x:f8:10
  EXIT 2 STDERR_CONTAINS "unknown dtype 'f8'; expected one of f16, f32, f64")
kerncast_add_cli_test(NAME run.bad_constant
  ARGS run --cuda-source ${saxpy_source} --kernel saxpy --grid 1 --block 1 --constant w:f64:0
  EXIT 2 STDERR_CONTAINS "bad --constant 'w:f64:0': the count '0' is not a positive integer")
kerncast_add_cli_test(NAME run.bad_scalar
  ARGS run --cuda-source ${saxpy_source} --kernel saxpy --grid 1 --block 1 --scalar n:i32:1.5
  EXIT 2 STDERR_CONTAINS "'1.5' is not an integer")
kerncast_add_cli_test(NAME run.bad_repeat ARGS run ${saxpy_arguments} --repeat 0 EXIT 2
  STDERR_CONTAINS "--repeat must be at least 1")
kerncast_add_cli_test(NAME run.missing_source
  ARGS run --cuda-source no/such/kernel.cu --kernel k --grid 1 --block 1 EXIT 1
  STDERR_CONTAINS "no/such/kernel.cu: error: cannot open CUDA source")

find_program(KERNCAST_NCU_FOR_TESTS ncu)
if(NOT KERNCAST_NCU_FOR_TESTS)
  kerncast_add_cli_test(NAME run.counters_without_ncu ARGS run ${saxpy_arguments} --counters
    EXIT 3 STDERR_CONTAINS "no 'ncu' on PATH")
endif()

if(NOT KERNCAST_GPU_PRESENT)
  if(KERNCAST_ENABLE_CUDA)
    kerncast_add_cli_test(NAME run.without_gpu ARGS run ${saxpy_arguments} EXIT 3
      STDERR_CONTAINS "kerncast run needs a GPU")
    # The x and comma forms, f16 buffers and __constant__ fills all pass the option checks.
    kerncast_add_cli_test(NAME run.launch_forms_without_gpu
      ARGS run --cuda-source ${saxpy_source} --kernel saxpy --grid 4x1x1 --block 256,1
           --scalar n:i32:1024 --scalar a:f16:2.5 --buffer x:f16:1024 --buffer y:f32:1024
           --buffer out:f32:1024:zero --constant w:f64:25 EXIT 3
      STDERR_CONTAINS "kerncast run needs a GPU")
  else()
    kerncast_add_cli_test(NAME run.without_cuda ARGS run ${saxpy_arguments} EXIT 3
      STDERR_CONTAINS "built without CUDA")
  endif()
else()
  kerncast_add_cli_test(NAME device.run_saxpy ARGS run ${saxpy_arguments} --repeat 5 --l2-flush
    STDOUT_CONTAINS "saxpy" "median")
  kerncast_add_cli_test(NAME device.run_compile_error
    ARGS run --cuda-source ${saxpy_source} --kernel saxpi --grid 1 --block 1 EXIT 1
    STDERR_CONTAINS "saxpi")
endif()

# The kernel-file form (docs/codegen.md): code generation and option checks come before the
# GPU is touched.
set(run_kernel_file examples/kernels/star2d_r1.yaml)
kerncast_add_cli_test(NAME run.kernel_with_cuda_source_options
  ARGS run ${run_kernel_file} --grid 4 EXIT 2 STDERR_CONTAINS "belong to the --cuda-source form")
kerncast_add_cli_test(NAME run.kernel_with_constant_option
  ARGS run ${run_kernel_file} --constant w:f64:25 EXIT 2
  STDERR_CONTAINS "--constant and --shared-bytes belong to the --cuda-source form")
kerncast_add_cli_test(NAME run.kernel_and_cuda_source
  ARGS run ${run_kernel_file} --cuda-source ${saxpy_source} EXIT 2
  STDERR_CONTAINS "either KERNEL or --cuda-source")
kerncast_add_cli_test(NAME run.kernel_bad_define ARGS run ${run_kernel_file} -D nx EXIT 2
  STDERR_CONTAINS "-D expects name=value")
kerncast_add_cli_test(NAME run.kernel_missing_file ARGS run no/such/kernel.yaml EXIT 1
  STDERR_CONTAINS "no/such/kernel.yaml")
kerncast_add_cli_test(NAME run.fold_without_kernel
  ARGS run ${saxpy_arguments} --fold 2 EXIT 2 STDERR_CONTAINS "kernel-file form")
# --fill (docs/gpu-runtime.md, "Inputs"): checked against the kernel file before the GPU.
kerncast_add_cli_test(NAME run.fill_without_kernel
  ARGS run ${saxpy_arguments} --fill x=1 EXIT 2 STDERR_CONTAINS "pattern=HEX")
kerncast_add_cli_test(NAME run.fill_unknown_array
  ARGS run examples/kernels/histogram.yaml --fill picture=0,1,2,3 EXIT 1
  STDERR_CONTAINS "--fill picture=0,1,2,3: the kernel has no array 'picture' (its global and constant arrays: image)")
kerncast_add_cli_test(NAME run.fill_value_out_of_range
  ARGS run examples/kernels/histogram.yaml --fill image=0,1,2,256 EXIT 1
  STDERR_CONTAINS "'256' is not an integer u8 holds (0 to 255)")
kerncast_add_cli_test(NAME run.fill_shared_array
  ARGS run examples/kernels/histogram.yaml --fill smem=1 EXIT 1
  STDERR_CONTAINS "'smem' is not a global or constant array")
kerncast_add_cli_test(NAME run.fill_bad_form
  ARGS run examples/kernels/histogram.yaml --fill image EXIT 2 STDERR_CONTAINS "NAME=V1,V2")
if(NOT KERNCAST_GPU_PRESENT)
  # A campaign that cannot run (no GPU, or built without CUDA: exit 3) leaves no records
  # directory it made behind, nor the missing parents it made for it (issue 47).
  add_test(NAME cli.run.campaign_without_gpu_creates_nothing
    COMMAND sh -c "rm -rf \"$0\"; \"$1\" run \"$2\" --shard 0/16 -o \"$0/records\" 2>/dev/null; test $? -eq 3 && test ! -e \"$0\""
            ${CMAKE_BINARY_DIR}/campaign_records_without_gpu $<TARGET_FILE:kerncast_cli>
            ${PROJECT_SOURCE_DIR}/examples/kernels/uipick)
  set_tests_properties(cli.run.campaign_without_gpu_creates_nothing PROPERTIES LABELS cli)
  add_test(NAME cli.validate.save_without_gpu_creates_nothing
    COMMAND sh -c "rm -rf \"$0\"; \"$1\" validate \"$2\" -m h100-sxm5-80gb --save \"$0/no/such\" 2>/dev/null; test $? -eq 3 && test ! -e \"$0\""
            ${CMAKE_BINARY_DIR}/validate_save_without_gpu $<TARGET_FILE:kerncast_cli>
            ${PROJECT_SOURCE_DIR}/${run_kernel_file})
  set_tests_properties(cli.validate.save_without_gpu_creates_nothing PROPERTIES LABELS cli)
  if(KERNCAST_ENABLE_CUDA)
    kerncast_add_cli_test(NAME run.kernel_without_gpu ARGS run ${run_kernel_file} -D nx=64 -D ny=64
      EXIT 3 STDERR_CONTAINS "kerncast run needs a GPU")
    kerncast_add_cli_test(NAME run.fill_without_gpu
      ARGS run examples/kernels/histogram.yaml --fill image=0,1,2,3
      EXIT 3 STDERR_CONTAINS "kerncast run needs a GPU")
  else()
    kerncast_add_cli_test(NAME run.kernel_without_cuda ARGS run ${run_kernel_file} EXIT 3
      STDERR_CONTAINS "built without CUDA")
  endif()
else()
  kerncast_add_cli_test(NAME device.run_kernel_star2d
    ARGS run ${run_kernel_file} -D nx=2048 -D ny=2048 --repeat 5 STDOUT_CONTAINS "star2d_r1" "median")
  kerncast_add_cli_test(NAME device.run_kernel_matmul_tiled16
    ARGS run examples/kernels/matmul_tiled16.yaml --repeat 3 STDOUT_CONTAINS "matmul_tiled16")
  # A filled image lands in the record as its pattern.
  kerncast_add_cli_test(NAME device.run_kernel_fill
    ARGS run examples/kernels/histogram.yaml -D n=65536 --fill image=0,1,2,3 --repeat 3 -o -
    STDOUT_CONTAINS "pattern=00010203")
  # __constant__ weights (box2d_r2's w) land in the record.
  kerncast_add_cli_test(NAME device.run_kernel_box2d_constants
    ARGS run examples/kernels/box2d_r2.yaml -D nx=1024 -D ny=1024 --repeat 3 -o -
    STDOUT_CONTAINS "constants" "box2d_r2")
endif()
