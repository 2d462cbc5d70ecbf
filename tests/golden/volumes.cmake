# kerncast predict / explore: the Warpspeed volume model (docs/volume-model.md).
set(volumes_expected ${CMAKE_CURRENT_SOURCE_DIR}/expected)

# One configuration of each kernel family, whole reports (the model is exact and deterministic).
kerncast_add_cli_test(NAME predict_star3d_r4
  ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb
  STDOUT ${volumes_expected}/predict_star3d_r4.txt)
kerncast_add_cli_test(NAME predict_star3d_r4_16x2x32_json
  ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --block 16x2x32 --fold z=2 --json -
  STDOUT ${volumes_expected}/predict_star3d_r4_16x2x32.json)
kerncast_add_cli_test(NAME predict_lbm_x1
  ARGS predict examples/kernels/lbm_d3q15_pull.yaml -m a100-sxm4-40gb --block 1x8x64
  STDOUT ${volumes_expected}/predict_lbm_x1.txt)
kerncast_add_cli_test(NAME predict_matmul_tiled16
  ARGS predict examples/kernels/matmul_tiled16.yaml -m a100-sxm4-40gb
  STDOUT ${volumes_expected}/predict_matmul_tiled16.txt)
# pnpoly at tile 4: the fold's instances compute each edge's slope once for the thread's four
# points (docs/kernel-format.md, What is counted), and the note says what that saves.
kerncast_add_cli_test(NAME predict_pnpoly_tile4
  ARGS predict examples/autotuning/kt_pnpoly.yaml -m h100-sxm5-80gb --block 256 --fold 4x:strided
  STDOUT ${volumes_expected}/predict_pnpoly_tile4.txt)
# Where the forecast rests on a curve no measurement places (docs/volume-model.md): the V100's
# default z-layer curve in its transition (a 350 x 350 plane), and the H200's fitted z-layer
# y-layer curve beyond the largest O of its samples (rows of 24000 points).
kerncast_add_cli_test(NAME predict_uncertain_z_layer_default
  ARGS predict data/published/v100-warpspeed/kernels/star3d_r2.yaml -m v100-pcie-32gb
       --block 32x32x1 --registers 32 -D nx=350 -D ny=350 -D nz=256
  STDOUT_CONTAINS "note: DRAM load: z_layer_overlap terms of 21.96 B/point at O = 0.93 hit 81 %"
                  "lies in the transition of a curve no measurement of v100-pcie-32gb places")
kerncast_add_cli_test(NAME predict_uncertain_y_layer_extrapolated
  ARGS predict data/published/v100-warpspeed/kernels/star3d_r2.yaml -m h200-sxm-141gb
       --block 16x4x16 --registers 32 -D nx=24000 -D ny=100 -D nz=100
  STDOUT_CONTAINS "note: DRAM load: y_layer_overlap terms of 7.52 B/point at O = 1.31 hit 33 %"
                  "beyond the largest its fit (fit-volumes-h200) saw, 0.51: the curve is extrapolated")
kerncast_add_cli_test(NAME predict_v100_define
  ARGS predict examples/kernels/star2d_r1.yaml -m v100-pcie-32gb -D nx=4096 --csv -
  STDOUT_CONTAINS "dram_load" "total")

# The default sweep of sec. 5.1, ranked (168 configurations for star3d_r4).
kerncast_add_cli_test(NAME explore_star3d_r4_top10
  ARGS explore examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --top 10
  STDOUT ${volumes_expected}/explore_star3d_r4_top10.txt)
kerncast_add_cli_test(NAME explore_lbm_512
  ARGS explore examples/kernels/lbm_d3q15_pull.yaml -m a100-sxm4-40gb --threads 512 --folds none --md -
  STDOUT ${volumes_expected}/explore_lbm_512.md)
kerncast_add_cli_test(NAME explore_skipped_configuration
  ARGS explore examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --blocks 32x4x4,2048x1x1 --folds none
  STDOUT_CONTAINS "1 configurations predicted, 1 skipped." "2048x1x1")

# Bad usage: exit 2; bad input: exit 1 with the reason.
kerncast_add_cli_test(NAME predict_bad_block EXIT 2
  ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --block 32y4
  STDERR_CONTAINS "--block: '32y4' is not a launch triple")
kerncast_add_cli_test(NAME explore_bad_threads EXIT 2
  ARGS explore examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --threads 1000
  STDERR_CONTAINS "no block sizes to sweep")
# Machines without caches (compute capability 1.x) are pointed at the MWP-CWP model.
kerncast_add_cli_test(NAME predict_machine_without_caches EXIT 1
  ARGS predict examples/kernels/star3d_r4.yaml -m gtx280
  STDERR_CONTAINS "machine 'gtx280' has no L1 or L2 cache" "`kerncast mwp` models GPUs without them")
