"""Every initial distribution at once ("any" start): the supremum over the simplex is taken at
its vertices, checked against a grid of the simplex; the interval family with any start covers
its chains; the paper's mixing convention for MQMApprox."""

from itertools import product

import numpy as np
import pytest

from tdadp.pufferfish import (
    BinaryIntervalFamily,
    MQMApprox,
    chain_mixing,
    gk16_scale,
    mqm_approx_scale,
    mqm_exact_scale,
)
from tdadp.pufferfish._exact_scale import exact_tables, family_tables
from tdadp.pufferfish._theta import parse_thetas


def _simplex_grid(k, steps):
    """Every pmf on k states with entries in multiples of 1/steps (vertices included)."""
    out = []
    for c in product(range(steps + 1), repeat=k - 1):
        if sum(c) <= steps:
            out.append(np.array(list(c) + [steps - sum(c)], dtype=float) / steps)
    return out


def _chain(q, P):
    return parse_thetas((q, P))[1][0]


@pytest.mark.parametrize("k", [2, 3])
def test_any_start_is_the_supremum_over_a_grid_of_the_simplex(k):
    """At every node and quilt, the influence under "any" equals the largest influence over a
    grid of initial distributions (it is reached at a vertex, in the grid), and never less."""
    rng = np.random.default_rng(40 + k)
    T = 7
    for _ in range(3):
        P = rng.dirichlet(np.ones(k), size=k) * 0.9 + 0.1 / k     # every transition possible
        anyt = exact_tables(_chain("any", P), T, T - 1)
        grid = [exact_tables(_chain(q, P), T, T - 1) for q in _simplex_grid(k, 6)]
        for i in range(2, T + 1):
            got = anyt.node(i)[:3]
            per_q = [g.node(i)[:3] for g in grid]
            for j in range(3):
                best = np.max([t[j] for t in per_q], axis=0)
                finite = np.isfinite(best)
                assert np.array_equal(finite, np.isfinite(got[j]))
                assert np.allclose(got[j][finite], best[finite], rtol=1e-12, atol=1e-12)
        # the class's score: each node's quilt is chosen for the worst start, so it is at least
        # the largest score of any single start
        for eps in (0.5, 2.0):
            s_any = mqm_exact_scale(("any", P), T, eps).score
            s_grid = max(mqm_exact_scale((q, P), T, eps).score
                         for q in _simplex_grid(k, 6) if (q > 0).sum() >= 2)
            assert s_any >= s_grid * (1 - 1e-12)


def test_any_start_interior_never_exceeds_the_vertices():
    """Random interior starts never beat the vertex maximum (a linear-fractional function on
    the simplex), at every node of a 3-state chain."""
    rng = np.random.default_rng(7)
    P = rng.dirichlet(np.ones(3), size=3)
    T = 12
    anyt = exact_tables(_chain("any", P), T, T - 1)
    for q in rng.dirichlet(np.full(3, 0.3), size=40):
        tab = exact_tables(_chain(q, P), T, T - 1)
        for i in range(2, T + 1):
            for got, mine in zip(tab.node(i)[:3], anyt.node(i)[:3]):
                assert np.all(got <= mine + 1e-12)


def test_family_any_start_tables_at_a_point_are_the_chain_tables():
    """A cell shrunk to one chain gives that chain's exact "any"-start influences."""
    T = 25
    for p, q in [(0.3, 0.8), (0.75, 0.6), (0.2, 0.25), (0.9, 0.9)]:
        P = np.array([[p, 1 - p], [1 - q, q]])
        fam = family_tables(p, p, q, q, T, T - 1, start="any")
        exact = exact_tables(_chain("any", P), T, T - 1)
        for i in range(1, T + 1):
            want = exact.node(i)[:3]
            if i < fam.tail_from:
                got = fam.node(i)[:3]
            else:       # the shared bound of the nodes far from the start: 1e-12 above
                A, B = min(i - 1, T - 1), min(T - i, T - 1)
                got = fam.E2[:A + 1, :B + 1], fam.EF[:B + 1], fam.EB[:A + 1]
                for a, b in zip(got, want):
                    assert np.all(a >= b - 1e-12)
            for a, b in zip(got, want):
                assert np.allclose(a, b, rtol=1e-9, atol=1e-9, equal_nan=False)


@pytest.mark.parametrize("alpha", [0.15, 0.3])
def test_family_any_start_cover_bounds_every_chain(alpha):
    T = 30
    for eps in (0.2, 1.0, 5.0):
        fam = BinaryIntervalFamily(alpha, cells=8, start="any")
        res = mqm_exact_scale(fam, T, eps)
        assert res.lower_score <= res.score
        stationary = mqm_exact_scale(BinaryIntervalFamily(alpha, cells=8), T, eps)
        assert res.score >= stationary.score
        assert res.lower_score >= stationary.lower_score * (1 - 1e-12)
        rng = np.random.default_rng(int(100 * alpha + eps))
        for p, q in rng.uniform(alpha, 1 - alpha, size=(12, 2)):
            chain = ("any", [[p, 1 - p], [1 - q, q]])
            assert mqm_exact_scale(chain, T, eps).score <= res.score * (1 + 1e-12)
        # MQMApprox's bound holds for every start: the same scale, still above MQMExact's
        assert mqm_approx_scale(fam, T, eps).score == mqm_approx_scale(
            BinaryIntervalFamily(alpha, cells=8), T, eps).score >= res.score


