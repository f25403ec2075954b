import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logit

from tdadp import flip_probability
from tdadp.privacy import MAX_EXACT_NODES, edge_privacy_exact, latent_dependence_bound


def _upper(A):
    return A[np.triu_indices(A.shape[0], 1)]


def _independent(P):
    P = np.asarray(P)

    def prob(A):
        a = _upper(A)
        p = _upper(P)
        return float(np.prod(np.where(a == 1, p, 1 - p)))
    return prob


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("eps", [0.3, 1.0, 4.0])
def test_independent_edges_give_epsilon_and_no_dependence(n, eps):
    rng = np.random.default_rng(n)
    P = rng.uniform(0.05, 0.95, (n, n))
    P = np.triu(P, 1) + np.triu(P, 1).T
    r = edge_privacy_exact(n, _independent(P), eps)
    assert r.level == pytest.approx(eps, abs=1e-9)
    assert r.dependence == pytest.approx(0.0, abs=1e-9)
    assert r.bound == pytest.approx(eps, abs=1e-9)
    off = ~np.eye(n, dtype=bool)
    np.testing.assert_allclose(r.dyad_levels[off], eps, atol=1e-9)


def test_erdos_renyi_six_nodes_vectorized():
    def er(A):
        m = A.sum(axis=(1, 2)) // 2
        return 0.3 ** m * 0.7 ** (15 - m)
    r = edge_privacy_exact(6, er, 1.0, vectorized=True)
    assert r.level == pytest.approx(1.0, abs=1e-9)
    assert r.dependence == pytest.approx(0.0, abs=1e-9)


def _triangle_model(theta):
    def prob(A):
        tri = np.einsum("ij,jk,ki->", A, A, A) / 6
        return np.exp(theta * tri - 0.5 * A.sum() / 2)
    return prob


def test_dependent_edges_exceed_epsilon_within_lemma10():
    r = edge_privacy_exact(4, _triangle_model(2.0), 1.0)
    assert r.dependence > 0.5
    assert 1.0 + 1e-6 < r.level <= r.bound + 1e-12
    assert "weaker than epsilon" in r.describe()


def test_exact_level_by_direct_summation():
    # Independent check on 3 nodes: enumerate inputs and outputs, no fast transform.
    eps, pi = 0.7, flip_probability(0.7)
    prob = _triangle_model(1.5)
    graphs = list(itertools.product([0, 1], repeat=3))

    def adj(bits):
        A = np.zeros((3, 3), dtype=np.uint8)
        A[0, 1], A[0, 2], A[1, 2] = bits
        return A + A.T
    w = np.array([prob(adj(g)) for g in graphs])
    w /= w.sum()
    worst = 0.0
    for d in range(3):
        rows = []
        for side in (0, 1):
            sel = np.array([g[d] == side for g in graphs])
            q = w * sel / w[sel].sum()
            out = [sum(q[a] * np.prod([pi if ga != gy else 1 - pi for ga, gy in zip(g, y)])
                       for a, g in enumerate(graphs)) for y in graphs]
            rows.append(np.array(out))
        worst = max(worst, np.max(np.abs(np.log(rows[1] / rows[0]))))
    r = edge_privacy_exact(3, prob, eps)
    assert r.level == pytest.approx(worst, rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4),
       eps=st.floats(0.05, 5.0), sparsity=st.floats(0.0, 0.5))
def test_lemma10_bound_holds_for_random_priors(seed, n, eps, sparsity):
    rng = np.random.default_rng(seed)
    N = n * (n - 1) // 2
    weights = rng.exponential(size=2 ** N)
    weights[rng.random(2 ** N) < sparsity] = 0.0
    weights[[0, -1]] += 1e-3  # empty and complete graphs: every dyad is uncertain
    idx = 1 << np.arange(N)

    def prob(A):
        return weights[int(np.dot(_upper(A), idx))]
    r = edge_privacy_exact(n, prob, eps)
    assert r.level <= r.bound * (1 + 1e-12) + 1e-12
    assert r.dependence >= 0


def test_latent_dependence_bound_and_sbm_with_random_memberships():
    B = np.array([[0.6, 0.2], [0.2, 0.5]])
    bound = latent_dependence_bound(B)
    assert bound == pytest.approx(logit(0.6) - logit(0.2))
    n, weights = 4, np.array([0.3, 0.7])
    memberships = list(itertools.product([0, 1], repeat=n))

    def prob(A):
        total = 0.0
        for z in memberships:
            P = B[np.ix_(z, z)]
            total += np.prod(weights[list(z)]) * np.prod(
                np.where(_upper(A) == 1, _upper(P), 1 - _upper(P)))
        return total
    r = edge_privacy_exact(n, prob, 1.0)
    assert 0 < r.dependence <= bound
    assert r.level <= 1.0 + r.dependence + 1e-12


def test_latent_dependence_bound_infinite_and_zero():
    assert latent_dependence_bound([[0.5, 0.0], [0.0, 0.5]]) == np.inf
    assert latent_dependence_bound([0.2, 1.0]) == np.inf
    assert latent_dependence_bound([0.3, 0.3]) == 0.0
    with pytest.raises(ValueError, match="probabilities"):
        latent_dependence_bound([0.2, 1.5])


