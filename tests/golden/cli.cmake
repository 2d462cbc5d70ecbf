# General CLI behaviour.
kerncast_add_cli_test(NAME version ARGS --version STDOUT_CONTAINS "kerncast ")
kerncast_add_cli_test(NAME help ARGS --help STDOUT_CONTAINS "Exit codes")
kerncast_add_cli_test(NAME no_subcommand EXIT 2 STDERR_CONTAINS "subcommand")
kerncast_add_cli_test(NAME unknown_subcommand ARGS frobnicate EXIT 2)
