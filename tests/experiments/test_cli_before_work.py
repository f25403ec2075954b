"""The CLI checks the output folder, the config and the memory before any work starts."""

import pytest

import tdadp.experiments._run as run_module
from tdadp.cli import main


@pytest.fixture
def no_work(monkeypatch):
    """Fail the test if a sweep starts: every refusal below must come before any work."""
    def sweep(*args, **kwargs):
        raise AssertionError("the sweep started before the run was refused")

    monkeypatch.setattr(run_module, "run_sweep", sweep)


def _refused(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tdadp: error: ") and message in err
    return err


def test_out_at_an_existing_file_is_refused_before_the_sweep(tmp_path, capsys, no_work):
    target = tmp_path / "results.csv"
    target.write_text("keep me")
    _refused(capsys, ["run", "mechanisms", "--quick", "--out", str(target)],
             "is an existing file, not a folder")
    assert target.read_text() == "keep me"


def test_out_in_an_unwritable_place_is_refused_before_the_sweep(tmp_path, capsys, no_work):
    blocker = tmp_path / "file"
    blocker.write_text("")
    _refused(capsys, ["run", "mechanisms", "--quick", "--out", str(blocker / "sub")],
             "is not a writable folder")


def test_non_utf8_config_is_one_line(tmp_path, capsys, no_work):
    config = tmp_path / "latin1.toml"
    config.write_bytes("sizes = [100]\n# café\n".encode("latin-1"))
    _refused(capsys, ["run", "mechanisms", "--quick", "--config", str(config), "--out",
                      str(tmp_path / "o")], "is not UTF-8 text (byte 0xe9")


@pytest.mark.parametrize("experiment, settings", [
    ("mechanisms", "sizes = [100, 300]\nn_components = 200\n"),
    ("convergence", "sizes = [100, 200]\nn_components = 100\n"),
])
def test_more_components_than_nodes_is_refused(tmp_path, capsys, no_work, experiment,
                                               settings):
    config = tmp_path / "c.toml"
    config.write_text(settings)
    _refused(capsys, ["run", experiment, "--config", str(config), "--out",
                      str(tmp_path / "o")], "must be below the number of nodes")


def test_sizes_beyond_memory_are_refused_up_front(tmp_path, capsys, no_work):
    # n = 100,000 nodes dense needs about 100 GB (10 bytes per n^2, measured): refused with the
    # need, the limit and the binding source, not a MemoryError traceback.
    config = tmp_path / "big.toml"
    config.write_text("sizes = [100000]\n")
    err = _refused(capsys, ["run", "convergence", "--config", str(config), "--out",
                            str(tmp_path / "o")], "would need about 100 GB")
    assert "bound by" in err and not (tmp_path / "o").exists()


def test_parallel_jobs_multiply_the_memory_a_run_needs(monkeypatch):
    module = run_module.get_experiment("mechanisms")
    config = run_module.experiment_config(module)
    seen = []
    monkeypatch.setattr(run_module, "check_memory",
                        lambda need, what, hint="", fraction=0.5: seen.append(need))
    run_module.check_run_memory(module, config, workers=1)
    run_module.check_run_memory(module, config, workers=3)
    run_module.check_run_memory(module, config, workers=0)  # a remote cluster: not ours
    assert len(seen) == 2 and seen[1] == pytest.approx(3 * seen[0])
