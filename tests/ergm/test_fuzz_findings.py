"""Findings of the fuzz round on the ERGM part, one section each (the finding's number).

2. Refusals raised on a private graph give counts and the fix, never a node, dyad or value.
7. ``ergm_statistics`` takes graphs through the input contract, and its alternating sums are
   exact to a few ulps for every decay (checked against rational arithmetic).
8. The node-level release's guard bounds the calibrated Cauchy scale, not beta alone.
10. Nothing n x n or k-long is allocated before the memory it needs is known to fit.
13. ``random_state="secure"`` works everywhere, and its draws come from the OS only.
15. ``sample_ergm``/``ERGM`` refuse fractional, string and huge counts, conflicting starts and
    mixed labels; a networkx graph is one graph.
"""

import contextlib
import itertools
import math
import os
import random
import tracemalloc
from fractions import Fraction
from math import comb

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import tdadp.utils._memory as memory
from tdadp.ergm import (
    ERGM,
    ERGMChain,
    ERGMStatisticsRelease,
    PrivateERGM,
    bayes_ergm,
    ergm_statistics,
    ergm_statistics_release,
    parse_terms,
    sample_ergm,
)
from tdadp.ergm._release import _MAX_KSTAR_DECAY
from tdadp.release import EdgeFlip
from tdadp.utils import OSRandom

FAST = dict(n_iter=30, burn_in=10, aux_steps=200, latent_steps=200)


def _random_graph(n, p, seed):
    rng = np.random.default_rng(seed)
    A = np.triu((rng.random((n, n)) < p).astype(np.uint8), 1)
    return A + A.T


def _star(n_leaves):
    A = np.zeros((n_leaves + 1, n_leaves + 1), dtype=np.uint8)
    A[0, 1:] = A[1:, 0] = 1
    return A


def _small_memory(monkeypatch, nbytes):
    """Pretend this process can use ``nbytes`` more bytes."""
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test limit": nbytes})


def _peak_bytes(call):
    """(exception raised or None, peak bytes traced while ``call`` ran)."""
    tracemalloc.start()
    try:
        call()
        raised = None
    except Exception as exc:  # returned for the caller to judge
        raised = exc
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return raised, peak


# ------------------------------------------------------------------ 2. private messages

def _private_defects():
    """Graphs whose defects sit at distinctive positions/values (node 11, dyad (5, 9), 7.25)."""
    A = _random_graph(14, 0.3, 0).astype(float)
    loop = A.copy()
    loop[11, 11] = 1
    weight = A.copy()
    weight[5, 9] = weight[9, 5] = 7.25
    asym = A.copy()
    asym[5, 9], asym[9, 5] = 1, 0
    nan = A.copy()
    nan[5, 9] = nan[9, 5] = np.nan
    return {"self-loop": loop, "weight": weight, "asymmetric": asym, "nan": nan,
            "sparse self-loop": sp.csr_matrix(loop), "sparse weight": sp.csr_matrix(weight)}


PRIVATE_ENTRY_POINTS = {
    "ergm_statistics": lambda A: ergm_statistics(A, ["edges", "altktriangles"]),
    "release edge": lambda A: ERGMStatisticsRelease(max_degree=3).fit_transform(A),
    "release node": lambda A: ERGMStatisticsRelease(level="node", max_degree=3).fit_transform(A),
    "release local": lambda A: ERGMStatisticsRelease(("edges", "altktwopaths"),
                                                     method="local").fit_transform(A),
    "PrivateERGM": lambda A: PrivateERGM(epsilon=1.0, max_degree=3, **FAST).fit(A),
    "PrivateERGM flip": lambda A: PrivateERGM(epsilon=1.0, mechanism="flip", **FAST).fit(A),
    "bayes_ergm": lambda A: bayes_ergm(["edges"], graph=A, **FAST),
    "sample_ergm start": lambda A: sample_ergm(["edges"], [0.0], start=A, n_steps=1),
    "ERGM": lambda A: ERGM(n_steps=1).fit_transform(A),
    "ERGMChain": lambda A: ERGMChain(A, ["edges"]),
}


