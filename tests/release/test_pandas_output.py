"""set_output on the graph releases: it works (DataFrame adjacencies) or is not offered.

A graph release with pandas output returns each graph as a DataFrame indexed by its node
names, the guarantee in ``attrs``; every graph stage after it reads that DataFrame back as
the graph, so a whole Pipeline runs under ``Pipeline.set_output(transform="pandas")`` and
gives the values of the default output. Releases of statistics have no pandas form and offer
no ``set_output``.
"""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn import config_context
from sklearn.base import clone
from sklearn.pipeline import make_pipeline

import tdadp.release._plan as plan_module
import tdadp.utils._memory as memory
from tdadp import AdjacencySpectralEmbedding, EdgeFlip, LaplaceFlip
from tdadp.datasets import load_karate, load_polbooks
from tdadp.dp import BudgetAccountant
from tdadp.graphs import PackedAdjacency, graph_guarantee, graph_nodes, tag_graph
from tdadp.io import from_networkx
from tdadp.release import DegreeSequence, LaplaceEdgeCount


@pytest.fixture(scope="module")
def polbooks():
    return load_polbooks()  # real network, string node names (book titles)


def test_edge_flip_pandas_output_is_the_adjacency_indexed_by_node_names(polbooks):
    names = list(polbooks.nodes)
    est = EdgeFlip(2.0, random_state=0).set_output(transform="pandas")
    frame = est.fit_transform(polbooks)
    assert isinstance(frame, pd.DataFrame) and frame.shape == (105, 105)
    assert list(frame.index) == names and list(frame.columns) == names
    # a networkx graph's release is sparse: so is its DataFrame
    assert all(t == pd.SparseDtype(np.int8, 0) for t in frame.dtypes)
    assert frame.attrs["guarantee"] == est.guarantee_
    assert frame.attrs["guarantee"].flip_probability == est.flip_probability_
    default = EdgeFlip(2.0, random_state=0).fit_transform(polbooks)
    np.testing.assert_array_equal(frame.sparse.to_dense().to_numpy(), default.toarray())
    assert set(np.unique(frame.sparse.to_dense().to_numpy())) == {0, 1}
    # clones keep the setting, as for scikit-learn's transformers
    assert isinstance(clone(est).fit_transform(polbooks), pd.DataFrame)


def test_karate_relabelled_and_every_input_kind():
    G = nx.relabel_nodes(load_karate(), {i: f"member {i}" for i in range(34)})
    names = list(G.nodes)
    A = from_networkx(G)
    dense = A.toarray()
    est = LaplaceFlip(1.0, random_state=3).set_output(transform="pandas")
    # dense input: a dense int8 DataFrame, a view of the release (no names: 0..n-1)
    frame = est.fit_transform(dense)
    assert all(t == np.int8 for t in frame.dtypes)
    assert isinstance(frame.index, pd.RangeIndex) and list(frame.index) == list(range(34))
    np.testing.assert_array_equal(frame.to_numpy(),
                                  LaplaceFlip(1.0, random_state=3).fit_transform(dense))
    # a sparse matrix or array carrying the names keeps them
    for S in (A, tag_graph(sp.csr_array(A), nodes=names)):
        out = est.fit_transform(S)
        assert list(out.index) == names and isinstance(out.dtypes.iloc[0], pd.SparseDtype)
    # a batch gives a list of DataFrames, one per graph
    frames = est.fit_transform([G, dense])
    assert isinstance(frames, list) and len(frames) == 2
    assert list(frames[0].index) == names and isinstance(frames[1].index, pd.RangeIndex)


def test_pipeline_to_the_embedding_under_pandas_output_equals_the_default(polbooks):
    names = list(polbooks.nodes)

    def pipe():
        return make_pipeline(EdgeFlip(2.0, random_state=0),
                             AdjacencySpectralEmbedding(n_components=2, adjust=True))

    default = pipe()
    expected = default.fit_transform(polbooks)
    framed = pipe().set_output(transform="pandas")
    out = framed.fit_transform(polbooks)
    assert isinstance(out, pd.DataFrame) and list(out.index) == names
    np.testing.assert_array_equal(out.to_numpy(), expected)
    # the embedding found the flip rate in the DataFrame's attrs
    assert framed[-1].flip_probability_ == default[-1].flip_probability_ \
        == framed[0].flip_probability_
    # the same through scikit-learn's global configuration
    with config_context(transform_output="pandas"):
        released = EdgeFlip(2.0, random_state=0).fit_transform(polbooks)
        assert isinstance(released, pd.DataFrame)
        glob = pipe().fit_transform(polbooks)
    assert isinstance(glob, pd.DataFrame) and list(glob.index) == names
    np.testing.assert_array_equal(glob.to_numpy(), expected)


