"""What a graph carries (node names, release) and when it stops carrying it."""

import copy
import pickle

import numpy as np
import scipy.sparse as sp

from tdadp.graphs import GraphArray, graph_guarantee, graph_nodes, tag_graph


def test_dense_tags_survive_copies_and_pickles_but_not_derived_arrays():
    B = tag_graph(np.eye(3, dtype=np.uint8), nodes=["a", "b", "c"], guarantee="g")
    assert isinstance(B, GraphArray)
    for kept in (B.copy(), copy.copy(B), copy.deepcopy(B), pickle.loads(pickle.dumps(B))):
        assert graph_nodes(kept) == ["a", "b", "c"] and graph_guarantee(kept) == "g"
    for derived in (B[:2, :2], 1 - B, B.astype(float), B.T, B.sum(axis=0)):
        assert graph_nodes(derived) is None and graph_guarantee(derived) is None
    # Reductions are plain numbers.
    assert type(B.mean()) is np.float64 and round(B.mean(), 3) == 0.333


def test_sparse_tags_and_plain_inputs():
    A = tag_graph(sp.csr_array(np.eye(3)), nodes=[1, 2, 3], guarantee="g")
    assert graph_nodes(A) == [1, 2, 3] and graph_guarantee(A) == "g"
    assert graph_nodes(pickle.loads(pickle.dumps(A))) == [1, 2, 3]
    assert graph_nodes(A @ A) is None
    assert graph_nodes(np.eye(3)) is None and graph_guarantee([[0, 1], [1, 0]]) is None