@pytest.mark.parametrize("entry", sorted(PRIVATE_ENTRY_POINTS))
@pytest.mark.parametrize("kind", sorted(_private_defects()))
def test_refusals_on_a_private_graph_quote_no_node_dyad_or_value(entry, kind):
    with pytest.raises(ValueError) as info:
        PRIVATE_ENTRY_POINTS[entry](_private_defects()[kind])
    msg = str(info.value)
    for leak in ("11", "7.25", "(5, 9)", "5, 9", "9, 5"):
        assert leak not in msg, (entry, kind, msg)


@pytest.mark.parametrize("call", [
    lambda A: bayes_ergm(["edges"], graph=A, max_degree=2, **FAST),
    lambda A: ERGMChain(A, ["edges"], max_degree=2),
    lambda A: sample_ergm(["edges"], [0.0], start=A, max_degree=2, n_steps=1),
    lambda A: ERGM(max_degree=2, n_steps=1).fit_transform(A),
], ids=["bayes_ergm", "ERGMChain", "sample_ergm", "ERGM"])
def test_a_graph_outside_the_degree_class_is_refused_with_a_count(call):
    # The star's centre has degree 13: the refusal says how many nodes are above the bound,
    # never their degree.
    with pytest.raises(ValueError, match="1 node of degree above max_degree=2") as info:
        call(_star(13))
    assert "13" not in str(info.value)


# ---------------------------------------------------------------- 7. ergm_statistics

BAD_GRAPHS = {
    "directed": np.triu(np.ones((5, 5), dtype=np.uint8), 1),
    "weighted": (np.ones((4, 4)) - np.eye(4)) * 0.5,
    "self-loop": np.eye(4, dtype=np.uint8),
    "negative": -(np.ones((4, 4), dtype=int) - np.eye(4, dtype=int)),
    "complex": (np.ones((4, 4)) - np.eye(4)).astype(complex),
    "nan": np.full((4, 4), np.nan),
    "inf": np.where(np.eye(4) > 0, 0.0, np.inf),
    "non-square": np.zeros((3, 4)),
    "1-D": np.zeros(4),
    "one node": np.zeros((1, 1)),
    "ragged list": [[0, 1], [1]],
    "string": "graph",
    "none": None,
    "batch": [np.zeros((3, 3))] * 2,
    "directed networkx": nx.DiGraph([(0, 1), (1, 2)]),
}


@pytest.mark.parametrize("kind", sorted(BAD_GRAPHS))
def test_ergm_statistics_refuses_what_is_not_a_simple_graph(kind):
    with pytest.raises((ValueError, TypeError)):
        ergm_statistics(BAD_GRAPHS[kind], ["edges", "altkstars", "altktriangles"])


def test_ergm_statistics_takes_every_container_of_the_contract():
    A = _random_graph(9, 0.4, 1)
    terms = ["edges", "altkstars", ("altktriangles", 1.5), "altktwopaths"]
    expected = ergm_statistics(A, terms)
    for X in (A.tolist(), sp.csr_matrix(A), sp.coo_array(A), nx.from_numpy_array(A)):
        np.testing.assert_allclose(ergm_statistics(X, terms), expected, rtol=1e-15)


def _exact_statistics(A, decay):
    """altkstars, altktriangles, altktwopaths by their definitions, in rational arithmetic."""
    lam = Fraction(decay)
    B = A.astype(int)
    L = B @ B
    stars = sum(sum((-1) ** k * comb(int(d), k) / lam ** (k - 2) for k in range(2, int(d) + 1))
                for d in B.sum(1))
    tri = two = Fraction(0)
    for i, j in itertools.combinations(range(B.shape[0]), 2):
        t = int(L[i, j])
        v = sum((-1) ** (k + 1) * comb(t, k) / lam ** (k - 1) for k in range(1, t + 1))
        two += v
        tri += v if B[i, j] else 0
    return [float(stars), float(tri), float(two)]


DECAYS = [1.0, 1.0000001, 1.5, 2.0, 3.0, 7.3, 11.0, 1e3, 123456.7, 1e9, 1e17, 1e100, 1e300,
          1.7e308]


