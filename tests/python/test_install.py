"""`cmake --install` puts the package where Debian's python3 finds it."""

import os
import pathlib
import subprocess
import sys

import pytest


def cache_value(build_dir, name):
    for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    raise KeyError(name)


@pytest.fixture
def build_dir():
    if "KERNCAST_BUILD_DIR" not in os.environ:
        pytest.skip("KERNCAST_BUILD_DIR is not set (run through ctest)")
    return pathlib.Path(os.environ["KERNCAST_BUILD_DIR"])


def test_the_install_directory_is_on_debians_python_path(build_dir):
    prefix = cache_value(build_dir, "CMAKE_INSTALL_PREFIX")
    if prefix not in ("/usr/local", "/usr"):
        pytest.skip(f"installs into {prefix}, which Debian's python3 does not search")
    package_dir = pathlib.Path(prefix) / cache_value(build_dir, "KERNCAST_PYTHON_INSTALL_DIR")
    assert str(package_dir) in sys.path  # the python3 the module was built for runs this test


def test_the_installed_package_imports_and_works(build_dir, tmp_path, source_dir):
    cmake = os.environ.get("CMAKE_COMMAND", "cmake")
    subprocess.run([cmake, "--install", str(build_dir), "--prefix", str(tmp_path)], check=True,
                   capture_output=True)
    site = tmp_path / cache_value(build_dir, "KERNCAST_PYTHON_INSTALL_DIR")
    assert (site / "kerncast" / "__init__.py").is_file()
    script = ("import kerncast; print(kerncast.__file__); "
              f"print(kerncast.count({str(source_dir / 'examples/kernels/star3d_r4.yaml')!r})"
              ".schema)")
    environment = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=tmp_path, env=environment)
    imported_from, schema = done.stdout.split()
    assert pathlib.Path(imported_from).parent == site / "kerncast"
    assert schema == "kerncast.count/1"
