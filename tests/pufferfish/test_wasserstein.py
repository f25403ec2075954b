from itertools import product
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdadp.pufferfish import (
    WassersteinMechanism,
    infinity_wasserstein,
    secret_pair_distributions,
    wasserstein_mechanism,
)


def flu_clique(P_N):
    D = np.array(list(product([0, 1], repeat=4)))
    N = D.sum(1)
    w = np.asarray(P_N)[N] / np.array([comb(4, k) for k in N])
    return D, w


def test_flu_clique_gives_scale_two_against_four_for_group_dp():
    D, w = flu_clique([0.1, 0.15, 0.5, 0.15, 0.1])
    pairs = secret_pair_distributions(D, w, lambda D: D.sum(1))
    assert len(pairs) == 4
    values, p_not, p_inf = pairs[0]   # pairs are (record = 0, record = 1)
    # P(N | person infected) is proportional to k P(N = k); not infected: (4 - k) P(N = k).
    np.testing.assert_allclose(p_inf, [0, 0.075, 0.5, 0.225, 0.2])
    np.testing.assert_allclose(p_not, [0.2, 0.225, 0.5, 0.075, 0])
    mech = WassersteinMechanism(epsilon=0.5).fit(pairs)
    # W / eps, rounded up by at most 2^-30 relative: the real statistic is put on a grid of
    # 2^-30 W, and rounding to it can move neighbours one grid unit further apart.
    assert mech.sensitivity_ == 2.0 and 4.0 <= mech.noise_scale_ <= 4.0 * (1 + 2 ** -29)
    # Group DP over the correlated clique: all 4 records may change, the count by 4.
    group = max(abs(a.sum() - b.sum()) for a in D for b in D)
    assert group == 4 and mech.sensitivity_ < group
    g = mech.guarantee_
    assert g.definition == "Pufferfish privacy" and "Pufferfish" in g.describe()


def test_independent_records_recover_dp_sensitivity():
    D = np.array(list(product([0, 1], repeat=4)))
    w = np.prod(np.where(D == 1, 0.3, 0.7), axis=1)
    pairs = secret_pair_distributions(D, w, lambda D: D.sum(1))
    assert WassersteinMechanism(1.0).fit(pairs).sensitivity_ == 1.0


def _quantile_grid_distance(values, p, q, m=20001):
    u = (np.arange(m) + 0.5) / m
    Fp, Fq = np.cumsum(p), np.cumsum(q)
    qp = values[np.minimum(np.searchsorted(Fp, u), len(values) - 1)]
    qq = values[np.minimum(np.searchsorted(Fq, u), len(values) - 1)]
    return np.max(np.abs(qp - qq))


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 8))
def test_infinity_wasserstein_properties(seed, m):
    rng = np.random.default_rng(seed)
    values = np.sort(rng.choice(50, m, replace=False)).astype(float)
    p = rng.dirichlet(np.ones(m)).round(3)
    p[-1] = 1 - p[:-1].sum()
    q = rng.dirichlet(np.ones(m)).round(3)
    q[-1] = 1 - q[:-1].sum()
    if (p < 0).any() or (q < 0).any():
        return
    d = infinity_wasserstein(values, p, q)
    assert d == infinity_wasserstein(values, q, p)
    assert infinity_wasserstein(values, p, p) == 0.0
    # Exact on masses that are multiples of 1e-3: a fine grid of quantiles finds it.
    assert d == _quantile_grid_distance(values, p, q)
    # Between the supports' extremes, and shift-equivariant.
    assert d <= values[-1] - values[0]
    both = np.concatenate([values, values + 100])
    assert infinity_wasserstein(both, np.concatenate([p, 0 * p]),
                                np.concatenate([0 * q, p])) == 100.0


def test_release_and_bad_input():
    pairs = [([0.0, 1.0], [1.0, 0.0], [0.0, 1.0])]
    assert wasserstein_mechanism(3.0, pairs, np.inf) == 3.0
    out = WassersteinMechanism(1.0, random_state=0).fit(pairs).transform(np.zeros(1000))
    assert out.shape == (1000,) and np.mean(np.abs(out)) == pytest.approx(1.0, rel=0.15)
    with pytest.raises(ValueError, match="increasing"):
        infinity_wasserstein([1, 0], [0.5, 0.5], [0.5, 0.5])
    with pytest.raises(ValueError, match="sum to 1"):
        infinity_wasserstein([0, 1], [0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match="one probability per value"):
        infinity_wasserstein([0, 1], [1.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="epsilon"):
        WassersteinMechanism(-1.0).fit(pairs)
    with pytest.raises(ValueError, match="triple"):
        WassersteinMechanism(1.0).fit([([0, 1], [1, 0])])
    with pytest.raises(ValueError, match="fitted"):
        WassersteinMechanism(1.0).transform(1.0)
    with pytest.raises(ValueError, match="one value per database"):
        secret_pair_distributions(np.zeros((4, 2)), np.ones(4), lambda D: D)