@pytest.mark.parametrize("decay", DECAYS)
def test_alternating_sums_are_exact_for_every_decay(decay):
    # The fuzz round found ("altkstars", 1e9) at 1636 for 109 and altktriangles at 0 from
    # decay 1e17 on: cancellation of the closed forms and r = 1 - 1/decay rounding to 1.
    for n, p, seed in ((12, 0.35, 0), (12, 0.8, 1), (9, 1.0, 2)):
        A = _random_graph(n, p, seed)
        got = ergm_statistics(A, [("altkstars", decay), ("altktriangles", decay),
                                  ("altktwopaths", decay)])
        np.testing.assert_allclose(got, _exact_statistics(A, decay), rtol=4e-15, atol=0)


@pytest.mark.parametrize("decay", [0.5, 0.999, 0.0, -2.0, math.inf, math.nan, "2", 1 + 1j])
def test_decays_below_one_or_not_finite_are_refused(decay):
    with pytest.raises(ValueError, match="decay"):
        ergm_statistics(_random_graph(5, 0.5, 0), [("altkstars", decay)])


def test_the_chain_keeps_the_exact_statistics_at_large_decays():
    # The sampler's change statistics read 1 - r^t from tables computed without cancellation:
    # at decay 1e17, 1 - r ** t was 0 and the chain's altkstars never moved.
    terms = [("altkstars", 1e17), ("altktriangles", 1e17), ("altktwopaths", 1e12),
             ("altkstars", 3.0)]
    chain = ERGMChain(np.zeros((12, 12), dtype=np.uint8), terms)
    chain.run([0.0, 0.0, 0.0, 0.0], 3000, np.random.default_rng(0))
    assert chain.n_edges > 0
    np.testing.assert_allclose(chain.statistics, ergm_statistics(chain.A, terms), rtol=1e-12)


def test_the_release_refuses_kstar_decays_its_tables_cannot_resolve():
    A = _random_graph(10, 0.4, 0)
    ok = ERGMStatisticsRelease([("altkstars", _MAX_KSTAR_DECAY)], epsilon=math.inf,
                               max_degree=9).fit_transform(A)
    truth = ergm_statistics(A, [("altkstars", _MAX_KSTAR_DECAY)])
    np.testing.assert_allclose(ok.values, truth, rtol=1e-6)
    with pytest.raises(ValueError, match="2\\^30"):
        ERGMStatisticsRelease([("altkstars", 1e17)], max_degree=3).fit()
    # the other alternating terms stay exact at any decay (their tables hold r^t, not 1 - r^t)
    r = ERGMStatisticsRelease([("altktriangles", 1e17)], epsilon=math.inf,
                              max_degree=9).fit_transform(A)
    np.testing.assert_allclose(r.values, ergm_statistics(A, [("altktriangles", 1e17)]),
                               rtol=1e-12)


# ------------------------------------------------------------- 8. the node-level guard

@pytest.mark.parametrize("log2_eps", [-496, -480, -450, -300, -40])
@pytest.mark.parametrize("k", [1, 10 ** 6])
def test_node_level_scale_is_finite_or_refused(log2_eps, k):
    A = _random_graph(10, 0.3, 0)
    mech = ERGMStatisticsRelease(["edges", "altktwopaths"], epsilon=2.0 ** log2_eps,
                                 level="node", max_degree=k, random_state=0)
    try:
        release = mech.fit_transform(A)
    except ValueError as exc:
        assert "epsilon" in str(exc) and "float range" in str(exc)
        assert log2_eps <= -450  # only where the scale truly leaves float range
        return
    assert np.isfinite(release.values).all()


def test_the_guard_counts_the_sensitivity():
    # beta = 2^-497 passed the old beta-only guard; with k = 10^6 the scale overflowed to inf.
    with pytest.raises(ValueError, match="too small"):
        ERGMStatisticsRelease(["edges", "altktwopaths"], epsilon=2.0 ** -496, level="node",
                              max_degree=10 ** 6).fit()
    # with k = 1 the same epsilon's scale is finite (about 2^995): released
    r = ERGMStatisticsRelease(["edges"], epsilon=2.0 ** -480, level="node", max_degree=1,
                              random_state=0).fit_transform(_random_graph(6, 0.5, 0))
    assert np.isfinite(r.values).all()


# --------------------------------------------------------------------- 10. memory

