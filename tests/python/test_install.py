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


def import_under(build_dir, tmp_path, prelude):
    """Imports the build tree's package after `prelude` pretends to be another interpreter."""
    script = prelude + "\nimport kerncast\n"
    environment = dict(os.environ, PYTHONPATH=str(build_dir / "python"))
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, env=environment)


def test_another_python_version_is_told_which_interpreter_the_module_is_for(build_dir, tmp_path):
    done = import_under(build_dir, tmp_path,
                        "import sys; sys.version_info = (3, 99, 0, 'final', 0)")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    built = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert last.startswith(f"ImportError: kerncast was built for Python {built} (")
    assert "this is Python 3.99" in last
    assert "cannot load in another Python version" in last
    assert "numpy" not in last.lower()  # refused before NumPy is imported


def test_a_missing_numpy_names_the_interpreters(build_dir, tmp_path):
    done = import_under(build_dir, tmp_path,
                        "import sys; sys.executable = '/opt/other/bin/python3'\n"
                        "sys.modules['numpy'] = None")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "this is Python" in last and "(/opt/other/bin/python3)" in last
    assert "NumPy cannot be imported" in last
    assert "Import it with " in last
