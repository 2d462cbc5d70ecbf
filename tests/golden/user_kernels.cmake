# Kernels written from scratch as a new user would (issue 42, tests/user_kernels/): each gets
# a right answer or a clear refusal, never a confident wrong forecast.
set(uk tests/user_kernels)

# user_kernel_refused(NAME FILE ERROR COMMAND...): each command refuses the kernel file with
# exit 1 and ERROR on stderr (predict on the H100 file).
function(user_kernel_refused name file error)
  foreach(command ${ARGN})
    set(machine_args "")
    if(command STREQUAL "predict")
      set(machine_args -m h100-sxm5-80gb)
    endif()
    kerncast_add_cli_test(NAME user_kernels.${name}_${command}
      ARGS ${command} ${uk}/${file} ${machine_args} EXIT 1 STDERR_CONTAINS "${error}")
  endforeach()
endfunction()

# ---- out-of-bounds global reads: refused at the statement, by every command that binds ----
user_kernel_refused(out_of_bounds shift_out_of_bounds.yaml
  "shift_out_of_bounds.yaml:12:6: error: kernel 'shift_out_of_bounds': 'a[i - 1]' reads a[-1], outside the array's extents [1048576] at i = 0"
  count predict codegen)

# ---- folds and blocks that change what a kernel naming tx/ty computes ----------------------
kerncast_add_cli_test(NAME user_kernels.transpose_own_launch
  ARGS predict ${uk}/transpose_tiled.yaml -m h100-sxm5-80gb
  STDOUT_CONTAINS "block                   32x32x1")
kerncast_add_cli_test(NAME user_kernels.transpose_folded_refused
  ARGS predict ${uk}/transpose_tiled.yaml -m h100-sxm5-80gb --fold y=2 EXIT 1
  STDERR_CONTAINS "transpose_tiled.yaml:15:6: error: launch block 32x32x1, fold 1x2x1 would change what kernel 'transpose_tiled' computes: the shared subscript 'tile[ty, tx]' names 'ty'")
kerncast_add_cli_test(NAME user_kernels.transpose_folded_codegen_refused
  ARGS codegen ${uk}/transpose_tiled.yaml --fold y=2 EXIT 1
  STDERR_CONTAINS "would change what kernel 'transpose_tiled' computes")
# explore ranks the file's launch and lists every other one as skipped, with the reason.
kerncast_add_cli_test(NAME user_kernels.transpose_explore
  ARGS explore ${uk}/transpose_tiled.yaml -m h100-sxm5-80gb --csv -
  STDOUT_CONTAINS "1,32x32x1,1x1x1,"
                  "\"launch block 16x16x1, fold 1x1x1 would change what kernel 'transpose_tiled' computes: 'b[32 * bx + ty, 32 * by + tx]' names 'bx'"
                  "\"launch block 32x32x1, fold 1x2x1 would change what kernel 'transpose_tiled' computes: the shared subscript 'tile[ty, tx]' names 'ty'")

# ---- a write-write race on shared memory ---------------------------------------------------
kerncast_add_cli_test(NAME user_kernels.row_sum_race
  ARGS predict ${uk}/row_sum_tree.yaml -m h100-sxm5-80gb --block 256x4 EXIT 1
  STDERR_CONTAINS "threads (tx, ty, tz) = (0, 0, 0) and (0, 1, 0) both write sm[0] in one barrier phase ('sm[tx]' and 'sm[tx]'): a write-write race on shared memory")
kerncast_add_cli_test(NAME user_kernels.row_sum_own_launch
  ARGS predict ${uk}/row_sum_tree.yaml -m h100-sxm5-80gb
  STDOUT_CONTAINS "block                  256x1x1")

