# kerncast fit-volumes (docs/volume-model.md, "Fitting the capacity curves"): bad input and
# usage. The records are the synthetic ones of validate (tests/golden/data/validate_star3d).
set(fit_records tests/golden/data/validate_star3d)
kerncast_add_cli_test(NAME fit_volumes.help ARGS fit-volumes --help
  STDOUT_CONTAINS "--records" "--fits" "--kernels" "--output")
kerncast_add_cli_test(NAME fit_volumes.missing_records
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100-pcie-32gb EXIT 2
  STDERR_CONTAINS "--records")
kerncast_add_cli_test(NAME fit_volumes.no_such_directory
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --records no/such/dir EXIT 1
  STDERR_CONTAINS "no/such/dir")
kerncast_add_cli_test(NAME fit_volumes.directory_without_records
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --records tests/golden/data
  EXIT 1 STDERR_CONTAINS "holds no measurement records")
kerncast_add_cli_test(NAME fit_volumes.unknown_machine
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100 --records ${fit_records} EXIT 1
  STDERR_CONTAINS "unknown machine id 'v100'" "v100-pcie-32gb")
kerncast_add_cli_test(NAME fit_volumes.output_is_a_record
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --records ${fit_records}
       -o ${fit_records}/b_64x4x1.json
  EXIT 2 STDERR_CONTAINS "b_64x4x1.json' is an input of this fit" "does not overwrite its inputs")
kerncast_add_cli_test(NAME fit_volumes.output_is_the_kernel_file
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --records ${fit_records}
       -o examples/kernels/../kernels/star3d_r4.yaml
  EXIT 2 STDERR_CONTAINS "is an input of this fit (examples/kernels/star3d_r4.yaml)")
kerncast_add_cli_test(NAME fit_volumes.output_is_the_machine_file
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m machines/v100-pcie-32gb.json
       --records ${fit_records} -o machines/v100-pcie-32gb.json
  EXIT 2 STDERR_CONTAINS "is an input of this fit (machines/v100-pcie-32gb.json)")
kerncast_add_cli_test(NAME fit_volumes.output_is_a_directory
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --records ${fit_records}
       -o machines
  EXIT 2 STDERR_CONTAINS "'machines' is a directory")
kerncast_add_cli_test(NAME fit_volumes.unknown_fit
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --records ${fit_records}
       --fits l1_redundant_loads,z_layer
  EXIT 2 STDERR_CONTAINS "--fits: unknown capacity fit 'z_layer'" "did you mean 'z_layer_overlap'?")
kerncast_add_cli_test(NAME fit_volumes.records_of_other_kernels
  ARGS fit-volumes examples/kernels/star2d_r1.yaml -m v100-pcie-32gb --records ${fit_records}
  EXIT 1 STDERR_CONTAINS "gives a measured volume of the given kernels"
                         "no kernel file of kernel 'star3d_r4'")
kerncast_add_cli_test(NAME fit_volumes.kernels_directory_without_kernels
  ARGS fit-volumes -m v100-pcie-32gb --records ${fit_records} --kernels ${fit_records}
  EXIT 1 STDERR_CONTAINS "holds no kernel files")
kerncast_add_cli_test(NAME fit_volumes.bad_registers
  ARGS fit-volumes examples/kernels/star3d_r4.yaml -m v100-pcie-32gb --records ${fit_records}
       --registers many
  EXIT 2 STDERR_CONTAINS "--registers: 'many'")
# A fit of the published V100 2D box records (data/published/v100-warpspeed): the report, the
# cross-validation over the ten kernels, and the machine file written (which kerncast reads
# back before writing it).
kerncast_add_cli_test(NAME fit_volumes.published_box2d
  ARGS fit-volumes --records data/published/v100-warpspeed/records/box2d-volumes
       --kernels data/published/v100-warpspeed/kernels -m v100-pcie-32gb
       -o ${CMAKE_BINARY_DIR}/fit_volumes_box2d.json --json -
  STDOUT_CONTAINS "\"schema\": \"kerncast.fit-volumes/1\"" "\"status\": \"fitted\""
                  "\"status\": \"not identifiable\"" "\"trained_on\": \"B\""
                  "wrote ${CMAKE_BINARY_DIR}/fit_volumes_box2d.json"
                  "fit_volumes_box2d.json is built-in machine 'v100-pcie-32gb' "
                  "(machines/v100-pcie-32gb.json) as written, with only the changed members")
