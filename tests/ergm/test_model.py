"""ERGM terms, the compiled sampler and the exact enumeration.

Oracles written here, independently of the library's closed forms: the alternating sums of
k-star, k-triangle and k-two-path counts by their definitions, and brute-force sums over all
graphs on a few nodes.
"""

import itertools
import pickle
from math import comb

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import logsumexp

from tdadp.ergm import (
    ERGM,
    ERGMChain,
    Observation,
    enumerate_graphs,
    ergm_exact_mean,
    ergm_log_partition,
    ergm_statistics,
    parse_terms,
    sample_ergm,
)
from tdadp.ergm._kernels import change_statistics

ALL_TERMS = ["edges", ("altkstars", 1.5), ("altktriangles", 2.0), ("altktwopaths", 3.0),
             "nodematch", "nodefactor", "nodemix"]


def _random_graph(rng, n, p):
    A = np.triu((rng.random((n, n)) < p).astype(np.uint8), 1)
    return A + A.T


def _direct(A, decay_s, decay_t, decay_p):
    """The alternating statistics by their definitions (sums of counts with signs)."""
    B = A.astype(int)
    n = B.shape[0]
    d = B.sum(1)
    L = B @ B
    pairs = list(itertools.combinations(range(n), 2))
    S = lambda k: sum(comb(int(x), k) for x in d)                                # noqa: E731
    T = lambda k: sum(B[i, j] * comb(int(L[i, j]), k) for i, j in pairs)        # noqa: E731
    P = lambda k: sum(comb(int(L[i, j]), k) for i, j in pairs)                  # noqa: E731
    stars = sum((-1) ** k * S(k) / decay_s ** (k - 2) for k in range(2, n))
    tri = sum((-1) ** (k + 1) * T(k) / decay_t ** (k - 1) for k in range(1, n - 1))
    two = sum((-1) ** (k + 1) * P(k) / decay_p ** (k - 1) for k in range(1, n - 1))
    return stars, tri, two


def _labelled(A, labels):
    L = int(labels.max()) + 1
    i, j = np.nonzero(np.triu(A, 1))
    match = np.sum(labels[i] == labels[j])
    factor = [np.sum(labels[i] == a) + np.sum(labels[j] == a) for a in range(1, L)]
    mix = [np.sum((np.minimum(labels[i], labels[j]) == a) & (np.maximum(labels[i], labels[j])
                                                              == b))
           for a in range(L) for b in range(a, L) if (a, b) != (0, 0)]
    return [match, *factor, *mix]


@pytest.mark.parametrize("decays", [(1.0, 1.0, 1.0), (2.0, 2.0, 2.0), (1.5, 3.0, 7.0)])
def test_closed_forms_equal_the_alternating_sums(decays):
    rng = np.random.default_rng(1)
    for n, p in [(6, 0.5), (8, 0.4), (9, 0.7)]:
        for _ in range(5):
            A = _random_graph(rng, n, p)
            labels = rng.integers(0, 3, n)
            labels[:3] = [0, 1, 2]
            terms = ["edges", ("altkstars", decays[0]), ("altktriangles", decays[1]),
                     ("altktwopaths", decays[2]), "nodematch", "nodefactor", "nodemix"]
            s = ergm_statistics(A, terms, labels=labels)
            assert s[0] == A.sum() // 2
            np.testing.assert_allclose(s[1:4], _direct(A, *decays), rtol=1e-10, atol=1e-9)
            np.testing.assert_array_equal(s[4:], _labelled(A, labels))


def test_statistics_of_sparse_and_dense_agree():
    rng = np.random.default_rng(2)
    A = _random_graph(rng, 30, 0.2)
    labels = rng.integers(0, 4, 30)
    np.testing.assert_allclose(ergm_statistics(A, ALL_TERMS, labels=labels),
                               ergm_statistics(sp.csr_matrix(A), ALL_TERMS, labels=labels))


