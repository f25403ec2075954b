"""A run folder is written whole or not at all: interrupted runs and re-runs never leave a
table without its provenance, or one run's files beside another's."""

import json
import types
from pathlib import Path

import pytest

import tdadp.cli as cli
import tdadp.experiments._run as run_module
from tdadp.experiments import ConfigError, run_experiment
from tdadp.utils import Interval


def _fake(tag):
    """A tiny experiment whose figure is named by ``tag`` (a re-run writes another file)."""
    def make_figures(rows, config, out_dir, formats):
        path = Path(out_dir) / f"{tag}.png"
        path.write_text(tag)
        return [path]

    return types.SimpleNamespace(
        NAME="fake", SUMMARY="a fake", CONFIG={"seed": 0, "replicates": 2, "x": 1},
        RULES={"seed": [Interval("int", 0, 10, "both")],
               "replicates": [Interval("int", 1, 10, "both")],
               "x": [Interval("int", 0, 10, "both")]},
        points=lambda config: [{"x": config["x"]}],
        run_task=lambda params, config, seed: {"y": params["x"] * 2, "tag": tag},
        make_figures=make_figures)


@pytest.fixture
def fake(monkeypatch):
    state = {"module": _fake("first")}
    monkeypatch.setattr(run_module, "get_experiment", lambda name: state["module"])
    monkeypatch.setattr(cli, "get_experiment", lambda name: state["module"])
    return state


def _run(out):
    return run_experiment("fake", out=out, progress=False)


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir())}


def _leftovers(parent):
    return [p.name for p in Path(parent).iterdir() if p.name.startswith(".")]


def _boom(*args, **kwargs):
    raise RuntimeError("interrupted")


@pytest.mark.parametrize("step", ["write_table", "make_figures", "write_provenance",
                                  "keyboard"])
def test_an_interrupted_first_run_leaves_no_folder(tmp_path, fake, monkeypatch, step):
    out = tmp_path / "run"
    if step == "make_figures":
        fake["module"].make_figures = _boom
    elif step == "keyboard":
        def interrupt(*args, **kwargs):
            raise KeyboardInterrupt
        monkeypatch.setattr(run_module, "write_provenance", interrupt)
    else:
        monkeypatch.setattr(run_module, step, _boom)
    with pytest.raises((RuntimeError, KeyboardInterrupt)):
        _run(out)
    assert not out.exists() and _leftovers(tmp_path) == []


@pytest.mark.parametrize("step", ["write_table", "make_figures", "write_provenance"])
def test_an_interrupted_rerun_leaves_the_previous_run_whole(tmp_path, fake, monkeypatch,
                                                            step):
    out = tmp_path / "run"
    _run(out)
    before = _snapshot(out)
    assert set(before) == {"results.csv", "first.png", "provenance.json"}
    fake["module"] = _fake("second")
    if step == "make_figures":
        fake["module"].make_figures = _boom
    else:
        monkeypatch.setattr(run_module, step, _boom)
    with pytest.raises(RuntimeError):
        _run(out)
    assert _snapshot(out) == before and _leftovers(tmp_path) == []


def test_a_rerun_replaces_the_whole_folder(tmp_path, fake):
    out = tmp_path / "run"
    _run(out)
    fake["module"] = _fake("second")
    _, rows, figures = _run(out)
    assert set(_snapshot(out)) == {"results.csv", "second.png", "provenance.json"}
    assert figures == [out / "second.png"] and rows[0]["tag"] == "second"
    assert "second" in (out / "results.csv").read_text()
    assert json.loads((out / "provenance.json").read_text())["experiment"] == "fake"
    assert _leftovers(tmp_path) == []


def test_an_empty_folder_becomes_the_run_folder(tmp_path, fake):
    _run(tmp_path)
    assert set(_snapshot(tmp_path)) == {"results.csv", "first.png", "provenance.json"}


def test_a_folder_of_other_files_is_refused_untouched(tmp_path, fake):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "data.csv").write_text("keep me")
    with pytest.raises(ConfigError, match="holds 1 entries and is not a tdadp run folder"):
        _run(out)
    assert _snapshot(out) == {"data.csv": b"keep me"}


@pytest.mark.parametrize("out, message", [
    ("", "got an empty path"),
    ("   ", "got an empty path"),
    (".", "is the current folder or one above it"),
    ("..", "is the current folder or one above it"),
])
def test_out_must_name_a_folder_of_its_own(tmp_path, fake, monkeypatch, capsys, out,
                                           message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.txt").write_text("keep")
    monkeypatch.setattr(run_module, "run_sweep", _boom)
    assert cli.main(["run", "fake", "--out", out, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert _snapshot(tmp_path) == {"x.txt": b"keep"}
