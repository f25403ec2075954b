"""A graph given to a clusterer is refused with the way to embed it."""

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from tdadp import LatentPositions, edge_flip, sample_grdpg, sbm
from tdadp.cluster import BICGaussianMixture, ToMATo
from tdadp.graphs import PackedAdjacency, graph_guarantee, tag_graph

CLUSTERERS = [ToMATo, BICGaussianMixture]


@pytest.fixture(scope="module")
def adjacency():
    # Two blocks: a graph a user would want clustered.
    return sample_grdpg(sbm([30, 30], [[0.5, 0.05], [0.05, 0.5]], random_state=0),
                        random_state=1)


def _graphs(A):
    return {
        "csr matrix": sp.csr_matrix(A),
        "csr array": sp.csr_array(A),
        "coo matrix": sp.coo_matrix(A),
        "packed": PackedAdjacency.from_dense(A),
        "networkx": nx.from_numpy_array(A),
        "release": edge_flip(A, 2.0, random_state=0),
        "sparse release": edge_flip(sp.csr_array(A), 2.0, random_state=0),
        # Tagged with node names: refused whatever its values (weights here).
        "tagged graph": tag_graph(0.5 * A, nodes=[f"v{i}" for i in range(A.shape[0])]),
        "dense adjacency": np.asarray(A, dtype=float),
        "int adjacency": np.asarray(A, dtype=np.int64),
        "bool adjacency": np.asarray(A, dtype=bool),
        "karate adjacency": nx.to_numpy_array(nx.karate_club_graph(), weight=None),
    }


KINDS = ["csr matrix", "csr array", "coo matrix", "packed", "networkx", "release",
         "sparse release", "tagged graph", "dense adjacency", "int adjacency",
         "bool adjacency", "karate adjacency"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("Clusterer", CLUSTERERS, ids=lambda c: c.__name__)
def test_graphs_are_refused_with_the_way_to_embed_them(adjacency, kind, Clusterer):
    X = _graphs(adjacency)[kind]
    with pytest.raises(ValueError, match="not a graph") as info:
        Clusterer().fit(X)
    message = str(info.value)
    assert "AdjacencySpectralEmbedding" in message
    assert "make_private_clustering" in message and "PrivateClustering" in message
    assert Clusterer.__name__ in message


def test_each_kind_is_named(adjacency):
    graphs = _graphs(adjacency)
    words = {"csr matrix": "scipy sparse matrix", "packed": "a PackedAdjacency",
             "networkx": "a networkx graph", "release": "released by EdgeFlip",
             "sparse release": "released by EdgeFlip", "tagged graph": "node names",
             "dense adjacency": "60 x 60 symmetric 0/1 matrix with a zero diagonal"}
    for kind, word in words.items():
        with pytest.raises(ValueError, match=word):
            ToMATo().fit(graphs[kind])


def test_a_released_graph_as_a_dataframe_is_refused(adjacency):
    pd = pytest.importorskip("pandas")
    release = edge_flip(adjacency, 2.0, random_state=0)
    # A graph stage's pandas output keeps the release's guarantee in attrs; values aside
    # (weights here), the guarantee says it is a graph.
    frame = pd.DataFrame(0.5 * np.asarray(release))
    frame.attrs["guarantee"] = graph_guarantee(release)
    with pytest.raises(ValueError, match="released by EdgeFlip"):
        BICGaussianMixture().fit(frame)


def test_predict_refuses_graphs_too(adjacency):
    X = np.random.default_rng(0).normal(size=(60, 60))
    est = BICGaussianMixture(n_clusters=2, random_state=0).fit(X)
    with pytest.raises(ValueError, match="not a graph"):
        est.predict(sp.csr_matrix(adjacency))


QUICK = {ToMATo: dict(n_bootstrap=10, random_state=0),
         BICGaussianMixture: dict(max_clusters=2, covariance_types=("spherical",), n_init=1,
                                  random_state=0)}


@pytest.mark.parametrize("Clusterer", CLUSTERERS, ids=lambda c: c.__name__)
def test_square_point_clouds_that_are_no_adjacency_are_clustered(Clusterer):
    rng = np.random.default_rng(0)
    B = (rng.random((12, 12)) < 0.5).astype(float)
    sym = np.triu(B, 1) + np.triu(B, 1).T
    asym = sym.copy()
    asym[0, 1] = 1.0 - asym[1, 0]
    clouds = {
        "not symmetric": asym,
        "diagonal of ones": sym + np.eye(12),
        "not binary": sym * 2.0,
        "all zero": np.zeros((12, 12)),
        "two points": np.array([[0.0, 1.0], [1.0, 0.0]]),
        "not square": np.concatenate([sym, sym[:, :1]], axis=1),
        "real-valued": rng.normal(size=(12, 12)),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate clouds warn in other ways
        for name, X in clouds.items():
            try:
                Clusterer(**QUICK[Clusterer]).fit(X)
            except ValueError as exc:  # pragma: no cover - the assertion reports it
                pytest.fail(f"{name}: {exc}")
        # A cloud that really is a symmetric 0/1 matrix with a zero diagonal, declared as
        # points, is clustered.
        Clusterer(**QUICK[Clusterer]).fit(LatentPositions(sym))