def test_change_statistics_are_differences_of_full_statistics():
    rng = np.random.default_rng(3)
    for n in (5, 9, 14):
        labels = rng.integers(0, 3, n)
        labels[:3] = [0, 1, 2]
        terms = parse_terms(ALL_TERMS, labels=labels)
        for p in (0.2, 0.6):
            A = _random_graph(rng, n, p)
            chain = ERGMChain(A, terms)
            codes, decays, offsets = terms.codes()
            out = np.empty(terms.n_statistics)
            for i, j in itertools.combinations(range(n), 2):
                change_statistics(i, j, chain.adj, chain.deg, chain.L, chain.nbr,
                                  chain._labels, chain._lcol, chain._ptab, chain._etab, codes,
                                  offsets, chain._powers, chain._omr, decays, out)
                with_ij, without = A.copy(), A.copy()
                with_ij[i, j] = with_ij[j, i] = 1
                without[i, j] = without[j, i] = 0
                expected = ergm_statistics(with_ij, terms) - ergm_statistics(without, terms)
                np.testing.assert_allclose(out, expected, atol=1e-9, err_msg=f"dyad {(i, j)}")


def test_chain_state_stays_consistent_under_many_toggles():
    rng = np.random.default_rng(4)
    n = 15
    labels = rng.integers(0, 3, n)
    labels[:3] = [0, 1, 2]
    terms = parse_terms(ALL_TERMS, labels=labels)
    chain = ERGMChain(_random_graph(rng, n, 0.3), terms)
    theta = rng.normal(0, 0.3, terms.n_statistics)
    accepted = 0
    for _ in range(100):
        accepted += chain.run(theta, 40, rng)
        B = chain.adj.astype(int)
        np.testing.assert_allclose(chain.statistics, ergm_statistics(chain.adj, terms),
                                   atol=1e-8)
        assert (B == B.T).all() and not B.diagonal().any()
        assert np.array_equal(chain.deg, B.sum(1))
        assert np.array_equal(chain.L, (B @ B) * (1 - np.eye(n, dtype=int)))
        m = chain.n_edges
        edges = chain.elist[:m]
        assert m == B.sum() // 2 and B[edges[:, 0], edges[:, 1]].all()
        assert len({tuple(e) for e in edges}) == m
        for i in range(n):
            assert set(chain.nbr[i, :chain.deg[i]]) == set(np.flatnonzero(B[i]))
    assert accepted > 100  # the test exercised both additions and removals


def test_enumeration_agrees_with_graph_by_graph_statistics():
    n = 5
    labels = np.array([0, 1, 1, 2, 0])
    terms = parse_terms(ALL_TERMS, labels=labels)
    stats, _ = enumerate_graphs(n, terms, unique=False)
    pairs = list(itertools.combinations(range(n), 2))
    assert stats.shape[0] == 1 << len(pairs)
    for g in range(0, 1 << len(pairs), 37):
        A = np.zeros((n, n), dtype=np.uint8)
        for d, (i, j) in enumerate(pairs):
            if (g >> d) & 1:
                A[i, j] = A[j, i] = 1
        np.testing.assert_allclose(stats[g], ergm_statistics(A, terms), atol=1e-9)
    uniq, counts = enumerate_graphs(n, terms)
    assert counts.sum() == 1 << len(pairs)
    theta = np.linspace(-1, 1, terms.n_statistics) * 0.3
    assert np.isclose(ergm_log_partition(theta, uniq, counts), logsumexp(stats @ theta))


