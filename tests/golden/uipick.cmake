# kerncast gen, remove-work and run DIR --shard (docs/uipick.md).
set(uipick_paper_tags matmul_sq dtype:float32 prefetch:True lsize_0:16 lsize_1:16
    groups_fit:True n:2048,2560,3072,3584)
set(uipick_dir ${PROJECT_SOURCE_DIR}/examples/kernels/uipick)

# Sec. 7.1's example: four kernels.
kerncast_add_cli_test(NAME uipick.gen_paper_example ARGS gen ${uipick_paper_tags} --list
  STDOUT tests/golden/expected/gen_paper_example.txt)
kerncast_add_cli_test(NAME uipick.gen_generators ARGS gen --generators
  STDOUT tests/golden/expected/gen_generators.txt)
kerncast_add_cli_test(NAME uipick.gen_writes_files COPY examples/kernels/uipick/gen-tags.txt
  ARGS gen empty_kernel ngroups:16,65536 -o out --json -
  STDOUT_CONTAINS "\"schema\": \"kerncast.gen/1\"" "out/empty_kernel.lsize_0-256.ngroups-16.yaml"
                  "out/empty_kernel.lsize_0-256.ngroups-65536.yaml")
kerncast_add_cli_test(NAME uipick.gen_intersect
  ARGS gen matmul_sq finite_diff --match intersect dtype:float32 n:2048 lsize_0:16 lsize_1:16
       --list
  STDOUT_CONTAINS "matching generators: matmul_sq, finite_diff"
                  "finite_diff.dtype-float32.lsize_0-16.lsize_1-16.n-2048.yaml")
kerncast_add_cli_test(NAME uipick.gen_no_match ARGS gen matmul_sq finite_diff --list EXIT 2
  STDERR_CONTAINS "no generator matches the generator tags under the 'superset' condition")
kerncast_add_cli_test(NAME uipick.gen_unknown_argument ARGS gen matmul_sq nelements:5 --list
  EXIT 2 STDERR_CONTAINS "variant tag 'nelements' is an argument of none of the matching")
kerncast_add_cli_test(NAME uipick.gen_rejected_value ARGS gen matmul_sq dtype:float128 --list
  EXIT 2 STDERR_CONTAINS "no matching generator accepts these values")
kerncast_add_cli_test(NAME uipick.gen_bad_tag ARGS gen matmul_sq n:1,,2 --list EXIT 2
  STDERR_CONTAINS "filter tag 'n:1,,2': empty value")
kerncast_add_cli_test(NAME uipick.gen_bad_match ARGS gen matmul_sq --match union --list EXIT 2
  STDERR_CONTAINS "unknown match condition 'union'")
kerncast_add_cli_test(NAME uipick.gen_needs_output ARGS gen matmul_sq EXIT 2
  STDERR_CONTAINS "kerncast gen needs -o DIR")
# -o naming a file or a device is a usage error (issue 47: it was an internal error, exit 4).
kerncast_add_cli_test(NAME uipick.gen_output_is_a_file ARGS gen empty_kernel -o /dev/full EXIT 2
  STDERR_CONTAINS "-o '/dev/full' exists and is not a directory")
kerncast_add_cli_test(NAME uipick.gen_output_cannot_be_made
  ARGS gen empty_kernel -o /proc/no/such/dir EXIT 1
  STDERR_CONTAINS "cannot create the directory '/proc/no/such/dir' that -o names")
kerncast_add_cli_test(NAME uipick.gen_all_skipped
  ARGS gen matmul_sq prefetch:True lsize_0:32 lsize_1:16 --list EXIT 1
  STDERR_CONTAINS "every variant was skipped" "lsize_0 == lsize_1")
# A generated kernel passes kerncast's own checks from the command line too.
kerncast_add_cli_test(NAME uipick.count_generated
  ARGS count
  ${uipick_dir}/matmul_sq_gmem.dtype-float32.prefetch-True.lsize_0-16.lsize_1-16.groups_fit-True.n-2048.keep-b.yaml
  -D n=512 --no-footprints
  STDOUT_CONTAINS "b$bLD[16 * ko + ty, j]" "read_tgt_dest[i, j]" "8388608")

