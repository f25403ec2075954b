"""Directed input: an edge list of arcs and a networkx DiGraph are refused unless ``directed=``
chooses the undirected graph, with the same names and the same graphs as networkx."""

import io
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp.io import from_networkx, read_edgelist

nx = pytest.importorskip("networkx")

# 1 <-> 2 and 3 <-> 4 reciprocated; 2 -> 3, 4 -> 5, 5 -> 1 one way; (5, 6) listed twice
ARCS = [(1, 2), (2, 1), (2, 3), (3, 4), (4, 3), (4, 5), (5, 1), (5, 6), (5, 6)]


def _text(arcs, sep=" "):
    return "".join(f"{u}{sep}{v}\n" for u, v in arcs)


def _read(text, **kw):
    return read_edgelist(io.StringIO(text), **kw)


def _same_csr(A, B):
    assert A.format == B.format == "csr" and A.dtype == B.dtype and A.shape == B.shape
    for name in ("indptr", "indices", "data"):
        assert np.array_equal(getattr(A, name), getattr(B, name)), name


def test_directed_list_refused_with_counts_and_the_fix():
    with pytest.raises(ValueError, match="looks directed") as info:
        _read(_text(ARCS))
    message = str(info.value)
    assert "2 pair(s) of nodes are linked in both directions, 4 in one direction only" \
        in message
    assert "directed='symmetrize'" in message and "directed='mutual'" in message
    # a ValueError carrying the counts, for a caller to word its own fix (the command line);
    # by name: the doctest run imports the private module a second time
    assert type(info.value).__name__ == "DirectedEdgesError"
    assert (info.value.reciprocated, info.value.one_way) == (2, 4)
    # counts and the fix only: no node label of the (private) file
    assert not any(ch.isdigit() for ch in message.replace("2 pair(s)", "")
                   .replace("4 in one", ""))


def test_symmetrize_and_mutual_are_networkx_to_undirected():
    D = nx.DiGraph(ARCS)
    nodes = sorted(D)
    for directed, H in [("symmetrize", D.to_undirected()),
                        ("mutual", D.to_undirected(reciprocal=True))]:
        A, labels = _read(_text(ARCS), directed=directed, return_nodes=True)
        assert labels == nodes
        _same_csr(A, from_networkx(H, nodelist=nodes))
        _same_csr(from_networkx(D, nodelist=nodes, directed=directed),
                  from_networkx(H, nodelist=nodes))
    # mutual keeps the nodes of the one-way arcs, isolated
    M = _read(_text(ARCS), directed="mutual", sparse=False)
    assert M.shape == (6, 6) and M.sum() == 4


@pytest.mark.parametrize("arcs", [
    [(1, 2), (2, 3), (4, 3), (1, 3)],                       # each edge once, either way
    [(1, 2), (2, 1), (3, 2), (2, 3), (4, 3), (3, 4)],       # each edge in both directions
    [(1, 2), (1, 2), (3, 2), (2, 2)],                       # repeats and a self-loop
])
def test_undirected_lists_read_as_before(arcs):
    text = _text(arcs, sep=",")
    loops = "drop" if any(u == v for u, v in arcs) else "error"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        A, nodes = _read(text, return_nodes=True, self_loops=loops)
        # "symmetrize" is what every edge list got before directed= existed
        B, old_nodes = _read(text, return_nodes=True, self_loops=loops,
                             directed="symmetrize")
        D = _read(text, sparse=False, self_loops=loops)
    _same_csr(A, B)
    assert nodes == old_nodes
    G = nx.Graph([(u, v) for u, v in arcs if u != v])
    G.add_nodes_from(u for u, _ in arcs)
    np.testing.assert_array_equal(D, nx.to_numpy_array(G, nodelist=nodes, dtype=np.uint8))


def test_self_loops_are_neither_reciprocated_nor_one_way():
    with pytest.raises(ValueError, match="1 self-loop"):
        _read("1 2\n2 1\n3 3\n")  # undirected listing: only the self-loop is refused
    A = _read("1 2\n2 1\n2 2\n3 1\n", directed="mutual", self_loops="keep", sparse=False)
    np.testing.assert_array_equal(A, [[0, 1, 0], [1, 1, 0], [0, 0, 0]])


def test_the_two_arcs_of_an_edge_must_have_one_weight():
    text = "a b 2\nb a 2\nb c 1\n"
    W = _read(text, directed="symmetrize", weights="keep", sparse=False)
    np.testing.assert_array_equal(W, [[0, 2, 0], [2, 0, 1], [0, 1, 0]])
    with pytest.raises(ValueError, match="different weights"):
        _read("a b 2\nb a 3\nb c 1\n", directed="symmetrize", weights="keep")


def test_bad_directed_value_refused():
    with pytest.raises(ValueError, match="directed"):
        _read("1 2\n", directed=True)
    with pytest.raises(ValueError, match="directed"):
        from_networkx(nx.DiGraph([(0, 1)]), directed="both")


def test_digraph_refused_even_when_every_arc_is_reciprocated():
    D = nx.DiGraph([(0, 1), (1, 0), (1, 2), (2, 1)])
    with pytest.raises(ValueError, match="G is directed: 2 pair") as info:
        from_networkx(D)
    assert "to_undirected" in str(info.value) and "from_networkx(G, directed=" \
        in str(info.value)
    A = from_networkx(D, directed="symmetrize")
    _same_csr(A, from_networkx(D, directed="mutual"))
    _same_csr(A, from_networkx(nx.path_graph(3)))


def test_multidigraph_parallel_arcs_add_up_then_pair_as_networkx():
    M = nx.MultiDiGraph([(0, 1), (1, 0), (1, 2), (1, 2)])
    for directed, H in [("symmetrize", M.to_undirected()),
                        ("mutual", M.to_undirected(reciprocal=True))]:
        got = from_networkx(M, directed=directed, weights="keep", nodelist=[0, 1, 2])
        want = from_networkx(H, weights="keep", nodelist=[0, 1, 2])
        assert sp.issparse(got) and np.array_equal(got.toarray(), want.toarray())
    np.testing.assert_array_equal(
        from_networkx(M, directed="symmetrize", weights="keep").toarray(),
        [[0, 1, 0], [1, 0, 2], [0, 2, 0]])
    # two arcs one way and one the other: which weight? networkx's answer depends on keys
    with pytest.raises(ValueError, match="different weights"):
        from_networkx(nx.MultiDiGraph([(0, 1), (0, 1), (1, 0)]), directed="symmetrize",
                      weights="keep")


def test_undirected_networkx_graph_ignores_directed():
    G = nx.karate_club_graph()
    _same_csr(from_networkx(G, weight=None, directed="mutual"), from_networkx(G, weight=None))
