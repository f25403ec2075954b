"""PrivateERGM: release and posterior in one estimator, for every mechanism and level."""

import pickle

import numpy as np
import pytest
from sklearn.base import clone

from tdadp.ergm import ERGMRelease, ERGMStatisticsRelease, PrivateERGM, sample_ergm

STATS = ["edges", ("altktriangles", 1.0)]
THETA = [-2.0, 0.5]
FAST = dict(n_iter=200, burn_in=100, aux_steps=2000, latent_steps=2000)


@pytest.fixture(scope="module")
def graph():
    return sample_ergm(STATS, THETA, n_nodes=30, random_state=0)


def _contains(blob, A):
    """Whether the graph's adjacency bytes (or its edge pattern) appear in a pickle."""
    return A.astype(np.uint8).tobytes() in blob or np.packbits(A).tobytes() in blob


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(epsilon=4.0, mechanism="restricted", max_degree=8),
    dict(epsilon=4.0, mechanism="restricted", level="node", max_degree=8),
    dict(epsilon=4.0, mechanism="local"),
    dict(epsilon=4.0, mechanism="flip"),
], ids=["nonprivate", "restricted-edge", "restricted-node", "local", "flip"])
def test_every_mechanism_fits_and_keeps_nothing_of_the_graph(graph, kwargs):
    est = PrivateERGM(STATS, random_state=1, **FAST, **kwargs).fit(graph)
    p = len(STATS)
    assert est.posterior_.shape == (FAST["n_iter"], p)
    assert est.coef_.shape == (p,) and np.isfinite(est.coef_).all()
    ci = est.credible_interval_
    assert ci.shape == (p, 2) and (ci[:, 0] <= est.coef_).all() and (est.coef_ <= ci[:, 1]).all()
    assert est.statistic_names_ == ("edges", "altktriangles(1)")
    if kwargs:
        assert est.guarantee_.epsilon <= 4.0
        assert est.posterior_result_.private
    else:
        assert est.guarantee_ is None and est.release_ is None
    if kwargs.get("mechanism") != "flip":
        # A statistic release or nothing: the graph cannot be in the pickle. (The flip
        # release is an n x n graph itself, the public randomized one.)
        assert not _contains(pickle.dumps(est), graph)
    else:
        assert not np.array_equal(est.release_, graph)
    if kwargs.get("level") == "node":
        assert est.guarantee_.unit == "node"
        assert est.release_.scales is None  # the data-dependent Cauchy scale is not released


def test_same_seed_same_posterior_and_clone(graph):
    a = PrivateERGM(STATS, epsilon=4.0, max_degree=8, random_state=3, **FAST).fit(graph)
    b = clone(a).fit(graph)
    np.testing.assert_array_equal(a.posterior_, b.posterior_)
    np.testing.assert_array_equal(a.release_.values, b.release_.values)
    c = PrivateERGM(STATS, epsilon=4.0, max_degree=8, random_state=4, **FAST).fit(graph)
    assert not np.array_equal(a.release_.values, c.release_.values)


def test_fit_release_equals_fit_on_the_same_release(graph):
    """The analyst with only the release gets the posterior the curator's fit gets."""
    est = PrivateERGM(STATS, epsilon=4.0, max_degree=8, random_state=5, **FAST).fit(graph)
    release = est.release_
    assert isinstance(release, ERGMRelease)
    analyst = clone(est).fit_release(release, n_nodes=graph.shape[0])
    np.testing.assert_array_equal(analyst.posterior_, est.posterior_)
    made_elsewhere = ERGMStatisticsRelease(STATS, epsilon=4.0, max_degree=8,
                                           random_state=0).fit_transform(graph)
    fit = clone(est).fit_release(made_elsewhere, n_nodes=graph.shape[0])
    assert fit.posterior_.shape == est.posterior_.shape


def test_private_posterior_is_wider_than_the_nonprivate_one():
    A = sample_ergm(["edges"], [-1.5], n_nodes=40, random_state=2)
    kw = dict(n_iter=600, burn_in=200, aux_steps=3000, latent_steps=3000)
    plain = PrivateERGM(["edges"], random_state=0, **kw).fit(A)
    noisy = PrivateERGM(["edges"], epsilon=0.05, mechanism="local", random_state=0,
                        **kw).fit(A)
    width = lambda e: np.diff(e.credible_interval_[0])[0]  # noqa: E731
    assert width(noisy) > 1.5 * width(plain)
    assert plain.credible_interval_[0, 0] < -1.5 < plain.credible_interval_[0, 1]


def test_labelled_terms_take_labels_from_y():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 30)
    A = sample_ergm(["edges", "nodematch"], [-2.5, 1.0], n_nodes=30, labels=labels,
                    random_state=1)
    est = PrivateERGM(["edges", "nodematch"], random_state=0, **FAST).fit(A, y=labels)
    assert est.statistic_names_ == ("edges", "nodematch")
    with pytest.raises(ValueError, match="labels"):
        PrivateERGM(["edges", "nodematch"], **FAST).fit(A)