def _batch_means_z(trace, exact, batches=50):
    b = trace[: (trace.shape[0] // batches) * batches].reshape(batches, -1, trace.shape[1])
    means = b.mean(1)
    se = means.std(0, ddof=1) / np.sqrt(batches)
    return (trace.mean(0) - exact) / np.maximum(se, 1e-12)


@pytest.mark.parametrize("max_degree", [None, 2])
def test_sampler_reproduces_the_exact_mean_statistics(max_degree):
    n = 6
    labels = np.array([0, 1, 1, 2, 0, 2])
    terms = parse_terms(["edges", ("altkstars", 2.0), ("altktriangles", 1.5),
                         ("altktwopaths", 3.0), "nodematch", "nodefactor"], labels=labels)
    theta = np.array([-0.8, 0.2, 0.4, -0.15, 0.5, 0.2, -0.3])
    stats, counts = enumerate_graphs(n, terms, max_degree=max_degree)
    exact = ergm_exact_mean(theta, stats, counts)
    rng = np.random.default_rng(5)
    chain = ERGMChain(np.zeros((n, n), dtype=np.uint8), terms, max_degree=max_degree)
    chain.run(theta, 5_000, rng)
    _, trace = chain.run(theta, 600_000, rng, trace_every=5)
    z = _batch_means_z(trace, exact)
    # 7 statistics, batch-means standard errors: |z| < 4 everywhere (a biased sampler at this
    # length shows |z| in the tens).
    assert np.all(np.abs(z) < 4), (z, trace.mean(0), exact)
    if max_degree is not None:
        assert chain.deg.max() <= max_degree


def test_sampler_with_observations_matches_exact_tilted_means():
    """The latent-graph chain targets exp(theta.s(x)) obs(x): exact for Laplace and flips."""
    n = 5
    terms = parse_terms(["edges", ("altktriangles", 2.0)])
    theta = np.array([-0.5, 0.3])
    stats, _ = enumerate_graphs(n, terms, unique=False)
    base = stats @ theta
    rng = np.random.default_rng(6)
    y, b = np.array([6.5, 5.0]), np.array([1.5, 2.0])
    logw = base - np.sum(np.abs(y - stats) / b, axis=1)
    exact = np.exp(logw - logsumexp(logw)) @ stats
    chain = ERGMChain(np.zeros((n, n), np.uint8), terms, observation=Observation.laplace(y, b))
    chain.run(theta, 5_000, rng)
    _, trace = chain.run(theta, 400_000, rng, trace_every=4)
    assert np.all(np.abs(_batch_means_z(trace, exact)) < 4)

    # randomized response: each dyad's release agrees with the graph w.p. 1 - pi
    pairs = list(itertools.combinations(range(n), 2))
    Z = np.zeros((n, n), dtype=np.uint8)
    for i, j in pairs[::2]:
        Z[i, j] = Z[j, i] = 1
    z_bits = np.array([Z[i, j] for i, j in pairs])
    g = np.arange(1 << len(pairs))
    bits = (g[:, None] >> np.arange(len(pairs))) & 1
    agree = (bits == z_bits).sum(1)
    pi = 0.2
    logw = base + agree * np.log(1 - pi) + (len(pairs) - agree) * np.log(pi)
    exact = np.exp(logw - logsumexp(logw)) @ stats
    chain = ERGMChain(np.zeros((n, n), np.uint8), terms, observation=Observation.flip(Z, pi))
    chain.run(theta, 5_000, rng)
    _, trace = chain.run(theta, 400_000, rng, trace_every=4)
    assert np.all(np.abs(_batch_means_z(trace, exact)) < 4)


def test_smooth_cauchy_observation_matches_exact_tilted_means():
    n, k, beta = 5, 3, 0.4
    terms = parse_terms(["edges", ("altkstars", 2.0)])
    theta = np.array([-0.3, 0.1])
    stats, _ = enumerate_graphs(n, terms, unique=False)
    pairs = list(itertools.combinations(range(n), 2))
    g = np.arange(1 << len(pairs))
    bits = (g[:, None] >> np.arange(len(pairs))) & 1
    deg = np.zeros((g.size, n), dtype=int)
    for d, (i, j) in enumerate(pairs):
        deg[:, i] += bits[:, d]
        deg[:, j] += bits[:, d]
    inside = deg.max(1) <= k

    def smooth(dg):
        vals = []
        for s in range(40):
            c = np.sum((dg >= k - s) & (dg <= k + 1 + s))
            vals.append(np.exp(-beta * s) * (1 + s + c))
        return max(vals)

    S = np.array([smooth(dg) for dg in deg])
    sens = np.array([2.0, 5.0])
    y = np.array([4.0, 9.0])
    scale = S[:, None] * sens
    z = (y - stats) / scale
    logw = stats @ theta - np.sum(np.log(scale) + np.log1p(z ** 2), axis=1)
    logw[~inside] = -np.inf
    exact = np.exp(logw - logsumexp(logw)) @ stats
    obs = Observation.smooth_cauchy(y, sens, max_degree=k, beta=beta)
    chain = ERGMChain(np.zeros((n, n), np.uint8), terms, max_degree=k, observation=obs)
    rng = np.random.default_rng(7)
    chain.run(theta, 5_000, rng)
    _, trace = chain.run(theta, 400_000, rng, trace_every=4)
    assert np.all(np.abs(_batch_means_z(trace, exact)) < 4)


def test_sampling_is_reproducible_and_estimator_batches():
    a = sample_ergm(["edges", "altkstars"], [-2.0, 0.1], n_nodes=40, random_state=3)
    b = sample_ergm(["edges", "altkstars"], [-2.0, 0.1], n_nodes=40, random_state=3)
    assert np.array_equal(a, b)
    est = ERGM(["edges"], theta=[-1.0], n_steps=20_000, random_state=0)
    one = est.fit_transform([30, 30])
    two = ERGM(["edges"], theta=[-1.0], n_steps=20_000, random_state=0,
               n_jobs=2).fit_transform([30, 30])
    assert all(np.array_equal(x, y) for x, y in zip(one, two))
    assert not np.array_equal(one[0], one[1])  # independent streams per item
    pickle.loads(pickle.dumps(est))


def test_edges_only_model_has_the_binomial_density():
    # edges only: each dyad is an independent Bernoulli(expit(theta)).
    theta = -1.2
    rng = np.random.default_rng(8)
    chain = ERGMChain(np.zeros((60, 60), np.uint8), ["edges"])
    chain.run([theta], 50_000, rng)
    _, trace = chain.run([theta], 400_000, rng, trace_every=100)
    expected = 60 * 59 / 2 / (1 + np.exp(-theta))
    assert abs(trace.mean() - expected) < 0.02 * expected


@pytest.mark.parametrize("bad,match", [
    (dict(statistics=["edges", "stars"]), "unknown ERGM term"),
    (dict(statistics=[("altkstars", 0.5)]), "decay"),
    (dict(statistics=[("edges", 2.0)]), "takes no decay"),
    (dict(statistics=["edges", "edges"]), "twice"),
    (dict(statistics=[]), "at least one"),
    (dict(statistics=["nodematch"]), "labels"),
])
def test_bad_terms_are_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        parse_terms(**bad)


def test_bad_chain_input_is_refused():
    A = np.zeros((5, 5), dtype=np.uint8)
    A[0, 1:] = A[1:, 0] = 1
    with pytest.raises(ValueError, match="maximum degree"):
        ERGMChain(A, ["edges"], max_degree=2)
    chain = ERGMChain(A, ["edges", "altkstars"])
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="one value per statistic"):
        chain.run([1.0], 10, rng)
    with pytest.raises(ValueError, match="finite"):
        chain.run([np.nan, 0.0], 10, rng)
    with pytest.raises(ValueError, match="symmetric"):
        ERGMChain(np.triu(np.ones((4, 4), dtype=np.uint8), 1), ["edges"])
    with pytest.raises(ValueError, match="flip_probability"):
        Observation.flip(A, 0.5)
    with pytest.raises(ValueError, match="labels"):
        parse_terms(["nodematch"], labels=[0, 1], n_nodes=3)
    with pytest.raises(ValueError, match="smooth_cauchy"):
        ERGMChain(A, ["edges"], observation=Observation.smooth_cauchy([1.0], [1.0], 3, 0.1))
    with pytest.raises(ValueError, match="enumeration"):
        enumerate_graphs(9, ["edges"])
