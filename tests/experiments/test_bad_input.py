"""Bad input to the command line, property-based: every config value and argument from pools
of bad values either satisfies its declared rule and the run starts, or is refused with exit
code 2 and one line before any work; never a traceback, a hang or a silent acceptance."""

import contextlib
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tdadp.experiments._run as run_module
from tdadp.cli import main
from tdadp.experiments import ConfigError, check_config, list_experiments
from tdadp.experiments._config import resolve_config

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])

EXPERIMENTS = list_experiments()

BAD_VALUES = [
    -1, 0, 1, 2, 3, 7, 0.5, -1.0, 1.5, 1e-300, 1e12, 10**12, 10**30, 2**63, 10**400, 1e300,
    -1e300, math.inf, -math.inf, math.nan, "", "a", "1", "sbm", True, False, None, [], [1],
    [0], [-1], [0.5], [1e12], [10**9], [math.nan], [math.inf], ["x"], ["sbm"], ["karate"],
    [[1]], [None], [True], [1, 1], {"a": 1}, list(range(200)), "x" * 10_000, [0.1, 0.4],
    [2.0, math.inf], [100, 300],
]


class _Started(Exception):
    """The run passed every check and reached its first task."""


@contextlib.contextmanager
def _no_work():
    def start(*args, **kwargs):
        raise _Started

    saved = run_module.execution, run_module.run_sweep
    run_module.execution = run_module.run_sweep = start
    try:
        yield
    finally:
        run_module.execution, run_module.run_sweep = saved


def _outcome(capsys, argv):
    """"started", or the exit code after checking the one-line message."""
    with _no_work():
        try:
            code = main(argv)
        except _Started:
            capsys.readouterr()
            return "started"
        except SystemExit as exc:  # argparse's own refusals
            code = exc.code
    err = capsys.readouterr().err
    assert code == 2, f"{argv}: exit {code}: {err}"
    assert err.startswith("tdadp: error: ") and err.count("\n") == 1, f"{argv}: {err!r}"
    assert "Traceback" not in err and len(err) < 600, err
    return code


def _allowed(module, overrides):
    try:
        config = resolve_config(module.CONFIG, [overrides], experiment=module.NAME)
        check_config(module.RULES, config, experiment=module.NAME)
    except ConfigError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
@FUZZ
@given(data=st.data())
def test_bad_config_values_exit_2_in_one_line(name, data, tmp_path, capsys):
    module = EXPERIMENTS[name]
    keys = data.draw(st.lists(st.sampled_from(sorted(module.CONFIG)), min_size=1,
                              max_size=3, unique=True))
    overrides = {k: data.draw(st.sampled_from(BAD_VALUES), label=k) for k in keys}
    path = tmp_path / "c.json"
    path.write_text(json.dumps(overrides))
    outcome = _outcome(capsys, ["run", name, "--config", str(path), "--out",
                                str(tmp_path / "o"), "--no-progress"])
    if outcome == "started":
        assert _allowed(module, overrides), f"{name} accepted {overrides!r}"
    assert not (tmp_path / "o").exists()


_FLAGS = ["--replicates", "--n-jobs", "--local-cluster", "--max-hours", "--out", "--config",
          "--scheduler"]
_FLAG_VALUES = ["0", "-1", "1", "2", "1.5", "1e12", "9" * 40, "nan", "inf", "", " ", ".",
                "..", "o", "a/b", "taken.txt", "c.json", "bad.json", "missing.json", "dir",
                "x\x00y", "z" * 300, "é", "--quick"]
_SWITCHES = ["--quick", "--pdf", "--no-progress", "--unknown", "-x", "extra"]


@FUZZ
@given(name=st.sampled_from(sorted(EXPERIMENTS) + ["nope", ""]),
       options=st.lists(st.one_of(
           st.tuples(st.sampled_from(_FLAGS), st.sampled_from(_FLAG_VALUES)),
           st.tuples(st.sampled_from(_SWITCHES))), max_size=4))
def test_bad_arguments_exit_2_in_one_line(name, options, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.txt").write_text("keep")
    (tmp_path / "c.json").write_text('{"replicates": 1}')
    (tmp_path / "bad.json").write_text('{"replicates": [1, {"a": ')
    (tmp_path / "dir").mkdir(exist_ok=True)
    argv = ["run", name] + [token for option in options for token in option]
    if "--out" not in argv:
        argv += ["--out", "o"]
    _outcome(capsys, argv)
    assert (tmp_path / "taken.txt").read_text() == "keep"


@pytest.mark.parametrize("argv", [[], ["list", "x"], ["run"], ["frobnicate"], ["--help!"]])
def test_bad_commands_exit_2(argv, capsys):
    assert _outcome(capsys, argv) == 2
