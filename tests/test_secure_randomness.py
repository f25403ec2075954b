"""``random_state="secure"`` on every mechanism: it works, and its coins come from the OS.

A real release must draw from a cryptographically secure source seeded by the operating
system: whoever learns a numpy or Python generator's seed (or enough of its output) can replay
every coin and undo the mechanism. So while a mechanism releases with "secure", creating or
seeding a numpy generator, or drawing from Python's ``random``, is an error here. The secure
coins (ChaCha20 keystream, :class:`~tdadp.utils.ChaCha20Random`) must also flip at the stated
rate, from the tiniest epsilon to the largest.
"""

import contextlib
import random

import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone

import tdadp
from tdadp.ergm import ERGMStatisticsRelease
from tdadp.pufferfish import (
    GK16Histogram,
    GroupDPHistogram,
    MarkovQuiltMechanism,
    MQMApprox,
    MQMExact,
    WassersteinMechanism,
)
from tdadp.release import DegreeSequence, LaplaceEdgeCount, ProjectedCount

_GRAPH = np.asarray(tdadp.sample_grdpg(tdadp.circle(30, random_state=0), random_state=1))
_THETA = ("stationary", [[0.6, 0.4], [0.4, 0.6]])
_CHAIN = np.array([0, 1, 1, 0, 0, 1, 0, 0, 1, 1])

# mechanism -> (fit argument, release argument)
MECHANISMS = {
    "EdgeFlip": (tdadp.EdgeFlip(1.0), _GRAPH, _GRAPH),
    "EdgeFlip packed": (tdadp.EdgeFlip(1.0, output="packed"), _GRAPH, _GRAPH),
    "LaplaceFlip": (tdadp.LaplaceFlip(1.0), _GRAPH, _GRAPH),
    "LaplaceEdgeCount": (LaplaceEdgeCount(1.0), _GRAPH, _GRAPH),
    "LaplaceEdgeCount discrete": (LaplaceEdgeCount(0.05, noise="discrete"), _GRAPH, _GRAPH),
    "DegreeSequence": (DegreeSequence(1.0), _GRAPH, _GRAPH),
    "ProjectedCount": (ProjectedCount("kstars", max_degree=3), _GRAPH, _GRAPH),
    "ERGMStatisticsRelease edge": (ERGMStatisticsRelease(("edges", "altktriangles"),
                                                         max_degree=4), _GRAPH, _GRAPH),
    "ERGMStatisticsRelease node": (ERGMStatisticsRelease(("edges", "altkstars"), level="node",
                                                         max_degree=4), _GRAPH, _GRAPH),
    "ERGMStatisticsRelease local": (ERGMStatisticsRelease(("edges", "altktwopaths"),
                                                          method="local"), _GRAPH, _GRAPH),
    "WassersteinMechanism": (WassersteinMechanism(1.0),
                             [([0, 1], [1.0, 0.0], [0.0, 1.0])], 3.0),
    "MarkovQuiltMechanism": (MarkovQuiltMechanism(1.0), {0: [(0.1, 1), (0.0, 2)]}, 3.0),
    **{cls.__name__: (cls(_THETA, 1.0), _CHAIN, _CHAIN)
       for cls in (MQMExact, MQMApprox, GroupDPHistogram, GK16Histogram)},
}


@contextlib.contextmanager
def no_seeded_generators():
    """Record every numpy generator made (np.random.default_rng, the one door tdadp's streams
    go through) and every draw from Python's ``random``, letting them run."""
    calls = []
    saved = {}

    def spy(owner, name):
        original = getattr(owner, name)
        saved[(owner, name)] = original

        def wrapper(*args, **kwargs):
            calls.append(f"{owner.__name__}.{name}")
            return original(*args, **kwargs)
        setattr(owner, name, wrapper)

    spy(np.random, "default_rng")
    for name in ("random", "getrandbits", "randint", "randrange", "uniform", "gauss",
                 "choice", "shuffle", "sample"):
        spy(random, name)
    try:
        yield calls
    finally:
        for (owner, name), original in saved.items():
            setattr(owner, name, original)


def _values(release):
    if hasattr(release, "toarray"):
        release = release.toarray()
    return np.asarray(release, dtype=float)


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_secure_releases_draw_from_the_operating_system(name):
    mechanism, fit_on, data = MECHANISMS[name]
    m = clone(mechanism).set_params(random_state="secure").fit(fit_on)
    with no_seeded_generators() as calls:
        releases = [_values(m.transform(data)) for _ in range(3)]
    assert not calls, f"{name} drew from seeded generators: {sorted(set(calls))}"
    assert all(np.isfinite(r).all() for r in releases)
    # Fresh coins every release.
    assert not all(np.array_equal(releases[0], r) for r in releases[1:])


@pytest.mark.parametrize("name", ["EdgeFlip", "LaplaceEdgeCount", "MQMExact"])
def test_the_check_sees_a_seeded_generator(name):
    mechanism, fit_on, data = MECHANISMS[name]
    m = clone(mechanism).set_params(random_state=0).fit(fit_on)
    with no_seeded_generators() as calls:
        m.transform(data)
    assert calls


@pytest.mark.parametrize("clusterer", ["tomato", "kmeans", "gmm"])
def test_the_clustering_recipe_releases_with_secure_coins(clusterer):
    A = tdadp.sample_grdpg(tdadp.sbm(120, [[0.5, 0.1], [0.1, 0.5]], random_state=0),
                           random_state=1)
    pipe = tdadp.make_private_clustering(clusterer, epsilon=2.0, n_clusters=2,
                                         random_state="secure")
    release = pipe.steps[0][1]
    assert release.get_params()["random_state"] == "secure"
    with no_seeded_generators() as calls:
        released = release.fit_transform(A)
    assert not calls
    labels = pipe.fit_predict(A)  # what follows the release is post-processing
    assert labels.shape == (120,) and np.isfinite(_values(released)).all()


P_MIN = 1e-6  # secure coins are unseeded: a check fails by chance about once in a million


@pytest.fixture(scope="module")
def flip_input():
    # The input is not what is tested: a seeded G(n, 0.3), with edges and non-edges to flip.
    rng = np.random.default_rng(5)
    upper = np.triu(rng.random((3000, 3000)) < 0.3, 1)
    return (upper | upper.T).astype(np.uint8)


@pytest.mark.parametrize("output", ["dense", "sparse", "packed"])
@pytest.mark.parametrize("eps", [0.0, 1e-6, 1.0, 4.0, 12.0, 40.0])
def test_secure_coins_flip_at_the_stated_rate(flip_input, output, eps):
    """Binomial tests of the flips of edges and of non-edges, for each kind of release (dense
    and packed: 53-bit uniforms against the rate; sparse: exact geometric gaps from bounded
    integers), from pure noise (rate 1/2) to eps = 12 (rate 6e-6, about 28 flips) and 40
    (rate 2^-53: nothing flips)."""
    mech = tdadp.EdgeFlip(eps, random_state="secure", output=output).fit()
    with no_seeded_generators() as calls:
        B = mech.transform(flip_input)
    assert not calls
    B = B.toarray() if hasattr(B, "toarray") else np.asarray(B)
    upper = np.triu(np.ones(flip_input.shape, dtype=bool), 1)
    p = mech.flip_probability_
    for value in (0, 1):
        dyads = upper & (flip_input == value)
        flips = int(np.count_nonzero(B[dyads] != value))
        assert stats.binomtest(flips, int(dyads.sum()), p).pvalue > P_MIN, (value, flips)
