"""Shared fixtures of the Python module's tests (tests/python/CMakeLists.txt sets the
environment: PYTHONPATH=<build>/python, KERNCAST_CLI, KERNCAST_SOURCE_DIR)."""

import json
import math
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("KERNCAST_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
STAR3D = SOURCE_DIR / "examples" / "kernels" / "star3d_r4.yaml"


@pytest.fixture
def source_dir():
    return SOURCE_DIR


@pytest.fixture
def star3d():
    return STAR3D


def cli_json(*args):
    """The kerncast CLI's --json document for `kerncast ARGS... --json -`."""
    cli = os.environ.get("KERNCAST_CLI")
    if not cli:
        pytest.skip("KERNCAST_CLI is not set (run through ctest)")
    done = subprocess.run([cli, *map(str, args), "--json", "-"], capture_output=True, text=True,
                          check=True, cwd=SOURCE_DIR)
    return json.loads(done.stdout)


def as_json_values(value):
    """A Report.to_dict() value as the CLI's JSON writes it: non-finite numbers as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {key: as_json_values(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json_values(item) for item in value]
    return value
