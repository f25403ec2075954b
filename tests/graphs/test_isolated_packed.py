"""isolated_nodes on a packed graph (a row OR and a column OR of the words, no degree count)
marks exactly the nodes with degree 0, across word and row boundaries."""

import numpy as np
import pytest

from tdadp.graphs import PackedAdjacency, isolated_nodes


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 127, 128, 129, 200])
@pytest.mark.parametrize("p", [0.0, 0.005, 0.03, 0.5])
def test_the_packed_mask_is_degree_zero(n, p):
    rng = np.random.default_rng(n * 1000 + int(1000 * p))
    U = np.triu(rng.random((n, n)) < p, 1)
    A = (U | U.T).astype(np.uint8)
    P = PackedAdjacency.from_dense(A)
    expected = A.sum(axis=1) == 0
    np.testing.assert_array_equal(isolated_nodes(P), expected)
    np.testing.assert_array_equal(isolated_nodes(P), P.degrees() == 0)


@pytest.mark.parametrize("n", [65, 130])
def test_an_edge_seen_only_in_a_column_or_only_in_a_row_counts(n):
    # Node n - 1 stores no bit of its own (its neighbours are all earlier): only the column
    # OR sees it; node 0 appears in no column: only its row sees it. Node 64 starts a word.
    P = PackedAdjacency.from_edges(n, [0, 63], [n - 1, 64])
    mask = isolated_nodes(P)
    assert np.flatnonzero(~mask).tolist() == sorted({0, 63, 64, n - 1})
