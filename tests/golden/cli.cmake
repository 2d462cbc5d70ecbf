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
