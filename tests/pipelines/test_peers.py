"""The peer clusterers of the realnets experiment (pipelines/_peers.py): each recovers a
planted partition, the "_k" ones and those given K return K clusters, and every run is
reproducible from its seed."""

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp import EdgeFlip
from tdadp.cluster import clustering_scores
from tdadp.graphs import PackedAdjacency, graph_guarantee
from tdadp.pipelines._peers import PEERS, leiden_k, louvain_k, restrict

pytest.importorskip("igraph")
pytest.importorskip("leidenalg")

# Peers that choose their own number of communities; all others return K clusters.
OWN_COUNT = ("leiden", "louvain")


@pytest.fixture(scope="module")
def planted():
    """A 3-block SBM (3 x 40 nodes, p_in 0.5, p_out 0.05), released without privacy (the
    release carries its rate, 0), as CSR on every node, and its blocks."""
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(3), 40)
    P = np.where(y[:, None] == y[None, :], 0.5, 0.05)
    A = np.triu(rng.random(P.shape) < P, 1).astype(np.int8)
    A = A + A.T
    release = EdgeFlip(np.inf, random_state=1).fit_transform(A)
    return restrict(release, np.arange(y.size)), y


@pytest.mark.parametrize("name", list(PEERS))
def test_each_peer_recovers_a_planted_partition(planted, name):
    A, y = planted
    labels = np.asarray(PEERS[name](A, 3, 0))
    assert labels.shape == y.shape
    assert clustering_scores(y, labels)["ari"] >= 0.9
    if name not in OWN_COUNT:
        assert np.unique(labels).size == 3


@pytest.mark.parametrize("name", list(PEERS))
def test_each_peer_is_reproducible_from_its_seed(planted, name):
    A, _ = planted
    noisy = restrict(EdgeFlip(1.0, random_state=2).fit_transform(A.toarray()),
                     np.arange(A.shape[0]))  # ties and near-ties: the seed matters
    first = PEERS[name](noisy, 3, 5)
    np.testing.assert_array_equal(first, PEERS[name](noisy, 3, 5))


def test_the_tuned_modularity_peers_reach_any_count_in_reach(planted):
    A, _ = planted
    for peer in (leiden_k, louvain_k):
        for k in (2, 4, 6):
            assert np.unique(peer(A, k, 0)).size == k


def test_the_tuned_peers_give_the_closest_count_when_k_is_out_of_reach():
    # Two disjoint triangles: no resolution merges components, so K = 1 gives 2.
    A = sp.csr_matrix(np.kron(np.eye(2), np.ones((3, 3)) - np.eye(3)))
    for peer in (leiden_k, louvain_k):
        assert np.unique(peer(A, 1, 0)).size == 2


@pytest.mark.parametrize("packed", [False, True])
def test_restrict_keeps_the_release_and_its_rate(packed):
    rng = np.random.default_rng(3)
    A = np.triu(rng.random((30, 30)) < 0.2, 1).astype(np.int8)
    A = A + A.T
    release = EdgeFlip(2.0, random_state=4).fit_transform(A)
    source = PackedAdjacency.from_dense(release, guarantee=graph_guarantee(release)) \
        if packed else release
    nodes = np.array([5, 1, 7, 20])
    sub = restrict(source, nodes)
    assert sp.isspmatrix_csr(sub) and sub.dtype == np.float64
    np.testing.assert_array_equal(sub.toarray(), np.asarray(release)[np.ix_(nodes, nodes)])
    assert graph_guarantee(sub).flip_probability == graph_guarantee(release).flip_probability
