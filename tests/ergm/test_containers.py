"""Graphs in every container of the input contract: the ERGM stages give the same results.

``tdadp.io.graph_batch`` is the package's one input contract (dense arrays and nested lists,
scipy sparse matrices and arrays, networkx graphs, edge lists). PrivateERGM, ERGM, bayes_ergm
and ERGMStatisticsRelease take a graph through it, so the same network in another container
gives the same release and the same posterior for the same seed.
"""

import io

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp.ergm import ERGM, ERGMStatisticsRelease, PrivateERGM, bayes_ergm
from tdadp.io import read_edgelist

nx = pytest.importorskip("networkx")

FAST = dict(n_iter=60, burn_in=20, aux_steps=200)


@pytest.fixture(scope="module")
def karate():
    """Zachary's karate club as a simple graph (networkx stores interaction counts as
    weights, which the input contract refuses unless binarized on purpose)."""
    G = nx.Graph()
    G.add_nodes_from(nx.karate_club_graph())
    G.add_edges_from(nx.karate_club_graph().edges())
    return G


@pytest.fixture(scope="module")
def dense(karate):
    return nx.to_numpy_array(karate, dtype=np.uint8)


def _containers(G, A):
    edges = read_edgelist(io.StringIO("\n".join(f"{u} {v}" for u, v in G.edges())))
    return {"nested list": A.tolist(), "csr": sp.csr_matrix(A), "csc": sp.csc_matrix(A),
            "coo": sp.coo_matrix(A), "lil": sp.lil_matrix(A), "csr_array": sp.csr_array(A),
            "networkx": G, "edge list": edges}


def test_private_ergm_fits_a_networkx_graph_like_its_adjacency(karate, dense):
    from_graph = PrivateERGM(["edges"], epsilon=1.0, max_degree=17, random_state=0,
                             **FAST).fit(karate)
    from_matrix = PrivateERGM(["edges"], epsilon=1.0, max_degree=17, random_state=0,
                              **FAST).fit(dense)
    assert from_graph.n_nodes_ == 34
    np.testing.assert_array_equal(from_graph.release_.values, from_matrix.release_.values)
    np.testing.assert_array_equal(from_graph.posterior_, from_matrix.posterior_)
    np.testing.assert_array_equal(from_graph.credible_interval_, from_matrix.credible_interval_)


@pytest.mark.parametrize("params", [
    dict(epsilon=None),
    dict(epsilon=1.0, mechanism="local"),
    dict(epsilon=1.0, level="node", max_degree=17),
], ids=["non-private", "local", "node"])
def test_private_ergm_same_posterior_in_every_container(karate, dense, params):
    ref = PrivateERGM(["edges"], random_state=0, **FAST, **params).fit(dense).posterior_
    for name, X in _containers(karate, dense).items():
        post = PrivateERGM(["edges"], random_state=0, **FAST, **params).fit(X).posterior_
        np.testing.assert_array_equal(post, ref, err_msg=name)


def test_private_ergm_flip_takes_networkx_graphs(karate, dense):
    # EdgeFlip draws a sparse graph's coins by its own (sparse) path, so the networkx graph
    # (a CSR matrix under the contract) releases as its CSR adjacency does.
    params = dict(epsilon=2.0, mechanism="flip", random_state=0, **FAST)
    post = PrivateERGM(["edges"], **params).fit(karate).posterior_
    ref = PrivateERGM(["edges"], **params).fit(sp.csr_matrix(dense)).posterior_
    np.testing.assert_array_equal(post, ref)


def test_private_ergm_refuses_weighted_and_batched_graphs_clearly(karate, dense):
    with pytest.raises(ValueError, match="weighted"):
        PrivateERGM(["edges"], epsilon=1.0, max_degree=17, **FAST).fit(nx.karate_club_graph())
    with pytest.raises(ValueError, match="one graph"):
        PrivateERGM(["edges"], **FAST).fit([dense, dense])


def test_bayes_ergm_takes_every_container(karate, dense):
    ref = bayes_ergm(["edges"], graph=dense, random_state=0, **FAST).draws
    for name, X in _containers(karate, dense).items():
        draws = bayes_ergm(["edges"], graph=X, random_state=0, **FAST).draws
        np.testing.assert_array_equal(draws, ref, err_msg=name)


def test_ergm_sampler_starts_from_a_networkx_graph_like_its_adjacency(karate, dense):
    def draw(X):
        return ERGM(["edges"], theta=[-1.0], n_steps=3000, random_state=0).fit_transform(X)

    ref = draw(dense)
    for name, X in _containers(karate, dense).items():
        np.testing.assert_array_equal(draw(X), ref, err_msg=name)
    # a batch mixing node counts and graphs: item k uses stream k whatever its container
    batch = draw([karate, 34, dense])
    assert len(batch) == 3
    np.testing.assert_array_equal(batch[0], ref)
    np.testing.assert_array_equal(batch[2], draw([dense, dense, dense])[2])


@pytest.mark.parametrize("params", [
    dict(max_degree=10),
    dict(level="node", max_degree=10),
    dict(method="local"),
], ids=["edge-restricted", "node", "local"])
def test_statistics_release_same_in_every_container(karate, dense, params):
    def release(X):
        mech = ERGMStatisticsRelease(["edges", "altktriangles"], epsilon=1.0, random_state=3,
                                     **params)
        return mech.fit_transform(X).values

    ref = release(dense)
    for name, X in _containers(karate, dense).items():
        np.testing.assert_array_equal(release(X), ref, err_msg=name)
