"""PackedAdjacency (one bit per dyad) and sampling a gRDPG straight into it."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp import GRDPG, circle, sample_grdpg
from tdadp.graphs import PackedAdjacency, _packed, packed_layout
from tdadp.graphs._grdpg import sample_packed_block
from tdadp.io import graph_batch
from tdadp.utils import block_streams, check_random_state, stage_tag


@pytest.mark.parametrize("n", [0, 1, 2, 3, 63, 64, 65, 127, 128, 129, 300])
def test_dense_sparse_packed_round_trips(n):
    rng = np.random.default_rng(n)
    U = np.triu(rng.integers(0, 2, (n, n)), 1).astype(np.uint8)
    A = U + U.T
    P = PackedAdjacency.from_dense(A)
    first, offsets = packed_layout(n)
    assert P.words.size == offsets[-1] and P.nbytes <= n * (n - 1) / 16 + 16 * n + 8
    np.testing.assert_array_equal(P.toarray(), A)
    assert (P.tocsr() != sp.csr_matrix(A)).nnz == 0
    assert P.count_edges() == int(U.sum())
    assert pickle.loads(pickle.dumps(P)) == P and P.copy() == P
    if n >= 2:
        np.testing.assert_array_equal(P.upper_block(0, n), U)


@pytest.mark.parametrize("numpy_counts_bits", [True, False])
def test_edges_are_counted_in_chunks_with_or_without_bitwise_count(monkeypatch,
                                                                   numpy_counts_bits):
    # numpy < 2 has no bitwise_count: the fallback unpacked every bit of the graph at once
    # (8 bytes a dyad, 6 GiB of peak at n = 100,000).
    if not numpy_counts_bits:
        monkeypatch.delattr(np, "bitwise_count", raising=False)
    monkeypatch.setattr(_packed, "_COUNT_CHUNK", 1000)
    n = 700
    rng = np.random.default_rng(5)
    U = np.triu(rng.random((n, n)) < 0.6, 1).astype(np.uint8)
    P = PackedAdjacency.from_dense(U + U.T)
    assert P.words.size > 3 * 1000
    assert P.count_edges() == int(U.sum())
    words = P.words[:50]
    expected = [bin(int(w)).count("1") for w in words]
    np.testing.assert_array_equal(_packed._popcount(words), expected)


def test_packed_graphs_are_graphs_for_the_input_contract():
    P = PackedAdjacency.from_dense(np.array([[0, 1], [1, 0]], np.uint8), nodes=["a", "b"])
    assert graph_batch(P) == ([P], True) and graph_batch([P, P])[1] is False
    with pytest.raises(ValueError, match="at least 2"):
        graph_batch(PackedAdjacency(1))
    with pytest.raises(ValueError, match="2 node names for a graph with 3 nodes"):
        PackedAdjacency(3, nodes=["a", "b"])
    with pytest.raises(ValueError, match="needs .* uint64 words"):
        PackedAdjacency(3, np.zeros(5, np.uint64))


def test_packed_grdpg_has_the_law_of_the_dense_one():
    X = circle(2000, random_state=0)
    P = sample_grdpg(X, random_state=1, output="packed")
    assert isinstance(P, PackedAdjacency)
    Pr = np.asarray(X) @ np.asarray(X).T
    upper = np.triu(np.ones(Pr.shape, bool), 1)
    D = P.toarray()
    # Edge counts in bins of probability against their expectation (Poisson-binomial).
    bins = np.quantile(Pr[upper], np.linspace(0, 1, 6))
    for lo, hi in zip(bins[:-1], bins[1:]):
        at = upper & (Pr >= lo) & (Pr < hi)
        mean = Pr[at].sum()
        sd = np.sqrt((Pr[at] * (1 - Pr[at])).sum())
        assert abs(D[at].sum() - mean) < 5 * sd


def test_packed_grdpg_is_the_same_block_by_block_in_any_order():
    X = np.ascontiguousarray(circle(6000, random_state=0), dtype=float)
    whole = sample_grdpg(X, random_state=3, output="packed")
    rng = check_random_state(3, stage_tag("GRDPG"))
    out = PackedAdjacency(6000)
    blocks = out.block_ranges()
    pairs = list(zip(blocks, block_streams(rng, len(blocks))))
    assert len(pairs) == 5
    J = np.ones(X.shape[1])
    for (i0, i1), g in reversed(pairs):
        out.store_block_words(i0, sample_packed_block(X, J, 1.0, g, i0, i1))
    assert out == whole
    assert GRDPG(random_state=3, output="packed").fit_transform(X) == whole


def test_packed_grdpg_checks_probabilities_and_memory(monkeypatch):
    import tdadp.utils._memory as memory

    with pytest.raises(ValueError, match="outside \\[0, 1\\]"):
        sample_grdpg(np.full((100, 2), 1.0), output="packed")
    with pytest.raises(ValueError, match="disagree"):
        sample_grdpg(circle(50), sparse=True, output="packed")
    X = circle(300)
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 1000})
    with pytest.raises(ValueError, match="packed graph on 300 nodes would need"):
        sample_grdpg(X, output="packed")


def test_conversions_that_cannot_fit_are_refused_up_front(monkeypatch):
    import tdadp.utils._memory as memory

    P = PackedAdjacency.from_dense(np.ones((300, 300), np.uint8) - np.eye(300, dtype=np.uint8))
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 50_000})
    with pytest.raises(ValueError, match="dense copy of a packed graph on 300 nodes"):
        P.toarray()
    with pytest.raises(ValueError, match="sparse copy of a packed graph on 300 nodes"):
        P.tocsr()
