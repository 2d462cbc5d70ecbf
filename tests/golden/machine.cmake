# CLI tests of `kerncast machines` and `kerncast machine show` (docs/machine-format.md).
set(machine_data tests/unit/machine/data)
set(machine_expected ${CMAKE_CURRENT_SOURCE_DIR}/expected)

kerncast_add_cli_test(NAME machines ARGS machines STDOUT ${machine_expected}/machine_list.txt)
# The catalogue is embedded: the same output from any directory.
kerncast_add_cli_test(NAME machines_from_elsewhere ARGS machines WORKDIR ${CMAKE_CURRENT_BINARY_DIR}
  STDOUT ${machine_expected}/machine_list.txt)
kerncast_add_cli_test(NAME machines_json ARGS machines --json -
  STDOUT_CONTAINS "\"schema\": \"kerncast.machines/1\"" "\"a100-sxm4-40gb\"")
kerncast_add_cli_test(NAME machines_csv ARGS machines --csv -
  STDOUT_CONTAINS "a100-sxm4-40gb,NVIDIA A100-SXM4-40GB,8.0,108,40,1555,1400")

kerncast_add_cli_test(NAME machine_show_a100 ARGS machine show a100-sxm4-40gb
  STDOUT ${machine_expected}/machine_show_a100-sxm4-40gb.txt)
kerncast_add_cli_test(NAME machine_show_hk_example ARGS machine show hk-example
  STDOUT ${machine_expected}/machine_show_hk-example.txt)
# --json writes the machine file; reading it back shows the same machine.
kerncast_add_cli_test(NAME machine_show_a100_json ARGS machine show a100-sxm4-40gb --json -
  STDOUT ${machine_expected}/machine_show_a100-sxm4-40gb.json)
kerncast_add_cli_test(NAME machine_show_exported_file
  ARGS machine show tests/golden/expected/machine_show_a100-sxm4-40gb.json
  STDOUT ${machine_expected}/machine_show_a100-sxm4-40gb.txt)
kerncast_add_cli_test(NAME machine_show_file ARGS machine show machines/gtx280.json
  STDOUT_CONTAINS "mem_ld_cycles" "450" "hong-kim-t6")
kerncast_add_cli_test(NAME machine_show_extends ARGS machine show ${machine_data}/extends_a100.json
  STDOUT_CONTAINS "Machine lab-a100: Our A100 (probed)" "1480" "data/probe/lab-a100.json")
kerncast_add_cli_test(NAME machine_show_md ARGS machine show titan-v --md -
  STDOUT_CONTAINS "| sm_count |")

# Fields the topology probe fills (store bandwidth, near/far L2 latencies, same_cache_as,
# sizes by carve-out, TLBs, measured clock, uncertainty of a source) in every output format.
kerncast_add_cli_test(NAME machine_show_probed ARGS machine show ${machine_data}/probed_fields.json
  STDOUT ${machine_expected}/machine_show_probed.txt)
kerncast_add_cli_test(NAME machine_show_probed_md
  ARGS machine show ${machine_data}/probed_fields.json --md -
  STDOUT ${machine_expected}/machine_show_probed.md)
kerncast_add_cli_test(NAME machine_show_probed_csv
  ARGS machine show ${machine_data}/probed_fields.json --csv -
  STDOUT ${machine_expected}/machine_show_probed.csv)
kerncast_add_cli_test(NAME machine_show_probed_json
  ARGS machine show ${machine_data}/probed_fields.json --json -
  STDOUT ${machine_expected}/machine_show_probed.json)
# The written machine file reads back to the same machine.
kerncast_add_cli_test(NAME machine_show_probed_exported
  ARGS machine show tests/golden/expected/machine_show_probed.json
  STDOUT ${machine_expected}/machine_show_probed.txt)