def test_family_any_start_gk16_bounds_every_chain():
    fam = BinaryIntervalFamily(0.4, cells=6, start="any")
    res = gk16_scale(fam, 50, 1.0)
    assert res.applicable
    rng = np.random.default_rng(3)
    for p, q in rng.uniform(0.4, 0.6, size=(20, 2)):
        assert gk16_scale(("any", [[p, 1 - p], [1 - q, q]]), 50, 1.0).score <= res.score


def test_paper_gap_convention():
    P = [[0.9, 0.1], [0.4, 0.6]]                       # the running example's first chain
    assert chain_mixing(P, gap="paper") == pytest.approx((0.2, 0.75))
    assert chain_mixing(P) == pytest.approx((0.2, 0.5))
    rng = np.random.default_rng(9)
    for _ in range(12):
        k = int(rng.integers(2, 5))
        P = rng.dirichlet(np.ones(k), size=k) * 0.9 + 0.1 / k
        s2 = np.linalg.svd(np.diag(np.sqrt(_stationary(P))) @ P
                           @ np.diag(1 / np.sqrt(_stationary(P))), compute_uv=False)[1]
        assert chain_mixing(P, gap="paper")[1] == pytest.approx(1 - s2 ** 2)
        T, eps = int(rng.integers(10, 80)), float(rng.choice([0.2, 1.0, 5.0]))
        paper = mqm_approx_scale(("stationary", P), T, eps, gap="paper").score
        ours = mqm_approx_scale(("stationary", P), T, eps).score
        exact = mqm_exact_scale(("stationary", P), T, eps).score
        assert paper >= ours * (1 - 1e-12) >= exact * (1 - 1e-12)
    # the interval family: g = 1 - (1 - 2 alpha)^2, the eigengap of P P* at p + q - 1 = +-(1 - 2a)
    fam = BinaryIntervalFamily(0.2)
    paper = MQMApprox(fam, 1.0, length=100, gap="paper").fit()
    assert "g = 0.64" in paper.scale_result_.reason
    assert paper.score_ > MQMApprox(fam, 1.0, length=100).fit().score_


def _stationary(P):
    w, v = np.linalg.eig(np.asarray(P).T)
    pi = np.real(v[:, np.argmin(np.abs(w - 1))])
    return pi / pi.sum()


def test_family_any_start_shared_tail_matches_node_by_node(monkeypatch):
    """The nodes far from the start share one bound of the marginal's term (|lam^t| below
    1e-12): the same score as searching every node with its own, never below it."""
    import tdadp.pufferfish._exact_scale as es

    for alpha, T, eps in [(0.4, 150, 1.0), (0.3, 120, 5.0), (0.35, 200, 0.2)]:
        fam = BinaryIntervalFamily(alpha, cells=3, start="any")
        shared = mqm_exact_scale(fam, T, eps)
        monkeypatch.setattr(es, "_TAIL_POWER", 0.0)
        alone = mqm_exact_scale(fam, T, eps)
        monkeypatch.undo()
        assert shared.score >= alone.score * (1 - 1e-12)
        assert shared.score == pytest.approx(alone.score, rel=1e-9)
        assert shared.lower_score == pytest.approx(alone.lower_score, rel=1e-9)


def _exact_level(fam, eps, T):
    from tdadp.pufferfish import MQMExact, chain_histogram_privacy_exact

    scale = MQMExact(fam, eps, length=T).fit().noise_scale_
    grid = np.linspace(fam.alpha, 1 - fam.alpha, 4)
    thetas = [(np.array([s, 1 - s]), [[p, 1 - p], [1 - q, q]])
              for s in (0.0, 0.01, 0.3, 0.5, 0.99, 1.0) for p in grid for q in grid]
    return max(chain_histogram_privacy_exact(thetas[j:j + 8], T, scale)
               for j in range(0, len(thetas), 8))


@pytest.mark.parametrize("alpha,eps", [(0.3, 5.0), (0.4, 5.0), (0.25, 2.0)])
def test_family_any_start_release_is_private_for_every_start(alpha, eps):
    """The exact Pufferfish level of MQMExact's release for the class with every start, on
    chains of the class started anywhere on the simplex (point masses included), is within
    eps."""
    level = _exact_level(BinaryIntervalFamily(alpha, cells=3, start="any"), eps, 7)
    assert level <= eps * (1 + 1e-9)


def test_stationary_class_noise_is_not_enough_for_every_start():
    """The noise of the class with stationary starts breaks eps for some start: level 5.06 at
    alpha = 0.4, eps = 5, T = 7 (the every-start class's noise: 4.6)."""
    assert _exact_level(BinaryIntervalFamily(0.4, cells=3), 5.0, 7) > 5.0
