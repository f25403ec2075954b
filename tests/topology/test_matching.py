import networkx as nx
import numpy as np
import pytest
from scipy import sparse
from scipy.sparse.csgraph import maximum_bipartite_matching as scipy_matching

from tdadp.topology._matching import covers_all, maximum_matching


def maximum_bipartite_matching(G):
    """:func:`maximum_matching` of a biadjacency matrix (scipy's calling convention)."""
    C = sparse.coo_matrix(G)
    return maximum_matching(C.row, C.col, *C.shape)


def assert_valid_matching(G, match):
    """``match`` pairs each row with at most one adjacent column, each column used once."""
    dense = G.toarray() != 0
    rows = np.flatnonzero(match >= 0)
    assert match.shape == (G.shape[0],)
    assert np.unique(match[rows]).size == rows.size
    assert dense[rows, match[rows]].all()


def layered_graph(levels, chain=None):
    """The graph of scipy issue 26147, built so that scipy's greedy first phase leaves it
    layered.

    Rows 2d, 2d + 1 (level d + 1) are adjacent to columns 2d, 2d + 1 and to the two columns of
    the next level; the last level ends in no free column. A chain of single rows, each
    adjacent to its column and the next, ends in a free column, so the phase's shortest
    augmenting path is ``chain + 1`` long and the search explores the levels below it. Row
    ``s`` (adjacent to the first level's columns) and the chain's root ``t`` stay free; every
    other row is matched: the maximum matching has all rows but one.
    """
    chain = levels if chain is None else chain
    n_level = 2 * levels
    edges = []
    for d in range(levels):
        for r in (2 * d, 2 * d + 1):
            for c in range(2 * d, min(2 * d + 4, n_level)):
                edges.append((r, c))
    for k in range(chain):
        edges += [(n_level + k, n_level + k), (n_level + k, n_level + k + 1)]
    s, t = n_level + chain, n_level + chain + 1
    edges += [(s, 0), (s, 1), (t, n_level)]
    i, j = np.array(edges).T
    shape = (n_level + chain + 2, n_level + chain + 1)
    return sparse.csr_matrix((np.ones(i.size), (i, j)), shape=shape)


def test_random_graphs_match_scipy_and_networkx():
    rng = np.random.default_rng(0)
    for _ in range(120):
        n, m = rng.integers(0, 25, size=2)
        G = sparse.random(n, m, density=rng.random() * 0.3, format="csr", random_state=rng)
        match = maximum_bipartite_matching(G)
        assert_valid_matching(G, match)
        assert (match >= 0).sum() == (scipy_matching(G, perm_type="column") >= 0).sum()
        B = nx.bipartite.from_biadjacency_matrix(G)
        reference = nx.bipartite.hopcroft_karp_matching(B, top_nodes=range(n))
        assert (match >= 0).sum() == len(reference) // 2


def test_larger_random_graph_matches_networkx():
    rng = np.random.default_rng(1)
    n, m = 2000, 1800
    G = sparse.random(n, m, density=2.0 / m, format="csr", random_state=rng)
    match = maximum_bipartite_matching(G)
    assert_valid_matching(G, match)
    B = nx.bipartite.from_biadjacency_matrix(G)
    assert (match >= 0).sum() == len(nx.bipartite.hopcroft_karp_matching(B, range(n))) // 2


def test_small_and_empty_graphs():
    assert maximum_bipartite_matching(np.array([[1, 1], [1, 0]])).tolist() == [1, 0]
    assert maximum_matching([], [], 0, 3).shape == (0,)
    assert maximum_matching([], [], 2, 0).tolist() == [-1, -1]
    assert maximum_matching([0, 0, 1], [1, 1, 1], 2, 2).tolist() in ([1, -1], [-1, 1])


@pytest.mark.parametrize(("i", "j", "n_rows", "n_cols", "match"), [
    ([0, 1], [0], 2, 2, "one row and one column per edge"),
    ([0, 2], [0, 1], 2, 2, "i must hold indices in 0..1"),
    ([0, 1], [0, -1], 2, 2, "j must hold indices in 0..1"),
])
def test_bad_edges_are_refused(i, j, n_rows, n_cols, match):
    with pytest.raises(ValueError, match=match):
        maximum_matching(i, j, n_rows, n_cols)


def test_layered_graph_scipy_agrees_when_shallow():
    G = layered_graph(8)
    match = maximum_bipartite_matching(G)
    assert_valid_matching(G, match)
    assert (match >= 0).sum() == (scipy_matching(G, perm_type="column") >= 0).sum()
    assert (match >= 0).sum() == G.shape[0] - 1


def test_layered_graph_deep_is_matched():
    """60 levels: scipy's search expands level d 2^d times (about 2^61 row visits, centuries);
    with dead ends marked each row is searched once a phase."""
    G = layered_graph(60)
    match = maximum_bipartite_matching(G)
    assert_valid_matching(G, match)
    assert (match >= 0).sum() == G.shape[0] - 1


def test_long_augmenting_path_needs_no_recursion():
    # Row k is adjacent to columns k and k + 1 and takes column k in the greedy start; the
    # last row, adjacent to column 0 only, then needs the one augmenting path through all
    # 200,000 rows: a recursive search would overflow the stack here.
    n = 200_000
    i = np.r_[np.arange(n), np.arange(n), n]
    j = np.r_[np.arange(n), np.arange(n) + 1, 0]
    G = sparse.csr_matrix((np.ones(i.size), (i, j)), shape=(n + 1, n + 1))
    match = maximum_bipartite_matching(G)
    assert (match >= 0).all()
    assert match[n] == 0 and match[0] == 1 and match[n - 1] == n


@pytest.mark.parametrize(("i", "j", "n_rows", "n_cols", "expected"), [
    ([0, 1], [0, 0], 2, 1, False),            # more rows than columns
    ([0, 1, 1], [0, 0, 1], 2, 2, True),
    ([0, 0], [0, 1], 2, 2, False),            # row 1 has no edge
    ([], [], 0, 3, True),
    ([0, 0, 1], [1, 1, 1], 2, 3, False),      # duplicate edges, one column for two rows
])
def test_covers_all(i, j, n_rows, n_cols, expected):
    assert covers_all(np.array(i, dtype=np.int64), np.array(j, dtype=np.int64),
                      n_rows, n_cols) is expected


def test_covers_all_on_layered_graph():
    G = layered_graph(50)
    C = G.tocoo()
    assert not covers_all(C.row, C.col, G.shape[0], G.shape[1])
    s = G.shape[0] - 2  # the row left out by every maximum matching
    C = G[np.r_[0:s, s + 1:G.shape[0]]].tocoo()
    assert covers_all(C.row, C.col, G.shape[0] - 1, G.shape[1])