def test_certain_edges_are_skipped_and_forcing_gives_infinite_dependence():
    # Edge 01 always present; edges 02 and 12 equal to each other (a forcing dependence).
    def prob(A):
        return float(A[0, 1] == 1 and A[0, 2] == A[1, 2])
    r = edge_privacy_exact(3, prob, 1.0)
    assert np.isnan(r.dyad_levels[0, 1])
    assert r.dependence == np.inf
    assert np.isfinite(r.level) and r.level > 1.0


def test_bad_input():
    er = _independent(np.full((7, 7), 0.5))
    with pytest.raises(ValueError, match="too large"):
        edge_privacy_exact(MAX_EXACT_NODES + 1, er, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        edge_privacy_exact(3, er, -1.0)
    with pytest.raises(ValueError, match="negative"):
        edge_privacy_exact(3, lambda A: -1.0, 1.0)
    with pytest.raises(ValueError, match="callable"):
        edge_privacy_exact(3, 0.5, 1.0)
    with pytest.raises(ValueError, match="nothing is secret"):
        edge_privacy_exact(3, lambda A: float(A.sum() == 0), 1.0)
    with pytest.raises(ValueError, match="n must be at least 2"):
        edge_privacy_exact(1, er, 1.0)


# Regressions for issue 15: weights and epsilons at the extremes of the double range.

def _er(p):
    def prob(A):
        m = A.sum() // 2
        N = A.shape[0] * (A.shape[0] - 1) // 2
        return p ** m * (1 - p) ** (N - m)
    return prob


def test_weights_near_the_largest_double_do_not_overflow():
    # Issue 15: the weights' sum overflowed to inf, every normalized weight became 0 and
    # the model was reported to have no uncertain dyad.
    for weight in (1e308, 1e-320):  # the largest double and a subnormal one
        r = edge_privacy_exact(3, lambda A, w=weight: w, 1.0)
        assert r.level == pytest.approx(1.0, abs=1e-12)
        assert r.dependence == pytest.approx(0.0, abs=1e-12)
        np.testing.assert_allclose(r.dyad_levels[~np.eye(3, dtype=bool)], 1.0, atol=1e-12)


@pytest.mark.parametrize("scale", [5e306, 1e-300])
def test_level_does_not_depend_on_the_weights_scale(scale):
    # graph_probability is "up to a constant factor": the level and the dependence of a
    # dependent model (64 weights up to e^3, summing to 55: their sum overflows at 5e306)
    # are the same whatever the factor.
    ref = edge_privacy_exact(4, _triangle_model(1.5), 0.8)
    r = edge_privacy_exact(4, lambda A: scale * _triangle_model(1.5)(A), 0.8)
    assert r.level == pytest.approx(ref.level, rel=1e-12)
    assert r.dependence == pytest.approx(ref.dependence, rel=1e-9)


def test_weights_spanning_the_double_range():
    # The empty graph at 1e308, the 7 others at 1e-300 (about 2^-2010 as likely): every dyad
    # is still uncertain (P(ij) = 4e-300 / 1e308 does not round 1 - P(ij) to 0). Given a
    # non-empty rest ij is as likely present as absent (log-odds 0), against marginal
    # log-odds log(4e-300 / 1e308): a = log(1e308) - log(1e-300) - log(4).
    prob = lambda A: 1e308 if A.sum() == 0 else 1e-300  # noqa: E731
    r = edge_privacy_exact(3, prob, 1.0)
    assert np.isfinite(r.level) and r.level > 1.0
    assert r.level <= r.bound
    assert r.dependence == pytest.approx(np.log(1e308) - np.log(1e-300) - np.log(4),
                                         rel=1e-12)
    assert r.level <= r.bound


@pytest.mark.parametrize("eps", [800.0, 1e5, 1e299, 1e300, 1e301, 1e308])
def test_large_epsilon_gives_the_exact_level_not_inf(eps):
    # Issue 15: at eps = 800, exp(eps) overflowed, pi became 0 and the level inf.
    r = edge_privacy_exact(3, _er(0.3), eps)
    assert r.level == pytest.approx(eps, rel=1e-12)
    assert np.isfinite(r.level)


def test_large_epsilon_is_continuous_in_epsilon():
    # With dependent edges the level exceeds eps by an amount that converges (like e^-eps)
    # as eps grows; it does not jump when pi = 1/(1 + e^eps) underflows (eps > 745).
    excess = [edge_privacy_exact(3, _triangle_model(2.0), eps).level - eps
              for eps in (40.0, 800.0)]
    assert excess[0] > 0.5
    assert excess[1] == pytest.approx(excess[0], abs=1e-9)
    # A forcing dependence doubles the level: the same factor on both sides of 1e300, where
    # the computation switches to Hamming distances.
    forcing = lambda A: float(A[0, 1] == 1 and A[0, 2] == A[1, 2])  # noqa: E731
    for eps in (50.0, 1e299, 1e301):
        assert edge_privacy_exact(3, forcing, eps).level == pytest.approx(2 * eps, rel=1e-12)
    assert edge_privacy_exact(3, forcing, np.inf).level == np.inf


@pytest.mark.parametrize("output, match", [
    (lambda A: "0.5", "real numbers"),
    (lambda A: None, "real numbers"),
    (lambda A: 0.5 + 1j, "real numbers"),
    (lambda A: [0.5, 0.5], "one number per graph"),
    (lambda A: np.nan, "finite"),
    (lambda A: np.inf, "finite"),
    (lambda A: float("-inf"), "finite"),
])
def test_outputs_it_cannot_handle_are_refused_clearly(output, match):
    with pytest.raises(ValueError, match=match):
        edge_privacy_exact(3, output, 1.0)
