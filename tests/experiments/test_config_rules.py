"""Every config key has a declared rule, checked with the memory and time a run needs before
the first task: a bad value is exit code 2 and one line, never a traceback or a run that
cannot finish."""

import json

import pytest

import tdadp.experiments._run as run_module
from tdadp.cli import main
from tdadp.experiments import (
    check_config,
    check_run_cost,
    experiment_config,
    get_experiment,
    list_experiments,
)

EXPERIMENTS = sorted(list_experiments())


class _Started(Exception):
    pass


@pytest.fixture
def no_work(monkeypatch):
    def sweep(*args, **kwargs):
        raise _Started

    monkeypatch.setattr(run_module, "run_sweep", sweep)


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_key_has_a_rule_that_its_defaults_and_quick_values_keep(name):
    module = get_experiment(name)
    assert set(module.RULES) == set(module.CONFIG)
    for quick in (False, True):
        config = experiment_config(module, quick=quick)
        check_config(module.RULES, config, experiment=name)
        check_run_cost(module, config, workers=1)  # the full runs fit in the default 24 h


def _run(tmp_path, name, config, *extra):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(config))
    return main(["run", name, "--config", str(path), "--out", str(tmp_path / "o"),
                 "--no-progress", *extra])


def _refused(capsys, code, message):
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("tdadp: error: ") and message in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("name, config, message", [
    ("pufferfish", {"replicates": 10**12}, "replicates must be an int in [1, 100000]"),
    ("pufferfish", {"replicates": 1e12}, "replicates = 1000000000000.0 should be like"),
    ("pufferfish", {"length": 10**9}, "length must be an int in [2, 1e+08]"),
    ("pufferfish", {"length": 10**7}, "would take about"),
    ("pufferfish", {"cells": 10**6}, "cells must be an int in [1, 1000]"),
    ("convergence", {"sizes": [10**400]}, "sizes[0] must be an int"),
    ("convergence", {"sizes": list(range(50, 250))}, "sizes must be a list of 1 to 100"),
    ("ergm", {"decay": float("nan")}, "decay must be a real number in [1, 1.07374e+09]"),
    ("ergm", {"fit_burn_in": 5000}, "fit_burn_in = 5000 must be below"),
    ("shrinkage", {"seed": -1}, "seed must be an int in [0, 9.22337e+18]"),
    ("mechanisms", {"bandwidth": float("inf")}, "bandwidth must be a real number"),
    ("realnets", {"networks": []}, "networks must be a list of 1 to"),
    ("rates", {"replicates": 100_000, "sizes": [16000]}, "would take about"),
])
def test_bad_values_are_refused_before_the_first_task(tmp_path, capsys, no_work, name,
                                                      config, message):
    _refused(capsys, _run(tmp_path, name, config), message)
    assert not (tmp_path / "o").exists()


def test_the_time_limit_is_the_callers(tmp_path, capsys, no_work):
    _refused(capsys, _run(tmp_path, "pufferfish", {"length": 10**6}), "--max-hours 24")
    with pytest.raises(_Started):
        _run(tmp_path, "pufferfish", {"length": 10**6}, "--max-hours", "1000")
    # more workers share the time
    with pytest.raises(_Started):
        _run(tmp_path, "pufferfish", {"length": 10**6, "replicates": 2, "alphas": [0.1]},
             "--n-jobs", "2")
    for bad in ("0", "-1", "nan", "inf", "x"):
        with pytest.raises(SystemExit) as info:
            _run(tmp_path, "pufferfish", {}, "--max-hours", bad)
        assert info.value.code == 2


def test_a_huge_replicate_count_on_the_command_line_is_refused(tmp_path, capsys, no_work):
    code = main(["run", "shrinkage", "--replicates", str(10**12), "--out",
                 str(tmp_path / "o")])
    _refused(capsys, code, "replicates must be an int in [1, 100000]")


def test_a_huge_config_file_is_refused_unread(tmp_path, capsys, no_work):
    path = tmp_path / "c.json"
    path.write_text("{" + " " * (2 << 20) + "}")
    code = main(["run", "shrinkage", "--config", str(path), "--out", str(tmp_path / "o")])
    _refused(capsys, code, "a configuration is a few lines")
