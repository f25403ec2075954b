import numpy as np
import pytest

from tdadp import EdgeFlip, LaplaceFlip, flip_probability
from tdadp.dp import PrivacyGuarantee, compose, posterior_bound, power_bound
from tdadp.release import DegreeSequence, LaplaceEdgeCount, ProjectedCount


@pytest.mark.parametrize("eps", [0.0, 0.1, 1.0, 3.0])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.5, 0.9])
def test_power_bound_closed_form(eps, alpha):
    expected = min(np.exp(eps) * alpha, 1 - np.exp(-eps) * (1 - alpha))
    assert power_bound(eps, alpha) == pytest.approx(expected, rel=1e-12)


def test_power_bound_is_attained_by_randomized_response():
    # edgeFlip's dyad test: reject when the released dyad is 1. Level pi, power 1 - pi.
    eps = 1.3
    pi = flip_probability(eps)
    assert power_bound(eps, pi) == pytest.approx(1 - pi, rel=1e-12)


def test_power_bound_limits_and_arrays():
    assert power_bound(np.inf, 0.05) == 1.0
    assert power_bound(1000.0, 0.05) == 1.0
    np.testing.assert_allclose(power_bound([0.0, 1.0], 0.05), [0.05, np.e * 0.05])


@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1, 1.5, np.nan])
def test_power_bound_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        power_bound(1.0, alpha)


@pytest.mark.parametrize("eps", [-1.0, np.nan])
def test_bounds_bad_epsilon(eps):
    with pytest.raises(ValueError, match="epsilon"):
        power_bound(eps, 0.05)
    with pytest.raises(ValueError, match="epsilon"):
        posterior_bound(eps, 0.5)


@pytest.mark.parametrize("eps", [0.0, 0.5, 2.0])
@pytest.mark.parametrize("prior", [0.0, 0.01, 0.3, 0.5, 1.0])
def test_posterior_bound_closed_form(eps, prior):
    up = np.exp(eps) * prior / (1 - prior + np.exp(eps) * prior)
    low = prior / (prior + np.exp(eps) * (1 - prior))
    assert posterior_bound(eps, prior) == pytest.approx(up, abs=1e-15)
    assert posterior_bound(eps, prior, direction="lower") == pytest.approx(low, abs=1e-15)
    # Bayes with the extreme likelihood ratio e^eps gives exactly the bound.
    assert low <= prior <= up


def test_posterior_bound_bad_input():
    with pytest.raises(ValueError, match="prior"):
        posterior_bound(1.0, 1.2)
    with pytest.raises(ValueError, match="direction"):
        posterior_bound(1.0, 0.5, direction="both")
    assert posterior_bound(np.inf, 0.2) == 1.0
    assert posterior_bound(np.inf, 0.0) == 0.0


def test_guarantee_reads_in_words_and_numbers():
    g = EdgeFlip(2.0).fit().guarantee_
    text = g.describe()
    assert "2-edge-local differential privacy" in text
    assert "Not protected" in text and "dependent" in text
    assert f"{power_bound(2.0, 0.05):.4g}" in text
    assert g.power_bound(0.05) == power_bound(2.0, 0.05)
    assert g.posterior_bound(0.5) == posterior_bound(2.0, 0.5)
    central = LaplaceEdgeCount(0.5).fit().guarantee_
    assert "0.5-edge differential privacy" in central.describe()
    assert central.sensitivity == 1.0 and central.noise_scale == 2.0
    assert "no privacy" in EdgeFlip(np.inf).fit().guarantee_.describe()
    # The old constructor keywords keep working.
    old = PrivacyGuarantee(mechanism="M", epsilon=1.0, unit="edge", local=True,
                           flip_probability=0.25)
    assert "1-edge-local differential privacy" in str(old)


def test_restricted_guarantee_says_so():
    g = ProjectedCount("triangles", max_degree=4).fit().guarantee_
    assert g.restriction == "graphs of maximum degree at most 4"
    assert "maximum degree at most 4" in g.describe()


def test_compose_sums_epsilons():
    total = compose([EdgeFlip(1.0), LaplaceFlip(0.5).fit(),
                     DegreeSequence(0.25).fit().guarantee_])
    assert total.epsilon == pytest.approx(1.75)
    assert not total.local
    assert len(total.components) == 3
    assert "Basic composition" in total.describe()
    nested = compose([total, LaplaceEdgeCount(0.25)])
    assert nested.epsilon == pytest.approx(2.0) and len(nested.components) == 4
    assert compose([EdgeFlip(1.0), EdgeFlip(1.0)]).local
    assert compose([EdgeFlip(1.0), EdgeFlip(np.inf)]).epsilon == np.inf


def test_compose_does_not_fit_callers_mechanism():
    mech = EdgeFlip(1.0)
    compose([mech])
    assert not hasattr(mech, "guarantee_")


def test_compose_bad_input():
    with pytest.raises(ValueError, match="at least one"):
        compose([])
    with pytest.raises(ValueError, match="compose expects"):
        compose([1.0])
    with pytest.raises(ValueError, match="different"):
        compose([EdgeFlip(1.0), ProjectedCount("triangles", max_degree=3)])


def test_approximate_dp_power_bound_and_composition_add_delta():
    assert power_bound(1.0, 0.05, 0.01) == pytest.approx(np.e * 0.05 + 0.01)
    # the complementary term binds at large alpha
    assert power_bound(1.0, 0.9, 0.01) == pytest.approx(1 - np.exp(-1.0) * (1 - 0.9 - 0.01))
    assert power_bound(0.0, 0.5, 0.0) == 0.5
    with pytest.raises(ValueError, match="delta"):
        power_bound(1.0, 0.05, 1.0)
    a = PrivacyGuarantee("A", 1.0, delta=1e-6)
    b = PrivacyGuarantee("B", 0.5)
    total = compose([a, b])
    assert total.epsilon == 1.5 and total.delta == pytest.approx(1e-6)
    assert "(1, 1e-06)" in a.describe() and "delta" in a.describe()
    with pytest.raises(ValueError, match="delta"):
        PrivacyGuarantee("C", 1.0, delta=-0.1)
