"""ERGMStatisticsRelease: calibration, noise laws, guarantees, the estimator contract, bad input."""

import math
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from tdadp.dp import compose
from tdadp.ergm import (
    ERGMRelease,
    ERGMStatisticsRelease,
    ergm_restricted_sensitivity,
    ergm_statistics,
    ergm_statistics_release,
    truncate_max_degree,
    truncation_smooth_sensitivity,
)
from tdadp.ergm._sensitivity import local_bound
from tdadp.release import LaplaceEdgeCount, project_max_degree

TERMS = ["edges", ("altkstars", 2.0), ("altktriangles", 2.0), ("altktwopaths", 1.5)]


def _graph(n=12, p=0.35, seed=0):
    rng = np.random.default_rng(seed)
    A = np.triu((rng.random((n, n)) < p).astype(np.uint8), 1)
    return A + A.T


def _draws(mech, A, count, seed=0):
    """``count`` releases of one graph through the fitted mechanism's own release path."""
    rng = np.random.default_rng(seed)
    return [mech._release(A, rng) for _ in range(count)]


def test_restricted_edge_laplace_scale_and_centre():
    A = _graph()
    mech = ERGMStatisticsRelease(TERMS, epsilon=2.0, max_degree=3, random_state=0).fit()
    sens = ergm_restricted_sensitivity(TERMS, 3)
    np.testing.assert_array_equal(mech.sensitivity_, sens)
    # Each of the 4 statistics gets epsilon / 4; real-valued ones one grid unit more.
    np.testing.assert_allclose(mech.noise_scale_, sens / 0.5, rtol=1e-8)
    assert (mech.noise_scale_ >= sens / 0.5).all()
    truth = ergm_statistics(project_max_degree(A, 3), TERMS)
    values = np.array([r.values for r in _draws(mech, A, 2000)])
    noise = values - truth
    # Laplace(b): mean 0, standard deviation b sqrt(2).
    assert np.all(np.abs(noise.mean(0)) < 0.15 * mech.noise_scale_)
    np.testing.assert_allclose(noise.std(0), np.sqrt(2) * mech.noise_scale_, rtol=0.08)
    release = mech.transform(A)
    assert isinstance(release, ERGMRelease) and release.kind == "laplace"
    assert release.values.dtype == np.float64 and release.values.shape == (4,)
    np.testing.assert_array_equal(release.scales, mech.noise_scale_)
    np.testing.assert_array_equal(np.asarray(release), release.values)


def test_thesis_noise_is_three_restricted_sensitivities():
    """noise="thesis": Goldberg's 3 RS(H_k)/eps, the same projected statistic and the same
    stated guarantee as tdadp's RS(H_k)/eps (the factor 3 is not proven here)."""
    A = _graph()
    ours = ERGMStatisticsRelease(TERMS, epsilon=2.0, max_degree=3).fit()
    thesis = ERGMStatisticsRelease(TERMS, epsilon=2.0, max_degree=3, noise="thesis").fit()
    sens = ergm_restricted_sensitivity(TERMS, 3)
    np.testing.assert_array_equal(thesis.sensitivity_, 3 * sens)
    np.testing.assert_allclose(thesis.noise_scale_, 3 * ours.noise_scale_, rtol=1e-7)
    assert thesis.guarantee_.restriction == ours.guarantee_.restriction is not None
    assert thesis.guarantee_.epsilon == ours.guarantee_.epsilon == 2.0
    truth = ergm_statistics(project_max_degree(A, 3), TERMS)
    noise = np.array([r.values for r in _draws(thesis, A, 2000, seed=4)]) - truth
    np.testing.assert_allclose(noise.std(0), np.sqrt(2) * thesis.noise_scale_, rtol=0.08)
    release = thesis.transform(A)
    assert release.meta["noise"] == "thesis"
    np.testing.assert_array_equal(release.scales, thesis.noise_scale_)
    same = ergm_statistics_release(A, TERMS, 2.0, max_degree=3, noise="thesis",
                                   random_state=1)
    np.testing.assert_array_equal(same.scales, thesis.noise_scale_)
    for kwargs in (dict(level="node", max_degree=3), dict(method="local")):
        with pytest.raises(ValueError, match="noise='thesis'"):
            ERGMStatisticsRelease(TERMS, noise="thesis", **kwargs).fit()
    with pytest.raises(ValueError, match="noise"):
        ERGMStatisticsRelease(TERMS, max_degree=3, noise="3rs").fit()


