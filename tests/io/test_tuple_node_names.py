"""Tuple node names through pandas output and back: one label a node, the exact objects.

pandas makes a list of tuples a MultiIndex: names of different lengths came back padded with
NaN (``('a',)`` as ``('a', nan, nan)``), names of one length as a MultiIndex.
"""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from tdadp import AdjacencySpectralEmbedding, EdgeFlip
from tdadp.graphs import graph_nodes, tag_graph
from tdadp.io import graph_batch, graph_frame, one_graph

NAMES = {
    "mixed lengths": [(0, 1), ("a",), (2, 3, 4)],
    "one length": [(0, 1), ("a", "b"), (2, 3)],
}


def _path(names):
    G = nx.Graph()
    G.add_nodes_from(names)
    G.add_edges_from(zip(names[:-1], names[1:]))
    return G


def _exact(index, names):
    assert not isinstance(index, pd.MultiIndex)
    assert index.nlevels == 1 and len(index) == len(names)
    assert all(type(a) is type(b) and a == b for a, b in zip(index, names))


@pytest.mark.parametrize("kind", list(NAMES))
def test_a_release_frame_is_indexed_by_the_names_and_reads_back_as_them(kind):
    names = NAMES[kind]
    frame = EdgeFlip(epsilon=700, random_state=0).set_output(
        transform="pandas").fit_transform(_path(names))
    _exact(frame.index, names)
    _exact(frame.columns, names)
    assert graph_nodes(one_graph(frame)) == names
    (back,), _ = graph_batch(frame)
    assert graph_nodes(back) == names


@pytest.mark.parametrize("kind", list(NAMES))
@pytest.mark.parametrize("sparse", [False, True])
def test_graph_frame_round_trip(kind, sparse):
    names = NAMES[kind]
    A = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=np.uint8)
    frame = graph_frame(tag_graph(sp.csr_matrix(A) if sparse else A, nodes=names))
    _exact(frame.index, names)
    back = one_graph(frame)
    assert graph_nodes(back) == names
    np.testing.assert_array_equal(back.toarray() if sp.issparse(back) else back, A)


@pytest.mark.parametrize("kind", list(NAMES))
def test_an_embedding_frame_is_indexed_by_the_names(kind):
    names = NAMES[kind]
    release = EdgeFlip(epsilon=700, random_state=0).set_output(
        transform="pandas").fit_transform(_path(names))
    # the release frame read by the next stage: its names go on to the embedding
    embedding = AdjacencySpectralEmbedding(n_components=1).set_output(
        transform="pandas").fit_transform(release)
    _exact(embedding.index, names)