kerncast_add_cli_test(NAME explore_machine_without_caches EXIT 1
  ARGS explore examples/kernels/star3d_r4.yaml -m fx5600
  STDERR_CONTAINS "machine 'fx5600' has no L1 or L2 cache")
# TITAN V has an L2, but no source here gives its size.
kerncast_add_cli_test(NAME predict_machine_without_l2_size EXIT 1
  ARGS predict examples/kernels/star3d_r4.yaml -m titan-v
  STDERR_CONTAINS "machine 'titan-v' has no size for memory level l2, which the volume model needs")
kerncast_add_cli_test(NAME predict_unknown_parameter EXIT 1
  ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb -D nw=5
  STDERR_CONTAINS "nw")

# 2D kernels sweep only z = 1 and no z folding; kernels with explicit block/thread indices
# (fd5pt: blocks/locals) keep the file's block.
kerncast_add_cli_test(NAME explore_star2d_r1
  ARGS explore examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb --top 3
  STDOUT_CONTAINS "90 configurations predicted, 0 skipped." "note: Best: block ")
kerncast_add_cli_test(NAME explore_fd5pt_16_fixed_block
  ARGS explore examples/kernels/fd5pt_16.yaml -m a100-sxm4-40gb
  STDOUT_CONTAINS "16x16x1" "1 configurations predicted, 0 skipped.")
kerncast_add_cli_test(NAME predict_fd5pt_16_block_indices
  ARGS predict examples/kernels/fd5pt_16.yaml -m a100-sxm4-40gb
  STDOUT_CONTAINS "293x293x1")
# The A100 80 GB takes the 40 GB part's L2 bandwidth (derived: same GA100 configuration):
# 60.670 B per point at 5000 GB/s bind.
kerncast_add_cli_test(NAME predict_a100_80gb
  ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-80gb --block 16x2x32 --fold z=2
  STDOUT_CONTAINS "L2                 60.670  B                    12.134  yes")
# Every built-in machine with caches predicts (docs/machine-format.md, "Bandwidths and L2 sizes
# from published figures"); `machine show --json` gives the L2 bandwidth the limiter model
# divides by and its source (id|L2 GB/s[|source]; without a source the value is written bare
# and takes the level's, ernst2023).
foreach(case
    "v100-pcie-32gb|2500.0|ernst2023"
    "v100-sxm2-32gb|2500.0|ernst2023-pcie"
    "a100-sxm4-40gb|5000.0"
    "a100-sxm4-80gb|5000.0|l2-bandwidth-same-chip"
    "rtx-a6000|2440.1|a40-l2-bandwidth"
    "h100-sxm5-80gb|6415.0"
    "h100-pcie-80gb|6892.2|gpu-benches-l2-cache"
    "h200-sxm-141gb|7292.6|h200-probe-bandwidth-2026-11-26")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 id)
  list(GET fields 1 l2_gbs)
  list(LENGTH fields field_count)
  set(l2_json "\"sustained_bandwidth_gbs\": ${l2_gbs},")
  if(field_count EQUAL 3)
    list(GET fields 2 l2_source)
    set(l2_json "\"sustained_bandwidth_gbs\": {\"value\": ${l2_gbs}, \"source\": \"${l2_source}\"}")
  endif()
  kerncast_add_cli_test(NAME predict_builtin_${id}
    ARGS predict examples/kernels/star3d_r4.yaml -m ${id}
    STDOUT_CONTAINS "on ${id} (Ernst et al. 2023)" "Limiters (sec. 2)" "Prediction")
  kerncast_add_cli_test(NAME machine_show_l2_bandwidth_${id}
    ARGS machine show ${id} --json -
    STDOUT_CONTAINS "${l2_json}")
endforeach()
# A machine without an L2 bandwidth (a test file extending the H100 PCIe with the value
# removed): the limiter model names the missing value, and explore stops once instead of
# skipping every configuration.
set(no_l2_bandwidth tests/unit/machine/data/no_l2_bandwidth.json)
kerncast_add_cli_test(NAME predict_machine_without_l2_bandwidth EXIT 1
  ARGS predict examples/kernels/star3d_r4.yaml -m ${no_l2_bandwidth}
  STDERR_CONTAINS "machine 'no-l2-bandwidth' has no bandwidth for memory level l2 (sustained_bandwidth_gbs or peak_bandwidth_gbs), which the limiter model needs")
kerncast_add_cli_test(NAME explore_machine_without_l2_bandwidth EXIT 1
  ARGS explore examples/kernels/star3d_r4.yaml -m ${no_l2_bandwidth}
  STDERR_CONTAINS "machine 'no-l2-bandwidth' has no bandwidth for memory level l2")

