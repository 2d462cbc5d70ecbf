#!/usr/bin/env python3
"""A bad-input campaign against the kerncast CLI (issue 47): mutates the repository's own kernel
files, machine files, workloads, cost models, sweep files and measurement records, runs the
commands that read them, and sorts what comes back.

    lab/research/bad_input_campaign.py [--kerncast BIN] [--cases N] [--seed S] [--jobs J]
                                       [--python [--pythonpath DIR] | --outputs] OUT

--outputs runs every writer option (--json, --md, --csv, --report, -o of codegen, calibrate,
fit-volumes, probe, gen and run, validate --save) against every kind of target (new, existing,
read-only, a directory, a missing parent, /dev/full, the input itself or a link to it, a dangling
link, stdout, empty, a 300-character name, a newline, a file as parent): see output_case.

Every case is one mutated file and one command, with a 10 s timeout. The right answers are exit
0 (the mutation left a valid file), 1 (input error) or 2 (usage error); 3 only for GPU commands.
A finding is exit 4 (internal error), a signal (crash), a timeout, "nan" or "inf" printed by a
command that exited 0, or a message carrying isl's or the compiler's internals (".c:NNN:",
"Assertion", "terminate called"). --python calls the Python module's entries instead
(parse_kernel and count/predict/explore with arguments drawn from extremes, Machine, mwp); a
finding there is any exception but kerncast.Error and TypeError, a crash or a timeout. OUT gets
cases.jsonl (one line per case) and, per finding,
the mutated file under OUT/findings/. Prints the tally by command and outcome.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

EXTREMES = ["0", "-1", "1", "-0", "2147483648", "4294967296", "9223372036854775807",
            "-9223372036854775808", "18446744073709551616", "1e308", "-1e308", "1e-320",
            "0.5", "NaN", "inf", "1e400", "3.0000000001", "65536", "1023", "1025"]
INSERTS = ["\u00e9", "\u200b", "\x00", "\t", "{", "}", "[", "]", ":", ",", "\"", "'", "&a",
           "*a", "!!binary", "~", "null", "- ", "#", "\\", "%", "$", "\n  - \"x = x\""]


def mutate(text, rng):
    """One to three of: a number replaced by an extreme, a token inserted, a line deleted,
    duplicated or swapped with another, the text truncated, bytes flipped."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(7)
        if kind <= 1:
            numbers = list(re.finditer(r"-?\d+(\.\d+)?(e-?\d+)?", text))
            if numbers:
                m = rng.choice(numbers)
                text = text[:m.start()] + rng.choice(EXTREMES) + text[m.end():]
                continue
        lines = text.split("\n")
        if kind == 2 and len(lines) > 1:
            del lines[rng.randrange(len(lines))]
        elif kind == 3 and lines:
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k])
        elif kind == 4 and len(lines) > 1:
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
        elif kind == 5 and text:
            k = rng.randrange(len(text))
            text = text[:k] + rng.choice(INSERTS) + text[k:]
            continue
        elif kind == 6 and text:
            text = text[:rng.randrange(len(text))]
            continue
        text = "\n".join(lines)
    return text