def test_the_dataframe_is_read_back_as_the_release(polbooks):
    est = EdgeFlip(1.0, random_state=1)
    frame = clone(est).set_output(transform="pandas").fit_transform(polbooks)
    A = AdjacencySpectralEmbedding(n_components=2, adjust=True).fit(frame)
    assert A.flip_probability_ == est.fit().flip_probability_
    # a second release of the first, with the names carried through
    again = EdgeFlip(1.0, random_state=2).fit_transform(frame)
    assert graph_nodes(again) == list(polbooks.nodes)
    assert graph_guarantee(again).epsilon == 1.0


def test_a_packed_release_becomes_a_dense_dataframe_when_it_fits():
    G = load_karate()
    est = EdgeFlip(1.0, random_state=0, output="packed")
    packed = est.fit_transform(G)
    assert isinstance(packed, PackedAdjacency)
    frame = clone(est).set_output(transform="pandas").fit_transform(G)
    assert all(t == np.int8 for t in frame.dtypes)
    np.testing.assert_array_equal(frame.to_numpy(), packed.toarray())
    assert list(frame.index) == list(G.nodes) and frame.attrs["guarantee"] == est.guarantee_


def test_a_packed_release_too_large_for_a_dataframe_is_refused_with_its_size(monkeypatch):
    n = 400
    rng = np.random.default_rng(0)
    upper = np.triu(rng.random((n, n)) < 0.05, 1)
    A = (upper | upper.T).astype(np.uint8)
    # The release is packed for lack of memory ("auto"), and its n^2 = 160 KB dense
    # DataFrame is more than half of a 100 KB budget, while the packed graph (10 KB) fits.
    monkeypatch.setattr(plan_module, "memory_limits", lambda: {"a test budget": 100_000})
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 100_000})
    assert isinstance(EdgeFlip(1.0, random_state=0).fit_transform(A), PackedAdjacency)
    accountant = BudgetAccountant(epsilon=10.0)
    est = EdgeFlip(1.0, random_state=0, accountant=accountant).set_output(transform="pandas")
    with pytest.raises(ValueError, match=r"as a packed graph on 400 nodes .*would need about "
                                         r"0.0001[78] GB.*test budget.*default output"):
        est.fit_transform(A)
    assert accountant.spent == (0.0, 0.0)  # refused before the charge


def test_a_bad_output_setting_spends_nothing():
    accountant = BudgetAccountant(epsilon=10.0)
    est = EdgeFlip(1.0, random_state=0, accountant=accountant).fit()
    with config_context(transform_output="polars"), \
            pytest.raises(ValueError, match="transform_output='polars' is not supported"):
        est.transform(load_karate())
    assert accountant.spent == (0.0, 0.0) and accountant.n_releases == 0
    with pytest.raises(ValueError, match="transform must be one of"):
        est.set_output(transform="polars")


@pytest.mark.parametrize("mechanism", [DegreeSequence(1.0, random_state=0),
                                       LaplaceEdgeCount(1.0, random_state=0)], ids=repr)
def test_statistic_releases_offer_no_set_output(mechanism):
    assert not hasattr(mechanism, "set_output")
    G = load_karate()
    default = mechanism.fit_transform(G)
    # scikit-learn's global setting leaves them alone, as its own non-table transformers
    with config_context(transform_output="pandas"):
        np.testing.assert_array_equal(clone(mechanism).fit_transform(G), default)
    # and Pipeline.set_output says so, rather than accept a setting it cannot honour
    with pytest.raises(ValueError, match="set_output"):
        make_pipeline(EdgeFlip(2.0, random_state=0), clone(mechanism)).set_output(
            transform="pandas")
