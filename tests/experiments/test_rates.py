"""The rates experiment's predicted inflation, against a direct computation."""

import numpy as np
import pytest

import tdadp
from tdadp.pipelines.rates import theory_inflation, variance_inflation


@pytest.mark.parametrize("eps", [0.5, 1.0, 4.0])
def test_variance_inflation_is_the_root_mean_variance_ratio(eps):
    X = np.asarray(tdadp.circle(120, random_state=1))
    P = X @ X.T
    off = ~np.eye(len(X), dtype=bool)
    pi = tdadp.flip_probability(eps)
    q = (1 - 2 * pi) * P + pi
    direct = np.sqrt(np.mean((q * (1 - q))[off]) / np.mean((P * (1 - P))[off])) / (1 - 2 * pi)
    assert variance_inflation(X, eps) == pytest.approx(direct, rel=1e-10)
    # the flips' variance only adds to the rescaling (P is below 1/2 on this circle)
    assert variance_inflation(X, eps) > theory_inflation(eps) == pytest.approx(
        (np.exp(eps) + 1) / (np.exp(eps) - 1), rel=1e-12)
