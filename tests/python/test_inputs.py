"""Kernels from files and YAML text, machines from ids and files, and kerncast.Error."""

import pytest

import kerncast

STAR2D = """\
name: star2d_gen
params: {nx: 1024, ny: 1024}
arrays:
  src: {dtype: f32, shape: [ny, nx]}
  dst: {dtype: f32, shape: [ny, nx]}
domain: "[nx, ny] -> { [y, x] : 1 <= x < nx - 1 and 1 <= y < ny - 1 }"
threads: {x: x, y: y}
statements:
  - "dst[y, x] = 0.25*(src[y, x-1] + src[y, x+1] + src[y-1, x] + src[y+1, x])"
launch: {block: [32, 8], fold: [1, 2]}
"""


def test_kernel_from_file(star3d):
    kernel = kerncast.load_kernel(star3d)
    assert kernel.name == "star3d_r4"
    assert kernel.file == str(star3d)
    assert kernel.params == {"nx": 640, "ny": 512, "nz": 512}
    assert kernel.block == (32, 4, 4)
    assert kernel.fold == (1, 1, 2)
    assert kernel.fold_placement == "consecutive"
    assert kernel.registers_per_thread is None


def test_kernel_from_yaml_text():
    kernel = kerncast.parse_kernel(STAR2D, "star2d_gen.yaml")
    assert kernel.name == "star2d_gen"
    assert kernel.params == {"nx": 1024, "ny": 1024}
    assert kernel.block == (32, 8, 1)
    assert kernel.fold == (1, 2, 1)


def test_machine_from_id_and_file(source_dir):
    assert "a100-sxm4-40gb" in kerncast.machines()
    a100 = kerncast.Machine("a100-sxm4-40gb")
    assert a100.id == "a100-sxm4-40gb"
    assert a100.compute_capability == (8, 0)
    from_file = kerncast.Machine(str(source_dir / "machines" / "a100-sxm4-40gb.json"))
    assert from_file.id == a100.id
    assert kerncast.Machine.from_json(a100.to_json()).to_json() == a100.to_json()


def test_yaml_error_carries_the_position():
    broken = STAR2D.replace("src[y, x-1]", "src[y, x-1")
    with pytest.raises(kerncast.Error) as caught:
        kerncast.parse_kernel(broken, "gen.yaml")
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.kind == "input"
    assert error.file == "gen.yaml"
    assert error.line == 9  # the statement's line
    assert error.column is not None and error.column > 1
    assert str(error).startswith(f"gen.yaml:9:{error.column}: error: ")
    assert error.message in str(error)
    assert "src[y, x-1" in error.source_line


def test_missing_file_and_unknown_machine(tmp_path):
    with pytest.raises(kerncast.Error) as caught:
        kerncast.load_kernel(tmp_path / "missing.yaml")
    assert caught.value.kind == "input"
    with pytest.raises(kerncast.Error) as caught:
        kerncast.Machine("a100-sxm4-40")
    assert "a100-sxm4-40gb" in str(caught.value)  # the closest ids are named


def test_bad_arguments_are_usage_errors(star3d):
    with pytest.raises(kerncast.Error) as caught:
        kerncast.predict(star3d, "a100-sxm4-40gb", block="0x4x4")
    assert caught.value.kind == "usage"
    assert caught.value.line is None and caught.value.file is None
    with pytest.raises(kerncast.Error) as caught:
        kerncast.predict(star3d, "a100-sxm4-40gb", params={"nq": 3})
    assert caught.value.kind == "input"
    with pytest.raises(TypeError):
        kerncast.predict(42, "a100-sxm4-40gb")
    with pytest.raises(ValueError):
        kerncast.predict(star3d, "a100-sxm4-40gb", block=(1, 2, 3, 4))


def test_malformed_arguments_raise_kerncast_error_or_type_error(star3d):
    # A bad value is a usage error, as on the command line; a wrong type a TypeError naming
    # the argument (never an AttributeError or a bare ValueError).
    for arguments in (dict(block=(1, 2, 3, 4)), dict(fold=()), dict(block="q")):
        with pytest.raises(kerncast.Error) as caught:
            kerncast.predict(star3d, "a100-sxm4-40gb", **arguments)
        assert caught.value.kind == "usage", arguments
        assert caught.value.message in str(caught.value)
    with pytest.raises(kerncast.Error) as caught:
        kerncast.explore(star3d, "a100-sxm4-40gb", jobs=-1)
    assert caught.value.kind == "usage"
    assert "jobs" in caught.value.message
    with pytest.raises(kerncast.Error):
        kerncast.explore(star3d, "a100-sxm4-40gb", blocks=[])
    for arguments, named in ((dict(params=5), "params"), (dict(params={"nz": "x"}), "nz"),
                             (dict(block=7), "block"), (dict(block=(1.5, 2)), "block"),
                             (dict(registers=2.5), "registers")):
        with pytest.raises(TypeError) as caught:
            kerncast.predict(star3d, "a100-sxm4-40gb", **arguments)
        assert named in str(caught.value), arguments
    with pytest.raises(TypeError):
        kerncast.explore(star3d, "a100-sxm4-40gb", jobs="2")


def test_arrays_beyond_the_device_memory_are_refused(source_dir):
    # fd5pt_16 at n = 262144 needs 549.8 GB: no forecast for a launch that cannot be allocated.
    kernel = source_dir / "examples/kernels/fd5pt_16.yaml"
    with pytest.raises(kerncast.Error) as caught:
        kerncast.predict(kernel, "a100-sxm4-40gb", params={"n": 262144})
    assert caught.value.kind == "input"
    assert "the kernel's arrays need 549.8 GB" in caught.value.message
    kerncast.predict(kernel, "a100-sxm4-40gb", params={"n": 4096})  # fits: forecast


def test_a_character_beyond_ascii_is_named_in_a_valid_message():
    # A zero-width space in a statement: the message names it with its code point; it once cut
    # its UTF-8 sequence and the module raised UnicodeDecodeError (bad-input campaign, 2026-11-29).
    broken = STAR2D.replace("src[y, x-1]", "src[y, x-1]\u200b")
    with pytest.raises(kerncast.Error) as caught:
        kerncast.parse_kernel(broken, "gen.yaml")
    assert caught.value.kind == "input"
    assert "unexpected character '\u200b' (U+200B)" in caught.value.message


def test_a_machine_file_cut_inside_a_character_raises_kerncast_error(source_dir, tmp_path):
    # JSON's "last read" quoted a lone UTF-8 lead byte, and the module raised UnicodeDecodeError
    # (bad-input campaign, 2026-11-29); every error's text is valid UTF-8 now.
    text = (source_dir / "machines/fx5600.json").read_bytes()
    cut = text.index(b"\"base_clock_mhz\"")
    path = tmp_path / "cut.json"
    path.write_bytes(text[:cut] + b"\xe2\n" + text[cut:])
    with pytest.raises(kerncast.Error) as caught:
        kerncast.Machine(str(path))
    assert caught.value.kind == "input"
    assert "malformed JSON" in caught.value.message
