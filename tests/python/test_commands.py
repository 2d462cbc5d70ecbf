"""Each command through Python carries the values of the CLI's --json for the same input."""

import numpy as np
import pytest

import kerncast
from conftest import as_json_values, cli_json


def test_predict_equals_the_cli(star3d):
    report = kerncast.predict(star3d, "a100-sxm4-40gb", block=(16, 2, 32), fold=(1, 1, 2),
                              params={"nz": 256}, registers=64)
    expected = cli_json("predict", star3d, "-m", "a100-sxm4-40gb", "--block", "16x2x32",
                        "--fold", "1x1x2", "-D", "nz=256", "--registers", "64")
    assert as_json_values(report.to_dict()) == expected
    assert report.schema == "kerncast.predict/1"
    launch = report["launch"].as_mapping()
    assert launch["block"] == "16x2x32" and launch["registers_per_thread"] == 64


def test_predict_takes_loaded_inputs_and_text_triples(star3d):
    kernel = kerncast.load_kernel(star3d)
    machine = kerncast.Machine("a100-sxm4-40gb")
    by_tuple = kerncast.predict(kernel, machine, block=(32, 4, 4), fold=(1, 1, 2))
    by_text = kerncast.predict(star3d, "a100-sxm4-40gb", block="32x4x4", fold="2z")
    by_file_launch = kerncast.predict(kernel, machine)  # the file's 32x4x4, 1x1x2
    assert by_tuple.to_dict() == by_text.to_dict() == by_file_launch.to_dict()


def test_count_equals_the_cli(star3d):
    report = kerncast.count(star3d, block=(64, 2, 2), params={"nx": 128}, index_arithmetic=True)
    expected = cli_json("count", star3d, "--block", "64x2x2", "-D", "nx=128",
                        "--index-arithmetic")
    assert as_json_values(report.to_dict()) == expected


def test_explore_equals_the_cli_and_ranks_by_throughput(star3d):
    report = kerncast.explore(star3d, "a100-sxm4-40gb", blocks=[(32, 4, 4), (64, 2, 4), "256"],
                              folds=["none", (1, 1, 2)], jobs=2)
    expected = cli_json("explore", star3d, "-m", "a100-sxm4-40gb",
                        "--blocks", "32x4x4,64x2x4,256", "--folds", "none,1x1x2", "-j", "2")
    assert as_json_values(report.to_dict()) == expected
    ranking = report["ranking"]
    assert len(ranking) == 6
    throughput = ranking["throughput"]
    assert throughput.dtype == np.float64
    assert np.all(np.diff(throughput) <= 0)
    assert list(ranking["rank"]) == [1, 2, 3, 4, 5, 6]
    assert ranking.to_numpy()["block"][0] == ranking.rows[0]["block"]


def test_explore_space_equals_the_cli_with_its_shortlist(source_dir):
    space = source_dir / "examples" / "autotuning" / "spaces" / "kt_matmul.yaml"
    report = kerncast.explore_space(space, "a100-sxm4-40gb", jobs=1, shortlist=0.9,
                                    error_spread=0.1)
    expected = cli_json("explore", "--space", space, "-m", "a100-sxm4-40gb", "-j", "1",
                        "--shortlist", "0.9", "--error-spread", "0.1")
    assert as_json_values(report.to_dict()) == expected
    times = [row["time"] for row in report["ranking"].rows if row["rank"] is not None]
    assert times == sorted(times)
    assert 1 <= len(report["shortlist"].rows) <= len(times)
    with pytest.raises(kerncast.Error, match="shortlist needs error_spread"):
        kerncast.explore_space(space, "a100-sxm4-40gb", shortlist=0.9)


def test_explore_shortlist_equals_the_cli(source_dir):
    star2d = source_dir / "examples" / "kernels" / "star2d_r1.yaml"
    report = kerncast.explore(star2d, "a100-sxm4-40gb", blocks=["32x1", "64x1", "32x8", "1x32"],
                              folds="none", jobs=1, shortlist=0.9, error_spread=0.05)
    expected = cli_json("explore", star2d, "-m", "a100-sxm4-40gb", "--blocks",
                        "32x1,64x1,32x8,1x32", "--folds", "none", "-j", "1", "--shortlist", "0.9",
                        "--error-spread", "0.05")
    assert as_json_values(report.to_dict()) == expected
    assert len(report["shortlist"].rows) == 3
    with pytest.raises(kerncast.Error, match="strictly between 0 and 1"):
        kerncast.explore(star2d, "a100-sxm4-40gb", shortlist=1.5, error_spread=0.1)


def test_explore_sweeps_strided_folds_as_the_cli(star3d):
    report = kerncast.explore(star3d, "a100-sxm4-40gb", blocks=["32x4x4"],
                              folds=["1x1x2", "1x1x2:strided"], jobs=1)
    expected = cli_json("explore", star3d, "-m", "a100-sxm4-40gb", "--blocks", "32x4x4",
                        "--folds", "1x1x2,1x1x2:strided", "-j", "1")
    assert as_json_values(report.to_dict()) == expected
    assert sorted(report["ranking"]["fold"]) == ["1x1x2", "1x1x2:strided"]


def test_explore_default_sweep_is_the_same_with_one_or_all_workers(star3d):
    everyone = kerncast.explore(star3d, "a100-sxm4-40gb", threads=256)
    alone = kerncast.explore(star3d, "a100-sxm4-40gb", threads=256, jobs=1)
    assert everyone.to_dict() == alone.to_dict()
    assert len(everyone["ranking"]) > 20


def test_explore_without_any_runnable_configuration_names_why(star3d):
    with pytest.raises(kerncast.Error) as caught:
        kerncast.explore(star3d, "a100-sxm4-40gb", blocks=["2048"], folds=["none"])
    assert "no configuration of star3d_r4 can run on a100-sxm4-40gb" in str(caught.value)
    assert caught.value.notes and "2048x1x1" in caught.value.notes[0]


def test_mwp_equals_the_cli_from_a_file_and_from_a_dict(source_dir):
    workload = source_dir / "examples" / "workloads" / "hk-table2.json"
    expected = cli_json("mwp", "--workload", workload, "-m", "hk-example", "--paper-rounding")
    from_file = kerncast.mwp(workload, "hk-example", paper_rounding=True)
    assert as_json_values(from_file.to_dict()) == expected
    import json
    document = json.loads(workload.read_text())
    from_dict = kerncast.mwp(document, "hk-example", paper_rounding=True)
    assert from_dict.to_dict() == from_file.to_dict()


def test_validate_records_equals_the_cli(source_dir, star3d):
    records = source_dir / "tests" / "golden" / "data" / "validate_star3d"
    report = kerncast.validate(star3d, "a100-sxm4-40gb", records=records)
    expected = cli_json("validate", star3d, "-m", "a100-sxm4-40gb", "--records", records)
    assert as_json_values(report.to_dict()) == expected


def test_validate_warns_about_records_of_another_kernel_file(source_dir, tmp_path):
    records = source_dir / "tests" / "golden" / "data" / "validate_star3d"
    # The same kernel in another file (a comment added): another SHA-256 than recorded.
    copy = tmp_path / "star3d_r4.yaml"
    copy.write_text("# a copy\n" + (source_dir / "examples/kernels/star3d_r4.yaml").read_text())
    with pytest.warns(kerncast.KerncastWarning, match="another SHA-256"):
        kerncast.validate(copy, "a100-sxm4-40gb", records=records)