def test_node_level_release_with_a_huge_degree_bound_allocates_nothing_of_size_k():
    A = _random_graph(30, 0.2, 0)
    mech = ERGMStatisticsRelease(["edges", "altkstars"], level="node", max_degree=10 ** 9,
                                 random_state=0).fit()
    raised, peak = _peak_bytes(lambda: mech.transform(A))
    assert raised is None and peak < 20e6  # bincount(minlength=k) took 7.45 GiB


@pytest.mark.parametrize("call", [
    lambda: sample_ergm(["edges"], [0.0], n_nodes=3000, n_steps=1),
    lambda: ERGM(n_steps=1).fit_transform(3000),
    lambda: PrivateERGM(["edges"], epsilon=1.0, max_degree=3, **FAST).fit_release(
        ERGMStatisticsRelease(["edges"], max_degree=3, random_state=0).fit_transform(
            np.zeros((4, 4), dtype=np.uint8)), n_nodes=3000),
    lambda: bayes_ergm(["edges"], observation=_laplace_observation(), n_nodes=3000, **FAST),
], ids=["sample_ergm", "ERGM", "PrivateERGM.fit_release", "bayes_ergm"])
def test_the_empty_start_is_allocated_only_after_the_memory_check(monkeypatch, call):
    _small_memory(monkeypatch, 20_000_000)  # half of it: 10 MB, below 17 bytes x 3000^2
    raised, peak = _peak_bytes(call)
    assert isinstance(raised, ValueError) and "GB" in str(raised), raised
    assert peak < 3_000_000  # the 9 MB empty graph was allocated before the check


def _laplace_observation():
    from tdadp.ergm import Observation
    return Observation.laplace([10.0], [1.0])


@pytest.mark.parametrize("n_nodes", [10 ** 9, 10 ** 400])
def test_huge_node_counts_are_refused_with_the_memory_they_need(n_nodes):
    with pytest.raises(ValueError, match="GB"):
        sample_ergm(["edges"], [0.0], n_nodes=n_nodes)
    with pytest.raises(ValueError, match="GB"):
        PrivateERGM(["edges"], epsilon=1.0, max_degree=3).fit_release(
            ERGMStatisticsRelease(["edges"], max_degree=3, random_state=0).fit_transform(
                np.zeros((4, 4), dtype=np.uint8)), n_nodes=n_nodes)


def _sparse_graph(n, avg_degree, seed):
    rng = np.random.default_rng(seed)
    m = n * avg_degree // 2
    i, j = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = i != j
    B = sp.coo_matrix((np.ones(keep.sum(), np.uint8), (i[keep], j[keep])), shape=(n, n))
    B = ((B + B.T) > 0).astype(np.uint8).tocsr()
    return B


def test_shared_partners_are_counted_sparsely_on_a_large_graph():
    terms = ["edges", "altkstars", "altktriangles", "altktwopaths"]
    B = _sparse_graph(100_000, 6, 0)  # dense n x n: 74.5 GiB of shared partners
    raised, peak = _peak_bytes(lambda: ergm_statistics(B, terms))
    assert raised is None and peak < 100e6
    # the same numbers as the sparse matrix product on a graph where that is affordable
    C = _sparse_graph(3000, 8, 1)
    P = (C.astype(np.int64) @ C.astype(np.int64)).tolil()
    P.setdiag(0)
    P = sp.triu(P.tocsr(), 1).tocsr()
    on_edges = P.multiply(C).tocsr()
    tri = 2.0 * np.sum(1 - 0.5 ** on_edges.data)
    two = 2.0 * np.sum(1 - 0.5 ** P.data)
    got = ergm_statistics(C, terms)
    np.testing.assert_allclose(got[2:], [tri, two], rtol=1e-12)


def test_shared_partners_refuse_with_the_memory_they_need(monkeypatch):
    B = _sparse_graph(20_000, 6, 0)
    _small_memory(monkeypatch, 100_000)
    with pytest.raises(ValueError, match="shared partners .* GB"):
        ergm_statistics(B, ["altktriangles"])
    assert ergm_statistics(B, ["edges"])[0] == B.nnz // 2  # no shared partners needed


# --------------------------------------------------------------------- 13. "secure"

STATS = ["edges", ("altktriangles", 1.0)]


@pytest.fixture(scope="module")
def graph():
    return sample_ergm(STATS, [-2.0, 0.5], n_nodes=12, random_state=0)


