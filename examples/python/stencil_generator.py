#!/usr/bin/python3
"""A code generator asking kerncast which variant to emit (docs/python.md).

Generates a 3D star stencil of range R (the kernel family of Ernst et al. 2023, sec. 5.2) as a
kerncast kernel description, one variant per block size and thread folding, the way a
generator specialises its code for each launch; asks kerncast's volume model for each variant's
throughput; and prints the ranking and the variant it would emit.

    PYTHONPATH=build/python python3 examples/python/stencil_generator.py [--radius 2]
        [--machine a100-sxm4-40gb] [--grid 640x512x512] [--top 10]
"""

import argparse
import itertools
import sys

import kerncast

BLOCK_SIZES = [(32, 4, 4), (32, 8, 2), (64, 4, 2), (128, 2, 2), (256, 1, 2), (16, 8, 4),
               (32, 2, 8), (16, 4, 8), (64, 2, 4), (32, 16, 1)]
FOLDINGS = [(1, 1, 1), (1, 2, 1), (1, 1, 2), (1, 1, 4)]


def star_stencil(radius, block, fold, grid):
    """The generator's kernel text: dst = c0*src + sum over r of c_r * (the 6 neighbours at r)."""
    nx, ny, nz = grid
    terms = ["c0*src[z, y, x]"]
    for r in range(1, radius + 1):
        neighbours = [f"src[z, y, x - {r}]", f"src[z, y, x + {r}]", f"src[z, y - {r}, x]",
                      f"src[z, y + {r}, x]", f"src[z - {r}, y, x]", f"src[z + {r}, y, x]"]
        terms.append(f"c{r}*(" + " + ".join(neighbours) + ")")
    coefficients = "\n".join(f"  c{r}: {{dtype: f64, space: private}}"
                             for r in range(radius + 1))
    return f"""\
name: star3d_r{radius}_gen
params: {{nx: {nx}, ny: {ny}, nz: {nz}}}
arrays:
  src: {{dtype: f64, shape: [nz, ny, nx], offset: {radius}}}
  dst: {{dtype: f64, shape: [nz, ny, nx], offset: {radius}}}
{coefficients}
domain: "[nx, ny, nz] -> {{ [z, y, x] : {radius} <= x < nx - {radius} and {radius} <= y < ny - {radius} and {radius} <= z < nz - {radius} }}"
threads: {{x: x, y: y, z: z}}
launch: {{block: [{block[0]}, {block[1]}, {block[2]}], fold: [{fold[0]}, {fold[1]}, {fold[2]}]}}
statements:
  - "dst[z, y, x] = {' + '.join(terms)}"
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--radius", type=int, default=2)
    parser.add_argument("--machine", default="a100-sxm4-40gb")
    parser.add_argument("--grid", default="640x512x512")
    parser.add_argument("--top", type=int, default=10)
    options = parser.parse_args()
    grid = tuple(int(n) for n in options.grid.split("x"))
    machine = kerncast.Machine(options.machine)

    variants = []
    for block, fold in itertools.product(BLOCK_SIZES, FOLDINGS):
        text = star_stencil(options.radius, block, fold, grid)
        name = f"star3d_r{options.radius}_{'x'.join(map(str, block))}_f{'x'.join(map(str, fold))}"
        try:
            kernel = kerncast.parse_kernel(text, name + ".yaml")
            report = kerncast.predict(kernel, machine)
        except kerncast.Error as error:  # a variant the machine cannot run: skip it, say why
            print(f"skipped {name}: {error.message}", file=sys.stderr)
            continue
        prediction = report["prediction"].rows[0]
        variants.append((prediction["throughput"], block, fold, prediction["limiter"],
                         report["launch"].as_mapping()["blocks_per_sm"]))

    variants.sort(key=lambda variant: variant[0], reverse=True)
    print(f"star3d_r{options.radius} on {machine.id}, grid {options.grid}: "
          f"{len(variants)} variants ranked by predicted throughput")
    print(f"{'rank':>4}  {'block':>9}  {'fold':>6}  {'Gpoints/s':>9}  {'limiter':>7}  blocks/SM")
    for rank, (throughput, block, fold, limiter, blocks_per_sm) in enumerate(
            variants[:options.top], start=1):
        print(f"{rank:>4}  {'x'.join(map(str, block)):>9}  {'x'.join(map(str, fold)):>6}  "
              f"{throughput:>9.2f}  {limiter:>7}  {blocks_per_sm:>9}")
    best = variants[0]
    print(f"emit: block {'x'.join(map(str, best[1]))}, fold {'x'.join(map(str, best[2]))} "
          f"({best[0]:.2f} Gpoints/s, {best[3]}-bound)")


if __name__ == "__main__":
    main()
