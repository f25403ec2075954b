"""PackedAdjacency conversions: dense, sparse, edge lists, networkx, degrees, pickling."""

import pickle

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from tdadp import EdgeFlip
from tdadp.graphs import PackedAdjacency, graph_guarantee, graph_nodes, tag_graph
from tdadp.graphs._packed_kernels import degrees_reference
from tdadp.io import to_networkx

SIZES = [0, 1, 2, 3, 63, 64, 65, 127, 128, 129, 130, 300]


def _graph(n, density=0.3, seed=None):
    rng = np.random.default_rng(n if seed is None else seed)
    U = np.triu(rng.random((n, n)) < density, 1).astype(np.uint8)
    return U + U.T


def _reference_csr(P):
    # The obvious construction: nonzeros of every unpacked block, mirrored, sorted by scipy.
    rows, cols = [], []
    for i0, i1 in P.block_ranges():
        r, c = np.nonzero(P.upper_block(i0, i1))
        rows.append(r + i0)
        cols.append(c)
    r = np.concatenate(rows + [np.empty(0, int)])
    c = np.concatenate(cols + [np.empty(0, int)])
    S = sp.csr_matrix((np.ones(2 * r.size, np.uint8), (np.r_[r, c], np.r_[c, r])),
                      shape=P.shape)
    S.sort_indices()
    return S


@pytest.mark.parametrize("n", SIZES)
def test_every_construction_gives_the_same_graph(n):
    A = _graph(n)
    P = PackedAdjacency.from_dense(A)
    i, j = np.nonzero(np.triu(A, 1))
    assert PackedAdjacency.from_edges(n, i, j) == P
    # Either orientation, repeats, shuffled: still the same edges.
    order = np.random.default_rng(1).permutation(2 * i.size)
    both_i, both_j = np.r_[i, j][order], np.r_[j, i][order]
    assert PackedAdjacency.from_edges(n, both_i, both_j) == P
    if n >= 2:  # the input contract wants at least 2 nodes
        for fmt in ("csr", "csc", "coo", "lil"):
            assert PackedAdjacency.from_sparse(sp.csr_matrix(A).asformat(fmt)) == P
        assert PackedAdjacency.from_sparse(sp.csr_array(A)) == P
    np.testing.assert_array_equal(P.toarray(), A)
    np.testing.assert_array_equal(P.degrees(), A.sum(axis=1))
    np.testing.assert_array_equal(degrees_reference(P), A.sum(axis=1))
    assert P.count_edges() == int(A.sum()) // 2


@pytest.mark.parametrize("n", SIZES)
def test_tocsr_is_the_sorted_csr_of_the_graph(n):
    A = _graph(n, density=0.6)
    P = PackedAdjacency.from_dense(A)
    S = P.tocsr()
    R = _reference_csr(P)
    assert S.shape == (n, n) and S.dtype == np.uint8 and S.indices.dtype == np.int32
    np.testing.assert_array_equal(S.indptr, R.indptr)
    np.testing.assert_array_equal(S.indices, R.indices)
    assert S.has_canonical_format and (sp.csr_matrix(A) != S).nnz == 0


def test_counts_without_bitwise_count(monkeypatch):
    A = _graph(200)
    P = PackedAdjacency.from_dense(A)
    monkeypatch.delattr(np, "bitwise_count", raising=False)
    np.testing.assert_array_equal(P.degrees(), A.sum(axis=1))
    assert P.count_edges() == int(A.sum()) // 2


def test_a_graph_spanning_several_row_blocks():
    # 3,000 nodes: row blocks of 2,796 rows, so columns of the second block's rows get
    # contributions from both blocks.
    A = _graph(3000, density=0.01)
    P = PackedAdjacency.from_sparse(sp.csr_matrix(A))
    assert len(P.block_ranges()) == 2
    np.testing.assert_array_equal(P.degrees(), A.sum(axis=1))
    np.testing.assert_array_equal(degrees_reference(P), A.sum(axis=1))
    assert (P.tocsr() != sp.csr_matrix(A)).nnz == 0