MECHANISMS = {
    "restricted-edge": dict(epsilon=4.0, max_degree=6),
    "restricted-node": dict(epsilon=4.0, level="node", max_degree=6),
    "local": dict(epsilon=4.0, mechanism="local"),
    "flip": dict(epsilon=4.0, mechanism="flip"),
    "nonprivate": dict(),
    "population": dict(epsilon=4.0, max_degree=6, method="population", n_chains=3),
}


_PYTHON_RANDOM = ("random", "getrandbits", "randint", "randrange", "uniform", "gauss",
                  "choice", "shuffle", "sample")


@contextlib.contextmanager
def no_seeded_generators():
    """Inside: building a numpy generator or drawing from Python's ``random`` is an error (as
    ``tests/test_secure_randomness.py`` checks the release mechanisms)."""
    def refuse(*args, **kwargs):
        raise AssertionError("a seeded generator was used for a secure release")
    saved = [(np.random, "default_rng", np.random.default_rng)]
    saved += [(random, name, getattr(random, name)) for name in _PYTHON_RANDOM]
    for owner, name, _ in saved:
        setattr(owner, name, refuse)
    try:
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_private_ergm_secure_for_every_mechanism(graph, name, monkeypatch):
    seen = []
    for cls in (ERGMStatisticsRelease, EdgeFlip):
        original = cls._release

        def spy(self, A, rng, original=original):
            seen.append(rng)
            with no_seeded_generators():
                return original(self, A, rng)
        monkeypatch.setattr(cls, "_release", spy)
    est = PrivateERGM(STATS, random_state="secure", **FAST, **MECHANISMS[name]).fit(graph)
    assert np.isfinite(est.coef_).all()
    # every release draw came from the OS (never a numpy Generator)
    assert all(isinstance(rng, OSRandom) for rng in seen)
    assert len(seen) == (0 if name == "nonprivate" else 1)
    if name != "nonprivate":
        again = PrivateERGM(STATS, random_state="secure", **FAST,
                            **MECHANISMS[name]).fit_release(est.release_, n_nodes=12)
        assert np.isfinite(again.coef_).all()


def test_secure_release_builds_no_numpy_generator(graph):
    with no_seeded_generators():
        for kwargs in (dict(max_degree=6), dict(level="node", max_degree=6),
                       dict(method="local")):
            r = ERGMStatisticsRelease(STATS, random_state="secure",
                                      **kwargs).fit_transform(graph)
            assert np.isfinite(r.values).all()
        r = ergm_statistics_release(graph, STATS, 1.0, max_degree=6, random_state="secure")
        assert np.isfinite(r.values).all()


def _fake_urandom(seed):
    rng = np.random.Generator(np.random.PCG64(seed))
    return lambda n: rng.bytes(n)


SECURE_CALLS = {
    "sample_ergm": lambda A: sample_ergm(STATS, [-2.0, 0.5], n_nodes=12, n_steps=2000,
                                         random_state="secure"),
    "ERGM": lambda A: np.stack(ERGM(STATS, [-2.0, 0.5], n_steps=2000,
                                    random_state="secure").fit_transform([12, A])),
    "bayes_ergm": lambda A: bayes_ergm(STATS, graph=A, random_state="secure", **FAST).draws,
    "bayes_ergm population": lambda A: bayes_ergm(STATS, graph=A, method="population",
                                                  random_state="secure", **FAST).draws,
    "ERGMStatisticsRelease": lambda A: ERGMStatisticsRelease(
        STATS, level="node", max_degree=6, random_state="secure").fit_transform(A).values,
    "PrivateERGM": lambda A: PrivateERGM(STATS, epsilon=4.0, max_degree=6,
                                         random_state="secure", **FAST).fit(A).posterior_,
    "PrivateERGM flip": lambda A: PrivateERGM(STATS, epsilon=4.0, mechanism="flip",
                                              random_state="secure", **FAST).fit(A).posterior_,
}


@pytest.mark.parametrize("name", sorted(SECURE_CALLS))
def test_secure_draws_come_from_the_os_only(graph, name, monkeypatch):
    """Every random choice of a "secure" call derives from os.urandom: the same OS bytes give
    the same result, other OS bytes another (no seeded or numpy-entropy generator sneaks in:
    either would break the first, a fixed seed the second)."""
    call = SECURE_CALLS[name]
    runs = []
    for seed in (1, 1, 2):
        monkeypatch.setattr(os, "urandom", _fake_urandom(seed))
        runs.append(np.asarray(call(graph)))
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])