# Work removal (Algorithm 3) of the paper's example.
kerncast_add_cli_test(NAME uipick.remove_work_matmul
  ARGS remove-work examples/kernels/matmul_tiled16.yaml --keep b
  STDOUT tests/golden/expected/remove_work_matmul_tiled16_b.yaml)
kerncast_add_cli_test(NAME uipick.remove_work_unknown
  ARGS remove-work examples/kernels/matmul_tiled16.yaml --keep a_tile EXIT 1
  STDERR_CONTAINS "matmul_tiled16.yaml: error: work removal: kernel 'matmul_tiled16' has no global"
                  "arrays and tags it has: a, aLD, b, bLD, c")
kerncast_add_cli_test(NAME uipick.remove_work_clobber
  COPY examples/kernels/matmul_tiled16.yaml
  ARGS remove-work matmul_tiled16.yaml --keep b -o matmul_tiled16.yaml EXIT 2
  STDERR_CONTAINS "writing it would destroy the input" UNCHANGED matmul_tiled16.yaml)
kerncast_add_cli_test(NAME uipick.remove_work_writes COPY examples/kernels/fd5pt_16.yaml
  ARGS remove-work fd5pt_16.yaml --keep u -o fd5pt_16_keep_u.yaml)

# Campaign shards: checked before any GPU work.
kerncast_add_cli_test(NAME uipick.run_shard_out_of_range COPY examples/kernels/uipick/gen-tags.txt
  ARGS run ${uipick_dir} --shard 4/4 -o records EXIT 2
  STDERR_CONTAINS "the shard index must be below the count")
kerncast_add_cli_test(NAME uipick.run_shard_malformed COPY examples/kernels/uipick/gen-tags.txt
  ARGS run ${uipick_dir} --shard 1-4 -o records EXIT 2 STDERR_CONTAINS "expected I/N")
kerncast_add_cli_test(NAME uipick.run_shard_needs_directory
  ARGS run examples/kernels/matmul_naive.yaml --shard 0/2 EXIT 2
  STDERR_CONTAINS "--shard needs KERNEL to be a directory")
kerncast_add_cli_test(NAME uipick.run_directory_needs_records ARGS run ${uipick_dir} EXIT 2
  STDERR_CONTAINS "a directory of kernel files needs -o DIR")
kerncast_add_cli_test(NAME uipick.run_records_inside_kernels COPY examples/kernels/fd5pt_16.yaml
  ARGS run . -o records EXIT 2 STDERR_CONTAINS "records")
if(NOT KERNCAST_GPU_PRESENT)
  if(KERNCAST_ENABLE_CUDA)
    kerncast_add_cli_test(NAME uipick.run_shard_without_gpu
      COPY examples/kernels/uipick/gen-tags.txt
      ARGS run ${uipick_dir} --shard 1/4 -o records EXIT 3
      STDERR_CONTAINS "kerncast run needs a GPU")
  else()
    kerncast_add_cli_test(NAME uipick.run_shard_without_cuda
      COPY examples/kernels/uipick/gen-tags.txt
      ARGS run ${uipick_dir} --shard 1/4 -o records EXIT 3 STDERR_CONTAINS "built without CUDA")
  endif()
endif()

# gen rewrites an identical file but does not overwrite one with other content.
set(uipick_fd16 finite_diff.dtype-float32.lsize_0-16.lsize_1-16.n-4096.yaml)
kerncast_add_cli_test(NAME uipick.gen_same_file_again COPY examples/kernels/uipick/${uipick_fd16}
  ARGS gen finite_diff dtype:float32 lsize_0:16 lsize_1:16 n:4096 -o .
  STDOUT_CONTAINS "./${uipick_fd16}" UNCHANGED ${uipick_fd16})
kerncast_add_cli_test(NAME uipick.gen_refuses_other_content
  COPY examples/kernels/fd5pt_16.yaml SYMLINK ${uipick_fd16}=fd5pt_16.yaml
  ARGS gen finite_diff dtype:float32 lsize_0:16 lsize_1:16 n:4096 -o . EXIT 2
  STDERR_CONTAINS "exists with other content; not overwriting it" "--force"
  UNCHANGED fd5pt_16.yaml)