def test_thesis_noise_reaches_the_release_and_the_inference(graph):
    ours = PrivateERGM(STATS, epsilon=4.0, max_degree=8, random_state=2, **FAST).fit(graph)
    thesis = PrivateERGM(STATS, epsilon=4.0, max_degree=8, noise="thesis", random_state=2,
                         **FAST).fit(graph)
    np.testing.assert_allclose(thesis.release_.scales, 3 * ours.release_.scales, rtol=1e-7)
    assert thesis.release_.meta["noise"] == "thesis"
    assert thesis.guarantee_.epsilon == ours.guarantee_.epsilon == 4.0


@pytest.mark.parametrize("kwargs,match", [
    (dict(epsilon=1.0, mechanism="restricted"), "max_degree"),
    (dict(epsilon=1.0, mechanism="local", level="node"), "level='node'"),
    (dict(epsilon=0.0, max_degree=3), "epsilon"),
    (dict(epsilon=-1.0, max_degree=3), "epsilon"),
    (dict(mechanism="laplace"), "mechanism"),
    (dict(statistics=["edges", "bogus"]), "unknown ERGM term"),
    (dict(n_iter=0), "n_iter"),
    (dict(delta=1.5, epsilon=1.0, mechanism="local"), "delta"),
    (dict(epsilon=1.0, mechanism="local", noise="thesis"), "noise='thesis'"),
    (dict(epsilon=1.0, max_degree=3, level="node", noise="thesis"), "noise='thesis'"),
])
def test_bad_parameters_are_refused(graph, kwargs, match):
    params = dict(statistics=STATS, **FAST)
    params.update(kwargs)
    with pytest.raises(ValueError, match=match):
        PrivateERGM(**params).fit(graph)


def test_bad_graphs_and_releases_are_refused(graph):
    est = PrivateERGM(STATS, **FAST)
    asym = graph.copy()
    asym[0, 1], asym[1, 0] = 1, 0
    with pytest.raises(ValueError, match="symmetric"):
        est.fit(asym)
    with pytest.raises(ValueError, match="weighted"):
        est.fit(graph * 2)
    with pytest.raises(ValueError, match="epsilon"):
        est.fit_release(graph)
    private = PrivateERGM(STATS, epsilon=1.0, max_degree=8, **FAST)
    with pytest.raises(ValueError, match="n_nodes"):
        private.fit_release(ERGMStatisticsRelease(STATS, max_degree=8).fit_transform(graph))
    other = ERGMStatisticsRelease(["edges"], max_degree=8).fit_transform(graph)
    with pytest.raises(ValueError, match="statistics"):
        private.fit_release(other, n_nodes=30)


def test_default_settings_are_bayes_ergms_defaults():
    A = sample_ergm(["edges"], [-1.0], n_nodes=12, random_state=0)
    est = PrivateERGM(["edges"], epsilon=2.0, max_degree=11, random_state=0).fit(A)
    settings = est.posterior_result_.settings
    assert settings["n_iter"] == 4000 and settings["burn_in"] == 2000
    assert est.posterior_.shape == (4000, 1)


def test_karate_club_factions_are_homophilous():
    """Real data no one here wrote: Zachary's karate club with its two clubs (networkx).

    The friendship ties fall mostly within a club: the nodematch coefficient's 95% interval
    lies above 0 (measured: 1.71, interval 1.13 to 2.30, with edges and altktriangles)."""
    nx = pytest.importorskip("networkx")
    G = nx.karate_club_graph()
    A = nx.to_numpy_array(G, weight=None, dtype=np.uint8)
    clubs = np.array([G.nodes[v]["club"] for v in G.nodes])
    est = PrivateERGM(["edges", "nodematch", ("altktriangles", 1.0)], random_state=0)
    est.fit(A, y=clubs)
    assert est.credible_interval_[1, 0] > 0.5
    assert est.credible_interval_[2, 0] > 0.0  # and transitive beyond homophily


def test_node_level_lp_releases_in_fit_release():
    # An all-LP node-level release has fixed Laplace scales: fit_release conditions on it
    # (the model restricted to H_k, where the LP extension is the statistic). A release that
    # mixes LP terms with truncated ones has no observation model: refused, saying why.
    A = sample_ergm(["edges", ("altktriangles", 2.0)], [-3.0, 0.5], n_nodes=30,
                    random_state=0)
    lp = ERGMStatisticsRelease(["edges", ("altktriangles", 2.0)], epsilon=2.0, level="node",
                               max_degree=5, projection="lp", random_state=0).fit_transform(A)
    assert lp.kind == "laplace"
    est = PrivateERGM(["edges", ("altktriangles", 2.0)], epsilon=2.0, level="node",
                      max_degree=5, n_iter=20, burn_in=5, aux_steps=100,
                      random_state=0).fit_release(lp, n_nodes=30)
    assert est.posterior_.shape == (20, 2)
    mixed = ERGMStatisticsRelease(["edges", ("altkstars", 2.0)], epsilon=2.0, level="node",
                                  max_degree=5, projection="lp",
                                  random_state=0).fit_transform(A)
    assert mixed.kind == "mixed"
    with pytest.raises(ValueError, match="mixes Laplace noise"):
        PrivateERGM(["edges", ("altkstars", 2.0)], epsilon=2.0, level="node", max_degree=5,
                    n_iter=20, burn_in=5, aux_steps=100).fit_release(mixed, n_nodes=30)
