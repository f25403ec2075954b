"""The embedding marks isolated nodes, and its verbose progress changes nothing."""

import pickle

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from tdadp import (
    AdjacencySpectralEmbedding,
    EdgeFlip,
    adjacency_spectral_embedding,
    circle,
    from_networkx,
    sample_grdpg,
)
from tdadp.datasets import load_polbooks
from tdadp.graphs import PackedAdjacency
from tdadp.graphs import _isolated as isolated_module
from tdadp.latent import LatentPositions, get_isolated

ISOLATED = ["isolated 1", "isolated 2", "isolated 3"]


@pytest.fixture(scope="module")
def polbooks_plus_3():
    G = load_polbooks()
    G.add_nodes_from(ISOLATED)
    return G


def test_isolated_nodes_of_a_real_network_are_marked(polbooks_plus_3):
    G = polbooks_plus_3
    est = AdjacencySpectralEmbedding(n_components=3)
    X = est.fit_transform(from_networkx(G))
    names = list(G.nodes)
    rows = [names.index(v) for v in ISOLATED]
    assert isinstance(X, LatentPositions)
    assert X.isolated.dtype == bool and X.isolated.shape == (G.number_of_nodes(),)
    assert np.flatnonzero(X.isolated).tolist() == rows
    assert est.n_isolated_ == 3
    # The plain embedding puts them at the origin: what the mark is for.
    np.testing.assert_array_equal(X[rows], 0.0)
    # Rows selected keep their part of the mask; pickling keeps it; a plain array drops it.
    assert X[rows[0]:].isolated.sum() == 3 and X[:rows[0]].isolated.sum() == 0
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(X)).isolated, X.isolated)
    assert get_isolated(np.asarray(X)) is None


def test_every_container_marks_the_same_nodes():
    rng = np.random.default_rng(0)
    U = np.triu(rng.random((40, 40)) < 0.3, 1).astype(np.uint8)
    A = U + U.T
    A[[3, 17]] = 0
    A[:, [3, 17]] = 0
    A[17, 17] = 1  # a self-loop is no edge to another node
    W = A.astype(float)
    C = sp.coo_matrix(W)
    # Explicit zeros between nodes 3 and 4 are no edge (and the input is not changed).
    S = sp.csr_matrix((np.r_[C.data, 0.0, 0.0], (np.r_[C.row, 3, 4], np.r_[C.col, 4, 3])),
                      shape=W.shape)
    nnz = S.nnz
    assert nnz == C.nnz + 2
    for graph in (W, S, PackedAdjacency.from_dense(A - np.diag(np.diag(A)))):
        X = adjacency_spectral_embedding(graph, 2)
        assert np.flatnonzero(X.isolated).tolist() == [3, 17]
    assert S.nnz == nnz
    X = adjacency_spectral_embedding(A - np.diag(np.diag(A)), 2)
    assert not X[[0, 1, 2]].isolated.any()


def test_a_graph_with_no_isolated_node_marks_none():
    A = sample_grdpg(circle(100, random_state=0), random_state=1)
    est = AdjacencySpectralEmbedding(n_components=2, adjust=True, epsilon=3.0)
    X = est.fit_transform(A)
    assert est.n_isolated_ == 0 and not X.isolated.any()


def test_pandas_output_keeps_the_isolated_nodes_by_name(polbooks_plus_3):
    G = polbooks_plus_3
    est = AdjacencySpectralEmbedding(n_components=3).set_output(transform="pandas")
    F = est.fit_transform(G)
    assert isinstance(F, pd.DataFrame)
    assert F.attrs["isolated"] == ISOLATED
    assert get_isolated(F).sum() == 3
    # Names, not a mask: a row selection (where pandas copies attrs unchanged) still matches.
    part = F.iloc[100:]
    np.testing.assert_array_equal(get_isolated(part), F.index[100:].isin(ISOLATED))
    assert get_isolated(F.iloc[:50]).sum() == 0
    # ... and frames of two graphs still concatenate (an array in attrs would raise there).
    pd.concat([F, F.iloc[:3]])


def test_a_batch_reports_one_count_a_graph():
    A = sample_grdpg(circle(60, random_state=0), random_state=1)
    B = A.copy()
    B[[0, 1]] = 0
    B[:, [0, 1]] = 0
    est = AdjacencySpectralEmbedding(n_components=2)
    out = est.fit_transform([A, B])
    assert est.n_isolated_ == [0, 2]
    assert [int(o.isolated.sum()) for o in out] == [0, 2]


@pytest.mark.parametrize("solver", ["krylov", "arpack", "dense"])
def test_verbose_shows_the_solver_progress_and_changes_nothing(capsys, solver):
    A = sample_grdpg(circle(400, random_state=0), random_state=1)
    P = EdgeFlip(3.0, random_state=2, output="packed").fit_transform(A)
    quiet = AdjacencySpectralEmbedding(n_components=3, adjust=True, solver=solver)
    X = quiet.fit_transform(P)
    assert capsys.readouterr().err == ""
    loud = AdjacencySpectralEmbedding(n_components=3, adjust=True, solver=solver,
                                      verbose=True)
    Y = loud.fit_transform(P)
    err = capsys.readouterr().err
    assert f"3 eigenpairs of 400 nodes ({solver})" in err
    assert ("1/1" in err) if solver == "dense" else ("product" in err)
    np.testing.assert_array_equal(Y, X)
    np.testing.assert_array_equal(loud.eigenvalues_, quiet.eigenvalues_)


def test_verbose_on_the_automatic_dimension_and_the_function_twin(capsys):
    A = sample_grdpg(circle(300, random_state=0), random_state=1)
    X = adjacency_spectral_embedding(A, solver="arpack")
    capsys.readouterr()
    Y = adjacency_spectral_embedding(A, solver="arpack", verbose=True)
    err = capsys.readouterr().err
    # The loose scan for the elbow, then the kept eigenpairs refined: two bars.
    assert err.count("eigenpairs of 300 nodes (arpack)") >= 2
    np.testing.assert_array_equal(X, Y)


def test_verbose_is_a_declared_parameter():
    with pytest.raises(ValueError, match="verbose"):
        AdjacencySpectralEmbedding(verbose="loud").fit(np.ones((3, 3)) - np.eye(3))


def test_a_dense_graph_is_scanned_by_blocks_of_rows(monkeypatch):
    rng = np.random.default_rng(1)
    U = np.triu(rng.random((30, 30)) < 0.3, 1).astype(np.uint8)
    A = U + U.T
    A[[2, 29]] = 0
    A[:, [2, 29]] = 0
    monkeypatch.setattr(isolated_module, "_COUNT_ENTRIES", 70)  # two rows a block
    assert np.flatnonzero(adjacency_spectral_embedding(A, 2).isolated).tolist() == [2, 29]
