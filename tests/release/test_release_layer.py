"""The release layer's one contract, the guarantee as declared data, and released graphs that
carry their release."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from tdadp import (
    EdgeFlip,
    LaplaceFlip,
    edge_flip,
    flip_probability,
    laplace_flip,
    laplace_flip_probability,
    sample_grdpg,
    sbm,
)
from tdadp.dp import PrivacyGuarantee
from tdadp.graphs import GraphArray, graph_guarantee, graph_nodes, tag_graph
from tdadp.io import graph_batch
from tdadp.pufferfish import WassersteinMechanism
from tdadp.release import (
    DegreeSequence,
    GraphRelease,
    LaplaceEdgeCount,
    ProjectedCount,
    ReleaseMechanism,
    implemented_rate,
)

PAIRS = [([0.0, 1.0, 2.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5])]
GRAPH_MECHANISMS = [EdgeFlip, LaplaceFlip, LaplaceEdgeCount, DegreeSequence, ProjectedCount]
ALL = GRAPH_MECHANISMS + [WassersteinMechanism]


@pytest.fixture(scope="module")
def graph():
    X = sbm([40, 40], [[0.6, 0.1], [0.1, 0.6]], random_state=0)
    return sample_grdpg(X, random_state=1)


def _fit(mech, graph):
    return mech.fit(PAIRS if isinstance(mech, WassersteinMechanism) else graph)


def _input(mech, graph):
    return 3.0 if isinstance(mech, WassersteinMechanism) else graph


# --- one base, one contract ------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL)
def test_one_base_and_not_fitted_before_fit(cls, graph):
    assert issubclass(cls, ReleaseMechanism)
    assert issubclass(cls, GraphRelease) is (cls is not WassersteinMechanism)
    mech = cls(random_state=0)
    with pytest.raises(NotFittedError):
        mech.transform(_input(mech, graph))
    assert not hasattr(mech, "guarantee_")  # transform never fits behind the caller's back


@pytest.mark.parametrize("cls", ALL)
def test_fit_states_the_guarantee_and_transform_uses_it(cls, graph):
    mech = _fit(cls(epsilon=2.0, random_state=0), graph)
    g = mech.guarantee_
    assert isinstance(g, PrivacyGuarantee) and g.epsilon == 2.0
    released = mech.transform(_input(mech, graph))
    # A parameter changed after fit does not change the release until the next fit: the
    # calibration is the fitted one (for the counts, statistic and noise scale together).
    mech.set_params(epsilon=0.01)
    assert mech.guarantee_ == g
    again = mech.transform(_input(mech, graph))
    if sp.issparse(released):
        assert (again != released).nnz == 0
    else:
        np.testing.assert_array_equal(np.asarray(again), np.asarray(released))


def test_counts_keep_their_fitted_statistic(graph):
    mech = DegreeSequence(np.inf).fit()
    mech.set_params(histogram=True)  # not refitted: still the sequence, with its sensitivity
    assert mech.transform(graph).shape == (graph.shape[0],)
    assert mech.sensitivity_ == 2.0
    assert mech.fit().sensitivity_ == 4.0 and mech.transform(graph).tolist()[0] == 0


@pytest.mark.parametrize("cls", GRAPH_MECHANISMS)
def test_nothing_of_the_input_is_kept(cls, graph):
    mech = cls(random_state=0)
    mech.fit(graph)
    mech.transform(graph)
    mech.fit_transform([graph, sp.csr_array(graph)])
    blob = pickle.dumps(mech)
    assert len(blob) < 4000
    rows = np.asarray(graph)[:4].tobytes()
    assert rows not in blob
    degrees = np.asarray(graph).sum(axis=1).astype(np.int64).tobytes()
    assert degrees not in blob
    for value in vars(mech).values():
        assert not isinstance(value, np.ndarray) and not sp.issparse(value)
        assert not isinstance(value, (list, tuple))
    # Not even the number of nodes: no n_features_in_.
    assert not hasattr(mech, "n_features_in_")


def test_wasserstein_keeps_only_the_calibration():
    mech = WassersteinMechanism(random_state=0).fit(PAIRS)
    assert set(vars(mech)) == {"epsilon", "random_state", "accountant", "sensitivity_",
                               "noise_scale_", "worst_pair_", "guarantee_",
                               "noise_calibration_"}


# --- declared parameter rules ----------------------------------------------------------------


BAD_COMMON = [
    ("epsilon", -1.0), ("epsilon", np.nan), ("epsilon", 1 + 1j), ("epsilon", "1"),
    ("epsilon", None), ("epsilon", True), ("epsilon", [1.0]),
    ("random_state", "os"), ("random_state", -1), ("random_state", 1.5),
    ("random_state", np.random.RandomState(0)),
]
BAD_N_JOBS = [("n_jobs", 1.5), ("n_jobs", "a"), ("n_jobs", 0), ("n_jobs", True)]


@pytest.mark.parametrize("cls", ALL)
@pytest.mark.parametrize("name, value", BAD_COMMON + BAD_N_JOBS)
def test_bad_parameters_are_named_in_fit(cls, name, value, graph):
    if name == "n_jobs" and cls is WassersteinMechanism:
        return  # it releases one value: no n_jobs parameter
    mech = cls().set_params(**{name: value})  # __init__ and set_params never validate
    with pytest.raises(ValueError, match=f"'{name}' parameter of {cls.__name__}"):
        _fit(mech, graph)
    with pytest.raises(TypeError, match=f"'{name}' parameter"):
        _fit(clone(mech), graph)


@pytest.mark.parametrize("cls", [LaplaceEdgeCount, DegreeSequence, ProjectedCount,
                                 WassersteinMechanism])
def test_statistic_releases_need_a_positive_budget(cls, graph):
    with pytest.raises(ValueError, match="'epsilon'.*got 0"):
        _fit(cls(epsilon=0), graph)


@pytest.mark.parametrize("cls, name, value", [
    (LaplaceEdgeCount, "noise", "gauss"), (DegreeSequence, "histogram", "yes"),
    (DegreeSequence, "histogram", 1), (ProjectedCount, "statistic", "cliques"),
    (ProjectedCount, "max_degree", 0), (ProjectedCount, "max_degree", 2.0),
    (ProjectedCount, "star_size", -1)])
def test_bad_specific_parameters(cls, name, value):
    with pytest.raises(ValueError, match=f"'{name}' parameter of {cls.__name__}.*{value!r}"):
        cls(**{name: value}).fit()


def test_every_parameter_is_declared():
    for cls in ALL:
        assert set(cls._parameter_constraints) == set(cls().get_params())


# --- the guarantee as data -------------------------------------------------------------------


def test_randomized_response_declares_itself(graph):
    for cls, rate in ((EdgeFlip, flip_probability), (LaplaceFlip, laplace_flip_probability)):
        g = cls(epsilon=1.5).fit().guarantee_
        # The ideal rate on the 2^-53 grid that uniform doubles live on, rounded toward 1/2.
        assert g.dyad_independent and g.flip_probability == implemented_rate(rate(1.5), 1.5)
        assert 0 <= g.flip_probability - rate(1.5) <= 2.0 ** -50
    for cls in (LaplaceEdgeCount, DegreeSequence, ProjectedCount):
        assert not cls().fit().guarantee_.dyad_independent
    assert not WassersteinMechanism().fit(PAIRS).guarantee_.dyad_independent


@pytest.mark.parametrize("name, value", [
    ("epsilon", -1), ("epsilon", np.nan), ("epsilon", "1"), ("epsilon", 1j),
    ("epsilon", -np.inf), ("flip_probability", 0.6), ("flip_probability", -0.1),
    ("flip_probability", np.nan), ("sensitivity", -1.0), ("noise_scale", -0.5),
    ("dyad_independent", True), ("dyad_independent", "yes"), ("local", 1)])
def test_privacy_guarantee_validates(name, value):
    kwargs = {"epsilon": 1.0, name: value}
    with pytest.raises(ValueError, match=name):
        PrivacyGuarantee("M", **kwargs)


def test_privacy_guarantee_accepts_the_limits():
    assert PrivacyGuarantee("M", 0.0, flip_probability=0.5, dyad_independent=True).epsilon == 0
    g = PrivacyGuarantee("M", np.float32(np.inf), flip_probability=0.0, sensitivity=0.0,
                         noise_scale=0.0)
    assert type(g.epsilon) is float and g.epsilon == np.inf
    assert "no privacy" in g.describe()


# --- the released graph carries its release --------------------------------------------------


@pytest.mark.parametrize("release, cls", [(edge_flip, EdgeFlip), (laplace_flip, LaplaceFlip)])
def test_dense_release_is_a_plain_array_carrying_its_release(release, cls, graph):
    B = release(graph, 1.0, random_state=0)
    assert isinstance(B, np.ndarray) and isinstance(B, GraphArray) and B.dtype == np.uint8
    g = graph_guarantee(B)
    assert g == cls(1.0).fit().guarantee_ and g.dyad_independent
    assert g.flip_probability == cls(1.0).fit().flip_probability_
    # numpy works on it as on any array
    assert int(B.sum()) % 2 == 0 and np.array_equal(B, B.T) and (B @ B).shape == B.shape
    # derived arrays are not the release: slicing and arithmetic drop it
    for derived in (B[:10, :10], 1 - B, B.astype(float), B + 0, np.triu(B)):
        assert graph_guarantee(derived) is None
    # copies and pickles are the same release
    for same in (B.copy(), pickle.loads(pickle.dumps(B))):
        assert graph_guarantee(same) == g
        np.testing.assert_array_equal(same, B)


@pytest.mark.parametrize("kind, out_kind", [
    (sp.csr_matrix, sp.csr_matrix), (sp.csr_array, sp.csr_array),
    (sp.coo_array, sp.csr_array), (sp.csc_matrix, sp.csr_matrix),
    (sp.lil_array, sp.csr_array), (sp.coo_matrix, sp.csr_matrix)])
@pytest.mark.parametrize("cls", [EdgeFlip, LaplaceFlip])
def test_sparse_release_keeps_the_input_kind(kind, out_kind, cls, graph):
    A = kind(graph)
    B = cls(2.0, random_state=0).fit_transform(A)
    assert type(B) is out_kind
    assert B.dtype == np.uint8 and (B != B.T).nnz == 0 and not B.diagonal().any()
    assert graph_guarantee(B) == cls(2.0).fit().guarantee_
    assert graph_guarantee(pickle.loads(pickle.dumps(B))) == graph_guarantee(B)
    assert graph_guarantee(B[:10, :10]) is None
    assert graph_guarantee(A) is None  # the caller's matrix is never tagged
    # the same release as from a csr_matrix of the same graph
    ref = cls(2.0, random_state=0).fit_transform(sp.csr_matrix(graph))
    assert (sp.csr_matrix(B) != ref).nnz == 0


def test_function_twins_keep_the_kind(graph):
    assert type(edge_flip(sp.csr_array(graph), 1.0, random_state=0)) is sp.csr_array
    assert type(laplace_flip(sp.csr_array(graph), 1.0, random_state=0)) is sp.csr_array
    batch = edge_flip([sp.csr_array(graph), graph, sp.csr_matrix(graph)], 1.0, random_state=0)
    assert [type(b) for b in batch] == [sp.csr_array, GraphArray, sp.csr_matrix]
    rate = EdgeFlip(1.0).fit().flip_probability_
    assert all(graph_guarantee(b).flip_probability == rate for b in batch)


def test_release_carries_node_names(graph):
    names = [f"v{i}" for i in range(graph.shape[0])]
    for A in (tag_graph(np.array(graph), nodes=names),
              tag_graph(sp.csr_matrix(graph), nodes=names)):
        B = edge_flip(A, 1.0, random_state=0)
        assert graph_nodes(B) == names
        assert graph_guarantee(B).flip_probability == EdgeFlip(1.0).fit().flip_probability_
    # the input's own tags are left alone
    assert graph_guarantee(A) is None and graph_nodes(A) == names


def test_networkx_input_gives_a_sparse_release_with_its_nodes():
    nx = pytest.importorskip("networkx")
    G = nx.relabel_nodes(nx.Graph(nx.karate_club_graph().edges()), lambda v: f"member {v}")
    B = edge_flip(G, np.inf)
    assert sp.issparse(B) and B.sum() / 2 == G.number_of_edges()
    (item,), _ = graph_batch(G)
    assert graph_nodes(B) == graph_nodes(item)
    assert graph_guarantee(B).flip_probability == 0.0