def test_from_sparse_judges_the_input_by_the_contract():
    A = _graph(10).astype(float)
    B = A.copy()
    B[0, 5] = 1 - B[0, 5]  # no longer symmetric
    with pytest.raises(ValueError, match="symmetric"):
        PackedAdjacency.from_sparse(sp.csr_matrix(B))
    B = A.copy()
    B[2, 2] = 1
    with pytest.raises(ValueError, match="self-loop"):
        PackedAdjacency.from_sparse(sp.csr_matrix(B))
    B = A.copy()
    B[1, 2] = B[2, 1] = 2.5
    with pytest.raises(ValueError, match="weighted edge"):
        PackedAdjacency.from_sparse(sp.csr_matrix(B))
    with pytest.raises(ValueError, match="expects a scipy sparse matrix"):
        PackedAdjacency.from_sparse(A)
    with pytest.raises(ValueError, match="must be square"):
        PackedAdjacency.from_dense(np.zeros((2, 3)))


def test_from_edges_refuses_what_is_not_a_simple_graph():
    with pytest.raises(ValueError, match="1 self-loop") as info:
        PackedAdjacency.from_edges(3, [0, 2], [1, 2], nodes=["a", "b", "c"])
    assert "'c'" not in str(info.value)  # counts, never a private node
    with pytest.raises(ValueError, match="outside 0 .. 2"):
        PackedAdjacency.from_edges(3, [0, 3], [1, 1])
    with pytest.raises(ValueError, match="outside 0 .. 2"):
        PackedAdjacency.from_edges(3, [0, -1], [1, 1])
    with pytest.raises(ValueError, match="integer node indices"):
        PackedAdjacency.from_edges(3, [0.0], [1.0])
    with pytest.raises(ValueError, match="one length"):
        PackedAdjacency.from_edges(3, [0, 1], [1])
    assert PackedAdjacency.from_edges(5, [], []).count_edges() == 0


def test_conversions_keep_what_the_graph_carries():
    A = _graph(70)
    names = [f"n{i}" for i in range(70)]
    release = EdgeFlip(1.0).fit()
    tagged = tag_graph(sp.csr_matrix(A), nodes=names, guarantee="a guarantee")
    P = PackedAdjacency.from_sparse(tagged)
    assert P.nodes == names and P.guarantee == "a guarantee"
    Q = PackedAdjacency.from_dense(tag_graph(A, nodes=names))
    assert Q.nodes == names and Q.guarantee is None
    R = EdgeFlip(1.0, random_state=0, output="packed").fit_transform(Q)
    assert graph_nodes(R) == names and graph_guarantee(R) == release.guarantee_
    back = pickle.loads(pickle.dumps(R))
    assert back == R and back.nodes == names and back.guarantee == R.guarantee


def test_to_networkx_takes_packed_graphs():
    A = _graph(130)
    names = [f"n{i}" for i in range(130)]
    P = PackedAdjacency.from_dense(A, nodes=names)
    G = to_networkx(P)
    assert list(G.nodes) == names
    expected = nx.from_numpy_array(A)
    assert G.number_of_edges() == expected.number_of_edges()
    assert {frozenset((names[a], names[b])) for a, b in expected.edges()} == \
        {frozenset(e) for e in G.edges()}
    H = to_networkx(P, nodes=range(130), weights="keep")
    assert set(H.edges()) == set(expected.edges())
    assert {d["weight"] for *_, d in H.edges(data=True)} == {1.0}
    with pytest.raises(ValueError, match="at least 2 nodes"):
        to_networkx(PackedAdjacency(1))
    with pytest.raises(ValueError, match="3 labels for a matrix with 130 rows"):
        to_networkx(P, nodes=[1, 2, 3])


def test_conversions_that_cannot_fit_are_refused(monkeypatch):
    import tdadp.utils._memory as memory

    P = PackedAdjacency.from_dense(_graph(300, density=0.9))
    # 300 * 300 = 90 KB dense; about 40,000 edges: 400 KB sparse, 10 MB networkx.
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 100_000})
    with pytest.raises(ValueError, match="networkx graph of a packed graph on 300 nodes"):
        to_networkx(P)
    with pytest.raises(ValueError, match="sparse copy of a packed graph on 300 nodes"):
        P.tocsr()
    with pytest.raises(ValueError, match="dense copy of a packed graph on 300 nodes"):
        P.toarray()
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 200_000})
    assert P.toarray().shape == (300, 300)  # 90 KB: half the budget fits
