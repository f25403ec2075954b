"""Releases into packed form (one bit per dyad): law, blocks, the "auto" rule, guards."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

import tdadp.release._plan as plan_module
from tdadp import EdgeFlip, LaplaceFlip, circle, edge_flip, sample_grdpg
from tdadp.graphs import PackedAdjacency, graph_guarantee, graph_nodes
from tdadp.release import flip_block
from tdadp.utils import block_streams, item_streams, stage_tag

P_MIN = 1e-6


@pytest.fixture(scope="module")
def graph():
    return sample_grdpg(circle(300, random_state=0), random_state=1)


def _dense(B):
    return B.toarray() if hasattr(B, "toarray") else np.asarray(B)


@pytest.mark.parametrize("kind", ["dense", "sparse", "packed"])
def test_packed_release_of_every_input_kind_has_the_stated_law(graph, kind):
    A = {"dense": graph, "sparse": sp.csr_matrix(graph),
         "packed": PackedAdjacency.from_dense(graph)}[kind]
    mech = EdgeFlip(1.0, random_state=2, output="packed").fit()
    B = mech.transform(A)
    assert isinstance(B, PackedAdjacency) and graph_guarantee(B) == mech.guarantee_
    D = B.toarray()
    assert np.array_equal(D, D.T) and not D.diagonal().any()
    upper = np.triu(np.ones_like(graph, dtype=bool), 1)
    r = mech.flip_probability_
    for present in (0, 1):
        at = upper & (graph == present)
        flipped = int((D[at] != present).sum())
        assert stats.binomtest(flipped, int(at.sum()), r).pvalue > P_MIN


def test_packed_release_is_the_same_block_by_block_in_any_order():
    n = 6000  # blocks of 1398 rows: five blocks
    mech = EdgeFlip(1.0, random_state=5, output="packed").fit()
    whole = mech.transform(PackedAdjacency(n))
    # The graph's stream (item 0 of the mechanism's batch), split into one stream per block,
    # each block computed on its own and in reverse order, as workers would.
    (stream,) = item_streams(5, [0], stage_tag("EdgeFlip"))
    out = PackedAdjacency(n)
    blocks = out.block_ranges()
    pairs = list(zip(blocks, block_streams(stream, len(blocks))))
    assert len(pairs) == 5
    for (i0, i1), g in reversed(pairs):
        out.store_block_words(i0, flip_block(g, mech.flip_probability_, n, i0, i1))
    assert out == whole


def test_flip_block_realizes_the_rate_exactly_at_the_extremes():
    class Zero:
        def random(self, size):
            return np.zeros(size)

    class Smallest:
        def random(self, size):
            return np.full(size, 2.0 ** -53)

    n = 130
    words = flip_block(Zero(), 2.0 ** -53, n, 0, 3)
    bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")[:, :n]
    assert bits[0, 1:].all() and not bits[0, 0] and bits[2, 3:].all() and not bits[2, :3].any()
    assert not np.unpackbits(flip_block(Smallest(), 2.0 ** -53, n, 0, 3).view(np.uint8)).any()


def _memory_left(monkeypatch, nbytes):
    monkeypatch.setattr(plan_module, "memory_limits", lambda: {"a test budget": nbytes})


def test_auto_keeps_the_kind_that_fits_and_falls_back_to_packed(graph, monkeypatch):
    S = sp.csr_matrix(graph)
    empty = sp.csr_matrix(graph.shape, dtype=np.uint8)
    assert sp.issparse(edge_flip(S, 1.0, random_state=0))
    assert isinstance(edge_flip(graph, 1.0, random_state=0), np.ndarray)
    # The sparse release is planned for the largest graph on 300 nodes (44,850 edges plus
    # the flips, at 104 bytes: 5.9 MB), whatever the input's own edges: with 5 MB left it
    # falls back to packed (17 KB) for a full graph and for an empty one alike.
    _memory_left(monkeypatch, 5_000_000)
    assert isinstance(edge_flip(S, 1.0, random_state=0), PackedAdjacency)
    assert isinstance(edge_flip(empty, 1.0, random_state=0), PackedAdjacency)
    assert isinstance(edge_flip(graph, 1.0, random_state=0), np.ndarray)  # 90 KB fits
    # A public bound on the edges plans for fewer: an empty graph's release stays sparse.
    assert sp.issparse(edge_flip(empty, 1.0, random_state=0, max_edges=0))
    _memory_left(monkeypatch, 100_000)
    assert isinstance(edge_flip(graph, 1.0, random_state=0), PackedAdjacency)


def test_a_kind_that_cannot_fit_is_refused_up_front(graph, monkeypatch):
    _memory_left(monkeypatch, 10_000)
    with pytest.raises(ValueError, match="would need about .* test budget"):
        edge_flip(sp.csr_matrix(graph), 1.0, random_state=0, output="sparse")
    with pytest.raises(ValueError, match="as a packed graph .* would need"):
        edge_flip(sp.csr_matrix(graph), 1.0, random_state=0, output="packed")


def test_nodes_and_guarantee_travel_and_secure_mode_works(graph):
    names = [f"v{i}" for i in range(graph.shape[0])]
    P = PackedAdjacency.from_dense(graph, nodes=names)
    B = LaplaceFlip(2.0, random_state="secure", output="packed").fit_transform(P)
    assert graph_nodes(B) == names and graph_guarantee(B).mechanism == "LaplaceFlip"
    assert edge_flip(P, np.inf, output="packed") == P
    with pytest.raises(ValueError, match="output"):
        EdgeFlip(1.0, output="bits").fit()


def test_count_releases_of_a_packed_graph_equal_those_of_its_dense_copy(graph):
    from tdadp.release import DegreeSequence, LaplaceEdgeCount, ProjectedCount

    P = PackedAdjacency.from_dense(graph)
    for mech in (LaplaceEdgeCount(np.inf), DegreeSequence(np.inf),
                 DegreeSequence(np.inf, histogram=True),
                 ProjectedCount("kstars", max_degree=5, epsilon=np.inf)):
        mech.fit()
        np.testing.assert_array_equal(mech.transform(P), mech.transform(graph))
    assert LaplaceEdgeCount(np.inf).fit_transform(P) == int(np.triu(graph, 1).sum())
