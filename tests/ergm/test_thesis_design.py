"""The ERGM experiment in Goldberg's design: cutoffs, parameterisations and statistics."""

import math

import numpy as np
import pytest

from tdadp.ergm import ergm_statistics
from tdadp.pipelines.ergm import CONFIG, MODELS, model_statistics, model_terms, thesis_cutoffs


def _graph(n=30, p=0.2, seed=0):
    rng = np.random.default_rng(seed)
    A = np.triu((rng.random((n, n)) < p).astype(np.uint8), 1)
    return A + A.T


def _ergm_package_statistics(A, convention, d):
    """edges, the k-star term, gwesp and gwdsp written from ergm's definitions: altkstar(d)
    is Snijders' sum, gwdegree(d) = e^d sum_i (1 - (1 - e^-d)^deg_i), gwesp(d) = e^d
    sum over edges of (1 - (1 - e^-d)^L), gwdsp(d) the same over all dyads."""
    deg = A.sum(axis=1).astype(float)
    L = A.astype(float) @ A
    iu = np.triu_indices_from(A, 1)
    r = 1.0 - math.exp(-d)
    edges = A[iu].sum()
    if convention == "statnet":
        q = 1.0 - 1.0 / d
        star = d * d * np.sum(q ** deg - 1.0 + deg / d)
    else:
        star = math.exp(d) * np.sum(1.0 - r ** deg)
    gwesp = math.exp(d) * np.sum(A[iu] * (1.0 - r ** L[iu]))
    gwdsp = math.exp(d) * np.sum(1.0 - r ** L[iu])
    return np.array([edges, star, gwesp, gwdsp])


@pytest.mark.parametrize("convention", ["statnet", "gwdegree"])
@pytest.mark.parametrize("model", [1, 2, 3])
def test_conventions_give_the_same_log_weights_up_to_a_constant(convention, model):
    # theta . s(x) in the ergm package's terms equals tdadp's terms at the mapped theta, so
    # the two define the same distribution.
    d = 1.3
    stats, theta = model_terms(convention, (d, d, d), MODELS[model])
    diffs = []
    for seed in range(4):
        A = _graph(seed=seed, p=0.1 + 0.1 * seed)
        ours = float(theta @ ergm_statistics(A, stats))
        theirs = float(np.asarray(MODELS[model]) @ _ergm_package_statistics(A, convention, d))
        diffs.append(ours - theirs)
    np.testing.assert_allclose(diffs, diffs[0], atol=1e-8 * max(1.0, abs(diffs[0])))


def test_snijders_and_negstar_differ_in_the_kstar_sign_only():
    s1, t1 = model_terms("snijders", (1.5, 1.6, 1.7), MODELS[3])
    s2, t2 = model_terms("negstar", (1.5, 1.6, 1.7), MODELS[3])
    assert s1 == s2 == ["edges", ("altkstars", 1.5), ("altktriangles", 1.6),
                        ("altktwopaths", 1.7)]
    np.testing.assert_array_equal(t1, MODELS[3])
    np.testing.assert_array_equal(t2, [-4.6, -2.0, 2.0, -0.5])


def test_the_models_keep_their_nonzero_statistics():
    # the thesis's 2 / 3 / 4 statistics per model
    counts = {m: len(model_statistics(CONFIG, m)[0]) for m in MODELS}
    assert counts == {1: 2, 2: 3, 3: 4}
    _, theta, names = model_statistics(CONFIG, 2)
    assert names == ["edges", "altktriangles", "altktwopaths"]
    np.testing.assert_array_equal(theta, [-4.6, 2.0, -0.1])


def test_cutoffs_are_quantiles_of_the_networks_maximum_degrees():
    # one set for all networks of a model: min, median, max, 1.5 x max of their max degrees
    assert thesis_cutoffs([7, 3, 5, 4]) == {"min": 3, "median": 4, "max": 7, "1.5max": 11}
    assert thesis_cutoffs([0, 0]) == {"min": 1, "median": 1, "max": 1, "1.5max": 1}
    assert thesis_cutoffs([10, 12, 11]) == {"min": 10, "median": 11, "max": 12, "1.5max": 18}
