# kerncast codegen (docs/codegen.md): golden CUDA sources for a few examples, bad input, and
# with CUDA: the generated source of every example compiles with nvcc for sm_80.
set(codegen_examples ${PROJECT_SOURCE_DIR}/examples/kernels)
kerncast_add_cli_test(NAME codegen.matmul_tiled16
  ARGS codegen examples/kernels/matmul_tiled16.yaml -D n=256 -D m=128 -D l=64
  STDOUT ${PROJECT_SOURCE_DIR}/tests/golden/expected/codegen_matmul_tiled16.cu)
kerncast_add_cli_test(NAME codegen.dg_diff_2
  ARGS codegen examples/kernels/dg_diff_2.yaml -D nelements=4096
  STDOUT ${PROJECT_SOURCE_DIR}/tests/golden/expected/codegen_dg_diff_2.cu)
kerncast_add_cli_test(NAME codegen.star3d_r4
  ARGS codegen examples/kernels/star3d_r4.yaml -D nx=100 -D ny=64 -D nz=64 --block 32,4,2
  STDOUT ${PROJECT_SOURCE_DIR}/tests/golden/expected/codegen_star3d_r4.cu)
kerncast_add_cli_test(NAME codegen.fd5pt_16
  ARGS codegen examples/kernels/fd5pt_16.yaml -D n=1000
  STDOUT ${PROJECT_SOURCE_DIR}/tests/golden/expected/codegen_fd5pt_16.cu)
kerncast_add_cli_test(NAME codegen.histogram_reordered
  ARGS codegen examples/kernels/histogram_reordered.yaml -D n=100000
  STDOUT ${PROJECT_SOURCE_DIR}/tests/golden/expected/codegen_histogram_reordered.cu)
# A strided (block-cyclic) fold: x = 256*bx + 32*fx + tx, the loads of a warp stay coalesced.
kerncast_add_cli_test(NAME codegen.star2d_r1_strided_fold
  ARGS codegen examples/kernels/star2d_r1.yaml -D nx=100 -D ny=20 --block 32x2 --fold 8x:strided
  STDOUT ${PROJECT_SOURCE_DIR}/tests/golden/expected/codegen_star2d_r1_strided_fold.cu)
kerncast_add_cli_test(NAME codegen.help ARGS codegen --help STDOUT_CONTAINS "--fold" "--output")
kerncast_add_cli_test(NAME codegen.missing_file ARGS codegen no/such.yaml EXIT 1
  STDERR_CONTAINS "no/such.yaml")
kerncast_add_cli_test(NAME codegen.bad_define
  ARGS codegen examples/kernels/matmul_naive.yaml -D n EXIT 2
  STDERR_CONTAINS "-D expects name=value")
kerncast_add_cli_test(NAME codegen.violated_assumption
  ARGS codegen examples/kernels/matmul_naive.yaml -D n=100 EXIT 1
  STDERR_CONTAINS "n % 16 == 0")
kerncast_add_cli_test(NAME codegen.unknown_parameter
  ARGS codegen examples/kernels/matmul_naive.yaml -D q=1 EXIT 1 STDERR_CONTAINS "q")

if(KERNCAST_ENABLE_CUDA AND CMAKE_CUDA_COMPILER)
  file(GLOB codegen_example_files ${codegen_examples}/*.yaml)
  set(codegen_out ${CMAKE_CURRENT_BINARY_DIR}/codegen)
  file(MAKE_DIRECTORY ${codegen_out})
  foreach(example ${codegen_example_files})
    get_filename_component(name ${example} NAME_WE)
    add_test(NAME codegen.nvcc.${name}
      COMMAND sh -c "\"$1\" codegen \"$2\" -o \"$3.cu\" && \"$4\" -arch=sm_80 -c \"$3.cu\" -o \"$3.o\""
              sh $<TARGET_FILE:kerncast_cli> ${example} ${codegen_out}/${name}
              ${CMAKE_CUDA_COMPILER})
    set_tests_properties(codegen.nvcc.${name} PROPERTIES LABELS "cli;nvcc")
  endforeach()
endif()

# Atomics, nested reductions and f16 (docs/codegen.md, "Atomics", "Reductions", "f16").
set(codegen_data ${PROJECT_SOURCE_DIR}/tests/unit/codegen/data)
kerncast_add_cli_test(NAME codegen.real_atomic_max
  ARGS codegen examples/kernels/absmax_f32.yaml -D n=1000
  STDOUT_CONTAINS "__device__ __forceinline__ float kc_atomic_max_f32(float* address, float value)"
                  "kc_atomic_max_f32(&amax[0], static_cast<float>(block_max[0]));")
kerncast_add_cli_test(NAME codegen.nested_reduction
  ARGS codegen examples/kernels/colnorm_matvec.yaml -D n=64
  STDOUT_CONTAINS "        acc_y2 = 0;" "acc_y += a[i * 64 + j] * x[j] / sqrt(acc_y2);")
kerncast_add_cli_test(NAME codegen.half_and_small_atomics
  ARGS codegen ${codegen_data}/half_precision.yaml
  STDOUT_CONTAINS "#include <cuda_fp16.h>" "x:f16:48:hash" "__shared__ __align__(4) __half tile[16];"
                  "atomicAdd(&acc[i], __float2half_rn(")
kerncast_add_cli_test(NAME codegen.error_cas_two_operands
  ARGS codegen ${codegen_data}/bad_cas_two_operands.yaml EXIT 1
  STDERR_CONTAINS "bad_cas_two_operands.yaml:9:27: error: atomic_cas takes three operands, atomic_cas(target, compare, value)" "^")
kerncast_add_cli_test(NAME codegen.error_reduction_shadow
  ARGS codegen ${codegen_data}/bad_reduction_shadow.yaml EXIT 1
  STDERR_CONTAINS "bad_reduction_shadow.yaml:9:6: error: cannot generate code for kernel 'bad_shadow': reduction index 'j' is already bound by an enclosing reduction")
