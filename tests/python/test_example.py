"""The code-generator example (examples/python/stencil_generator.py): its ranking is the one
kerncast.explore gives for the same block sizes and foldings, and it emits explore's best."""

import importlib.util
import os
import subprocess
import sys

import kerncast


def load_example(source_dir):
    path = source_dir / "examples" / "python" / "stencil_generator.py"
    spec = importlib.util.spec_from_file_location("stencil_generator", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return path, module


def test_the_generator_ranks_as_explore_does(source_dir):
    path, example = load_example(source_dir)
    done = subprocess.run([sys.executable, str(path), "--radius", "2", "--top", "40"],
                          capture_output=True, text=True, check=True, env=os.environ.copy())
    lines = done.stdout.splitlines()
    assert lines[0].startswith("star3d_r2 on a100-sxm4-40gb")
    rows = [line.split() for line in lines[2:-1]]
    throughputs = [float(row[3]) for row in rows]
    assert throughputs == sorted(throughputs, reverse=True)

    kernel = kerncast.parse_kernel(
        example.star_stencil(2, (32, 4, 4), (1, 1, 1), (640, 512, 512)))
    explored = kerncast.explore(kernel, "a100-sxm4-40gb", blocks=example.BLOCK_SIZES,
                                folds=example.FOLDINGS)
    ranking = [row for row in explored["ranking"] if row["skipped"] is None]
    assert len(rows) == len(ranking)
    # The variant emitted is one of explore's best (equal throughputs may come in either order).
    best = [(row["block"], row["fold"]) for row in ranking
            if row["throughput"] == ranking[0]["throughput"]]
    emitted = lines[-1].split()
    assert lines[-1].startswith("emit: block ")
    assert (emitted[2].rstrip(","), emitted[4]) in best
    for row, expected in zip(rows, ranking):
        assert float(row[3]) == round(expected["throughput"], 2)
