"""The Faux Mesa High study's tables: long form, errors about the non-private fit, the thesis."""

import csv
import json
import math

import pytest

from tdadp.cli import main
from tdadp.pipelines import mesa


def _fit_rows():
    rows = []
    for rep, shift in enumerate((0.0, 0.2)):
        rows.append({"method": "non-private", "epsilon": math.inf, "decay": 0.75,
                     "replicate": rep, "skipped": 0,
                     **{f"estimate_{p}": -1.0 + t + shift for t, p in
                        enumerate(mesa.PARAMETERS)},
                     **{f"std_error_{p}": 0.1 for p in mesa.PARAMETERS}})
    for rep, shift in enumerate((-1.0, 3.0)):
        rows.append({"method": "restricted", "epsilon": 5.0, "decay": 0.75, "replicate": rep,
                     "skipped": 0,
                     **{f"estimate_{p}": -0.9 + t + shift for t, p in
                        enumerate(mesa.PARAMETERS)},
                     **{f"std_error_{p}": 1.0 for p in mesa.PARAMETERS}})
    rows.append({"method": "non-private", "epsilon": math.inf, "decay": 0.75, "replicate": 5,
                 "skipped": 1})
    rows.append({"method": "decay-scan", "epsilon": math.inf, "decay": 0.5, "replicate": 0,
                 "skipped": 0, **{f"estimate_{p}": m for p, m in
                                  zip(mesa.PARAMETERS, mesa.THESIS_MLE)},
                 **{f"std_error_{p}": 0.1 for p in mesa.PARAMETERS}})
    return rows


def test_results_are_in_long_form_with_the_declared_columns():
    long = mesa.long_rows(_fit_rows())
    assert len(long) == 4 * len(mesa.PARAMETERS)  # skipped and scan rows left out
    assert all(list(r) == ["method", "epsilon", "fit", "parameter", "estimate", "std_error"]
               for r in long)
    assert {r["method"] for r in long} == {"non-private", "restricted"}


def test_mse_and_mae_are_about_the_mean_non_private_estimate():
    table = mesa.summary_table(mesa.long_rows(_fit_rows()))
    row = next(r for r in table if r["method"] == "restricted" and r["parameter"] == "edges")
    # non-private mean -0.9; restricted estimates -1.9 and 2.1: errors -1 and 3
    assert row["average"] == pytest.approx(0.1)
    assert row["mse"] == pytest.approx((1 + 9) / 2)
    assert row["mae"] == pytest.approx(2.0)
    # total eps 5 over 5 statistics is the thesis's eps = 1 read per statistic
    assert row["thesis_setting"] == "restricted eps=1 read as per statistic"
    assert row["thesis_average"] == -6.30 and row["thesis_mse"] == 1.36
    nonprivate = next(r for r in table if r["method"] == "non-private"
                      and r["parameter"] == "altktriangles")
    assert nonprivate["thesis_average"] == 1.39 and nonprivate["thesis_std_error"] == 0.06


def test_decay_scan_flags_the_estimates_within_two_thesis_standard_errors():
    scan = mesa.scan_rows(_fit_rows())
    assert [r["parameter"] for r in scan] == list(mesa.PARAMETERS)
    assert all(r["within_2_thesis_se"] == 1 for r in scan)
    assert scan[0]["lambda"] == pytest.approx(math.exp(0.5))


def test_points_cover_every_method_and_the_decay_scan():
    config = dict(mesa.CONFIG)
    pts = mesa.points(config)
    methods = [p["method"] for p in pts]
    assert methods.count("restricted") == len(config["restricted_epsilons"])
    assert {"non-private", "local", "edgeflip", "decay-scan"} <= set(methods)
    assert sum(m == "decay-scan" for m in methods) == len(config["decay_scan"])


def test_quick_run_writes_the_long_table_figure_and_provenance(tmp_path, capsys):
    assert main(["run", "mesa", "--quick", "--out", str(tmp_path), "--no-progress"]) == 0
    with open(tmp_path / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows
    assert set(rows[0]) >= {"method", "epsilon", "fit", "parameter", "estimate", "std_error"}
    assert {r["parameter"] for r in rows} == set(mesa.PARAMETERS)
    assert {"non-private", "restricted", "local", "edgeflip"} <= {r["method"] for r in rows}
    assert all(math.isfinite(float(r["estimate"])) for r in rows)
    assert (tmp_path / "mesa.png").stat().st_size > 10_000
    prov = json.loads((tmp_path / "provenance.json").read_text())
    assert prov["experiment"] == "mesa"