# Registers per thread (docs/volume-model.md, "Registers per thread"): the command line (a
# count, or auto: ptxas) > the kernel file > unknown. The test kernel states 64 registers: 2 blocks of 512 threads
# per A100 SM instead of 4.
set(registers_kernel ${PROJECT_SOURCE_DIR}/tests/unit/kernel/data/copy2d_registers_64.yaml)
kerncast_add_cli_test(NAME predict_registers_from_kernel_file
  ARGS predict ${registers_kernel} -m a100-sxm4-40gb
  STDOUT ${volumes_expected}/predict_registers_kernel_file.txt)
kerncast_add_cli_test(NAME predict_registers_command_line_wins
  ARGS predict ${registers_kernel} -m a100-sxm4-40gb --registers 32 --csv -
  STDOUT_CONTAINS "registers_per_thread,32" "registers_source,command line" "blocks_per_sm,4"
                  "occupancy_limit,warps")
kerncast_add_cli_test(NAME predict_registers_zero_does_not_limit
  ARGS predict ${registers_kernel} -m a100-sxm4-40gb --registers 0 --md -
  STDOUT_CONTAINS "| registers_per_thread | - |" "| registers_source | command line |"
                  "| blocks_per_sm | 4 |" "--registers 0: occupancy assumes registers do not limit.")
kerncast_add_cli_test(NAME explore_registers_from_kernel_file
  ARGS explore ${registers_kernel} -m a100-sxm4-40gb --blocks 32x16,32x32 --folds none
  STDOUT_CONTAINS "Registers per thread: 64 (the kernel file's registers_per_thread)."
                  "2 configurations predicted, 0 skipped.")
kerncast_add_cli_test(NAME predict_registers_unknown_note
  ARGS predict examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb --md -
  STDOUT_CONTAINS "| registers_source | unknown |"
                  "Registers per thread unknown (--registers N")

# Bad values: usage (exit 2) on the command line, input (exit 1, file:line:column) in the file.
kerncast_add_cli_test(NAME predict_registers_out_of_range EXIT 2
  ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --registers 256
  STDERR_CONTAINS "--registers: '256' is neither 'auto' nor a register count from 0 to 255")
kerncast_add_cli_test(NAME explore_registers_not_a_number EXIT 2
  ARGS explore examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --registers many
  STDERR_CONTAINS "--registers: 'many' is neither 'auto' nor a register count")
kerncast_add_cli_test(NAME predict_registers_bad_kernel_file EXIT 1
  ARGS predict ${PROJECT_SOURCE_DIR}/tests/unit/kernel/data/registers_out_of_range.yaml -m a100-sxm4-40gb
  STDERR_CONTAINS "registers_out_of_range.yaml:9:23: error: registers_per_thread must be between 1 and 255, got 300"
                  "^")

# A tiled kernel runs only at the block its shared tiles were written for (16 x 16 for
# dg_diff_4): explore predicts that one and lists the other as skipped, with the reason.
kerncast_add_cli_test(NAME explore_skips_blocks_the_tiles_cannot_take
  ARGS explore examples/kernels/dg_diff_4.yaml -m a100-sxm4-40gb --blocks 16x16x1,256x1x1 --folds none
  STDOUT_CONTAINS "launch block 256x1x1 cannot run kernel 'dg_diff_4': in block"
                  "0, 'dm_tile[ty, tx]' reaches dm_tile[0, 16]"
                  "1 configurations predicted, 1 skipped")
if(KERNCAST_ENABLE_CUDA)
  # ptxas's counts through NVRTC (CUDA 13.0; exact for this toolkit and generator).
  kerncast_add_cli_test(NAME predict_star3d_r4_registers_auto
    ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --registers auto
    STDOUT ${volumes_expected}/predict_star3d_r4_registers_auto.txt)
  # The block is compiled in: __launch_bounds__(1024) caps dg_diff_global at 64 registers and
  # ptxas spills; at 256 threads it keeps 125 (tests/unit/codegen/data/dg_diff_global.yaml).
  kerncast_add_cli_test(NAME explore_dg_diff_global_registers_auto
    ARGS explore tests/unit/codegen/data/dg_diff_global.yaml -m a100-sxm4-40gb --registers auto --blocks 256x1x1,1024x1x1 --folds none
    STDOUT ${volumes_expected}/explore_dg_diff_global_registers_auto.txt)
  kerncast_add_cli_test(NAME predict_registers_auto_spills_json
    ARGS predict tests/unit/codegen/data/dg_diff_global.yaml -m a100-sxm4-40gb --registers auto --block 1024 --json -
    STDOUT_CONTAINS "\"spill_store_bytes\"" "It spills: 108 B stored, 108 B loaded per thread")
  # --registers auto asks ptxas even when the kernel file states a count (64).
  kerncast_add_cli_test(NAME predict_registers_auto_over_kernel_file
    ARGS predict ${registers_kernel} -m a100-sxm4-40gb --registers auto --csv -
    STDOUT_CONTAINS "registers_source,ptxas" "ptxas_target,sm_80")
  # CUDA 13's NVRTC compiles for compute capability 7.5 and newer.
  kerncast_add_cli_test(NAME predict_registers_auto_old_machine EXIT 3
    ARGS predict examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --registers auto
    STDERR_CONTAINS "machine 'v100-pcie-32gb' has compute capability 7.0: this NVRTC cannot compile for it to count registers; the oldest compute capability it supports is 7.5")
  kerncast_add_cli_test(NAME explore_registers_auto_cc1_machine EXIT 3
    ARGS explore examples/kernels/hk_matmul.yaml -m gtx280 --registers auto
    STDERR_CONTAINS "machine 'gtx280' has compute capability 1.3" "7.5")
