# Calibrated cost models (docs/model-format.md): kerncast calibrate and predict --model. The
# records of tests/golden/data/calibrated/records are synthetic (make_records.py there: the
# model tiled.yaml at the invented parameters of truth.json, 1 % noise), not measurements.
set(cal_data tests/golden/data/calibrated)
kerncast_add_cli_test(NAME calibrate.help ARGS calibrate --help
  STDOUT_CONTAINS "--records" "--non-negative" "--absolute" "--output")
kerncast_add_cli_test(NAME predict.model_help ARGS predict --help STDOUT_CONTAINS "--model")
# Prediction with the parameters of a machine file: exact arithmetic on exact counts.
kerncast_add_cli_test(NAME predict.model_tiled
  ARGS predict examples/kernels/matmul_tiled16.yaml --model ${cal_data}/tiled.yaml
       -m ${cal_data}/truth.json -D n=1024
  STDOUT ${CMAKE_CURRENT_SOURCE_DIR}/expected/predict_model_tiled.txt)
kerncast_add_cli_test(NAME predict.model_missing_parameters
  ARGS predict examples/kernels/matmul_tiled16.yaml --model ${cal_data}/tiled.yaml
       -m a100-sxm4-40gb
  EXIT 1 STDERR_CONTAINS "machine 'a100-sxm4-40gb' has no calibrated value of tiled.p_launch"
                         "kerncast calibrate MODEL --records DIR")
kerncast_add_cli_test(NAME predict.model_parse_error
  ARGS predict examples/kernels/matmul_tiled16.yaml --model ${cal_data}/bad_feature.yaml
       -m ${cal_data}/truth.json
  EXIT 1 STDERR_CONTAINS "bad_feature.yaml:6:27: error: expression: unknown memory-access field 'globl'"
                         "did you mean f_mem_access_global_float32_load?")
# One kernel cannot be cross-validated by kernel: a note says so.
kerncast_add_cli_test(NAME calibrate.cross_validate_one_kernel
  ARGS calibrate ${cal_data}/tiled.yaml --records ${cal_data}/records -m a100-sxm4-40gb
       --cross-validate
  STDOUT_CONTAINS "no cross-validation: it needs records of at least two kernels")
# Calibration from the records: the parameters come back within 3 % of truth.json's (the
# exact digits depend on the floating-point platform, so only stable parts are compared).
kerncast_add_cli_test(NAME calibrate.tiled
  ARGS calibrate ${cal_data}/tiled.yaml --records ${cal_data}/records -m a100-sxm4-40gb
       -o ${CMAKE_BINARY_DIR}/calibrated_tiled.json
  STDOUT_CONTAINS "p_madd     fitted" "matmul_tiled16        6     0.0054  0.0055  0.0078"
                  "CONVERGENCE" "wrote ${CMAKE_BINARY_DIR}/calibrated_tiled.json"
                  "as calibrated_costs tiled.<parameter> under the source 'calibrate-tiled'"
                  "calibrated_tiled.json is built-in machine 'a100-sxm4-40gb' "
                  "(machines/a100-sxm4-40gb.json) as written, with only the changed members")
kerncast_add_cli_test(NAME calibrate.tiled_json
  ARGS calibrate ${cal_data}/tiled.yaml --records ${cal_data}/records -m a100-sxm4-40gb
       --non-negative --json -
  STDOUT_CONTAINS "\"schema\": \"kerncast.calibrate/1\"" "\"parameter\": \"p_store\""
                  "\"non_negative\"")
kerncast_add_cli_test(NAME calibrate.refuses_to_overwrite_the_model
  ARGS calibrate tiled.yaml --records ${PROJECT_SOURCE_DIR}/${cal_data}/records
       -m a100-sxm4-40gb -o tiled.yaml
  COPY ${cal_data}/tiled.yaml UNCHANGED tiled.yaml
  EXIT 2 STDERR_CONTAINS "-o 'tiled.yaml' is the input file 'tiled.yaml'")
kerncast_add_cli_test(NAME calibrate.refuses_to_write_into_the_records
  ARGS calibrate ${cal_data}/tiled.yaml --records ${cal_data}/records -m a100-sxm4-40gb
       -o ${cal_data}/records/out.json
  EXIT 2 STDERR_CONTAINS "lies in the directory")
kerncast_add_cli_test(NAME calibrate.records_of_other_kernels
  ARGS calibrate ${cal_data}/tiled.yaml examples/kernels/matmul_naive.yaml
       --records ${cal_data}/records -m a100-sxm4-40gb
  EXIT 1 STDERR_CONTAINS "gives a measured time of the given kernels"
                         "which no given kernel file defines")
kerncast_add_cli_test(NAME calibrate.example_models_parse
  ARGS calibrate examples/models/matmul_overlap.yaml --records ${cal_data}/records
       -m a100-sxm4-40gb --non-negative
  STDOUT_CONTAINS "p_edge" "undetermined")
kerncast_add_cli_test(NAME predict.model_with_volume_options
  ARGS predict examples/kernels/matmul_tiled16.yaml --model ${cal_data}/tiled.yaml
       -m ${cal_data}/truth.json --registers 32
  EXIT 2 STDERR_CONTAINS "a cost model (--model) does not use them")
kerncast_add_cli_test(NAME predict.model_with_explain
  ARGS predict examples/kernels/matmul_tiled16.yaml --model ${cal_data}/tiled.yaml
       -m ${cal_data}/truth.json --explain
  EXIT 2 STDERR_CONTAINS "--explain are options of the volume model")
# Parameters the records do not determine separately are not written (issue 47): the report,
# then exit 1 naming them; --write-undetermined writes them, the source says which.
kerncast_add_cli_test(NAME calibrate.refuses_to_write_inseparable_parameters
  ARGS calibrate ${cal_data}/collinear.yaml --records ${cal_data}/records -m a100-sxm4-40gb
       -o ${CMAKE_BINARY_DIR}/calibrated_collinear.json
  EXIT 1
  STDOUT_CONTAINS "not separable: the 6 records fix only 3 independent combinations"
  STDERR_CONTAINS "calibrated_collinear.json' was not written: the 6 records do not determine p_"
                  "(not separable)" "--write-undetermined")
kerncast_add_cli_test(NAME calibrate.writes_inseparable_parameters_when_asked
  ARGS calibrate ${cal_data}/collinear.yaml --records ${cal_data}/records -m a100-sxm4-40gb
       -o ${CMAKE_BINARY_DIR}/calibrated_collinear_anyway.json --write-undetermined
  STDOUT_CONTAINS "wrote ${CMAKE_BINARY_DIR}/calibrated_collinear_anyway.json")
