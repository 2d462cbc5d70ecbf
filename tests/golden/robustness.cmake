# Bad input never crashes, hangs, lies or destroys data (issue 15): outputs that would
# overwrite an input, counts that overflow 64 bits, blocks over CUDA's limits, empty domains,
# negative extents, unreadable records, an unwritable standard output.
set(star3d examples/kernels/star3d_r4.yaml)
set(absmax examples/kernels/absmax_f32.yaml)

# ---- outputs never overwrite inputs (usage error, exit 2; the input keeps its content) ----
kerncast_add_cli_test(NAME robust.output_is_input
  COPY ${star3d} ARGS count star3d_r4.yaml --json star3d_r4.yaml EXIT 2
  STDERR_CONTAINS "--json 'star3d_r4.yaml' is the input file" UNCHANGED star3d_r4.yaml)
kerncast_add_cli_test(NAME robust.output_is_input_through_symlink
  COPY ${star3d} SYMLINK report.md=star3d_r4.yaml
  ARGS count star3d_r4.yaml --md report.md EXIT 2
  STDERR_CONTAINS "is the input file" UNCHANGED star3d_r4.yaml)
kerncast_add_cli_test(NAME robust.two_outputs_same_file
  COPY ${star3d} ARGS count star3d_r4.yaml --json out.txt --md ./out.txt EXIT 2
  STDERR_CONTAINS "--json and --md name the same file")
kerncast_add_cli_test(NAME robust.codegen_output_is_input
  COPY ${star3d} ARGS codegen star3d_r4.yaml -o star3d_r4.yaml EXIT 2
  STDERR_CONTAINS "-o 'star3d_r4.yaml' is the input file" UNCHANGED star3d_r4.yaml)
kerncast_add_cli_test(NAME robust.predict_output_is_machine_file
  COPY ${star3d} machines/a100-sxm4-40gb.json
  ARGS predict star3d_r4.yaml -m a100-sxm4-40gb.json --csv a100-sxm4-40gb.json EXIT 2
  STDERR_CONTAINS "is the input file" UNCHANGED a100-sxm4-40gb.json)
kerncast_add_cli_test(NAME robust.machine_show_output_is_input
  COPY machines/a100-sxm4-40gb.json
  ARGS machine show a100-sxm4-40gb.json --json a100-sxm4-40gb.json EXIT 2
  STDERR_CONTAINS "is the input file" UNCHANGED a100-sxm4-40gb.json)
kerncast_add_cli_test(NAME robust.mwp_output_is_workload
  COPY examples/workloads/hk-table2.json
  ARGS mwp --workload hk-table2.json -m hk-example --json hk-table2.json EXIT 2
  STDERR_CONTAINS "is the input file" UNCHANGED hk-table2.json)
kerncast_add_cli_test(NAME robust.probe_replay_output_is_raw_series
  COPY tests/unit/probe/data/synthetic-gpu/raw.json
  ARGS probe --replay raw.json -o raw.json EXIT 2
  STDERR_CONTAINS "-o 'raw.json' is the input file" UNCHANGED raw.json)
kerncast_add_cli_test(NAME robust.validate_output_into_records
  COPY ${star3d} tests/golden/data/validate_star3d
  ARGS validate star3d_r4.yaml -m a100-sxm4-40gb --records validate_star3d
       --json validate_star3d/b_64x4x1.json EXIT 2
  STDERR_CONTAINS "lies in the directory 'validate_star3d'"
  UNCHANGED validate_star3d/b_64x4x1.json)
# A full standard output is a failure (exit 1), not a silent success.
add_test(NAME cli.robust.stdout_full
  COMMAND sh -c "$<TARGET_FILE:kerncast_cli> machines >/dev/full; test $? -eq 1")
set_tests_properties(cli.robust.stdout_full PROPERTIES LABELS cli)

# ---- counts, sizes and launches: checked, never wrapped ------------------------------------
kerncast_add_cli_test(NAME robust.count_overflow
  ARGS count ${star3d} -D nx=3000000 -D ny=3000000 -D nz=3000000 EXIT 1
  STDERR_CONTAINS "star3d_r4.yaml: error: a count exceeds the 64-bit integer range"
                  "note: parameters: nx = 3000000, ny = 3000000, nz = 3000000")
# An array whose element count overflows: the file, the kernel and the values given (issue 47).
kerncast_add_cli_test(NAME robust.explore_array_overflow
  ARGS explore ${star3d} -m a100-sxm4-40gb -D nx=3000000 -D ny=3000000 -D nz=3000000 EXIT 1
  STDERR_CONTAINS "star3d_r4.yaml: error: kernel 'star3d_r4': the element count of array"
                  "note: parameters: nx = 3000000, ny = 3000000, nz = 3000000")
