"""One input contract for graphs: every container gets the same answer.

A graph with self-loops and weights is given as a dense array, a nested list, every scipy
sparse format in both the matrix and the array API, a networkx graph and an edge list; each
path must refuse it with the same message, drop/binarize it the same way when asked, and read
the same weighted matrix (diagonal included) for the embedding.
"""

import io
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from tdadp.graphs import GraphArray, graph_nodes, tag_graph
from tdadp.io import from_networkx, graph_batch, read_edgelist, simple_graph

# Node 0-1 weight 2.5, 1-2 weight 1, 2-3 weight 0.5, self-loops at 1 (weight 1) and 3 (4).
W = np.array([[0.0, 2.5, 0.0, 0.0],
              [2.5, 1.0, 1.0, 0.0],
              [0.0, 1.0, 0.0, 0.5],
              [0.0, 0.0, 0.5, 4.0]])
SIMPLE = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]], dtype=np.uint8)

# Counts and the fix, never the nodes or the weights: the graph may be private.
LOOPS_MESSAGE = ("A has 2 self-loops (nonzero diagonal entries); a simple graph has none. To "
                 "drop them, say so: tdadp.io.simple_graph(A, self_loops='drop').")
WEIGHTS_MESSAGE = ("A has 2 weighted edges (entries other than 0 and 1); a simple graph's edges "
                   "have weight 1. To make every nonzero weight an edge, say so: "
                   "tdadp.io.simple_graph(A, weights='binarize').")


def _networkx(M):
    G = nx.Graph()
    G.add_nodes_from(range(len(M)))
    for i, j in zip(*np.nonzero(np.triu(M))):
        G.add_edge(int(i), int(j), weight=float(M[i, j]))
    return G


def _edgelist(M):
    lines = [f"{i},{j},{M[i, j]:g}" for i, j in zip(*np.nonzero(np.triu(M)))]
    return read_edgelist(io.StringIO("source,target,weight\n" + "\n".join(lines)),
                         self_loops="keep", weights="keep")


CONTAINERS = {
    "ndarray": lambda M: M.copy(),
    "float32": lambda M: M.astype(np.float32),
    "nested list": lambda M: M.tolist(),
    "networkx": _networkx,
    "edge list": _edgelist,
    **{name: getattr(sp, name)
       for name in (f"{fmt}_{api}" for fmt in ("csr", "csc", "coo", "lil", "dok", "bsr", "dia")
                    for api in ("matrix", "array"))},
}
NAMES = sorted(CONTAINERS)


def _dense(A):
    return A.toarray() if sp.issparse(A) else np.asarray(A)


@pytest.mark.parametrize("container", NAMES)
def test_a_simple_graph_is_the_same_everywhere(container):
    (A,), single = graph_batch(CONTAINERS[container](SIMPLE))
    assert single and A.dtype == np.uint8
    np.testing.assert_array_equal(_dense(A), SIMPLE)


@pytest.mark.parametrize("container", NAMES)
def test_self_loops_are_refused_with_the_same_message(container):
    X = CONTAINERS[container](W)
    with pytest.raises(ValueError) as err:
        graph_batch(X)
    assert str(err.value) == LOOPS_MESSAGE
    with pytest.raises(ValueError) as err:
        simple_graph(X)
    assert str(err.value).replace("the networkx graph", "A").replace(
        "from_networkx(G,", "tdadp.io.simple_graph(A,") == LOOPS_MESSAGE


@pytest.mark.parametrize("container", NAMES)
def test_weights_are_refused_with_the_same_message(container):
    no_loops = W - np.diag(np.diag(W))
    with pytest.raises(ValueError) as err:
        graph_batch(CONTAINERS[container](no_loops))
    assert str(err.value) == WEIGHTS_MESSAGE


@pytest.mark.parametrize("container", NAMES)
def test_the_opt_ins_give_the_same_graph_and_say_so(container):
    X = CONTAINERS[container](W)
    with pytest.warns(UserWarning) as record:
        A = simple_graph(X, self_loops="drop", weights="binarize")
    messages = [str(w.message) for w in record]
    assert len(messages) == 2
    assert "dropped 2 self-loops" in messages[0] and "node" not in messages[0]
    assert "binarized 2 weighted edges" in messages[1]
    assert A.dtype == np.uint8
    np.testing.assert_array_equal(_dense(A), SIMPLE)
    if sp.issparse(X):  # the sparse API of the input is kept
        assert isinstance(A, sp.sparray) == isinstance(X, sp.sparray)
    # Keeping self-loops (weight 1 at node 1 stays, the weight-4 loop is binarized).
    with pytest.warns(UserWarning, match="binarized 3 weighted edges"):
        K = simple_graph(X, self_loops="keep", weights="binarize")
    np.testing.assert_array_equal(_dense(K), SIMPLE + np.diag([0, 1, 0, 1]))


@pytest.mark.parametrize("container", NAMES)
def test_weighted_kind_reads_the_same_matrix_diagonal_included(container):
    (A,), _ = graph_batch(CONTAINERS[container](W), kind="weighted")
    np.testing.assert_array_equal(_dense(A), W)