def targets():
    """(kind, source file, command builder): the builder takes the mutated file's path."""
    kernels = sorted((ROOT / "examples/kernels").glob("*.yaml"))
    kernels += sorted((ROOT / "tests/user_kernels").glob("*.yaml"))
    machines = sorted((ROOT / "machines").glob("*.json"))
    star = str(ROOT / "examples/kernels/star3d_r4.yaml")
    out = []
    for k in kernels:
        out.append(("kernel", k, lambda p: ["count", p]))
        out.append(("kernel", k, lambda p: ["predict", p, "-m", "h100-sxm5-80gb"]))
        out.append(("kernel", k, lambda p: ["mwp", p, "-m", "v100-pcie-32gb"]))
        out.append(("kernel", k, lambda p: ["codegen", p]))
        out.append(("kernel", k, lambda p: ["explore", p, "-m", "a100-sxm4-40gb", "--top", "3",
                                             "--jobs", "1"]))
    for m in machines:
        out.append(("machine", m, lambda p: ["machine", "show", p]))
        out.append(("machine", m, lambda p: ["predict", star, "-m", p]))
        out.append(("machine", m, lambda p: ["mwp", str(ROOT / "examples/kernels/hk_matmul.yaml"),
                                              "-m", p]))
    for w in sorted((ROOT / "examples/workloads").glob("*.json")):
        out.append(("workload", w, lambda p: ["mwp", "--workload", p, "-m", "hk-example"]))
    for model in sorted((ROOT / "examples").rglob("*.model.yaml")) + sorted(
            (ROOT / "examples").rglob("models/*.yaml")):
        out.append(("model", model, lambda p: ["predict", str(ROOT / "examples/kernels/matmul_naive.yaml"),
                                                "-m", "a100-sxm4-40gb", "--model", p]))
    records = sorted((ROOT / "tests/golden/data/validate_star3d").glob("*.json"))[:4]
    for r in records:
        def validate(p, r=r):
            directory = Path(p).parent
            return ["validate", star, "-m", "a100-sxm4-40gb", "--records", str(directory)]
        out.append(("record", r, validate))
    return out


FINDING_TEXT = re.compile(r"\.c:\d+:|Assertion|terminate called|std::|what\(\)")

# The Python module's entries, one call per case in a fresh interpreter (PYTHONPATH: the build's
# python/ directory): a mutated kernel text through parse_kernel and a command, a mutated machine
# file through Machine, a mutated workload through mwp, and arguments drawn from extremes. The
# right answers are a result, kerncast.Error or TypeError; anything else is printed as a finding.
PYTHON_CASE = r"""
import json, sys
import kerncast
case = json.load(sys.stdin)
try:
    entry = case["entry"]
    if entry == "machine":
        machine = kerncast.Machine(case["path"])
        kerncast.predict(case["kernel"], machine)
    elif entry == "workload":
        kerncast.mwp(case["text"], "hk-example")
    else:
        kernel = kerncast.parse_kernel(case["text"], "mutated.yaml")
        args = case["args"]
        if entry == "count":
            kerncast.count(kernel, **args)
        elif entry == "predict":
            kerncast.predict(kernel, "h100-sxm5-80gb", **args)
        else:
            kerncast.explore(kernel, "a100-sxm4-40gb", jobs=1, **args)
    print("RESULT ok")
except (kerncast.Error, TypeError) as error:
    print("RESULT " + type(error).__name__)
except BaseException as error:
    print("RESULT finding " + type(error).__name__ + ": " + str(error)[:300])
"""

PYTHON_VALUES = [0, -1, 1, 2**31, 2**63 - 1, 2**63, -2**63, 2**64, 1024, 1025, 3.5, "32x4",
                 "0x1", "1x1x1x1", "", None, [32, 4], (1, 2, 3), {"x": 1}, "auto", True, float("nan")]


