import ast
import dataclasses
import inspect

import numpy as np
import pytest

from tdadp import EdgeFlip, edge_flip
from tdadp.dp import power_bound
from tdadp.privacy import _audit, audit, queens_example, sample_queens
from tdadp.release import LaplaceEdgeCount


class WeakFlip(EdgeFlip):
    """Flips at pi(2 eps) while its guarantee claims eps: a deliberately broken mechanism."""

    def _release_graph(self, A, rng):
        return edge_flip(A, 2 * self.epsilon, random_state=rng)


class DependentFlip(EdgeFlip):
    """Declares that its release is not randomized response on each dyad."""

    def _guarantee(self):
        return dataclasses.replace(super()._guarantee(), dyad_independent=False)


def test_edgeflip_audit_is_tight_and_never_above_the_claim(pair):
    G0, G1 = pair
    r = audit(EdgeFlip(1.0), G0, G1, n_trials=6000, random_state=0)
    assert r.method == "full mechanism"
    assert r.epsilon_claimed == 1.0
    assert 0.8 < r.epsilon_lower <= 1.0
    assert not r.violation
    assert r.epsilon_estimate == pytest.approx(1.0, abs=0.15)
    assert r.n_tests == 1 and r.deterministic == ()
    assert "Consistent with the claim" in r.describe()


def test_trusted_fast_path_agrees(pair):
    G0, G1 = pair
    r = audit(EdgeFlip(1.0), G0, G1, n_trials=3000, random_state=1, dyad_independent=True)
    assert r.method == "dyad copies (trusted)"
    assert 0.7 < r.epsilon_lower <= 1.0


@pytest.mark.parametrize("dyad_independent, method", [
    (False, "full mechanism"), (True, "dyad copies (trusted)")])
def test_weakened_mechanism_is_caught(pair, dyad_independent, method):
    G0, G1 = pair
    # The subclass inherits edgeFlip's declaration; the fast path runs its own (broken)
    # release on copies of the dyad, so it is caught on either path. A true epsilon of 2
    # claiming 1 is caught with probability 1 - 1e-13 in 1,000 trials (audit_power).
    r = audit(WeakFlip(1.0), G0, G1, n_trials=1000, random_state=2,
              dyad_independent=dyad_independent)
    assert r.method == method
    assert r.epsilon_claimed == 1.0
    assert r.epsilon_lower > 1.0 and r.violation
    assert "violated" in r.describe()


def test_fast_path_needs_the_declaration(pair):
    G0, G1 = pair
    assert DependentFlip(1.0).fit().guarantee_.dyad_independent is False
    with pytest.raises(ValueError, match="does not declare"):
        audit(DependentFlip(1.0), G0, G1, n_trials=600, dyad_independent=True)
    # Declared or not, the default runs the mechanism itself.
    for mech in (DependentFlip(1.0), EdgeFlip(1.0), LaplaceEdgeCount(1.0)):
        assert audit(mech, G0, G1, n_trials=100, random_state=5).method == "full mechanism"


def test_audit_imports_no_mechanism():
    # The fast path is decided from declared data: the audit needs no mechanism class.
    tree = ast.parse(inspect.getsource(_audit))
    modules = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert modules and not any("release" in m for m in modules)


def test_scalar_release_and_continuous_statistic(pair):
    G0, G1 = pair
    # The edge count's Laplace noise: continuous scores, threshold chosen on half the trials.
    r = audit(LaplaceEdgeCount(1.0), G0, G1, n_trials=4000, random_state=3)
    assert r.epsilon_claimed == 1.0
    assert 0.3 < r.epsilon_lower <= 1.0
    # Releasing the edge count with too little noise is caught.
    cheat = audit(LaplaceEdgeCount(4.0), G0, G1, n_trials=4000, random_state=3)
    assert cheat.epsilon_lower > 1.0


def test_custom_statistic(pair):
    G0, G1 = pair
    r = audit(EdgeFlip(1.0), G0, G1, n_trials=1500, random_state=4,
              statistic=lambda B: B.sum())
    assert r.method == "full mechanism"
    assert r.statistic == "statistic" and r.region.startswith("statistic ")
    assert 0.0 <= r.epsilon_lower <= 1.0


def test_audit_reproducible(pair):
    G0, G1 = pair
    a = audit(EdgeFlip(0.5), G0, G1, n_trials=300, random_state=7)
    b = audit(EdgeFlip(0.5), G0, G1, n_trials=300, random_state=7)
    assert a == b
    s = audit(EdgeFlip(0.5), G0, G1, n_trials=1000, random_state="secure")
    assert s.epsilon_lower <= 0.5


