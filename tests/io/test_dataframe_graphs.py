"""DataFrames in the graph input contract: the pandas output of a graph stage read back.

graph_frame writes a graph as a DataFrame adjacency (node names as index and columns, the
release in attrs); every graph stage reads any DataFrame adjacency through the one input
contract, with its node names and release, and refuses one that is no adjacency.
"""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from tdadp import AdjacencySpectralEmbedding, EdgeFlip
from tdadp.datasets import load_karate
from tdadp.graphs import graph_guarantee, graph_nodes, tag_graph
from tdadp.io import from_networkx, graph_batch, graph_frame, one_graph, simple_graph


def _path(names=("a", "b", "c", "d")):
    return from_networkx(nx.path_graph(list(names)))


def test_round_trip_of_dense_and_sparse_releases():
    S = _path()
    guarantee = EdgeFlip(1.0).fit().guarantee_
    for A in (tag_graph(S.copy(), nodes=list("abcd"), guarantee=guarantee),
              tag_graph(S.toarray(), nodes=list("abcd"), guarantee=guarantee)):
        frame = graph_frame(A)
        assert list(frame.index) == list(frame.columns) == list("abcd")
        assert frame.attrs == {"guarantee": guarantee}
        assert isinstance(frame.dtypes.iloc[0], pd.SparseDtype) == sp.issparse(A)
        (back,), single = graph_batch(frame)
        assert single and sp.issparse(back) == sp.issparse(A)
        np.testing.assert_array_equal(back.toarray() if sp.issparse(back) else back,
                                      S.toarray())
        assert graph_nodes(back) == list("abcd") and graph_guarantee(back) is guarantee
    # a graph without names: RangeIndex(n), read back as no names
    frame = graph_frame(S.toarray())
    assert isinstance(frame.index, pd.RangeIndex) and "guarantee" not in frame.attrs
    assert graph_nodes(one_graph(frame)) is None


def test_any_dataframe_adjacency_is_a_graph_with_its_names():
    G = nx.relabel_nodes(load_karate(), {i: f"m{i}" for i in range(34)})
    frame = nx.to_pandas_adjacency(G, dtype=float)  # networkx's own DataFrame form
    A = one_graph(frame)
    assert graph_nodes(A) == list(G.nodes) and A.dtype == np.uint8
    np.testing.assert_array_equal(A, from_networkx(G).toarray())
    # a batch of DataFrames, mixed with other containers
    items, single = graph_batch([frame, from_networkx(G), frame.to_numpy()])
    assert not single and [graph_nodes(x) for x in items] == [list(G.nodes)] * 2 + [None]
    # the embedding (the weighted contract) reads weights from a DataFrame like any matrix
    W = frame * 2.5
    out = AdjacencySpectralEmbedding(n_components=2).set_output(transform="pandas")
    emb = out.fit_transform(W)
    assert list(emb.index) == list(G.nodes)
    np.testing.assert_allclose(
        emb.to_numpy(),
        AdjacencySpectralEmbedding(n_components=2).fit_transform(W.to_numpy()))


def test_simple_graph_opts_in_on_a_dataframe_and_keeps_the_names():
    frame = pd.DataFrame([[0, 2, 0], [2, 0, 1], [0, 1, 0]], index=list("xyz"),
                         columns=list("xyz"))
    with pytest.raises(ValueError, match="1 weighted edge"):
        one_graph(frame)
    with pytest.warns(UserWarning, match="binariz"):
        A = simple_graph(frame, weights="binarize")
    assert graph_nodes(A) == list("xyz") and A.tolist() == [[0, 1, 0], [1, 0, 1], [0, 1, 0]]


def _square(values, names):
    return pd.DataFrame(values, index=list(names), columns=list(names))


@pytest.mark.parametrize("frame, match", [
    (pd.DataFrame(np.zeros((3, 2), dtype=int)), r"must be square.*shape \(3, 2\)"),
    (pd.DataFrame(np.eye(3, dtype=int)[::-1] * 0, index=list("abc"), columns=list("acb")),
     "same node names, in the same order"),
    (pd.DataFrame(np.zeros((3, 3), dtype=int), index=list("abc"), columns=list("xyz")),
     "same node names"),
    (_square(np.zeros((3, 3), dtype=int), "aab"), "1 duplicate name"),
    (_square([[0, 1, 0], [1, 0, 3], [0, 3, 0]], "abc"), "1 weighted edge"),
    (_square([[0, 0.5], [0.5, 0]], "ab"), "1 weighted edge"),
    (_square([[0, -1], [-1, 0]], "ab"), "1 weighted edge"),
    (_square([[1, 1], [1, 0]], "ab"), "1 self-loop"),
    (_square([[0, 1], [0, 0]], "ab"), "symmetric"),
    (_square([["0", "1"], ["1", "0"]], "ab"), "must be numeric"),
    (_square([[0, np.nan], [np.nan, 0]], "ab"), "NaN"),
], ids=["not square", "reordered columns", "other columns", "duplicate names", "weights",
        "fractions", "negative", "self-loop", "directed", "strings", "NaN"])
def test_a_dataframe_that_is_no_simple_graph_is_refused_clearly(frame, match):
    for call in (one_graph, lambda X: graph_batch(X), EdgeFlip(1.0).fit_transform):
        with pytest.raises(ValueError, match=match):
            call(frame)
    with pytest.raises(ValueError, match=match):
        graph_batch([frame, frame])


def test_a_guarantee_attribute_must_be_a_guarantee():
    frame = _square([[0, 1], [1, 0]], "ab")
    frame.attrs["guarantee"] = {"epsilon": 1.0}
    with pytest.raises(ValueError, match=r"attrs\['guarantee'\].*PrivacyGuarantee.*dict"):
        one_graph(frame)
