"""The realnets experiment: every method's columns on one small run, the half of each
network, the summary tables beside the results, and the rules of its config."""

import json
import math

import pytest

from tdadp.experiments import ConfigError, experiment_config, read_table, run_experiment
from tdadp.pipelines import realnets

pytest.importorskip("igraph")
pytest.importorskip("leidenalg")


def test_one_release_gives_every_methods_columns(tmp_path):
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"networks": ["davis"], "epsilons": [4.0], "replicates": 1}))
    run_experiment("realnets", config_file=cfg, out=tmp_path / "o", progress=False)
    rows = read_table(tmp_path / "o" / "results.csv")
    assert len(rows) == 1 and rows[0]["half"] == "shipped"
    for method in realnets.CONFIG["methods"]:
        for metric in ("ari", "nmi", "n_clusters"):
            assert f"{metric}_{method}" in rows[0], (metric, method)
    for method in ["default", "default_auto", *realnets.PEERS]:
        assert rows[0][f"seconds_{method}"] > 0
    for name in ("summary.csv", "methods.csv", "seconds.csv", "summary.md"):
        assert (tmp_path / "o" / f"realnets_{name}").stat().st_size > 0
    summary = read_table(tmp_path / "o" / "realnets_summary.csv")
    assert summary[0]["network"] == "davis" and summary[0]["best_peer"] in realnets.PEERS


def _row(network, eps, default, **peers):
    return {"network": network, "half": "design", "epsilon": eps, "ari_default": default,
            **{f"ari_{m}": v for m, v in peers.items()}}


def test_the_summary_names_the_best_peer_and_the_gap():
    rows = [_row("a", 2.0, 0.5, leiden=0.6, louvain=0.2),
            _row("a", 2.0, 0.7, leiden=0.6, louvain=0.2),  # mean: default 0.6 = leiden 0.6
            _row("a", 1.0, 0.1, leiden=0.3, louvain=0.5)]
    by_eps = {e["epsilon"]: e for e in realnets.summary(rows)}
    assert by_eps[2.0]["best_peer"] == "leiden" and by_eps[2.0]["within_0.05"] is True
    assert math.isclose(by_eps[2.0]["difference"], 0.0, abs_tol=1e-12)
    assert by_eps[1.0]["best_peer"] == "louvain" and by_eps[1.0]["within_0.05"] is False
    assert math.isclose(by_eps[1.0]["difference"], -0.4)
    methods = {e["method"]: e for e in realnets.method_summary(rows)}
    # eps = 1 is left out of the per-method means
    assert math.isclose(methods["default"]["mean_ari"], 0.6)
    assert methods["leiden"]["kind"] == "peer" and methods["leiden"]["pairs"] == 1


def test_every_network_run_needs_a_half(tmp_path):
    assert set(realnets.CONFIG["halves"]) == set(realnets.NETWORKS)
    assert set(realnets.CONFIG["halves"].values()) <= {"shipped", "design", "report"}
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"halves": {"davis": "shipped"}}))
    with pytest.raises(ConfigError, match="no half for polblogs"):
        experiment_config(realnets, cfg)
    cfg.write_text(json.dumps({"halves": {"karate": "test"}}))
    with pytest.raises(ConfigError, match="'shipped', 'design' or 'report'"):
        experiment_config(realnets, cfg)


def test_releases_above_the_edge_cap_are_not_run_and_said():
    config = experiment_config(realnets, quick=True)
    config.update(networks=["polblogs", "karate"], epsilons=[1.0, 8.0],
                  max_release_edges=50_000)  # polblogs at eps 1: about 0.2 million edges
    assert {(p["network"], p["epsilon"]) for p in realnets.points(config)} == \
        {("polblogs", 8.0), ("karate", 1.0), ("karate", 8.0)}
    assert "polblogs at eps 1" in realnets.notes(config)[0]

