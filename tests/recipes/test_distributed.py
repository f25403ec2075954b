"""A packed private graph on Dask workers: the same release and embedding as in process."""

import numpy as np
import pytest

from tdadp import EdgeFlip, adjacency_spectral_embedding, circle, sample_grdpg
from tdadp.embed._packed_ops import packed_matmat
from tdadp.recipes import distributed_embedding, distributed_private_grdpg

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.parametrize("eps", [1.0, np.inf])
def test_local_cluster_release_and_embedding_equal_the_in_process_ones(client, eps):
    n = 3000  # two row blocks, one partition each, on two workers
    X = circle(n, random_state=0)
    G = distributed_private_grdpg(client, X, eps, graph_random_state=1, flip_random_state=2,
                                  n_partitions=2)
    assert len(G.partitions) == 2 and G.partitions[0][0] == 0 and G.partitions[-1][1] == n
    P = EdgeFlip(eps, random_state=2, output="packed").fit_transform(
        sample_grdpg(X, random_state=1, output="packed"))
    assert G.gather() == P
    assert G.guarantee == EdgeFlip(eps).fit().guarantee_
    V = np.random.default_rng(0).standard_normal((n, 4))
    np.testing.assert_allclose(G.matmat(V), P.toarray() @ V, atol=1e-9)
    # The same block again at once. Scattered by its content hash, it raced with the release
    # of the previous call's copy and the tasks lost their input (about 1 call in 10 here).
    AV = P.toarray() @ V
    for _ in range(30):
        np.testing.assert_allclose(G.matmat(V), AV, atol=1e-9)
    Y = np.asarray(distributed_embedding(G, 3, adjust=np.isfinite(eps)))
    Z = np.asarray(adjacency_spectral_embedding(P, 3, adjust=bool(np.isfinite(eps))))
    np.testing.assert_allclose(Y @ Y.T, Z @ Z.T, atol=1e-9)


def test_shares_of_many_partitions_are_summed_on_the_workers(client):
    # 12 row blocks in 9 partitions: a reduction tree of two levels (fan-in 4).
    n = 10_000
    X = circle(n, random_state=3)
    G = distributed_private_grdpg(client, X, 1.0, graph_random_state=4, flip_random_state=5,
                                  n_partitions=9)
    assert len(G.partitions) == 9
    P = G.gather()
    V = np.random.default_rng(1).standard_normal((n, 5))
    np.testing.assert_allclose(G.matmat(V), packed_matmat(P, V), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(G.matmat(V[:, 0]), packed_matmat(P, V[:, :1])[:, 0],
                               rtol=1e-12, atol=1e-9)