def test_audit_bad_input(pair):
    G0, G1 = pair
    far = G1.copy()
    far[2, 4] = far[4, 2] = 1
    with pytest.raises(ValueError, match="neighbouring"):
        audit(EdgeFlip(1.0), G0, far)
    with pytest.raises(ValueError, match="neighbouring"):
        audit(EdgeFlip(1.0), G0, G0)
    with pytest.raises(ValueError, match="same number of nodes"):
        audit(EdgeFlip(1.0), G0, np.zeros((5, 5), dtype=np.uint8))
    with pytest.raises(ValueError, match="confidence"):
        audit(EdgeFlip(1.0), G0, G1, confidence=1.0)
    with pytest.raises(ValueError, match="n_trials"):
        audit(EdgeFlip(1.0), G0, G1, n_trials=0)
    with pytest.raises(ValueError, match="n_trials"):
        audit(EdgeFlip(1.0), G0, G1, n_trials=3)
    with pytest.raises(ValueError, match="symmetric"):
        audit(EdgeFlip(1.0), G0, np.triu(G1))
    with pytest.raises(ValueError, match="statistic"):
        audit(EdgeFlip(1.0), G0, G1, n_trials=10, statistic=lambda B: np.nan)
    with pytest.raises(ValueError, match="one number per release"):
        audit(EdgeFlip(1.0), G0, G1, n_trials=10, statistic=lambda B: B[0])
    with pytest.raises(ValueError, match="not numeric"):
        audit(EdgeFlip(1.0), G0, G1, n_trials=10, statistic=lambda B: "edges")
    with pytest.raises(ValueError, match="statistic"):
        audit(EdgeFlip(1.0), G0, G1, n_trials=10, statistic="sum")


def test_queens_power_beats_edge_dp_bound_as_n_grows():
    eps, alpha = 1.0, 0.05
    bound = power_bound(eps, alpha)
    powers = [queens_example(n, eps, alpha).power for n in (4, 10, 30, 100)]
    assert all(np.diff(powers) > 0)
    assert powers[-1] > 0.99 > 5 * bound
    levels = [queens_example(n, eps, alpha).edge_level for n in (4, 10, 30)]
    assert all(np.diff(levels) > 0) and levels[0] > eps


def test_queens_simulation_matches_exact():
    r = queens_example(20, 1.0, 0.05, n_trials=1500, random_state=0)
    se = lambda p: 4 * np.sqrt(p * (1 - p) / r.n_trials)  # noqa: E731
    assert abs(r.simulated_level - 0.05) < se(0.05)
    assert abs(r.simulated_power - r.power) < se(r.power)
    assert r.power > r.power_bound
    assert "queen edge" in r.describe()


def test_queens_model_and_bad_input():
    A = sample_queens(8, 0, random_state=1)
    assert A[0, 1] == 0 and A[2:, 2:].sum() == 0 and (A == A.T).all()
    with pytest.raises(ValueError, match="alpha"):
        queens_example(10, 1.0, alpha=1.0)
    with pytest.raises(ValueError, match="epsilon"):
        queens_example(10, -1.0)
    with pytest.raises(ValueError, match="queen_edge"):
        sample_queens(5, 2)


def test_audit_takes_graphs_through_the_input_contract(pair):
    nx = pytest.importorskip("networkx")
    import scipy.sparse as sp

    from tdadp.graphs import PackedAdjacency

    G0, G1 = pair
    ref = audit(EdgeFlip(1.0), sp.csr_matrix(G0), sp.csr_matrix(G1), n_trials=100,
                random_state=0)
    # networkx graphs arrive as the CSR matrix they describe, packed graphs are released as
    # the CSR matrix they store: the same coins, the same audit.
    for H0, H1 in [(nx.from_numpy_array(G0), nx.from_numpy_array(G1)),
                   (PackedAdjacency.from_dense(G0), PackedAdjacency.from_dense(G1))]:
        r = audit(EdgeFlip(1.0), H0, H1, n_trials=100, random_state=0)
        assert r.epsilon_lower == ref.epsilon_lower
    with pytest.raises(ValueError, match="G0 must be one graph, not a batch of 2"):
        audit(EdgeFlip(1.0), [G0, G0], G1, n_trials=300, random_state=0)
    bad = G0.astype(float)
    bad[2, 3] = bad[3, 2] = 0.5
    with pytest.raises(ValueError, match="G0"):
        audit(EdgeFlip(1.0), bad, G1, n_trials=300, random_state=0)
