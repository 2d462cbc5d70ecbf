# kerncast mwp: Hong & Kim 2009, Table 2 (docs/mwp-cwp.md).
set(mwp_data ${PROJECT_SOURCE_DIR}/tests/unit/models/data)
set(mwp_expected ${CMAKE_CURRENT_SOURCE_DIR}/expected)

# Table 2 exactly (total 50728.1875 cycles) and as the paper printed it (50737.2).
kerncast_add_cli_test(NAME mwp_hk_table2
  ARGS mwp --workload examples/workloads/hk-table2.json -m hk-example
  STDOUT ${mwp_expected}/mwp_hk_table2.txt)
kerncast_add_cli_test(NAME mwp_hk_table2_paper_rounding_json
  ARGS mwp --workload examples/workloads/hk-table2.json -m hk-example --paper-rounding --json -
  STDOUT ${mwp_expected}/mwp_hk_table2_paper_rounding.json)
kerncast_add_cli_test(NAME mwp_hk_table2_md
  ARGS mwp --workload examples/workloads/hk-table2.json -m hk-example --md -
  STDOUT_CONTAINS "| mem_l | Mem_L | (12) | 730 | cycles |" "50728.2")
kerncast_add_cli_test(NAME mwp_hk_table2_csv
  ARGS mwp --workload examples/workloads/hk-table2.json -m hk-example --csv -
  STDOUT_CONTAINS "exec_cycles_with_synch" "50728.1875")
kerncast_add_cli_test(NAME mwp_options
  ARGS mwp --workload examples/workloads/hk-table2.json -m hk-example --rep-ceiling
       --synch-bounded
  STDOUT_CONTAINS "paper rounding off, #Rep ceiling on, synchronisation bounded by block warps on")

# The occupancy calculation on a CC 1.0 machine file decides the active blocks.
kerncast_add_cli_test(NAME mwp_occupancy_fx5600
  ARGS mwp --workload ${mwp_data}/with-resources.json -m fx5600
  STDOUT ${mwp_expected}/mwp_occupancy_fx5600.txt)

# Bad input: exit 1 with the position; bad usage: exit 2.
kerncast_add_cli_test(NAME mwp_unknown_key EXIT 1
  ARGS mwp --workload ${mwp_data}/unknown-key.json -m hk-example
  STDERR_CONTAINS "unknown-key.json:5:3: error: unknown key \"comp_inst\" (at /comp_inst)"
                  "note: did you mean \"comp_insts\"?")
kerncast_add_cli_test(NAME mwp_malformed_workload EXIT 1
  ARGS mwp --workload ${mwp_data}/malformed.json -m hk-example
  STDERR_CONTAINS "malformed.json:4:3: error: malformed JSON")
kerncast_add_cli_test(NAME mwp_missing_workload_file EXIT 1
  ARGS mwp --workload does-not-exist.json -m hk-example
  STDERR_CONTAINS "does-not-exist.json: error: cannot open workload file: No such file")
kerncast_add_cli_test(NAME mwp_missing_workload_option EXIT 2
  ARGS mwp -m hk-example
  STDERR_CONTAINS "--workload")
kerncast_add_cli_test(NAME mwp_missing_machine_option EXIT 2
  ARGS mwp --workload examples/workloads/hk-table2.json
  STDERR_CONTAINS "--machine")

# Workloads derived from kernel files (docs/mwp-cwp.md, "Workloads from kernel files").
kerncast_add_cli_test(NAME mwp_kernel_table2
  ARGS mwp examples/kernels/hk_matmul_table2.yaml -m hk-example
  STDOUT ${mwp_expected}/mwp_kernel_table2.txt)
kerncast_add_cli_test(NAME mwp_kernel_micro_gtx280_json
  ARGS mwp examples/kernels/hk_micro_mb4_uc.yaml -m gtx280 --block 256 --json -
  STDOUT ${mwp_expected}/mwp_kernel_micro_gtx280.json)
kerncast_add_cli_test(NAME mwp_kernel_cache_aware_v100
  ARGS mwp data/published/v100-warpspeed/kernels/box2d_r1.yaml -m v100-pcie-32gb
       --mwp-model cache-aware --block 64x4
  STDOUT ${mwp_expected}/mwp_kernel_cache_aware_v100.txt)
kerncast_add_cli_test(NAME mwp_kernel_and_workload EXIT 2
  ARGS mwp examples/kernels/hk_matmul_table2.yaml --workload examples/workloads/hk-table2.json
       -m hk-example
  STDERR_CONTAINS "give a kernel file or --workload FILE")
kerncast_add_cli_test(NAME mwp_workload_with_block EXIT 2
  ARGS mwp --workload examples/workloads/hk-table2.json -m hk-example --block 64
  STDERR_CONTAINS "apply to a kernel file")
kerncast_add_cli_test(NAME mwp_bad_variant EXIT 2
  ARGS mwp examples/kernels/hk_matmul_table2.yaml -m hk-example --mwp-model cached
  STDERR_CONTAINS "--mwp-model: 'cached' is not a variant")
kerncast_add_cli_test(NAME mwp_cache_aware_without_caches EXIT 1
  ARGS mwp examples/kernels/hk_matmul_table2.yaml -m hk-example --mwp-model cache-aware
  STDERR_CONTAINS "machine 'hk-example' has no L1 or L2 cache" "--mwp-model classic")
kerncast_add_cli_test(NAME mwp_machine_without_parameters EXIT 1
  ARGS mwp examples/kernels/hk_matmul.yaml -m rtx-a6000
  STDERR_CONTAINS "lacks mwp_cwp.mem_ld_cycles")
kerncast_add_cli_test(NAME mwp_machine_without_departure_delays EXIT 1
  ARGS mwp examples/kernels/hk_matmul.yaml -m a100-sxm4-40gb
  STDERR_CONTAINS "lacks mwp_cwp.departure_del_uncoal_cycles")
# The Hopper files take MWP-CWP's parameters from the probe: the model runs there.
kerncast_add_cli_test(NAME mwp_h100_from_probe
  ARGS mwp examples/kernels/hk_matmul.yaml -m h100-sxm5-80gb
  STDOUT_CONTAINS "h100-probe-departure-2026-11-26" "hopper-issue")

# Fitting Mem_LD and the departure delays (sec. 5.1) to SYNTHETIC records made from the model's
# own FX5600 predictions (tests/golden/data/mwp_fit_synthetic/generate.py): it gives 420, 10, 4.
kerncast_add_cli_test(NAME mwp_fit_synthetic
  ARGS mwp-fit --records tests/golden/data/mwp_fit_synthetic -m fx5600
  STDOUT ${mwp_expected}/mwp_fit_synthetic.txt)
# Cross-validation by kernel: the sorted kernels alternate so that one half holds only the
# coalesced micro-benchmarks; fitted there, Departure_del_uncoal stays at its start (5 cycles,
# undetermined) and the uncoalesced runs come out 50 % off, while the other half carries.
kerncast_add_cli_test(NAME mwp_fit_cross_validate
  ARGS mwp-fit --records tests/golden/data/mwp_fit_synthetic -m fx5600 --cross-validate
  STDOUT_CONTAINS "runs whose kernels the fit did not see (two halves by kernel)"
                  "420.0                  5.00                4.00       21          0.5000       0.5000"
                  "420.0                 10.00                4.00       21          0.0000       0.0000")
kerncast_add_cli_test(NAME mwp_fit_no_records EXIT 1
  ARGS mwp-fit --records does-not-exist -m fx5600
  STDERR_CONTAINS "does-not-exist")
