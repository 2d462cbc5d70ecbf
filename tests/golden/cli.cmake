# General CLI behaviour.
kerncast_add_cli_test(NAME version ARGS --version STDOUT_CONTAINS "kerncast ")
kerncast_add_cli_test(NAME help ARGS --help STDOUT_CONTAINS "Exit codes")
kerncast_add_cli_test(NAME no_subcommand EXIT 2 STDERR_CONTAINS "subcommand")
kerncast_add_cli_test(NAME unknown_subcommand ARGS frobnicate EXIT 2)

# Without a GPU (or without CUDA) GPU subcommands exit 3 and say what is missing.
if(NOT KERNCAST_GPU_PRESENT)
  if(KERNCAST_ENABLE_CUDA)
    kerncast_add_cli_test(NAME devices_without_gpu ARGS devices EXIT 3 STDERR_CONTAINS "error:")
  else()
    kerncast_add_cli_test(NAME devices_without_cuda ARGS devices EXIT 3
                          STDERR_CONTAINS "built without CUDA")
  endif()
endif()

# --quiet is accepted before and after the subcommand (the progress bar itself draws only on a
# terminal: tests/unit/report/progress_bar_test.cpp).
kerncast_add_cli_test(NAME quiet_before_subcommand
  ARGS --quiet machines STDOUT_CONTAINS "v100-pcie-32gb")
kerncast_add_cli_test(NAME quiet_after_subcommand
  ARGS explore examples/kernels/star3d_r4.yaml -m a100-sxm4-40gb --blocks 32x4x4 --folds none -q
  STDOUT_CONTAINS "32x4x4")
