# kerncast count: kernel files and static analysis (docs/kernel-format.md).
set(kernels ${PROJECT_SOURCE_DIR}/examples/kernels)
set(bad ${PROJECT_SOURCE_DIR}/tests/unit/kernel/data)
set(count_expected ${CMAKE_CURRENT_SOURCE_DIR}/expected)

# Golden outputs (exact): counting case 3, a stencil with folding, explicit tiles, atomics.
kerncast_add_cli_test(NAME count_matmul_tiled16
  ARGS count examples/kernels/matmul_tiled16.yaml
  STDOUT ${count_expected}/count_matmul_tiled16.txt)
kerncast_add_cli_test(NAME count_star3d_r4
  ARGS count examples/kernels/star3d_r4.yaml
  STDOUT ${count_expected}/count_star3d_r4.txt)
kerncast_add_cli_test(NAME count_fd5pt_16
  ARGS count examples/kernels/fd5pt_16.yaml -D n=1024
  STDOUT ${count_expected}/count_fd5pt_16.txt)
kerncast_add_cli_test(NAME count_histogram_reordered
  ARGS count examples/kernels/histogram_reordered.yaml --no-footprints
  STDOUT ${count_expected}/count_histogram_reordered.txt)
kerncast_add_cli_test(NAME count_matmul_tiled16_json
  ARGS count examples/kernels/matmul_tiled16.yaml -D n=1024 --no-footprints --json -
  STDOUT ${count_expected}/count_matmul_tiled16_n1024.json)

# Overrides: -D, --block, --fold, --index-arithmetic.
kerncast_add_cli_test(NAME count_define
  ARGS count examples/kernels/star2d_r1.yaml -D nx=1002 -D ny=1002 --no-footprints
  STDOUT_CONTAINS "1000000")
kerncast_add_cli_test(NAME count_block_fold_override
  ARGS count examples/kernels/star3d_r4.yaml --block 64,2,1 --fold 1,2 --no-footprints
  STDOUT_CONTAINS "64,2,1" "1,2,1")
kerncast_add_cli_test(NAME count_index_arithmetic
  ARGS count examples/kernels/matmul_tiled16.yaml --index-arithmetic --no-footprints
  STDOUT_CONTAINS "i32")

# Every example parses and counts.
foreach(example star3d_r4 star2d_r1 box2d_r1 box2d_r2 box2d_r3 lbm_d3q15_pull matmul_naive
        matmul_tiled16 dg_diff_1 dg_diff_2 dg_diff_3 dg_diff_4 fd5pt_16 fd5pt_18 hk_matmul
        histogram histogram_reordered absmax_f32 colnorm_matvec)
  kerncast_add_cli_test(NAME count_example_${example}
    ARGS count examples/kernels/${example}.yaml STDOUT_CONTAINS "Memory accesses")
endforeach()

# Bad input: exit 1 with file:line:column and the problem.
kerncast_add_cli_test(NAME count_error_syntax ARGS count ${bad}/syntax_error.yaml EXIT 1
  STDERR_CONTAINS "syntax_error.yaml:10:27: error: expected a number, a name or '('" "^")
kerncast_add_cli_test(NAME count_error_yaml ARGS count ${bad}/yaml_error.yaml EXIT 1
  STDERR_CONTAINS "yaml_error.yaml:" "YAML syntax error")
kerncast_add_cli_test(NAME count_error_undeclared_array ARGS count ${bad}/undeclared_array.yaml EXIT 1
  STDERR_CONTAINS "undeclared_array.yaml:10:18: error: undeclared array 'q'")
kerncast_add_cli_test(NAME count_error_undeclared_index ARGS count ${bad}/undeclared_index.yaml EXIT 1
  STDERR_CONTAINS "undeclared_index.yaml:10:23: error: undeclared name 'k'")
kerncast_add_cli_test(NAME count_error_non_affine ARGS count ${bad}/non_affine.yaml EXIT 1
  STDERR_CONTAINS "non_affine.yaml:10:20: error: subscript of 'a' must be affine")
kerncast_add_cli_test(NAME count_error_rank ARGS count ${bad}/rank_mismatch.yaml EXIT 1
  STDERR_CONTAINS "rank_mismatch.yaml:10:18: error: rank mismatch")
kerncast_add_cli_test(NAME count_error_dtype ARGS count ${bad}/unknown_dtype.yaml EXIT 1
  STDERR_CONTAINS "unknown_dtype.yaml:4:14: error: unknown dtype 'float128'")
kerncast_add_cli_test(NAME count_error_axis_twice ARGS count ${bad}/axis_twice.yaml EXIT 1
  STDERR_CONTAINS "axis_twice.yaml:7:17: error: key 'x' is given twice")
kerncast_add_cli_test(NAME count_error_isl_domain ARGS count ${bad}/isl_domain.yaml EXIT 1
  STDERR_CONTAINS "isl_domain.yaml:6:52: error: isl rejects the domain")
kerncast_add_cli_test(NAME count_error_missing_file ARGS count ${bad}/no_such_kernel.yaml EXIT 1
  STDERR_CONTAINS "cannot open kernel file")
kerncast_add_cli_test(NAME count_error_unknown_param
  ARGS count examples/kernels/star2d_r1.yaml -D q=3 EXIT 1
  STDERR_CONTAINS "has no parameter 'q'")
kerncast_add_cli_test(NAME count_error_assumption
  ARGS count examples/kernels/matmul_tiled16.yaml -D n=100 EXIT 1
  STDERR_CONTAINS "assumes n % 16 == 0")
kerncast_add_cli_test(NAME count_error_fixed_tile
  ARGS count examples/kernels/fd5pt_16.yaml --block 32,32 EXIT 1
  STDERR_CONTAINS "fixes the block size")

# Bad usage: exit 2.
kerncast_add_cli_test(NAME count_usage_define ARGS count examples/kernels/star2d_r1.yaml -D nx EXIT 2
  STDERR_CONTAINS "-D expects name=value")
kerncast_add_cli_test(NAME count_usage_define_value ARGS count examples/kernels/star2d_r1.yaml -D nx=big EXIT 2
  STDERR_CONTAINS "is not an integer")
kerncast_add_cli_test(NAME count_usage_block ARGS count examples/kernels/star2d_r1.yaml --block 0,4 EXIT 2
  STDERR_CONTAINS "--block: '0,4' is not a launch triple")
kerncast_add_cli_test(NAME count_usage_no_kernel ARGS count EXIT 2)