# Arrays larger than the machine's DRAM: no forecast for a launch that cannot be allocated (and
# no minutes spent counting its footprints).
kerncast_add_cli_test(NAME robust.arrays_exceed_device_memory
  ARGS predict examples/kernels/fd5pt_16.yaml -m a100-sxm4-40gb -D n=262144 EXIT 1
  STDERR_CONTAINS "fd5pt_16.yaml: error: the kernel's arrays need 549.8 GB, more than the 42.95 GB"
                  "note: arrays: u 274.9 GB, res 274.9 GB" "note: parameters: n = 262144")
kerncast_add_cli_test(NAME robust.count_overflow_max_parameter
  ARGS count ${star3d} -D nz=9223372036854775807 EXIT 1
  STDERR_CONTAINS "64-bit")
kerncast_add_cli_test(NAME robust.block_over_limit_product
  ARGS count ${star3d} --block 9223372036854775807x16 EXIT 2
  STDERR_CONTAINS "exceeds CUDA's limit of 1024")
kerncast_add_cli_test(NAME robust.block_over_threads_per_block
  ARGS codegen ${star3d} --block 64x32x1 EXIT 2
  STDERR_CONTAINS "2048 threads per block, over CUDA's limit of 1024")
kerncast_add_cli_test(NAME robust.empty_domain
  ARGS count ${absmax} -D n=0 EXIT 1
  STDERR_CONTAINS "absmax_f32.yaml: error: kernel 'absmax_f32': the domain"
                  "is empty for n=0")
kerncast_add_cli_test(NAME robust.negative_extent
  ARGS count ${absmax} -D n=-5 EXIT 1
  STDERR_CONTAINS "absmax_f32.yaml:13:3: error: array 'x' has the negative extent -5")
kerncast_add_cli_test(NAME robust.predict_parameter_over_2_pow_31
  ARGS predict ${absmax} -m a100-sxm4-40gb -D n=4294967296 --registers 32
  STDOUT_CONTAINS "absmax_f32")

# ---- records: a link loop names the file ---------------------------------------------------
kerncast_add_cli_test(NAME robust.records_symlink_loop
  COPY ${star3d} tests/golden/data/validate_star3d SYMLINK validate_star3d/loop.json=loop.json
  ARGS validate star3d_r4.yaml -m a100-sxm4-40gb --records validate_star3d EXIT 1
  STDERR_CONTAINS "loop.json: error: cannot read the record")

# ---- inputs that never end or are not files: a bounded read, an error naming the file -------
kerncast_add_cli_test(NAME robust.kernel_file_from_device
  ARGS count /dev/zero EXIT 1
  STDERR_CONTAINS "/dev/zero: error: the kernel file is larger than 1 MiB: not read")
kerncast_add_cli_test(NAME robust.machine_file_from_device
  ARGS predict ${star3d} -m /dev/zero EXIT 1
  STDERR_CONTAINS "/dev/zero: error: the machine file is larger than 16 MiB: not read")
kerncast_add_cli_test(NAME robust.machine_file_is_directory
  ARGS predict ${star3d} -m ./machines EXIT 1
  STDERR_CONTAINS "./machines: error: cannot read machine file: it is a directory")

# ---- the bad-input campaign of 2026-11-29 (lab/research/bad_input_campaign.py): explore over
# the H&K RGB filters took 112 s (Sepia) and over 10 minutes (Linear), tall blocks counting
# one interval per pixel; now well under a second. The timeout is a hang guard, not a speed test.
foreach(kernel hk_sepia hk_linear)
  kerncast_add_cli_test(NAME robust.explore_rgb_${kernel}
    ARGS explore examples/kernels/${kernel}.yaml -m a100-sxm4-40gb --top 3
    STDOUT_CONTAINS "Ranking")
  set_tests_properties(cli.robust.explore_rgb_${kernel} PROPERTIES TIMEOUT 120)
endforeach()

# ---- folds and sweeps: bounded work, honest exit codes -------------------------------------
kerncast_add_cli_test(NAME robust.fold_larger_than_domain
  ARGS predict ${star3d} -m a100-sxm4-40gb --fold 1x1x1000000 --registers 32 EXIT 1
  STDERR_CONTAINS "star3d_r4.yaml: error: the fold 1000000 along z is larger than the domain, whose index z takes 504 values")