def python_case(interpreter, pythonpath, source, seed, workdir):
    rng = random.Random(seed)
    text = mutate(source.read_text(errors="replace"), rng)
    if source.suffix == ".json" and "machines" in source.parts:
        case_dir = Path(tempfile.mkdtemp(dir=workdir))
        path = case_dir / source.name
        path.write_text(text, errors="replace")
        case = {"entry": "machine", "path": str(path),
                "kernel": str(ROOT / "examples/kernels/star3d_r4.yaml")}
    elif source.suffix == ".json":
        case = {"entry": "workload", "text": text}
    else:
        entry = rng.choice(["count", "predict", "explore"])
        args = {}
        for name in rng.sample(["block", "fold", "params", "registers"], rng.randint(0, 2)):
            value = rng.choice(PYTHON_VALUES)
            args[name] = {"n": value, "nx": value} if name == "params" else value
        if entry == "explore":
            args.pop("block", None)
            args.pop("fold", None)
        case = {"entry": entry, "text": text, "args": args}
    try:
        result = subprocess.run([interpreter, "-c", PYTHON_CASE],
                                input=json.dumps(case, default=str), capture_output=True,
                                text=True, timeout=10, env={**os.environ,
                                                            "PYTHONPATH": pythonpath})
        last = [l for l in result.stdout.splitlines() if l.startswith("RESULT ")]
        if result.returncode < 0:
            outcome, answer = f"signal {-result.returncode}", ""
        elif not last:
            outcome, answer = "no result", result.stderr[-300:]
        elif last[-1].startswith("RESULT finding"):
            outcome, answer = "unexpected exception", last[-1][15:]
        else:
            outcome, answer = "ok", last[-1][7:]
    except subprocess.TimeoutExpired:
        outcome, answer = "timeout", ""
    return {"kind": "python", "source": str(source.relative_to(ROOT)), "command": case["entry"],
            "args": [json.dumps(case.get("args", {}), default=str)], "exit": answer[:40],
            "outcome": outcome, "seed": seed, "stderr": answer, "file": source.name,
            "text": text if outcome != "ok" else ""}


def computed_nan_or_inf(stdout, mutated):
    """Whether the output shows a nan or inf that the input text does not (a mutation that put
    the word "inf" into a citation is echoed, not computed)."""
    pattern = r"(?<![a-z])(nan|inf)(?![a-z])"
    echoed = {word.lower() for word in re.findall(pattern, mutated, re.I)}
    return any(word.lower() not in echoed for word in re.findall(pattern, stdout, re.I))


def run_case(binary, kind, source, build, seed, workdir):
    rng = random.Random(seed)
    text = source.read_text(errors="replace")
    mutated = mutate(text, rng)
    case_dir = Path(tempfile.mkdtemp(dir=workdir))
    path = case_dir / source.name
    path.write_text(mutated, errors="replace")
    command = build(str(path))
    try:
        result = subprocess.run([binary, *command], capture_output=True, timeout=10,
                                cwd=str(ROOT))
        code = result.returncode
        stdout = result.stdout.decode(errors="replace")
        stderr = result.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        code, stdout, stderr = "timeout", "", ""
    outcome = "ok"
    if code == "timeout":
        outcome = "timeout"
    elif code < 0:
        outcome = f"signal {-code}"
    elif code == 4:
        outcome = "internal error"
    elif code not in (0, 1, 2, 3):
        outcome = f"exit {code}"
    elif code == 0 and computed_nan_or_inf(stdout, mutated):
        outcome = "nan or inf with exit 0"
    elif FINDING_TEXT.search(stderr):
        outcome = "internals in the message"
    return {"kind": kind, "source": str(source.relative_to(ROOT)), "command": command[0],
            "args": command, "exit": code, "outcome": outcome, "seed": seed,
            "stderr": stderr[-400:], "file": str(path), "text": mutated if outcome != "ok" else ""}