def test_weighted_kind_accepts_rounding_asymmetry_and_refuses_real_asymmetry():
    K = np.exp(-np.subtract.outer(np.arange(5.0), np.arange(5.0)) ** 2)
    K[0, 1] += 1e-13
    (A,), _ = graph_batch(K, kind="weighted")
    assert A.dtype == np.float64
    K[0, 1] += 1e-3
    with pytest.raises(ValueError, match="symmetric"):
        graph_batch(K, kind="weighted")
    with pytest.raises(ValueError, match="kind"):
        graph_batch(K, kind="directed")


def test_networkx_and_matrix_paths_agree_on_every_option():
    G = _networkx(W)
    for self_loops in ("drop", "keep"):
        for weights in ("binarize", "keep"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                a = from_networkx(G, self_loops=self_loops, weights=weights, sparse=False)
                b = simple_graph(W, self_loops=self_loops, weights=weights)
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)


def _quotes_nothing_private(message, names):
    # A refusal counts what is wrong; it never names a node or quotes a weight.
    return not any(repr(x) in message for x in names) and "2.5" not in message \
        and "0.5" not in message


def test_messages_count_without_naming_nodes_and_names_are_kept():
    G = nx.relabel_nodes(_networkx(W), dict(enumerate("abcd")))
    with pytest.raises(ValueError, match="2 self-loops") as info:
        graph_batch(G)
    assert _quotes_nothing_private(str(info.value), "abcd")
    with pytest.raises(ValueError, match="2 weighted edges") as info:
        graph_batch(nx.relabel_nodes(_networkx(W - np.diag(np.diag(W))), dict(enumerate("abcd"))))
    assert _quotes_nothing_private(str(info.value), "abcd")
    (A,), _ = graph_batch(G, kind="weighted")
    assert graph_nodes(A) == list("abcd")
    # A dense graph carrying names is judged by them too, and keeps them.
    tagged = tag_graph(W.copy(), nodes=list("wxyz"))
    with pytest.raises(ValueError, match="2 self-loops") as info:
        graph_batch(tagged)
    assert _quotes_nothing_private(str(info.value), "wxyz")
    with pytest.warns(UserWarning) as record:
        S = simple_graph(tagged, self_loops="drop", weights="binarize")
    assert all(_quotes_nothing_private(str(r.message), "wxyz") for r in record)
    assert isinstance(S, GraphArray) and S.nodes == list("wxyz")


def test_a_batch_names_its_graphs():
    with pytest.raises(ValueError, match="^graph 1 has 2 self-loops"):
        graph_batch([SIMPLE, W])


def test_validate_false_gives_the_raw_containers():
    X = [sp.csr_array(SIMPLE), SIMPLE, _networkx(W)]
    items, single = graph_batch(X, validate=False)
    assert not single and items[0] is X[0] and items[1] is X[1]
    np.testing.assert_array_equal(items[2].toarray(), W)  # networkx: its exact matrix


BAD = {
    "complex": (SIMPLE.astype(complex), "Complex data not supported"),
    "strings": (SIMPLE.astype(str), "must be numeric, got strings"),
    "object": (SIMPLE.astype(object), "must be numeric"),
    "nan": (np.where(SIMPLE == 1, np.nan, 0.0), "NaN"),
    "inf": (np.where(SIMPLE == 1, np.inf, 0.0), "infinite"),
    "rectangular": (SIMPLE[:, :3], "square"),
    "1-D": (SIMPLE[0], "2-D"),
    "one node": (SIMPLE[:1, :1], "at least 2 nodes"),
    "empty": (np.zeros((0, 0)), "empty"),
    "asymmetric": (np.triu(SIMPLE), "symmetric"),
    "ragged": ([[0, 1], [1]], "2-D"),
    "sparse complex": (sp.csr_array(SIMPLE.astype(complex)), "Complex data not supported"),
    "sparse nan": (sp.coo_matrix(np.where(SIMPLE == 1, np.nan, 0.0)), "NaN"),
    "sparse rectangular": (sp.csr_matrix(SIMPLE[:, :3]), "square"),
    "sparse 1-D": (sp.coo_array(SIMPLE[0]), "2-D"),
}


@pytest.mark.parametrize("kind", ["simple", "weighted"])
@pytest.mark.parametrize("bad", sorted(BAD))
def test_bad_matrices_are_refused_clearly(bad, kind):
    X, match = BAD[bad]
    with pytest.raises(ValueError, match=match):
        graph_batch(X, kind=kind)


def test_bad_networkx_graphs_are_refused_clearly():
    with pytest.raises(ValueError, match="to_undirected"):
        graph_batch(nx.DiGraph([(0, 1)]))
    G = nx.path_graph(3)
    G.add_edge(0, 1, weight=1 + 2j)
    with pytest.raises(ValueError, match="not a finite real number"):
        graph_batch(G, kind="weighted")
    G.add_edge(0, 1, weight=float("nan"))
    with pytest.raises(ValueError, match="weight=nan"):
        graph_batch(G, kind="weighted")