# A fold of a million points inside the domain is answered at once (the L1 model costs one
# block pass per address residue, not per fold instance).
# (ell_spmv names no launch index, so a fold keeps what it computes; absmax_f32 names tx and is
# refused at this fold.)
kerncast_add_cli_test(NAME robust.huge_fold_within_domain
  ARGS predict tests/user_kernels/ell_spmv.yaml -m a100-sxm4-40gb --fold 1000000 --registers 32
  STDOUT_CONTAINS "ell_spmv")
set_tests_properties(cli.robust.huge_fold_within_domain PROPERTIES TIMEOUT 20)
kerncast_add_cli_test(NAME robust.explore_top_negative
  ARGS explore ${star3d} -m a100-sxm4-40gb --top -1 EXIT 2
  STDERR_CONTAINS "--top: must be a whole number of at least 0, got '-1'")
kerncast_add_cli_test(NAME robust.explore_threads_zero
  ARGS explore ${star3d} -m a100-sxm4-40gb --threads 0 EXIT 2
  STDERR_CONTAINS "--threads: must be a whole number of at least 1, got '0'")
kerncast_add_cli_test(NAME robust.explore_nothing_fits
  ARGS explore ${star3d} -m a100-sxm4-40gb --registers 255 EXIT 1
  STDERR_CONTAINS "no configuration of star3d_r4 can run on a100-sxm4-40gb")
# A block of 2^30 threads is skipped at once with the reason (it used to take minutes).
kerncast_add_cli_test(NAME robust.explore_huge_block_skipped
  ARGS explore ${star3d} -m a100-sxm4-40gb --blocks 1073741824x1x1,32x4x4 --folds none,1x1x1000000
  STDOUT_CONTAINS "block x 1073741824 exceeds CUDA's limit of 1024"
                  "the fold 1000000 along z is larger than the domain")
set_tests_properties(cli.robust.explore_huge_block_skipped PROPERTIES TIMEOUT 30)

# A fold placement other than consecutive or strided is a usage error naming the option.
kerncast_add_cli_test(NAME robust.fold_placement_unknown
  ARGS predict ${star3d} -m a100-sxm4-40gb --fold 2z:cyclic EXIT 2
  STDERR_CONTAINS "--fold: '2z:cyclic': the placement after ':' is 'strided' or 'consecutive', not 'cyclic'")

# Analysis time independent of size parameters (issue 47): the fd5pt halo tiles at n = 65536
# (4.8 s before isl counted independent factors apart, 0.3 s now) and a strided domain (the
# campaign's explosion; 0.6 s now). The timeouts are hang guards, not speed tests.
kerncast_add_cli_test(NAME robust.fd5pt_large_n
  ARGS predict examples/kernels/fd5pt_16.yaml -m h200-sxm-141gb -D n=65536 --registers 32
  STDOUT_CONTAINS "fd5pt_16")
set_tests_properties(cli.robust.fd5pt_large_n PROPERTIES TIMEOUT 20)
kerncast_add_cli_test(NAME robust.strided_domain
  ARGS predict tests/user_kernels/box_strided_domain.yaml -m a100-sxm4-40gb --registers 32
  STDOUT_CONTAINS "box_strided_domain")
set_tests_properties(cli.robust.strided_domain PROPERTIES TIMEOUT 30)

# ---- records with impossible launches: an error naming the record, at once -----------------
kerncast_add_cli_test(NAME robust.validate_record_block_over_limit
  COPY ${star3d} tests/golden/data/robust_records/huge_block.json
  ARGS validate star3d_r4.yaml -m a100-sxm4-40gb --records . EXIT 1
  STDERR_CONTAINS "huge_block.json: error: the recorded launch: block x 1073741824 exceeds")
kerncast_add_cli_test(NAME robust.validate_record_fold_over_domain
  COPY ${star3d} tests/golden/data/robust_records/huge_fold.json
  ARGS validate star3d_r4.yaml -m a100-sxm4-40gb --records . EXIT 1
  STDERR_CONTAINS "huge_fold.json: error: the fold 1000000 along z is larger than the domain")
# A read-only output file is refused before any work, and left as it was (issue 47); the
# folder being writable does not make the file replaceable.
add_test(NAME cli.robust.read_only_output_refused
  COMMAND sh -c "d=$(mktemp -d) && printf keep > $d/out.json && chmod 444 $d/out.json && \
    $<TARGET_FILE:kerncast_cli> predict ${PROJECT_SOURCE_DIR}/examples/kernels/star3d_r4.yaml \
      -m a100-sxm4-40gb --json $d/out.json 2> $d/err; s=$?; \
    test $s -eq 2 && grep -q 'is read-only' $d/err && test \"$(cat $d/out.json)\" = keep; \
    r=$?; rm -rf $d; exit $r")
set_tests_properties(cli.robust.read_only_output_refused PROPERTIES LABELS cli)
