import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

import tdadp
from tdadp import EdgeFlip, LaplaceFlip, edge_flip, flip_probability, laplace_flip


@pytest.fixture(scope="module")
def graph():
    return tdadp.sample_grdpg(tdadp.circle(600, random_state=0), random_state=1)


def _flip_fraction(A, B):
    iu = np.triu_indices(A.shape[0], 1)
    A = A.toarray() if sp.issparse(A) else A
    B = B.toarray() if sp.issparse(B) else B
    return np.count_nonzero(A[iu] != B[iu]) / iu[0].size, iu[0].size


def test_flip_probability_values_and_stability():
    assert flip_probability(1.0) == pytest.approx(0.2689414, abs=1e-7)
    assert flip_probability(3.0) == pytest.approx(0.0474259, abs=1e-7)
    assert flip_probability(0.0) == 0.5
    assert flip_probability(np.inf) == 0.0
    # No overflow warning and no underflow to a wrong value for huge eps.
    assert 0 < flip_probability(700.0) < 1e-300
    np.testing.assert_allclose(flip_probability([0.0, 1.0]), [0.5, 0.2689414], atol=1e-7)
    assert tdadp.laplace_flip_probability(1.0) == pytest.approx(0.3033, abs=1e-4)
    assert tdadp.laplace_flip_probability(4.0) == pytest.approx(0.0677, abs=1e-4)


@pytest.mark.parametrize("bad", [-1.0, np.nan, "1", None])
def test_bad_epsilon(bad, graph):
    with pytest.raises(ValueError, match="epsilon"):
        edge_flip(graph, bad)
    if bad is not None and bad != "1":
        with pytest.raises(ValueError, match="epsilon"):
            flip_probability(bad)


@pytest.mark.parametrize("storage", ["dense", "sparse"])
@pytest.mark.parametrize("mechanism, rate", [
    (EdgeFlip, flip_probability), (LaplaceFlip, tdadp.laplace_flip_probability)])
@pytest.mark.parametrize("eps", [0.5, 1.0, 3.0])
def test_flip_rate_matches_within_binomial_error(graph, storage, mechanism, rate, eps):
    A = sp.csr_matrix(graph) if storage == "sparse" else graph
    B = mechanism(eps, random_state=11).fit_transform(A)
    assert sp.issparse(B) == (storage == "sparse")
    frac, N = _flip_fraction(A, B)
    p = rate(eps)
    # two-sided binomial test at level 1e-4
    assert stats.binomtest(int(round(frac * N)), N, p).pvalue > 1e-4


@pytest.mark.parametrize("secure", [False, True])
def test_edgeflip_rate_flips_both_ways(graph, secure):
    rs = "secure" if secure else 3
    B = edge_flip(graph, 1.0, random_state=rs)
    iu = np.triu_indices(graph.shape[0], 1)
    a, b = graph[iu], B[iu]
    p = flip_probability(1.0)
    for value in (0, 1):
        sel = a == value
        res = stats.binomtest(int((b[sel] != value).sum()), int(sel.sum()), p)
        assert res.pvalue > 1e-4


def test_eps_zero_gives_density_half_and_inf_identity(graph):
    for storage in (graph, sp.csr_matrix(graph)):
        B = edge_flip(storage, 0.0, random_state=0)
        B = B.toarray() if sp.issparse(B) else B
        iu = np.triu_indices(graph.shape[0], 1)
        N = iu[0].size
        assert stats.binomtest(int(B[iu].sum()), N, 0.5).pvalue > 1e-4
        same = edge_flip(storage, np.inf, random_state=0)
        same = same.toarray() if sp.issparse(same) else same
        np.testing.assert_array_equal(same, graph)


def test_output_is_a_simple_graph_and_input_untouched(graph):
    before = graph.copy()
    for mech in (EdgeFlip(1.0, random_state=0), LaplaceFlip(1.0, random_state=0)):
        B = mech.fit_transform(graph)
        assert B.dtype == np.uint8
        assert np.array_equal(B, B.T) and not B.diagonal().any()
    np.testing.assert_array_equal(graph, before)


def test_reproducibility_and_batches(graph):
    a = edge_flip(graph, 1.0, random_state=4)
    b = edge_flip(graph, 1.0, random_state=4)
    c = edge_flip(graph, 1.0, random_state=5)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    batch = EdgeFlip(1.0, random_state=4).fit_transform([graph, graph, graph])
    par = EdgeFlip(1.0, random_state=4, n_jobs=2).fit_transform([graph, graph, graph])
    np.testing.assert_array_equal(batch[0], a)
    assert not np.array_equal(batch[0], batch[1])
    for x, y in zip(batch, par):
        np.testing.assert_array_equal(x, y)
    # secure randomness is never reproducible
    s1 = edge_flip(graph, 1.0, random_state="secure")
    s2 = edge_flip(graph, 1.0, random_state="secure")
    assert not np.array_equal(s1, s2)


def test_guarantee_and_no_input_kept(graph):
    mech = EdgeFlip(2.0, random_state=0).fit(graph)
    g = mech.guarantee_
    assert g.epsilon == 2.0 and g.unit == "edge"
    assert g.flip_probability == pytest.approx(flip_probability(2.0))
    assert "2-edge-local differential privacy" in g.describe()
    released = mech.transform(graph)
    blob = pickle.dumps(mech)
    assert len(blob) < 2000
    assert graph.tobytes()[:4096] not in blob
    for value in vars(mech).values():
        assert not isinstance(value, np.ndarray) and not sp.issparse(value)
    assert released.shape == graph.shape


@pytest.mark.parametrize(
    "A, msg",
    [
        (np.array([[0, 1], [0, 0]]), "symmetric"),
        (np.array([[0, 2], [2, 0]]), "binary|entries other than 0 and 1"),
        (np.array([[0.0, np.nan], [np.nan, 0.0]]), "NaN"),
        (np.array([[1, 0], [0, 0]]), "diagonal"),
        (np.zeros((3, 2)), "square"),
        (np.zeros(3), "2-D"),
        (sp.csr_matrix(np.array([[0, 1], [0, 0]])), "symmetric"),
        (sp.csr_matrix(np.array([[0, 3], [3, 0]])), "binary|entries other than 0 and 1"),
        ("not a graph", "expected"),
    ],
)
def test_bad_graphs(A, msg):
    with pytest.raises(ValueError, match=msg):
        edge_flip(A, 1.0)
    with pytest.raises(ValueError, match=msg):
        laplace_flip(A, 1.0)


def test_bad_random_state(graph):
    with pytest.raises(ValueError, match="random_state"):
        edge_flip(graph, 1.0, random_state="os")
    with pytest.raises(ValueError, match="RandomState"):
        edge_flip(graph, 1.0, random_state=np.random.RandomState(0))


def test_networkx_graph_input():
    nx = pytest.importorskip("networkx")
    G = nx.Graph(nx.karate_club_graph().edges())  # the edges, without their weights
    B = edge_flip(G, np.inf)
    assert sp.issparse(B)
    assert B.sum() / 2 == G.number_of_edges()
