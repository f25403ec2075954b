"""The node-level ERGM study (Goldberg 2018, Sec. 5.3): long table, claim check, quick run."""

import csv
import json
import math

import pytest

from tdadp.cli import main
from tdadp.pipelines import ergm_node


def _row(model, n, err):
    """A sweep row of one point with every metric of altktriangles at ``err`` (mean 10)."""
    row = {"model": model, "n_nodes": n, "replicate": 0, "statistics": "altktriangles",
           "mean_altktriangles": 10.0}
    for rule in ergm_node.CUTOFFS:
        row[f"k_{rule}"] = 5
        row[f"removed_{rule}"] = 0.0
        for proj in ergm_node.PROJECTIONS:
            key = f"{proj}_{rule}_altktriangles"
            e = err if proj == "lp" else 10 * err
            row.update({f"sens_{key}": 1.0, f"err_{key}": e, f"q25_{key}": e / 2,
                        f"q75_{key}": 2 * e, f"bias_{key}": 0.0, f"scale_{key}": e,
                        f"seconds_{proj}_{rule}": 0.0})
    return row


def test_long_rows_normalise_by_the_mean_statistic_and_the_claim_is_checked():
    config = dict(ergm_node.CONFIG)
    rows = [_row(1, 800, 2.0), _row(1, 900, 3.0), _row(1, 500, 9.0)]
    long = ergm_node.long_rows(rows, config)
    assert len(long) == 3 * len(ergm_node.CUTOFFS) * len(ergm_node.PROJECTIONS)
    e = next(r for r in long if r["n_nodes"] == 900 and r["projection"] == "lp")
    assert e["relative_error"] == pytest.approx(0.3) and e["q75"] == pytest.approx(0.6)
    assert e["noise"] == "laplace"
    claim = ergm_node.claim_rows(long)
    # n > 700 only: lp's largest is 0.3 (n = 900), above 25%; truncation 10x that
    lp = [c for c in claim if c["projection"] == "lp"]
    assert len(lp) == len(ergm_node.CUTOFFS)
    assert all(c["largest_relative_error"] == pytest.approx(0.3) and c["holds"] == 0
               for c in lp)
    rows[1] = _row(1, 900, 1.0)
    claim = ergm_node.claim_rows(ergm_node.long_rows(rows, config))
    assert all(c["holds"] == (c["projection"] == "lp") for c in claim)


def test_quick_run_writes_the_long_table_figure_and_provenance(tmp_path, capsys):
    assert main(["run", "ergm_node", "--quick", "--out", str(tmp_path), "--no-progress"]) == 0
    with open(tmp_path / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    quick = {**ergm_node.CONFIG, **ergm_node.QUICK}
    assert {"model", "n_nodes", "statistic", "cutoff", "k", "projection", "noise",
            "relative_error", "q25", "q75", "projection_bias", "noise_scale"} <= set(rows[0])
    assert {int(r["model"]) for r in rows} == set(quick["models"])
    assert {int(r["n_nodes"]) for r in rows} == set(quick["sizes"])
    assert {r["projection"] for r in rows} == set(ergm_node.PROJECTIONS)
    assert {r["cutoff"] for r in rows} == set(ergm_node.CUTOFFS)
    # model 3 releases its four statistics; altkstars is truncated (Cauchy) in both
    m3 = {r["statistic"] for r in rows if r["model"] == "3"}
    assert m3 == {"edges", "altkstars", "altktriangles", "altktwopaths"}
    assert {r["noise"] for r in rows if r["statistic"] == "altkstars"} == {"cauchy"}
    assert {r["noise"] for r in rows if r["projection"] == "lp"
            and r["statistic"] == "edges"} == {"laplace"}
    for r in rows:
        rel, q25, q75 = (float(r[c]) for c in ("relative_error", "q25", "q75"))
        if math.isfinite(rel):
            assert 0 <= q25 <= rel <= q75
    assert (tmp_path / "ergm_node.png").stat().st_size > 10_000
    prov = json.loads((tmp_path / "provenance.json").read_text())
    assert prov["experiment"] == "ergm_node"
    assert any("networks per model" in n for n in prov["notes"])