def test_exact_releases_at_infinite_epsilon():
    A = _graph(n=14, p=0.4, seed=3)
    for level, method, k, transform in (("edge", "restricted", 3, project_max_degree),
                                        ("node", "restricted", 4, truncate_max_degree),
                                        ("edge", "local", None, lambda A, k: A)):
        r = ergm_statistics_release(A, TERMS, np.inf, level=level, method=method,
                                    max_degree=k, random_state=0)
        expected = ergm_statistics(transform(A, k), TERMS)
        np.testing.assert_allclose(r.values, expected, rtol=1e-12)
        assert r.meta["level"] == level and r.meta["method"] == method


def test_vector_blocks_share_the_budget_jointly():
    labels = [0, 1, 2, 0, 1, 2, 0, 1]
    mech = ERGMStatisticsRelease(["edges", "nodefactor"], epsilon=3.0, max_degree=3,
                                 labels=labels).fit()
    # p = 3: edges gets 1, the nodefactor block (2 statistics, L1 sensitivity 2) gets 2.
    np.testing.assert_array_equal(mech.statistic_epsilon_, [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(mech.sensitivity_, [1.0, 2.0, 2.0])
    np.testing.assert_allclose(mech.noise_scale_, [1.0, 1.0, 1.0])
    assert mech.guarantee_.restriction is None    # both proven on all graphs
    assert [c.epsilon for c in mech.guarantee_.components] == [1.0, 2.0]
    node = ERGMStatisticsRelease(["edges", "nodemix"], epsilon=3.0, level="node",
                                 max_degree=3, labels=[0, 1, 0, 1]).fit()
    # p = 3 (nodemix: the pairs (0, 1) and (1, 1)): alpha = eps_block / 2, and
    # beta = eps_block / (2 size) = eps / (2p) for every block.
    np.testing.assert_allclose(node.alpha_, [0.5, 1.0, 1.0])
    assert node.beta_ == 0.5
    np.testing.assert_array_equal(node.sensitivity_, [3.0, 3.0, 3.0])


def test_guarantees():
    edge = ERGMStatisticsRelease(["edges", "altkstars"], max_degree=4).fit().guarantee_
    assert edge.unit == "edge" and edge.restriction is None
    for term in ("altktriangles", "altktwopaths", "nodematch", "nodemix"):
        g = ERGMStatisticsRelease(["edges", term], max_degree=4, labels=[0, 1, 1]).fit()
        assert g.guarantee_.restriction == "graphs of maximum degree at most 4"
    node = ERGMStatisticsRelease(TERMS, level="node", max_degree=4, epsilon=0.5).fit()
    assert node.guarantee_.unit == "node" and node.guarantee_.restriction is None
    assert node.guarantee_.epsilon == 0.5 and node.guarantee_.noise_scale is None
    np.testing.assert_array_equal(node.noise_scale_, np.full(4, np.nan))
    local = ERGMStatisticsRelease(TERMS, method="local", delta=1e-5).fit()
    assert local.delta_ == 1e-5 and local.guarantee_.delta == 1e-5
    assert local.guarantee_.definition == "differential privacy"
    # (eps, delta): the power bound carries delta
    g = local.guarantee_
    assert g.power_bound(0.05) == pytest.approx(min(np.exp(g.epsilon) * 0.05 + 1e-5, 1.0))
    assert "delta" in local.guarantee_.describe()
    assert np.isnan(local.sensitivity_[2:]).all() and local.sensitivity_[1] == 4.0
    pure = ERGMStatisticsRelease(["edges", "altkstars"], method="local").fit()
    assert pure.delta_ == 0.0 and pure.guarantee_.definition == "differential privacy"
    # Releases of the same unit and class compose.
    total = compose([ERGMStatisticsRelease(["edges"], max_degree=3, epsilon=0.5),
                     LaplaceEdgeCount(0.25)])
    assert total.epsilon == 0.75


def test_node_level_cauchy_scale():
    A = _graph(n=16, p=0.3, seed=1)
    k = 4
    mech = ERGMStatisticsRelease(TERMS, epsilon=4.0, level="node", max_degree=k).fit()
    truth = ergm_statistics(truncate_max_degree(A, k), TERMS)
    scale = truncation_smooth_sensitivity(A.sum(1), k, mech.sensitivity_, mech.beta_) \
        / mech.alpha_
    releases = _draws(mech, A, 3000, seed=2)
    assert all(r.scales is None and r.kind == "cauchy" for r in releases)
    z = (np.array([r.values for r in releases]) - truth) / scale
    # Standard Cauchy: median 0, median of |Z| = 1, quartiles -1 and 1.
    np.testing.assert_allclose(np.median(np.abs(z), 0), 1.0, rtol=0.08)
    assert np.all(np.abs(np.median(z, 0)) < 0.1)
    meta = releases[0].meta
    recomputed = truncation_smooth_sensitivity(A.sum(1), meta["max_degree"],
                                               meta["sensitivity"], meta["beta"])
    np.testing.assert_allclose(recomputed / meta["alpha"], scale)


def test_cauchy_from_os_randomness():
    A = _graph(n=10, seed=4)
    for level, k in (("node", 3), ("edge", 3)):
        r = ERGMStatisticsRelease(TERMS, level=level, max_degree=k,
                                  random_state="secure").fit_transform(A)
        assert np.isfinite(r.values).all()
    r = ERGMStatisticsRelease(TERMS, method="local", random_state="secure").fit_transform(A)
    assert np.isfinite(r.values).all()


def test_local_release_bounds_and_scales():
    A = _graph(n=15, p=0.4, seed=5)
    n = A.shape[0]
    delta = 0.2
    mech = ERGMStatisticsRelease(TERMS, epsilon=4.0, method="local", delta=delta,
                                 bound_share=0.25).fit()
    L = (A.astype(int) @ A)[np.triu_indices(n, 1)]
    theta = {2: int(L.max()), 3: int(A.sum(1).max())}
    names = {2: "altktriangles", 3: "altktwopaths"}
    below = {2: 0, 3: 0}
    releases = _draws(mech, A, 1500, seed=6)
    for r in releases:
        assert np.isnan(r.meta["bounds"][:2]).all()
        np.testing.assert_array_equal(r.meta["delta"], [0.0, 0.0, 0.1, 0.1])
        for i in (2, 3):
            bound = r.meta["bounds"][i]
            below[i] += bound < theta[i]
            used = min(max(math.floor(bound), 0), n - 2)
            # The scale is public: computed from the released bound alone.
            expected = float(local_bound(names[i], TERMS[i][1], used)) / (0.75 * 1.0)
            assert r.scales[i] == pytest.approx(expected, rel=1e-8)
        np.testing.assert_allclose(r.scales[:2], mech.noise_scale_[:2])
    # theta_hat < theta with probability at most delta each (0.1 here), close to it.
    for i in (2, 3):
        assert 0.05 < below[i] / len(releases) < 0.125


def test_local_offset_is_calibrated_to_delta():
    for delta in (1e-6, 1e-3, 0.3):
        for share in (0.1, 0.5, 0.9):
            mech = ERGMStatisticsRelease(["altktwopaths"], epsilon=0.7, method="local",
                                         delta=delta, bound_share=share).fit()
            block = mech.blocks_[0]
            c, m = block.bound_calibration, block.bound_offset
            # P(Z <= -(m + 1)) = q^(m+1) / (1 + q), q = exp(-s/t), for the exact sampler.
            log_q = -c.s / c.t
            log_p = (m + 1) * log_q - math.log1p(math.exp(log_q))
            assert math.log(delta / 2) < log_p <= math.log(delta)
            assert c.scale == pytest.approx(1 / (0.7 * share), rel=1e-8)


def test_reproducible_batches_and_storage():
    A = _graph(n=10, seed=7)
    S = sp.csr_matrix(A)
    for kwargs in (dict(max_degree=3), dict(level="node", max_degree=3), dict(method="local")):
        mech = ERGMStatisticsRelease(TERMS, random_state=11, **kwargs).fit()
        one = mech.transform(A)
        np.testing.assert_array_equal(one.values, mech.transform(S).values)
        batch = mech.transform([A, S, A])
        assert isinstance(batch, list) and len(batch) == 3
        np.testing.assert_array_equal(batch[0].values, one.values)
        parallel = clone(mech).set_params(n_jobs=2).fit().transform([A, S, A])
        for a, b in zip(batch, parallel):
            np.testing.assert_array_equal(a.values, b.values)
        twin = ergm_statistics_release(A, TERMS, 1.0, random_state=11, **kwargs)
        np.testing.assert_array_equal(twin.values, one.values)


def test_nothing_of_the_input_is_kept_and_clone():
    n = 120
    A = _graph(n=n, p=0.05, seed=8)
    labels = np.arange(n) % 3
    mech = ERGMStatisticsRelease(["edges", ("altktriangles", 2.0), "nodemix"], max_degree=5,
                                 labels=labels, random_state=0)
    mech.fit(A).transform(A)
    blob = pickle.dumps(mech)
    assert len(blob) < n * n // 2

    def arrays(obj, seen):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, np.ndarray) or sp.issparse(obj):
            yield obj
        elif isinstance(obj, dict):
            for v in obj.values():
                yield from arrays(v, seen)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                yield from arrays(v, seen)
        elif hasattr(obj, "__dict__"):
            yield from arrays(vars(obj), seen)

    assert all(np.prod(a.shape) <= n for a in arrays(mech, set()))
    fresh = clone(mech)
    assert fresh.get_params()["statistics"] == mech.statistics
    assert not hasattr(fresh, "guarantee_")
    np.testing.assert_array_equal(fresh.labels, labels)
    pickle.loads(blob).transform(A)


def test_bad_input():
    A = _graph(n=6)
    with pytest.raises(ValueError, match="epsilon"):
        ERGMStatisticsRelease(epsilon=0.0, max_degree=3).fit()
    with pytest.raises(ValueError, match="epsilon"):
        ERGMStatisticsRelease(epsilon=-1.0, max_degree=3).fit()
    with pytest.raises(ValueError, match="unknown ERGM term 'triangles'"):
        ERGMStatisticsRelease(["edges", "triangles"], max_degree=3).fit()
    with pytest.raises(ValueError, match="needs max_degree"):
        ERGMStatisticsRelease(["edges"]).fit()
    with pytest.raises(ValueError, match="edge level only"):
        ERGMStatisticsRelease(level="node", method="local").fit()
    with pytest.raises(ValueError, match="max_degree must be None"):
        ERGMStatisticsRelease(method="local", max_degree=3).fit()
    with pytest.raises(ValueError, match="level"):
        ERGMStatisticsRelease(level="dyad", max_degree=3).fit()
    with pytest.raises(ValueError, match="delta"):
        ERGMStatisticsRelease(method="local", delta=0.0).fit()
    with pytest.raises(ValueError, match="bound_share"):
        ERGMStatisticsRelease(method="local", bound_share=1.0).fit()
    with pytest.raises(ValueError, match="decay"):
        ERGMStatisticsRelease([("altkstars", 0.5)], max_degree=3).fit()
    with pytest.raises(ValueError, match="labels"):
        ERGMStatisticsRelease(["nodematch"], max_degree=3).fit()
    with pytest.raises(ValueError, match="labels cover 4 nodes"):
        ERGMStatisticsRelease(["nodematch"], max_degree=3, labels=[0, 1, 0, 1]).fit(A)
    mech = ERGMStatisticsRelease(["nodematch"], max_degree=3, labels=[0, 1, 0, 1]).fit()
    with pytest.raises(ValueError, match="labels cover 4 nodes"):
        mech.transform(A)
    asym = A.copy()
    asym[0, 5], asym[5, 0] = 1, 0
    with pytest.raises(ValueError, match="symmetric"):
        ERGMStatisticsRelease(max_degree=3).fit_transform(asym)
    with pytest.raises(ValueError, match="max_degree"):
        ergm_restricted_sensitivity(["edges"], 0)
    with pytest.raises(ValueError, match="level"):
        ergm_restricted_sensitivity(["edges"], 2, level="graph")
    with pytest.raises(ValueError, match="degrees"):
        truncation_smooth_sensitivity([1, -1], 2, 1.0, 1.0)
    with pytest.raises(ValueError, match="beta"):
        truncation_smooth_sensitivity([1, 1], 2, 1.0, 0.0)
    with pytest.raises(ValueError, match="too small"):
        ERGMStatisticsRelease(level="node", max_degree=2, epsilon=1e-200).fit()


@pytest.mark.parametrize("kwargs", [dict(max_degree=3), dict(level="node", max_degree=3),
                                    dict(method="local")], ids=["edge", "node", "local"])
def test_release_contract(kwargs):
    # What tests/release/test_estimator_checks.py checks of every graph release.
    graph = _graph(n=9, seed=9)
    est = ERGMStatisticsRelease(TERMS, random_state=5, **kwargs)
    params = est.get_params()
    assert est.fit(graph) is est and est.get_params() == params
    state = dict(vars(est))
    guarantee = est.guarantee_
    released = est.transform(graph)
    assert vars(est).keys() == state.keys()
    assert all(vars(est)[k] is v for k, v in state.items())
    assert est.fit(graph).guarantee_ == guarantee
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.transform(graph).values, released.values)
    np.testing.assert_array_equal(est.fit_transform(graph).values, released.values)
    for container in (sp.csr_array, sp.coo_array, sp.csc_matrix, sp.lil_matrix):
        np.testing.assert_array_equal(est.transform(container(graph)).values, released.values)
    tags = est.__sklearn_tags__()
    # A sample is one whole graph, not a row of a kernel (no pairwise tag).
    assert not tags.non_deterministic and tags.input_tags.sparse and not tags.input_tags.pairwise


def test_networkx_attributes_serve_labelled_terms():
    # A networkx graph carries its public node attributes: the release reads them by name, as
    # PrivateERGM and ergm_statistics do, and releases the same statistics as given labels.
    from tdadp.datasets import load_faux_mesa_high
    from tdadp.ergm import ergm_statistics_release
    from tdadp.ergm._formula import graph_attributes
    G = load_faux_mesa_high()
    model = "edges + nodematch('Sex', diff=TRUE) + nodematch('Race')"
    read = ergm_statistics_release(G, statistics=model, epsilon=2.0, max_degree=15,
                                   random_state=0)
    given = ergm_statistics_release(G, statistics=model, epsilon=2.0, max_degree=15,
                                    labels=graph_attributes(G), random_state=0)
    assert read.meta["statistic_names"] == ("edges", "nodematch.Sex.F", "nodematch.Sex.M",
                                            "nodematch.Race")
    np.testing.assert_array_equal(read.values, given.values)
    # a plain adjacency matrix has no attributes: the labelled term still asks for them
    import networkx as nx
    with pytest.raises(ValueError, match="attributes by name"):
        ergm_statistics_release(nx.to_scipy_sparse_array(G), statistics=model, epsilon=2.0,
                                max_degree=15, random_state=0)