# ---- a grid smaller than the GPU -----------------------------------------------------------
# 32 blocks on the H100's 132 SMs: one block on each of 32 SMs, and the limiters say so.
kerncast_add_cli_test(NAME user_kernels.small_grid
  ARGS predict ${uk}/small_grid.yaml -m h100-sxm5-80gb
  STDOUT_CONTAINS "resident_blocks_per_sm        1" "busy_sms                     32"
                  "note: The grid's 32 blocks fill less than one wave (8 blocks per SM x 132 SMs): the busiest SM holds 1, so the L1, FP and in-flight limiters count 32.0 busy SMs."
                  "256 resident threads an SM")

# ---- work the model leaves out is named ----------------------------------------------------
kerncast_add_cli_test(NAME user_kernels.global_atomics_named
  ARGS predict ${uk}/global_histogram.yaml -m h100-sxm5-80gb
  STDOUT_CONTAINS "note: Unmodelled: 100 % of the kernel's global accesses are outside the model"
                  "67108864 updates reach 8192 addresses, so at least 8192.0 updates run one after another")
kerncast_add_cli_test(NAME user_kernels.gather_named_json
  ARGS predict ${uk}/ell_spmv.yaml -m h100-sxm5-80gb --json -
  STDOUT_CONTAINS "\"kind\": \"data-dependent address\"" "\"access\": \"x[col[k, r]]\"")

# ---- explore sweeps thread counts for 1D kernels and says why the best wins -----------------
kerncast_add_cli_test(NAME user_kernels.explore_1d_thread_counts
  ARGS explore ${uk}/small_grid.yaml -m h100-sxm5-80gb --csv -
  STDOUT_CONTAINS ",64x1x1,1x1x1," ",128x1x1,1x1x1," ",256x1x1,1x1x1," ",512x1x1,1x1x1," ",1024x1x1,1x1x1,")
kerncast_add_cli_test(NAME user_kernels.explore_best_note
  ARGS explore ${uk}/small_grid.yaml -m h100-sxm5-80gb
  STDOUT_CONTAINS "note: Best: block " "Gpoints/s" "us a launch;" "binds (")

# ---- a grid over CUDA's limits -------------------------------------------------------------
kerncast_add_cli_test(NAME user_kernels.grid_over_limit
  ARGS predict examples/kernels/star3d_r4.yaml -m h100-sxm5-80gb --block 1024x1x1 -D nz=140000 EXIT 1
  STDERR_CONTAINS "grid z 69996 exceeds CUDA's limit of 65535")
kerncast_add_cli_test(NAME user_kernels.global_atomics_named_mwp
  ARGS mwp ${uk}/global_histogram.yaml -m v100-pcie-32gb
  STDOUT_CONTAINS "note: 'hist[c]' is a global atomic, timed as a store: the serialization of updates to one address is not modelled (67108864 updates reach 8192 addresses")

# ---- byte addresses past 64 bits: an error at the statement, never a wrapped address -------
user_kernel_refused(address_overflow offset_overflow.yaml
  "offset_overflow.yaml:12:6: error: the byte address of 'a[i]' (array 'a') exceeds the 64-bit integer range"
  count predict)

# ---- counts past 64 bits: the file and the values, by every command that counts -------------
user_kernel_refused(domain_count_overflow domain_count_overflow.yaml
  "domain_count_overflow.yaml: error: a count exceeds the 64-bit integer range"
  count predict)
kerncast_add_cli_test(NAME user_kernels.domain_count_overflow_mwp
  ARGS mwp ${uk}/domain_count_overflow.yaml -m v100-pcie-32gb EXIT 1
  STDERR_CONTAINS "domain_count_overflow.yaml: error: a count exceeds the 64-bit integer range"
                  "note: parameters: nx = 1000000000, ny = 200000, nz = 4000000")

# ---- isl's refusals in the user's terms, without isl's source position --------------------
user_kernel_refused(mod_zero mod_zero_domain.yaml
  "mod_zero_domain.yaml:8:9: error: isl rejects the domain: a division or mod by a constant that is not positive"
  count predict)
