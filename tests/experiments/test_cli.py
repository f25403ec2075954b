import json
import subprocess
import sys

import pytest

from tdadp.cli import main
from tdadp.experiments import list_experiments, read_table, run_experiment

EXPERIMENTS = ["clustering", "convergence", "ergm", "mechanisms", "pufferfish", "rates",
               "realnets", "shrinkage"]
EXPECTED_COLUMNS = {
    "shrinkage": {"model", "epsilon", "ratio", "theory_ratio", "embedded_diameter"},
    "mechanisms": {"model", "n_nodes", "epsilon", "w_edgeflip", "w_laplaceflip",
                   "w_laplaceflip_authors", "flip_edgeflip", "flip_laplaceflip"},
    "convergence": {"n_nodes", "epsilon", "w_raw", "w_bias", "w_si_log", "si_floor", "w_di",
                    "di_scale", "w_adjusted", "w_nonprivate"},
    "clustering": {"model", "epsilon", "ari_tomato", "ari_kmeans", "ari_spectral"},
    "rates": {"n_nodes", "epsilon", "two_inf", "fro", "two_inf_nonprivate", "fro_nonprivate",
              "inflation_two_inf", "inflation_fro", "theory_inflation"},
    "ergm": {"part", "model", "n_nodes", "convention", "decay_tri", "start", "density",
             "triangles", "k_median", "removed_min", "rmse_thesis_median_3_edges",
             "rmse_restricted_1.5max_3_altktriangles", "rmse_local_3_edges", "method",
             "mean_edges", "covered_altktriangles", "min_ess"},
    "pufferfish": {"setting", "alpha", "epsilon", "length", "n_states", "err_groupdp",
                   "err_gk16", "err_mqmapprox", "err_mqmexact", "time_mqmexact",
                   "time_mqmapprox", "scale_mqmexact"},
    "realnets": {"network", "half", "epsilon", "ari_default", "ari_default_auto",
                 "ari_leiden_k", "ari_sklearn_spectral", "nmi_ase_gmm", "n_clusters_louvain",
                 "seconds_regularized_laplacian", "default_auto_significant"},
}


def _strip_time(rows):
    return [{k: v for k, v in row.items() if k != "wall_time_s"} for row in rows]


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    # mesa and ergm_node write their tables in long form: their quick runs are tested in
    # test_mesa.py and test_ergm_node.py
    assert sorted(list_experiments()) == sorted([*EXPERIMENTS, "mesa", "ergm_node"])
    for name in [*EXPERIMENTS, "mesa", "ergm_node"]:
        assert name in out


# The quick runs of convergence and clustering take 20-40 s each (sized to show their
# effect); the default suite runs both end to end on smaller configurations
# (test_paper_designs.py, test_local_processes_and_dask_cluster_give_identical_tables).
_HEAVY_QUICK = {"convergence", "clustering"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in _HEAVY_QUICK
                                  else n for n in EXPERIMENTS])
def test_quick_run_writes_table_figures_provenance(name, tmp_path, capsys):
    assert main(["run", name, "--quick", "--out", str(tmp_path), "--no-progress", "--pdf"]) == 0
    rows = read_table(tmp_path / "results.csv")
    assert rows
    columns = set(rows[0])
    assert {"point", "replicate", "seed", "wall_time_s", "task_warnings",
            "task_warning_messages"} <= columns
    assert EXPECTED_COLUMNS[name] <= columns
    replicates = {r["replicate"] for r in rows}
    assert replicates == {0, 1}
    assert (tmp_path / f"{name}.png").stat().st_size > 10_000
    assert (tmp_path / f"{name}.pdf").exists()
    prov = json.loads((tmp_path / "provenance.json").read_text())
    assert prov["experiment"] == name and prov["seeds"]["root_seed"] == 0
    assert prov["versions"]["numpy"] and prov["versions"]["tdadp"]
    assert "results.csv" in capsys.readouterr().out