# --outputs: the writers' targets. Each case is one command with one writer option pointing at a
# prepared target; the inputs are copies in the case's directory. Besides the exit codes above, a
# finding is an input changed, a failed command that left a new file or directory at its target,
# a command that exited 0 but wrote nothing to a new target, or a read-only file replaced.
WRITERS = [
    # (name, arguments with {in} for the input copy and {out} for the target, input, target is a
    #  directory)
    ("count --json", ["count", "{in}", "--json", "{out}"], "examples/kernels/star3d_r4.yaml", False),
    ("predict --md", ["predict", "{in}", "-m", "h100-sxm5-80gb", "--md", "{out}"],
     "examples/kernels/star3d_r4.yaml", False),
    ("explore --csv", ["explore", "{in}", "-m", "a100-sxm4-40gb", "--top", "3", "--csv", "{out}"],
     "examples/kernels/star2d_r1.yaml", False),
    ("explore --report", ["explore", "{in}", "-m", "a100-sxm4-40gb", "--report", "{out}"],
     "examples/kernels/star2d_r1.yaml", False),
    ("codegen -o", ["codegen", "{in}", "-o", "{out}"], "examples/kernels/star3d_r4.yaml", False),
    ("machine show --json", ["machine", "show", "{in}", "--json", "{out}"],
     "machines/h100-sxm5-80gb.json", False),
    ("calibrate -o", ["calibrate", "{in}", "--records", "tests/golden/data/calibrated/records",
                      "-m", "a100-sxm4-40gb", "-o", "{out}"],
     "tests/golden/data/calibrated/tiled.yaml", False),
    ("fit-volumes -o", ["fit-volumes", "{in}", "-m", "v100-pcie-32gb", "--records",
                        "tests/golden/data/validate_star3d", "-o", "{out}"],
     "examples/kernels/star3d_r4.yaml", False),
    ("probe --replay -o", ["probe", "--replay", "tests/unit/probe/data/synthetic-gpu", "-o",
                           "{out}"], None, False),
    ("gen -o", ["gen", "empty_kernel", "ngroups:16", "-o", "{out}"], None, True),
    ("validate --save", ["validate", "{in}", "-m", "h100-sxm5-80gb", "--save", "{out}"],
     "examples/kernels/star2d_r1.yaml", True),
    ("run -o", ["run", "examples/kernels/uipick", "--shard", "0/64", "-o", "{out}"], None, True),
]
TARGETS = ["new", "existing", "read-only", "directory", "missing parent", "/dev/full", "input",
           "symlink to input", "dangling symlink", "stdout", "empty", "long name", "newline",
           "file as parent"]


def prepare_target(kind, case_dir, input_path):
    """The target path for `kind`, made in case_dir; and whether it existed before."""
    if kind == "new":
        return str(case_dir / "out.txt")
    if kind == "existing":
        (case_dir / "out.txt").write_text("keep\n")
        return str(case_dir / "out.txt")
    if kind == "read-only":
        (case_dir / "out.txt").write_text("keep\n")
        os.chmod(case_dir / "out.txt", 0o444)
        return str(case_dir / "out.txt")
    if kind == "directory":
        (case_dir / "out.d").mkdir()
        return str(case_dir / "out.d")
    if kind == "missing parent":
        return str(case_dir / "no" / "such" / "out.txt")
    if kind == "/dev/full":
        return "/dev/full"
    if kind == "input":
        return str(input_path) if input_path else str(case_dir / "out.txt")
    if kind == "symlink to input":
        if input_path:
            (case_dir / "link").symlink_to(input_path)
            return str(case_dir / "link")
        return str(case_dir / "out.txt")
    if kind == "dangling symlink":
        (case_dir / "link").symlink_to(case_dir / "nowhere" / "x")
        return str(case_dir / "link")
    if kind == "stdout":
        return "-"
    if kind == "empty":
        return ""
    if kind == "long name":
        return str(case_dir / ("x" * 300))
    if kind == "newline":
        return str(case_dir / "out\nname.txt")
    (case_dir / "plain").write_text("a file\n")  # file as parent
    return str(case_dir / "plain" / "out.txt")


def snapshot(directory):
    """Every path under `directory` with its content (files) or None (directories)."""
    state = {}
    for path in sorted(Path(directory).rglob("*")):
        if path.is_symlink():
            state[str(path)] = "-> " + os.readlink(path)
        elif path.is_file():
            state[str(path)] = path.read_bytes()
        else:
            state[str(path)] = None
    return state