# Bad input: exit 1 with file:line:column, the JSON path and what was expected.
kerncast_add_cli_test(NAME machine_unknown_id ARGS machine show a100 EXIT 1
  STDERR_CONTAINS "error: unknown machine id 'a100'"
                  "closest built-in ids: 'a100-sxm4-40gb', 'a100-sxm4-80gb'")
kerncast_add_cli_test(NAME machine_missing_file ARGS machine show no/such/file.json EXIT 1
  STDERR_CONTAINS "no/such/file.json: error: cannot open machine file")
kerncast_add_cli_test(NAME machine_malformed ARGS machine show ${machine_data}/bad_malformed.json EXIT 1
  STDERR_CONTAINS "bad_malformed.json:5:3: error: malformed JSON: syntax error while parsing object"
                  "  \"sources\": {}\n    ^")
kerncast_add_cli_test(NAME machine_missing_field
  ARGS machine show ${machine_data}/bad_missing_field.json EXIT 1
  STDERR_CONTAINS "bad_missing_field.json:6:14: error: missing required field \"sm_count\" (expected an integer) (at /compute/sm_count)")
kerncast_add_cli_test(NAME machine_wrong_type ARGS machine show ${machine_data}/bad_wrong_type.json
  EXIT 1
  STDERR_CONTAINS "bad_wrong_type.json:8:17: error: expected an integer, got the string \"eighty\" (at /compute/sm_count)"
                  "    \"sm_count\": \"eighty\"\n                  ^")
kerncast_add_cli_test(NAME machine_negative_size
  ARGS machine show ${machine_data}/bad_negative_size.json EXIT 1
  STDERR_CONTAINS "bad_negative_size.json:10:84: error: must be positive, got -1024 (at /memory/0/size_bytes)")
kerncast_add_cli_test(NAME machine_impossible ARGS machine show ${machine_data}/bad_impossible.json
  EXIT 1
  STDERR_CONTAINS "bad_impossible.json:8:84: error: max_threads_per_sm (2048) must equal max_warps_per_sm x warp_size (48 x 32) (at /compute/max_threads_per_sm)")
kerncast_add_cli_test(NAME machine_unknown_key ARGS machine show ${machine_data}/bad_unknown_key.json
  EXIT 1
  STDERR_CONTAINS "bad_unknown_key.json:9:5: error: unknown key \"max_thread_per_sm\" (at /compute/max_thread_per_sm)"
                  "note: did you mean \"max_threads_per_sm\"?")
kerncast_add_cli_test(NAME machine_unknown_extends
  ARGS machine show ${machine_data}/bad_unknown_extends.json EXIT 1
  STDERR_CONTAINS "bad_unknown_extends.json:3:14: error: \"extends\" names no built-in machine: \"h100-sxm-80gb\" (at /extends)"
                  "closest built-in ids: \"h100-sxm5-80gb\"")
kerncast_add_cli_test(NAME machine_bad_same_cache_as
  ARGS machine show ${machine_data}/bad_same_cache_as.json EXIT 1
  STDERR_CONTAINS "bad_same_cache_as.json:26:80: error: same_cache_as names no memory level or special memory: \"l11\" (at /special_memories/0/same_cache_as)"
                  "note: did you mean \"l1\"?")
kerncast_add_cli_test(NAME machine_bad_uncertainty
  ARGS machine show ${machine_data}/bad_uncertainty.json EXIT 1
  STDERR_CONTAINS "bad_uncertainty.json:8:71: error: expected \"high\", \"medium\" or \"low\", got \"hihg\" (at /sources/probe/uncertainty/confidence)"
                  "note: did you mean \"high\"?")

# Bad usage: exit 2.
kerncast_add_cli_test(NAME machine_show_no_argument ARGS machine show EXIT 2
  STDERR_CONTAINS "machine is required")
kerncast_add_cli_test(NAME machine_no_subcommand ARGS machine EXIT 2)
kerncast_add_cli_test(NAME machine_show_two_stdout ARGS machine show titan-v --json - --md - EXIT 2
  STDERR_CONTAINS "only one of --json, --md, --csv can write to standard output")