def test_rerun_reproduces_table_and_seed_changes_it(tmp_path):
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"replicates": 2, "sizes": [40, 60]}))
    _, a, _ = run_experiment("mechanisms", config_file=cfg, out=tmp_path / "a", progress=False)
    _, b, _ = run_experiment("mechanisms", config_file=cfg, out=tmp_path / "b", progress=False)
    assert _strip_time(a) == _strip_time(b)
    assert _strip_time(read_table(tmp_path / "a" / "results.csv")) == \
        _strip_time(read_table(tmp_path / "b" / "results.csv"))
    cfg.write_text(json.dumps({"replicates": 2, "sizes": [40, 60], "seed": 1}))
    _, c, _ = run_experiment("mechanisms", config_file=cfg, out=tmp_path / "c", progress=False)
    assert _strip_time(a) != _strip_time(c)


def test_local_processes_and_dask_cluster_give_identical_tables(tmp_path):
    pytest.importorskip("distributed")
    cfg = tmp_path / "cfg.toml"
    cfg.write_text("replicates = 2\nepsilons = [1.0, 4.0]\nsizes = [80, 120]\n")
    common = dict(config_file=cfg, progress=False)
    _, serial, _ = run_experiment("convergence", out=tmp_path / "s", **common)
    _, loky, _ = run_experiment("convergence", out=tmp_path / "l", n_jobs=2, **common)
    _, dask, _ = run_experiment("convergence", out=tmp_path / "d", local_cluster=2, **common)
    assert _strip_time(serial) == _strip_time(loky) == _strip_time(dask)
    prov = json.loads((tmp_path / "d" / "provenance.json").read_text())
    assert prov["backend"] == "dask"


@pytest.mark.parametrize(
    "args, config, message",
    [
        (["run", "nope"], None, "unknown experiment 'nope'"),
        (["run", "mechanisms"], {"epsilon": [1.0]}, "unknown config key 'epsilon'"),
        (["run", "convergence"], {"epsilons": [-1.0]},
         "epsilons[0] must be a real number in (0, inf); got -1.0"),
        (["run", "mechanisms"], {"models": ["sbm"]},
         "models[0] must be one of 'gaussian_kernel', 'rdpg'; got 'sbm'"),
        (["run", "mechanisms"], {"bandwidth": 0.0},
         "bandwidth must be a real number in (0, 1e+06); got 0.0"),
        (["run", "convergence"], {"radius": 0.7},
         "radius must be a real number in (0, 0.6); got 0.7"),
        (["run", "convergence"], {"sizes": [5, 100]},
         "sizes[0] must be an int in [50, 1e+06]; got 5"),
        (["run", "shrinkage"], {"n_nodes": "many"}, "n_nodes = 'many'"),
        (["run", "shrinkage", "--n-jobs", "0"], None, "--n-jobs must be at least 1"),
        (["run", "shrinkage", "--n-jobs", "2", "--local-cluster", "2"], None,
         "not allowed with argument"),
        (["frobnicate"], None, "invalid choice"),
    ],
)
def test_bad_configs_exit_2_with_one_line(tmp_path, capsys, args, config, message):
    if config is not None:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(config))
        args = args + ["--config", str(path)]
    with pytest.raises(SystemExit) if args[0] == "frobnicate" or "--n-jobs" in args else \
            _returns(2) as ctx:
        code = main(args + ["--out", str(tmp_path / "out")] if args[0] == "run" else args)
        ctx.code = code
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


class _returns:
    def __init__(self, expected):
        self.expected = expected
        self.code = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        assert exc[0] is None
        assert self.code == self.expected
        return False


def test_console_script_exit_code(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tdadp.cli", "run", "shrinkage", "--config",
                           str(tmp_path / "missing.toml")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"tdadp: error: config file "
                                   f"'{tmp_path / 'missing.toml'}' does not exist")


def test_small_clustering_run_writes_table_and_figure(tmp_path):
    # the default suite's end-to-end run of the clustering experiment (its quick run is slow)
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"replicates": 1, "circles_nodes": [300, 100], "sbm_nodes": 150,
                               "epsilons": [5.0]}))
    _, rows, figures = run_experiment("clustering", config_file=cfg, out=tmp_path / "o",
                                      progress=False)
    assert {r["model"] for r in rows} == {"two_circles", "sbm"}
    assert EXPECTED_COLUMNS["clustering"] <= set(rows[0])
    assert figures[0].stat().st_size > 10_000
    notes = json.loads((tmp_path / "o" / "provenance.json").read_text())["notes"]
    assert len(notes) == 1 and "300 + 100 nodes" in notes[0]