def output_case(binary, writer, target_kind, seed, workdir):
    name, arguments, source, _ = writer
    case_dir = Path(tempfile.mkdtemp(dir=workdir))
    input_path = None
    if source:
        input_path = case_dir / Path(source).name
        input_path.write_bytes((ROOT / source).read_bytes())
    target = prepare_target(target_kind, case_dir, input_path)
    before = snapshot(case_dir)
    command = [a.replace("{in}", str(input_path)).replace("{out}", target) for a in arguments]
    try:
        result = subprocess.run([binary, *command], capture_output=True, timeout=30, cwd=str(ROOT))
        code, stderr = result.returncode, result.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        code, stderr = "timeout", ""
    after = snapshot(case_dir)
    problems = []
    if code == "timeout":
        problems.append("timeout")
    elif code < 0:
        problems.append(f"signal {-code}")
    elif code == 4:
        problems.append("internal error")
    elif code not in (0, 1, 2, 3):
        problems.append(f"exit {code}")
    elif FINDING_TEXT.search(stderr):
        problems.append("internals in the message")
    if input_path and before.get(str(input_path)) != after.get(str(input_path)):
        problems.append("input changed")
    created = sorted(set(after) - set(before))
    if code != 0 and created:
        problems.append("failed but created " + ", ".join(Path(c).name for c in created))
    if code == 0 and target_kind == "new" and target not in after:
        problems.append("exit 0 without writing the target")
    if target_kind == "read-only" and before.get(target) != after.get(target):
        problems.append("read-only file replaced")
    if code == 0 and target_kind == "/dev/full":
        problems.append("exit 0 writing to a full device")
    os.system(f"chmod -R u+w '{case_dir}'")
    return {"kind": "output", "source": target_kind, "command": name, "args": command,
            "exit": code, "outcome": "; ".join(problems) or "ok", "seed": seed,
            "stderr": stderr[-400:], "file": target, "text": ""}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kerncast", default=str(ROOT / "build/tools/kerncast/kerncast"))
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--python", action="store_true",
                        help="the Python module's entries instead of the CLI")
    parser.add_argument("--pythonpath", default=str(ROOT / "build/python"))
    parser.add_argument("--interpreter", default="/usr/bin/python3",
                        help="the Python the module was built for (Debian's)")
    parser.add_argument("--outputs", action="store_true",
                        help="the writers' targets (every writer option x every target kind)")
    parser.add_argument("out")
    options = parser.parse_args()
    out = Path(options.out)
    (out / "findings").mkdir(parents=True, exist_ok=True)
    rng = random.Random(options.seed)
    all_targets = targets()
    cases = [(rng.choice(all_targets), rng.randrange(1 << 30)) for _ in range(options.cases)]
    tally = collections.Counter()
    with tempfile.TemporaryDirectory() as workdir, open(out / "cases.jsonl", "w") as log, \
            concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        if options.outputs:
            pairs = [(w, t) for w in WRITERS for t in TARGETS]
            futures = [pool.submit(output_case, options.kerncast, w, t, rng.randrange(1 << 30),
                                   workdir) for w, t in pairs]
            options.cases = len(futures)
        elif options.python:
            sources = sorted((ROOT / "examples/kernels").glob("*.yaml")) + sorted(
                (ROOT / "machines").glob("*.json")) + sorted(
                (ROOT / "examples/workloads").glob("*.json"))
            futures = [pool.submit(python_case, options.interpreter, options.pythonpath,
                                   rng.choice(sources), rng.randrange(1 << 30), workdir)
                       for _ in range(options.cases)]
        else:
            futures = [pool.submit(run_case, options.kerncast, kind, source, build, seed, workdir)
                       for (kind, source, build), seed in cases]
        for n, future in enumerate(concurrent.futures.as_completed(futures)):
            case = future.result()
            tally[(case["kind"], case["command"], case["outcome"], case["exit"])] += 1
            if case["outcome"] != "ok":
                name = f"{len(list((out / 'findings').iterdir())):04d}_{Path(case['file']).name}"
                (out / "findings" / name).write_text(case["text"], errors="replace")
                case["kept"] = name
            case.pop("text")
            log.write(json.dumps(case) + "\n")
    findings = 0
    for (kind, command, outcome, code), count in sorted(tally.items(), key=str):
        print(f"{kind:8} {command:8} exit {str(code):8} {outcome:28} {count}")
        findings += count if outcome != "ok" else 0
    print(f"{options.cases} cases, {findings} findings (seed {options.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
