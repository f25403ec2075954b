"""The embedding reads the release it is given, and names its rows by the graph's nodes."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn import config_context
from sklearn.base import clone
from sklearn.pipeline import make_pipeline

from tdadp import (
    GRDPG,
    AdjacencySpectralEmbedding,
    EdgeFlip,
    LatentSampler,
    adjacency_spectral_embedding,
    circle,
    edge_flip,
    flip_probability,
    from_networkx,
    laplace_flip,
    laplace_flip_probability,
    sample_grdpg,
)
from tdadp.embed import ShiftedAdjacency, top_eigenpairs


def _readme_pipeline(epsilon):
    return make_pipeline(
        LatentSampler("circle", n_nodes=300, random_state=0),
        GRDPG(random_state=1),
        EdgeFlip(epsilon=epsilon, random_state=2),
        AdjacencySpectralEmbedding(n_components=3, adjust=True),
    )


def test_set_params_on_the_mechanism_is_all_a_pipeline_needs():
    moved = _readme_pipeline(1.0)
    moved.fit_transform(range(2))
    moved.set_params(edgeflip__epsilon=2.0)
    after = moved.fit_transform(range(2))
    fresh = _readme_pipeline(2.0).fit_transform(range(2))
    for x, y in zip(after, fresh):
        np.testing.assert_array_equal(x, y)
    ase = moved.named_steps["adjacencyspectralembedding"]
    assert ase.flip_probability_ == [EdgeFlip(2.0).fit().flip_probability_] * 2


def test_adjusted_embedding_equals_the_operator_built_by_hand():
    A = sample_grdpg(circle(200, random_state=0), random_state=1)
    B = edge_flip(A, 1.5, random_state=2)
    pi = EdgeFlip(1.5).fit().flip_probability_
    assert 0 <= pi - flip_probability(1.5) <= 2.0 ** -50
    w, _ = top_eigenpairs(ShiftedAdjacency(np.asarray(B), shift=pi, scale=1 / (1 - 2 * pi)), 3)
    est = AdjacencySpectralEmbedding(n_components=3, adjust=True).fit(B)
    np.testing.assert_allclose(np.sort(np.abs(est.eigenvalues_)), np.sort(np.abs(w)),
                               rtol=1e-10)
    # The same release described by its budget gives the same embedding.
    np.testing.assert_array_equal(adjacency_spectral_embedding(B, 3, adjust=True),
                                  adjacency_spectral_embedding(np.asarray(B), 3, epsilon=1.5))


def test_laplaceflip_release_is_adjusted_by_its_own_rate():
    A = sample_grdpg(circle(150, random_state=0), random_state=1)
    B = laplace_flip(A, 2.0, random_state=2)
    est = AdjacencySpectralEmbedding(n_components=3, adjust=True).fit(B)
    assert est.flip_probability_ == pytest.approx(laplace_flip_probability(2.0), rel=1e-12)
    # edgeFlip's rate at the same epsilon is a different release: refused, not mixed up.
    with pytest.raises(ValueError, match="LaplaceFlip"):
        AdjacencySpectralEmbedding(n_components=3, epsilon=2.0).fit(B)


@pytest.mark.parametrize("to_container", [np.asarray, sp.csr_matrix, sp.csr_array])
def test_mismatching_explicit_epsilon_raises(to_container):
    A = sample_grdpg(circle(100, random_state=0), random_state=1)
    B = edge_flip(to_container(A), 1.0, random_state=2)
    with pytest.raises(ValueError, match="flip probability"):
        adjacency_spectral_embedding(B, 2, epsilon=2.0)
    # The agreeing budget is accepted.
    adjacency_spectral_embedding(B, 2, epsilon=1.0)


def test_adjust_without_a_rate_raises_and_plain_is_plain():
    A = sample_grdpg(circle(100, random_state=0), random_state=1)
    with pytest.raises(ValueError, match="carries none"):
        adjacency_spectral_embedding(A, 2, adjust=True)
    B = edge_flip(A, 1.0, random_state=2)
    # A derived array is not the release: its rate is gone.
    with pytest.raises(ValueError, match="carries none"):
        adjacency_spectral_embedding(B[:50, :50], 2, adjust=True)
    # Without adjust, a release is embedded as it is (the shrunken embedding of Prop. 1).
    est = AdjacencySpectralEmbedding(n_components=2).fit(B)
    assert est.flip_probability_ is None
    np.testing.assert_array_equal(est.transform(B), adjacency_spectral_embedding(
        np.asarray(B), 2))


def test_tiny_epsilon_is_a_clear_answer_not_a_crash():
    A = sample_grdpg(circle(60, random_state=0), random_state=1)
    X = adjacency_spectral_embedding(A.astype(float), 2, epsilon=1e-12)
    assert np.isfinite(X).all()
    # EdgeFlip flips at exactly 1/2 there (its rate, rounded toward 1/2 on the 2^-53 grid):
    # the embedding says so rather than dividing by a signal of 1e-20.
    assert EdgeFlip(1e-20).fit().flip_probability_ == 0.5
    for eps in (0.0, 1e-20):
        with pytest.raises(ValueError, match="pure noise"):
            adjacency_spectral_embedding(A, 2, epsilon=eps)


def test_pandas_output_of_a_networkx_graph_is_indexed_by_its_node_names():
    G = nx.les_miserables_graph()           # real network, string node names
    names = list(G.nodes)
    est = AdjacencySpectralEmbedding(n_components=3).set_output(transform="pandas")
    out = est.fit_transform(G)
    assert isinstance(out, pd.DataFrame)
    assert list(out.index) == names
    assert list(out.columns) == list(est.get_feature_names_out())
    assert out.attrs["signature"] == est.signature_
    # Through a private release (of the co-appearance graph: its weights made edges, by
    # choice): the names survive the mechanism.
    with pytest.warns(UserWarning, match="binariz"):
        A = from_networkx(G, weights="binarize")
    pipe = make_pipeline(EdgeFlip(4.0, random_state=0),
                         AdjacencySpectralEmbedding(n_components=3, adjust=True))
    pipe.set_output(transform="pandas")
    private = pipe.fit_transform(A)
    assert list(private.index) == names
    # The global configuration reaches it too, and clones keep an explicit setting.
    with config_context(transform_output="pandas"):
        assert isinstance(AdjacencySpectralEmbedding(n_components=2).fit_transform(G),
                          pd.DataFrame)
    assert isinstance(clone(est).fit_transform(G), pd.DataFrame)


def test_pandas_output_of_a_batch_and_of_an_anonymous_graph():
    A = sample_grdpg(circle(80, random_state=0), random_state=1)
    est = AdjacencySpectralEmbedding(n_components=2).set_output(transform="pandas")
    outs = est.fit_transform([A, A])
    assert len(outs) == 2 and all(isinstance(o, pd.DataFrame) for o in outs)
    assert list(outs[0].index) == list(range(80))
    np.testing.assert_array_equal(outs[0].to_numpy(), adjacency_spectral_embedding(A, 2))
    with pytest.raises(ValueError, match="transform"):
        est.set_output(transform="polaris")


def test_feature_names_need_a_fit_and_one_dimension():
    est = AdjacencySpectralEmbedding(n_components=2)
    with pytest.raises(Exception, match="not fitted"):
        est.get_feature_names_out()
    A = sample_grdpg(circle(80, random_state=0), random_state=1)
    names = est.fit(A).get_feature_names_out()
    assert list(names) == ["adjacencyspectralembedding0", "adjacencyspectralembedding1"]
