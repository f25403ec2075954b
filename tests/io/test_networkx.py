import subprocess
import sys

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from tdadp.graphs import graph_nodes  # noqa: E402
from tdadp.io import from_networkx, is_networkx_graph, to_networkx  # noqa: E402
from tdadp.utils._validation import check_adjacency  # noqa: E402


def test_round_trip_and_labels():
    G = nx.karate_club_graph()  # weighted: the number of contexts two members share
    with pytest.raises(ValueError, match=r"weighted edges .*weights='binarize'"):
        from_networkx(G)
    heavy = sum(w != 1 for _, _, w in G.edges(data="weight"))
    with pytest.warns(UserWarning, match=f"binarized {heavy} weighted edges"):
        A, nodes = from_networkx(G, return_nodes=True, weights="binarize")
    check_adjacency(A)
    assert A.nnz == 2 * G.number_of_edges() and nodes == list(G.nodes)
    assert graph_nodes(A) == nodes
    H = to_networkx(A)  # the names come with A
    assert nx.utils.graphs_equal(nx.Graph(G.edges()), nx.Graph(H.edges()))
    W = from_networkx(G, weights="keep")
    assert nx.utils.edges_equal(to_networkx(W, weights="keep").edges(data="weight"),
                                G.edges(data="weight"))


def test_multigraph_parallel_edges_add_up_self_loops_counted():
    G = nx.MultiGraph()
    G.add_edge("a", "b", weight=5.0)
    G.add_edge("b", "a", weight=2.0)
    G.add_edge("b", "c")
    G.add_edge("c", "c")
    with pytest.raises(ValueError, match="1 self-loop .*self_loops='drop'"):
        from_networkx(G)
    with pytest.raises(ValueError, match=r"1 weighted edge "):
        from_networkx(G, self_loops="drop")
    with pytest.warns(UserWarning) as record:
        A = from_networkx(G, sparse=False, self_loops="drop", weights="binarize")
    assert [str(w.message) for w in record] == [
        "the networkx graph: dropped 1 self-loop (nonzero diagonal entries).",
        "the networkx graph: binarized 1 weighted edge (entries other than 0 and 1) (each is "
        "now an edge of weight 1).",
    ]
    np.testing.assert_array_equal(A, [[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    assert A.dtype == np.uint8
    W = from_networkx(G, sparse=False, self_loops="keep", weights="keep")
    np.testing.assert_array_equal(W, [[0, 7, 0], [7, 0, 1], [0, 1, 1]])
    # weight=None: every edge counts 1, parallel edges still add up.
    np.testing.assert_array_equal(
        from_networkx(G, sparse=False, self_loops="keep", weights="keep", weight=None),
        [[0, 2, 0], [2, 0, 1], [0, 1, 1]])


def test_nodelist_order_and_induced_subgraph():
    G = nx.path_graph(4)
    A = from_networkx(G, nodelist=[3, 2, 1], sparse=False)
    np.testing.assert_array_equal(A, [[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    with pytest.raises(ValueError, match="more than once"):
        from_networkx(G, nodelist=[0, 0, 1])
    with pytest.raises(ValueError, match="not a node"):
        from_networkx(G, nodelist=[0, 9])


def test_directed_refused():
    with pytest.raises(ValueError, match="to_undirected"):
        from_networkx(nx.DiGraph([(0, 1)]))


def test_bad_inputs():
    with pytest.raises(ValueError, match="networkx graph"):
        from_networkx(np.eye(3))
    with pytest.raises(ValueError, match="at least 2 nodes"):
        from_networkx(nx.empty_graph(1))
    with pytest.raises(ValueError, match="labels"):
        to_networkx(np.array([[0, 1], [1, 0]]), nodes=["a"])
    with pytest.raises(ValueError, match="symmetric"):
        to_networkx(np.array([[0, 1], [0, 0]]))
    G = nx.Graph()
    G.add_edge(0, 1, weight="heavy")
    with pytest.raises(ValueError, match=r"\(0, 1\) has weight='heavy'"):
        from_networkx(G)
    with pytest.raises(ValueError, match="weight must be"):
        from_networkx(nx.path_graph(3), weight=3)
    with pytest.raises(ValueError, match="weights"):
        from_networkx(nx.path_graph(3), weights="drop")


def test_isolated_nodes_kept():
    G = to_networkx(np.zeros((3, 3), dtype=np.uint8))
    assert G.number_of_nodes() == 3 and G.number_of_edges() == 0
    assert from_networkx(G).nnz == 0


def test_is_networkx_graph():
    assert is_networkx_graph(nx.Graph()) and is_networkx_graph(nx.MultiDiGraph())
    assert not is_networkx_graph(np.eye(2)) and not is_networkx_graph(None)


def test_importing_tdadp_io_does_not_import_networkx():
    code = "import sys, tdadp.io; print('networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
