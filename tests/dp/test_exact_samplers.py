"""The exact integer samplers the privacy guarantees rest on (tdadp.dp._sampling)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from tdadp.dp import add_noise, calibrate_noise
from tdadp.dp._sampling import (
    _geometric_exp_py,
    bernoulli_exp,
    discrete_laplace,
    geometric_exp,
    rational_scale,
)
from tdadp.utils import OSRandom

P_MIN = 1e-6


@pytest.mark.parametrize("rng", [np.random.default_rng(0), OSRandom()], ids=["pcg", "os"])
@pytest.mark.parametrize("num, den", [(0, 1), (3, 10), (1, 1), (5, 2), (7, 1)])
def test_bernoulli_exp_has_the_exact_rate(rng, num, den):
    n = 200_000
    k = int(bernoulli_exp(rng, np.full(n, num), den).sum())
    p = math.exp(-num / den)
    if num == 0:
        assert k == n
    else:
        assert stats.binomtest(k, n, p).pvalue > P_MIN


def _chi2_pvalue(draws, pmf, support):
    observed = np.array([np.sum(draws == z) for z in support] + [0])
    expected = np.array([pmf(z) for z in support])
    observed[-1] = draws.size - observed[:-1].sum()
    expected = np.r_[expected, 1 - expected.sum()] * draws.size
    keep = expected > 5
    obs, exp = observed[keep], expected[keep]
    return stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue


@pytest.mark.parametrize("scale", [0.7, 3.2])
def test_geometric_and_discrete_laplace_have_their_laws(scale):
    rng = np.random.default_rng(1)
    t, s = rational_scale(scale)
    q = math.exp(-s / t)                       # ratio of the geometric law
    y = geometric_exp(rng, t, s, 100_000)
    assert _chi2_pvalue(y, lambda k: (1 - q) * q ** k, range(40)) > P_MIN
    z = discrete_laplace(rng, t, s, 100_000)
    assert _chi2_pvalue(z, lambda k: (1 - q) / (1 + q) * q ** abs(k), range(-40, 41)) > P_MIN


def test_python_integer_path_has_the_same_law():
    # Parameters beyond int64 (as at eps = 1e-100 or 1e300) take the Python-integer path;
    # with the ratio of scale 1.5 its law is measurable.
    t, s = 3 << 70, 1 << 71
    rng = np.random.default_rng(2)
    y = np.array([_geometric_exp_py(rng, t, s) for _ in range(20_000)])
    q = math.exp(-s / t)
    assert _chi2_pvalue(y, lambda k: (1 - q) * q ** k, range(30)) > P_MIN
    z = discrete_laplace(rng, t, s, 20_000)
    assert z.dtype == np.int64
    assert _chi2_pvalue(z, lambda k: (1 - q) / (1 + q) * q ** abs(k), range(-30, 31)) > P_MIN


def test_huge_scales_give_python_integers_of_the_right_size():
    t, s = rational_scale(Fraction(10) ** 100)
    z = discrete_laplace(np.random.default_rng(3), t, s, 400)
    assert z.dtype == object
    # |Z| / scale is about Exp(1) (up to the 1/scale lattice).
    ratio = np.array([abs(int(v)) / 1e100 for v in z])
    assert stats.kstest(ratio, stats.expon().cdf).pvalue > P_MIN


@pytest.mark.parametrize("value", [0.3, 1.0, 2.0 ** 40 + 0.5, 1e-200, 1e200,
                                   Fraction(1, 3), Fraction(10) ** 400, Fraction(1, 10 ** 400)])
def test_rational_scale_rounds_in_the_asked_direction(value):
    up, down = rational_scale(value, round="up"), rational_scale(value, round="down")
    exact = Fraction(value)
    assert Fraction(*down) <= exact <= Fraction(*up)
    assert Fraction(*up) - Fraction(*down) <= exact * Fraction(1, 2 ** 29)
    with pytest.raises(ValueError, match="positive"):
        rational_scale(0)


def test_os_random_integers_are_exact_and_checked():
    r = OSRandom()
    x = r.integers(0, 7, size=140_000)
    assert x.min() == 0 and x.max() == 6
    assert stats.chisquare(np.bincount(x, minlength=7)).pvalue > P_MIN
    big = r.integers(0, np.array([1, 2 ** 62, 2 ** 63 - 1]))
    assert big[0] == 0 and 0 <= big[1] < 2 ** 62 and 0 <= big[2] < 2 ** 63 - 1
    assert isinstance(r.integers(5), int) and len(r.bytes(9)) == 9
    with pytest.raises(ValueError, match="high must be greater"):
        r.integers(3, 3)


def test_laplace_noise_lives_on_its_grid_and_discrete_noise_never_overflows():
    rng = np.random.default_rng(4)
    c = calibrate_noise(2.0, 1.0, "laplace")          # grid 2^-29 for sensitivity 2
    out = add_noise(np.arange(1000.0), c, rng)
    assert np.all(np.ldexp(out, 29) == np.rint(np.ldexp(out, 29)))
    c = calibrate_noise(1.0, 1e-100, "discrete")
    z = add_noise(np.array([5, 6]), c, rng)
    assert z.dtype == object and all(isinstance(v, int) for v in z)
    assert isinstance(add_noise(5, calibrate_noise(1.0, 1.0, "discrete"), rng), int)
    with pytest.raises(ValueError, match="integer statistics only"):
        calibrate_noise(1.0, 1.0, "discrete", integer=False)
    with pytest.raises(ValueError, match="declared integer-valued"):
        add_noise(np.array([0.5]), calibrate_noise(1.0, 1.0, "laplace"), rng)


@pytest.mark.parametrize("integer,value", [(True, [1.0, 3.0]), (False, [1.0, 2.5])])
def test_a_grid_finer_than_float_range_is_exact_not_an_overflow(integer, value):
    # Issue 26: sensitivity 1e-300 puts the grid at 2^-1027, where a value of 1 is beyond
    # float range in grid units; np.ldexp overflowed and int(inf) raised OverflowError.
    c = calibrate_noise(1e-300, 1.0, "laplace", integer)
    out = add_noise(np.array(value), c, np.random.default_rng(0))
    assert np.isfinite(out).all() and np.allclose(out, value, rtol=0, atol=1e-250)
