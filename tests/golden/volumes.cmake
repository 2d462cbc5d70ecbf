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
kerncast_add_cli_test(NAME predict_machine_without_fits EXIT 1
  ARGS predict examples/kernels/star3d_r4.yaml -m gtx280
  STDERR_CONTAINS "gtx280")
kerncast_add_cli_test(NAME predict_unknown_parameter EXIT 1
  ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb -D nw=5
  STDERR_CONTAINS "nw")

# 2D kernels sweep only z = 1 and no z folding; kernels with explicit block/thread indices
# (fd5pt: blocks/locals) keep the file's block.
kerncast_add_cli_test(NAME explore_star2d_r1
  ARGS explore examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb --top 3
  STDOUT_CONTAINS "22 configurations predicted, 0 skipped.")
kerncast_add_cli_test(NAME explore_fd5pt_16_fixed_block
  ARGS explore examples/kernels/fd5pt_16.yaml -m a100-sxm4-40gb
  STDOUT_CONTAINS "16x16x1" "1 configurations predicted, 0 skipped.")
kerncast_add_cli_test(NAME predict_fd5pt_16_block_indices
  ARGS predict examples/kernels/fd5pt_16.yaml -m a100-sxm4-40gb
  STDOUT_CONTAINS "293x293x1")
# The A100 80 GB takes the 40 GB part's L2 bandwidth (derived: same GA100 configuration):
# 86.403 B per point at 5000 GB/s bind.
kerncast_add_cli_test(NAME predict_a100_80gb
  ARGS predict examples/kernels/star3d_r4.yaml -m a100-sxm4-80gb --block 16x2x32 --fold z=2
  STDOUT_CONTAINS "L2          86.403  B                    17.281  yes")
# No source gives the H100's L2 bandwidth: the limiter model names the missing value.
kerncast_add_cli_test(NAME predict_machine_without_l2_bandwidth EXIT 1
  ARGS predict examples/kernels/star3d_r4.yaml -m h100-sxm5-80gb
  STDERR_CONTAINS "has no bandwidth for memory level l2 (sustained_bandwidth_gbs")