def test_secure_is_accepted_by_every_ergm_entry_point(graph):
    assert sample_ergm(["edges"], [-1.0], n_nodes=6, random_state="secure").shape == (6, 6)
    assert ERGM(random_state="secure", n_steps=10).fit_transform(6).shape == (6, 6)
    post = bayes_ergm(["edges"], graph=graph, random_state="secure", **FAST)
    assert np.isfinite(post.draws).all()


# ------------------------------------------------------------- 15. sample_ergm, ERGM

@pytest.mark.parametrize("kwargs", [
    dict(n_nodes=2.5), dict(n_nodes="10"), dict(n_nodes=10.0), dict(n_nodes=True),
    dict(n_nodes=1), dict(n_nodes=-3), dict(n_nodes=np.float64(10.0)),
    dict(n_nodes=5, n_steps=10.7), dict(n_nodes=5, n_steps="5"), dict(n_nodes=5, n_steps=-1),
    dict(n_nodes=5, n_steps=10 ** 400),
    dict(n_nodes=5, max_degree=2.5), dict(n_nodes=5, max_degree=0),
    dict(n_nodes=5, max_degree=10 ** 400), dict(n_nodes=5, max_degree="3"),
    dict(n_nodes=5, random_state="urandom"), dict(n_nodes=5, random_state=-1),
], ids=str)
def test_sample_ergm_counts_must_be_integers(kwargs):
    with pytest.raises((ValueError, TypeError)) as info:
        sample_ergm(["edges"], [-1.0], **kwargs)
    assert not isinstance(info.value, OverflowError)
    assert next(iter(kwargs if len(kwargs) == 1 else list(kwargs)[1:])) in str(info.value)


def test_a_start_graph_must_agree_with_n_nodes():
    A = _random_graph(5, 0.5, 0)
    with pytest.raises(ValueError, match="n_nodes=7 but the starting graph has 5 nodes"):
        sample_ergm(["edges"], [-1.0], n_nodes=7, start=A)
    B = sample_ergm(["edges"], [-1.0], n_nodes=5, start=A, n_steps=0)
    np.testing.assert_array_equal(B, A)


@pytest.mark.parametrize("labels", [[0, "a", 0, "a"], [True, 0, 1, 1], [0, None, 1, 1],
                                    [1.5, "x", 1.5, "x"], ["a", b"a", "a", "b"],
                                    [[0], [1], [0], [1]], "abcd", {0: 1}])
def test_mixed_or_malformed_labels_are_refused(labels):
    with pytest.raises(ValueError, match="labels"):
        sample_ergm(["edges", "nodematch"], [-1.0, 0.0], n_nodes=4, labels=labels)
    with pytest.raises(ValueError, match="labels"):
        parse_terms(["nodefactor"], labels=labels, n_nodes=4)


@pytest.mark.parametrize("labels", [[0, 1, 0, 1], ["a", "b", "a", "b"], [0.5, 1.5, 0.5, 1.5],
                                    np.array([3, 4, 3, 4]), (False, True, False, True),
                                    np.array(["x", "y", "x", "y"], dtype=object)])
def test_labels_of_one_type_pass(labels):
    terms = parse_terms(["nodematch", "nodefactor"], labels=labels, n_nodes=4)
    # one column of level codes per labelled term, both reading the one label vector
    np.testing.assert_array_equal(terms.labels, [[0, 0], [1, 1], [0, 0], [1, 1]])


def test_a_networkx_graph_is_one_graph():
    G = nx.Graph([(10, 20), (20, 30)])  # node labels that look like node counts
    out = ERGM(n_steps=0).fit_transform(G)
    np.testing.assert_array_equal(out, nx.to_numpy_array(G, dtype=np.uint8))
    both = ERGM(n_steps=0).fit_transform([G, 4, G])
    assert [b.shape for b in both] == [(3, 3), (4, 4), (3, 3)]
    np.testing.assert_array_equal(both[2], out)
    np.testing.assert_array_equal(
        sample_ergm(["edges"], [0.0], start=G, n_steps=0), out)