else()
  kerncast_add_cli_test(NAME predict_registers_auto_without_cuda EXIT 3
    ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --registers auto
    STDERR_CONTAINS "counting registers with ptxas (--registers auto) needs NVRTC, and kerncast was built without CUDA")
endif()
# predict --explain: which of the model's stages run on a machine and the values they use.
kerncast_add_cli_test(NAME predict_explain_v100
  ARGS predict examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --explain
  STDOUT_CONTAINS "l1_simulation         L2 -> L1" "memory.l1.ways = 16"
                  "launch_limit" "compute.block_launches_per_cycle = 0.5 blocks/cycle"
                  "memory.dram.bandwidth_by_loads_in_flight = 96 points"
                  "no compute.warp_duration_cv: every resident thread counts")
# A machine without the in-flight table (the V100 SXM2: gpu-benches has no gpu-stream table of
# it) says that no latency limit runs.
kerncast_add_cli_test(NAME predict_explain_v100_sxm2
  ARGS predict examples/kernels/star3d_r4.yaml -m v100-sxm2-32gb --explain
  STDOUT_CONTAINS "no memory.l1.ways: the l1_redundant_loads fit"
                  "no memory.dram.bandwidth_by_loads_in_flight: no limit by the")
kerncast_add_cli_test(NAME predict_explain_json
  ARGS predict examples/kernels/star3d_r4.yaml -m h200-sxm-141gb --explain --json -
  STDOUT_CONTAINS "\"stages\": {" "compute.load_window_reserved_registers = 8 registers")

# Search spaces (docs/autotuning.md): Kernel Tuner's convolution space, 432 combinations, 90
# over 1024 threads a block.
kerncast_add_cli_test(NAME explore_space_convolution
  ARGS explore --space examples/autotuning/spaces/kt_convolution.yaml -m a100-sxm4-40gb --top 3
  STDOUT_CONTAINS "Search space of kt_convolution on a100-sxm4-40gb, ranked by predicted time"
                  "342 configurations predicted, 0 skipped."
                  "90 combinations of the search space were excluded by its restrictions.")
set_tests_properties(cli.explore_space_convolution PROPERTIES TIMEOUT 120)
kerncast_add_cli_test(NAME explore_space_with_kernel EXIT 2
  ARGS explore examples/kernels/star3d_r4.yaml --space examples/autotuning/spaces/kt_convolution.yaml -m a100-sxm4-40gb
  STDERR_CONTAINS "KERNEL, --blocks, --folds and --threads do not combine with it")
kerncast_add_cli_test(NAME explore_space_unknown_name EXIT 1
  ARGS explore --space tests/golden/data/spaces/unknown_name.yaml -m a100-sxm4-40gb
  STDERR_CONTAINS "unknown_name.yaml:4:16: error: restriction 'block_x * tile_x <= 256' names 'tile_x', which the space does not define")
kerncast_add_cli_test(NAME explore_without_kernel EXIT 2
  ARGS explore -m a100-sxm4-40gb
  STDERR_CONTAINS "explore needs a KERNEL file, or --space FILE")
# The shortlist (docs/autotuning.md): the configurations to measure for a stated confidence.
kerncast_add_cli_test(NAME explore_shortlist
  ARGS explore examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb --blocks 32x1,64x1,32x8,1x32 --folds none --shortlist 0.9 --error-spread 0.05
  STDOUT_CONTAINS "Configurations to measure, in this order"
                  "Shortlist: measure the first 3 of 4 predicted configurations.")
kerncast_add_cli_test(NAME explore_shortlist_without_spread EXIT 2
  ARGS explore examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb --shortlist 0.9
  STDERR_CONTAINS "--shortlist CONFIDENCE needs --error-spread SPREAD")
kerncast_add_cli_test(NAME explore_shortlist_bad_confidence EXIT 2
  ARGS explore examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb --shortlist 1.5 --error-spread 0.1
  STDERR_CONTAINS "the shortlist's confidence must lie strictly between 0 and 1")
