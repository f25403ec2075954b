"""The convergence and mechanisms experiments in the paper's and the authors' designs."""

import json

import numpy as np
import pytest

import tdadp
from tdadp.experiments import run_experiment
from tdadp.pipelines import convergence, mechanisms


@pytest.fixture(scope="module")
def convergence_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("conv")
    cfg = out / "cfg.json"
    cfg.write_text(json.dumps({"replicates": 2, "sizes": [80, 160], "epsilons": [1.0, 2.0]}))
    _, rows, figures = run_experiment("convergence", config_file=cfg, out=out / "run",
                                      progress=False)
    return out / "run", rows, figures


def test_convergence_table_carries_the_log_si_floor_beside_each_value(convergence_run):
    _, rows, _ = convergence_run
    assert len(rows) == 8
    for row in rows:
        k = np.sqrt(1 - 2 * tdadp.flip_probability(row["epsilon"]))
        assert row["si_floor"] == pytest.approx(abs(np.log(k)) / 2, rel=1e-12)
        assert row["log_k"] == pytest.approx(np.log(k), rel=1e-12)
        assert row["di_theory_scale"] == pytest.approx(1 / k, rel=1e-12)
        assert np.isfinite(row["w_si_log"]) and row["w_si_log"] >= 0
    floors = {r["epsilon"]: r["si_floor"] for r in rows}
    assert floors[1.0] == pytest.approx(0.193, abs=1e-3)
    assert floors[2.0] == pytest.approx(0.068, abs=1e-3)


def test_convergence_dilation_invariant_is_at_most_raw_and_certified(convergence_run):
    _, rows, _ = convergence_run
    for row in rows:
        # the minimum over scales includes scale 1, which is the raw distance
        assert row["w_di"] <= row["w_raw"] + 1e-12
        assert row["w_di_lower"] <= row["w_di"] + 1e-12
        assert row["w_di"] - row["w_di_lower"] <= 1e-5 + 1e-12
        # 0 when collapsing D_B onto the diagonal is best (no loop recovered at n = 80)
        assert row["di_scale"] >= 0
        # the population bias is W(D_X, k D_X) with k < 1: positive, below the loop's death
        assert 0 < row["w_bias"] < 0.4


def test_convergence_writes_slopes_and_notes_a_small_run(convergence_run):
    out, _, figures = convergence_run
    lines = (out / "convergence_slopes.csv").read_text().splitlines()
    assert lines[0].split(",")[:2] == ["epsilon", "slope_w_raw"]
    assert len(lines) == 3
    notes = json.loads((out / "provenance.json").read_text())["notes"]
    assert len(notes) == 1 and "n <= 160" in notes[0] and "16,000" in notes[0]
    assert convergence.notes({"sizes": [1000, 16000]}) == []
    assert [p.name for p in figures] == ["convergence.png"]
    assert figures[0].stat().st_size > 10_000


def test_gaussian_kernel_graph_has_the_kernel_as_edge_probabilities():
    Z = mechanisms.authors_lemniscate(12)
    x, y = Z[:, 0], Z[:, 1]
    assert np.allclose(y ** 2, x ** 2 * (1 - x ** 2))  # on the lemniscate of Gerono
    rng = np.random.default_rng(0)
    draws = 3000
    freq = np.zeros((12, 12))
    for _ in range(draws):
        A = mechanisms.gaussian_kernel_graph(Z, 0.75, rng)
        assert A.dtype == np.uint8 and (A == A.T).all() and not A.diagonal().any()
        freq += A
    dist = np.linalg.norm(Z[:, None] - Z[None], axis=-1)
    P = np.exp(-dist ** 2 / (2 * 0.75 ** 2)) / (0.75 * np.sqrt(2 * np.pi))
    np.fill_diagonal(P, 0)
    sd = np.sqrt(P * (1 - P) / draws) + 1e-12
    assert np.max(np.abs(freq / draws - P) / sd) < 5


def test_mechanisms_use_eps_log_n_and_both_adjustments(tmp_path):
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"replicates": 2, "sizes": [40, 80]}))
    _, rows, _ = run_experiment("mechanisms", config_file=cfg, out=tmp_path / "o",
                                progress=False)
    assert {(r["model"], r["n_nodes"]) for r in rows} == {
        (m, n) for m in ("gaussian_kernel", "rdpg") for n in (40, 80)}
    for row in rows:
        assert row["epsilon"] == pytest.approx(np.log(row["n_nodes"]))
        assert row["flip_edgeflip"] == pytest.approx(1 / (row["n_nodes"] + 1))
        assert row["flip_laplaceflip"] == pytest.approx(0.5 / np.sqrt(row["n_nodes"]))
    # the authors' adjustment (edgeFlip's rate) and LaplaceFlip's own rate give different
    # embeddings of the same release
    assert any(r["w_laplaceflip_authors"] != r["w_laplaceflip"] for r in rows)
