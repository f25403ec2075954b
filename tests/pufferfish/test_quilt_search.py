"""The position-free search's shortcut (Lemma 4.9 without assuming the middle node is the
worst) against evaluating every node."""

import numpy as np
import pytest

from tdadp.pufferfish import mqm_approx_scale, mqm_exact_scale
from tdadp.pufferfish._approx_scale import approx_tables
from tdadp.pufferfish._quilt_search import (
    InfluenceTables,
    Objective,
    _fixed_node_values,
    _worst_fixed_node,
    score_objective,
)


def _every_node(tab, objective):
    values = _fixed_node_values(tab, objective)
    top = values.max()
    tied = np.flatnonzero(values >= top - 1e-12 * abs(top)) + 1
    i = int(tied[np.argmin(np.abs(tied - (tab.T + 1) / 2))])
    return i, values[i - 1]


def _random_tables(rng, T, L):
    EF = np.concatenate([[-np.inf], np.sort(rng.exponential(1.0, L))[::-1]])
    EB = np.concatenate([[-np.inf], np.sort(rng.exponential(1.0, L))[::-1]])
    if rng.random() < 0.3:                 # flat tables: long runs of tied nodes
        EF[1:] = np.round(EF[1:], 1)
        EB[1:] = EF[1:]
    E2 = EB[:, None] + EF[None, :]
    if rng.random() < 0.5:
        E2[1:, 1:] += rng.exponential(0.2, (L, L))
    return InfluenceTables(T, L, E2, EF, EB)


def test_worst_node_matches_every_node():
    rng = np.random.default_rng(0)
    compose = Objective(lambda e, card: np.where(np.isneginf(e), 0.0, e + 0.03 * card),
                        lambda v: v / 0.03)
    for trial in range(300):
        T = int(rng.integers(2, 400))
        L = int(rng.integers(0, T))
        tab = _random_tables(rng, T, L)
        for objective in (score_objective(float(rng.choice([0.2, 1.0, 5.0]))), compose):
            want, top = _every_node(tab, objective)
            got = _worst_fixed_node(tab, objective)
            assert got == want, (trial, T, L)
            assert _fixed_node_values(tab, objective, [got])[0] == top


@pytest.mark.parametrize("T,L", [(1000, 40), (999, 100), (300, 149), (5000, 7)])
def test_worst_node_on_mixing_bounds(T, L):
    for eps in (0.2, 1.0, 5.0):
        for pi_min, rate in ((0.2, 0.5), (0.05, 0.1), (0.5, 2.0)):
            tab = approx_tables(pi_min, rate, T, L, 2)
            objective = score_objective(eps)
            assert _worst_fixed_node(tab, objective) == _every_node(tab, objective)[0]


def test_long_chains_scales_unchanged():
    P = [[0.9, 0.1], [0.4, 0.6]]
    res = mqm_approx_scale(("stationary", P), 100, 1.0)
    assert (round(res.score, 4), res.per_theta[0].node, res.per_theta[0].quilt) == \
        (23.506, 50, (39, 60))
    big = mqm_exact_scale(("stationary", P), 200_000, 1.0, max_quilt=50)
    assert big.per_theta[0].node == 100_000
