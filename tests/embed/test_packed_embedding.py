"""The embedding of a packed graph: its products, and the same embedding as the dense path."""

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

from tdadp import (
    AdjacencySpectralEmbedding,
    EdgeFlip,
    adjacency_spectral_embedding,
    circle,
    sample_grdpg,
)
from tdadp.embed._packed_ops import packed_degrees, packed_matmat, packed_matmat_reference
from tdadp.graphs import PackedAdjacency, graph_guarantee, tag_graph


@pytest.mark.parametrize("n", [2, 3, 7, 8, 63, 64, 65, 129, 700])
@pytest.mark.parametrize("k", [1, 5])
def test_kernel_equals_the_dense_product(n, k):
    rng = np.random.default_rng(n + k)
    U = np.triu(rng.integers(0, 2, (n, n)), 1).astype(np.uint8)
    A = U + U.T
    P = PackedAdjacency.from_dense(A)
    V = rng.standard_normal((n, k))
    np.testing.assert_allclose(packed_matmat(P, V), A @ V, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(packed_matmat_reference(P, V), A @ V, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(packed_matmat(P, V[:, 0]), A @ V[:, 0], atol=1e-12)
    np.testing.assert_array_equal(packed_degrees(P), A.sum(axis=1))


@pytest.fixture(scope="module")
def release():
    A = sample_grdpg(circle(1500, random_state=0), random_state=1)
    P = EdgeFlip(2.0, random_state=2, output="packed").fit_transform(A)
    D = tag_graph(P.toarray(), guarantee=graph_guarantee(P))
    return P, D


@pytest.mark.parametrize("adjust", [False, True])
@pytest.mark.parametrize("d", [3, None])
def test_packed_and_dense_embeddings_have_the_same_gram_matrix(release, adjust, d):
    # n = 1,500 takes the iterative (block Krylov) solver on both paths.
    P, D = release
    X = np.asarray(adjacency_spectral_embedding(P, d, adjust=adjust))
    Y = np.asarray(adjacency_spectral_embedding(D, d, adjust=adjust))
    assert X.shape == Y.shape
    np.testing.assert_allclose(X @ X.T, Y @ Y.T, atol=1e-6)


def test_a_pipeline_releases_packed_and_embeds_with_the_carried_rate(release):
    A = sample_grdpg(circle(1200, random_state=3), random_state=4)
    pipe = make_pipeline(EdgeFlip(2.0, random_state=5, output="packed"),
                         AdjacencySpectralEmbedding(n_components=3, adjust=True))
    X = pipe.fit_transform(A)
    ase = pipe[-1]
    assert X.shape == (1200, 3)
    assert ase.flip_probability_ == EdgeFlip(2.0).fit().flip_probability_


def test_the_dense_path_refuses_up_front_where_the_packed_path_fits(monkeypatch):
    import tdadp.utils._memory as memory

    A = sample_grdpg(circle(1100, random_state=0), random_state=1)
    P = EdgeFlip(2.0, random_state=2, output="packed").fit_transform(A)
    D = P.toarray()
    # 8 MB, half of which work may take: the float32 copy of the dense graph (4.8 MB) cannot
    # fit; the packed graph's embedding (n x k blocks) can.
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 8e6})
    with pytest.raises(ValueError, match="float32 copy of a dense graph on 1100 nodes"):
        adjacency_spectral_embedding(D, 3)
    assert np.asarray(adjacency_spectral_embedding(P, 3, adjust=True)).shape == (1100, 3)
