"""Bad input, everywhere: every public entry point answers a clear ValueError or TypeError.

Property-based (hypothesis): for each public estimator and each of its parameters, a value
drawn from a pool of bad values (wrong types, NaN, infinities, complex numbers, strings,
negative and huge numbers, fractional counts) either satisfies the parameter's declared rule
and runs, or is refused with a ValueError/TypeError by ``fit``; never another exception, a
crash or a silent acceptance of a value its rule forbids. Then every entry point that takes a
graph, latent positions, a point cloud or a diagram gets malformed data of each kind.
"""

import contextlib
import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone

import tdadp
from tdadp.ergm import ERGMStatisticsRelease
from tdadp.pufferfish import (
    GK16Histogram,
    GroupDPHistogram,
    MarkovQuiltMechanism,
    MQMApprox,
    MQMExact,
    WassersteinMechanism,
)
from tdadp.release import DegreeSequence, LaplaceEdgeCount, ProjectedCount
from tdadp.topology import PairwiseDistance, PersistenceDiagram, PersistentHomology
from tdadp.utils import InvalidParameterError, check_param

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])

BAD_SCALARS = [
    -1, 0, 1, 2, -1.0, 0.0, 0.5, 1.5, 1e-20, 1e300, -1e300, math.inf, -math.inf, math.nan,
    1 + 2j, complex(1, 0), "a", "", "1", "auto", None, True, False, [1], (1, 2), {}, 2**31 - 1,
    2**63, np.float32(np.nan), np.int64(-3), object(),
]

_RNG = np.random.default_rng(0)
_GRAPH = tdadp.sample_grdpg(tdadp.circle(24, random_state=0), random_state=1)
_CLOUD = np.c_[np.cos(np.linspace(0, 6, 30)), np.sin(np.linspace(0, 6, 30))]
_DIAGRAM = PersistenceDiagram({0: [[0.0, 1.0], [0.0, np.inf]], 1: [[0.2, 0.5]]})


def _wasserstein_pairs():
    return [([0, 1], [1.0, 0.0], [0.0, 1.0])]


_CHAIN_THETA = ("stationary", [[0.6, 0.4], [0.4, 0.6]])
_CHAIN = np.array([0, 1, 1, 0, 0, 1, 0, 0])

# estimator -> (how to run it on valid data)
ESTIMATORS = {
    "LatentSampler": (tdadp.LatentSampler(n_nodes=20, random_state=0),
                      lambda e: e.fit_transform(2)),
    "GRDPG": (tdadp.GRDPG(random_state=0),
              lambda e: e.fit_transform(tdadp.circle(20, random_state=0))),
    "EdgeFlip": (tdadp.EdgeFlip(random_state=0), lambda e: e.fit_transform(_GRAPH)),
    "LaplaceFlip": (tdadp.LaplaceFlip(random_state=0), lambda e: e.fit_transform(_GRAPH)),
    "LaplaceEdgeCount": (LaplaceEdgeCount(random_state=0), lambda e: e.fit_transform(_GRAPH)),
    "DegreeSequence": (DegreeSequence(random_state=0), lambda e: e.fit_transform(_GRAPH)),
    "ProjectedCount": (ProjectedCount(random_state=0), lambda e: e.fit_transform(_GRAPH)),
    "ERGMStatisticsRelease": (ERGMStatisticsRelease(("edges", "altktriangles"), max_degree=5,
                                                    random_state=0),
                              lambda e: e.fit_transform(_GRAPH)),
    "WassersteinMechanism": (WassersteinMechanism(random_state=0),
                             lambda e: e.fit(_wasserstein_pairs()).transform(3.0)),
    "MarkovQuiltMechanism": (MarkovQuiltMechanism(random_state=0),
                             lambda e: e.fit({0: [(0.1, 1), (0.0, 2)]}).transform(3.0)),
    **{cls.__name__: (cls(_CHAIN_THETA, random_state=0),
                      lambda e: e.fit(_CHAIN).transform(_CHAIN))
       for cls in (MQMExact, MQMApprox, GroupDPHistogram, GK16Histogram)},
    "AdjacencySpectralEmbedding": (tdadp.AdjacencySpectralEmbedding(n_components=2),
                                   lambda e: e.fit_transform(_GRAPH)),
    "PersistentHomology": (PersistentHomology(), lambda e: e.fit_transform(_CLOUD)),
    "PairwiseDistance": (PairwiseDistance(), lambda e: e.fit_transform([_DIAGRAM, _DIAGRAM])),
    "ToMATo": (tdadp.ToMATo(), lambda e: e.fit_predict(_CLOUD)),
    # 10 points: an allowed huge max_clusters fits every count up to the number of points
    # (30 of them on the whole cloud: 48 s of a 2-core run).
    "BICGaussianMixture": (tdadp.BICGaussianMixture(max_clusters=3, random_state=0),
                           lambda e: e.fit_predict(_CLOUD[::3])),
    "BlockModelClustering": (tdadp.BlockModelClustering(n_clusters=2,
                                                        candidates=("kmeans", "spherical"),
                                                        random_state=0),
                             lambda e: e.fit_predict(_GRAPH)),
}

CASES = [(name, param) for name, (est, _) in ESTIMATORS.items()
         for param in est.get_params(deep=False)]


def test_every_parameter_of_every_estimator_has_a_declared_rule():
    for name, (est, _) in ESTIMATORS.items():
        assert set(type(est)._parameter_constraints) == set(est.get_params(deep=False)), name


@pytest.mark.parametrize("name,param", CASES, ids=[f"{n}.{p}" for n, p in CASES])
@FUZZ
@given(value=st.sampled_from(BAD_SCALARS))
def test_bad_parameter_values_are_refused_clearly(name, param, value):
    est, run = ESTIMATORS[name]
    est = clone(est).set_params(**{param: value})
    rule = type(est)._parameter_constraints[param]
    try:
        allowed = rule == "no_validation" or check_param(value, rule, param) is value
    except InvalidParameterError:
        allowed = False
    try:
        run(est)
    except (ValueError, TypeError) as exc:
        if not allowed:
            assert param in str(exc), f"{name}({param}={value!r}): {exc}"
        return
    assert allowed, f"{name} accepted {param}={value!r}, which its rule forbids"


# --- data ---------------------------------------------------------------------------------

def _bad_graphs():
    A = np.asarray(_GRAPH).copy()
    asym = A.copy()
    asym[0, 1], asym[1, 0] = 1, 0
    loops = A.copy()
    loops[3, 3] = 1
    weighted = A.astype(float) * 0.5
    nan = A.astype(float)
    nan[0, 1] = nan[1, 0] = np.nan
    return {
        "asymmetric": asym, "self-loop": loops, "non-binary": weighted, "nan": nan,
        "complex": A.astype(complex), "strings": A.astype(str), "object": A.astype(object),
        "rectangular": A[:, :-1], "1-D": A[0], "4-D": A[None, None], "empty": np.zeros((0, 0)),
        "one node": np.zeros((1, 1), dtype=np.uint8), "empty list": [],
        "sparse asymmetric": sp.csr_matrix(asym), "sparse self-loop": sp.coo_array(loops),
        "sparse nan": sp.csr_matrix(nan), "ragged": [[0, 1], [1]], "string": "graph",
        "none": None,
    }


BAD_GRAPHS = _bad_graphs()

GRAPH_ENTRY_POINTS = {
    "edge_flip": lambda A: tdadp.edge_flip(A, 1.0, random_state=0),
    "laplace_flip": lambda A: tdadp.laplace_flip(A, 1.0, random_state=0),
    "LaplaceEdgeCount": lambda A: LaplaceEdgeCount(random_state=0).fit_transform(A),
    "DegreeSequence": lambda A: DegreeSequence(random_state=0).fit_transform(A),
    "ProjectedCount": lambda A: ProjectedCount(random_state=0).fit_transform(A),
    "project_max_degree": lambda A: tdadp.project_max_degree(A, 3),
    "to_networkx": lambda A: tdadp.to_networkx(A),
    "audit": lambda A: tdadp.audit(tdadp.EdgeFlip(1.0), A, A, n_trials=10),
    "BlockModelClustering": lambda A: tdadp.BlockModelClustering(
        n_clusters=2, candidates=("kmeans",), random_state=0).fit(A),
    "block_model_loglik": lambda A: tdadp.cluster.block_model_loglik(
        A, np.zeros(np.shape(A)[0] if np.ndim(A) == 2 else 1, dtype=int)),
}

# The embedding takes weighted graphs, so weights are not an error there.
WEIGHTED_OK = {"non-binary"}


@pytest.mark.parametrize("entry", sorted(GRAPH_ENTRY_POINTS))
@pytest.mark.parametrize("kind", sorted(BAD_GRAPHS))
def test_bad_graphs_are_refused_clearly(entry, kind):
    with pytest.raises((ValueError, TypeError)):
        GRAPH_ENTRY_POINTS[entry](BAD_GRAPHS[kind])


@pytest.mark.parametrize("kind", sorted(set(BAD_GRAPHS) - WEIGHTED_OK - {"self-loop",
                                                                           "sparse self-loop"}))
def test_bad_graphs_are_refused_by_the_embedding(kind):
    with pytest.raises((ValueError, TypeError)):
        tdadp.adjacency_spectral_embedding(BAD_GRAPHS[kind], 1)


def _bad_latent():
    X = np.asarray(tdadp.circle(10, random_state=0))
    return {
        "complex": X.astype(complex), "strings": X.astype(str), "nan": np.where(X > 0.5,
                                                                                 np.nan, X),
        "inf": X + np.inf, "1-D": X[:, 0], "3-D ragged": [X, X[:, :2]], "one node": X[:1],
        "no column": X[:, :0], "out of range": X * 3,
        # Half the nodes mirrored: their products with the other half are negative.
        "negative products": np.r_[X[:5], -X[5:]],
        "none": None, "string": "X",
    }


BAD_LATENT = _bad_latent()

LATENT_ENTRY_POINTS = {
    "sample_grdpg": lambda X: tdadp.sample_grdpg(X, random_state=0),
    "sample_grdpg sparse": lambda X: tdadp.sample_grdpg(X, random_state=0, sparse=True),
    "GRDPG": lambda X: tdadp.GRDPG(random_state=0).fit_transform(X),
    "probability_matrix": lambda X: tdadp.probability_matrix(X),
    "private_latent_map": lambda X: tdadp.private_latent_map(X, 1.0),
}


@pytest.mark.parametrize("entry", sorted(LATENT_ENTRY_POINTS))
@pytest.mark.parametrize("kind", sorted(BAD_LATENT))
def test_bad_latent_positions_are_refused_clearly(entry, kind):
    if entry == "private_latent_map" and kind in ("out of range", "negative products"):
        pytest.skip("the map is defined for any finite positions")
    with pytest.raises((ValueError, TypeError)):
        LATENT_ENTRY_POINTS[entry](BAD_LATENT[kind])


BAD_CLOUDS = {
    "complex": _CLOUD.astype(complex) + 1j, "strings": _CLOUD.astype(str),
    "nan": np.where(_CLOUD > 0.9, np.nan, _CLOUD), "inf": _CLOUD * np.inf, "1-D": _CLOUD[:, 0],
    "empty": np.zeros((0, 2)), "none": None, "string": "cloud",
}

CLOUD_ENTRY_POINTS = {
    "persistence_diagram alpha": lambda X: tdadp.persistence_diagram(X, complex="alpha"),
    "persistence_diagram rips": lambda X: tdadp.persistence_diagram(X, complex="rips"),
    "tomato": lambda X: tdadp.tomato(X),
    "ToMATo": lambda X: tdadp.ToMATo().fit(X),
}


@pytest.mark.parametrize("entry", sorted(CLOUD_ENTRY_POINTS))
@pytest.mark.parametrize("kind", sorted(BAD_CLOUDS))
def test_bad_point_clouds_are_refused_clearly(entry, kind):
    with pytest.raises((ValueError, TypeError)):
        CLOUD_ENTRY_POINTS[entry](BAD_CLOUDS[kind])


@FUZZ
@given(coeff=st.one_of(st.integers(min_value=-10, max_value=2**64), st.sampled_from(
    BAD_SCALARS)))
def test_rips_coefficient_field_is_checked_before_ripser_sees_it(coeff):
    # A huge prime used to abort the interpreter inside ripser (signal 6) or hang.
    with contextlib.suppress(ValueError, TypeError):
        tdadp.persistence_diagram(_CLOUD[:10], complex="rips", coeff=coeff)


DIAGRAM_FUNCTIONS = {
    "bottleneck_distance": tdadp.bottleneck_distance,
    "wasserstein_distance": tdadp.wasserstein_distance,
    "shift_invariant_bottleneck": tdadp.shift_invariant_bottleneck,
    "dilation_invariant_bottleneck": tdadp.dilation_invariant_bottleneck,
}


@pytest.mark.parametrize("name", sorted(DIAGRAM_FUNCTIONS))
@FUZZ
@given(value=st.sampled_from([
    np.array([[0.0, np.nan]]), np.array([[1.0 + 1j, 2.0]]), np.array([["a", "b"]]),
    np.array([1.0, 2.0]), np.array([[2.0, 1.0, 0.0]]), "diagram", None, [[1, 2], [3]],
]))
def test_bad_diagrams_are_refused_clearly(name, value):
    with pytest.raises((ValueError, TypeError)):
        DIAGRAM_FUNCTIONS[name](value, np.array([[0.0, 1.0]]), homology_dimension=1)


@pytest.mark.parametrize("e", [-1, -1.0, math.nan, "a", 1 + 1j])
def test_bottleneck_error_bound_is_checked(e):
    with pytest.raises((ValueError, TypeError), match="e"):
        tdadp.bottleneck_distance(np.array([[0.0, 1.0]]), np.array([[0.0, 2.0]]), e=e)


def test_huge_diagram_coordinates_give_exact_distances_or_a_clear_error():
    D1 = np.array([[1e200, 3e200]])
    D2 = np.array([[1e200, 2e200]])
    try:
        d = tdadp.bottleneck_distance(D1, D2)
    except ValueError:
        return
    assert d == pytest.approx(1e200, rel=1e-12)


@pytest.mark.parametrize("epsilon", [-1, math.nan, "a", 1j, None])
def test_epsilon_everywhere(epsilon):
    calls = [
        lambda: tdadp.flip_probability(epsilon),
        lambda: tdadp.laplace_flip_probability(epsilon),
        lambda: tdadp.edge_flip(_GRAPH, epsilon),
        lambda: tdadp.private_latent_map(tdadp.circle(5, random_state=0), epsilon),
        lambda: tdadp.PrivacyGuarantee("m", epsilon),
        lambda: tdadp.make_private_clustering("kmeans", epsilon=epsilon, n_clusters=2),
        lambda: tdadp.power_bound(epsilon, 0.05),
    ]
    for call in calls:
        with pytest.raises((ValueError, TypeError)):
            call()


# --- what a refusal may say about a private graph ----------------------------------------------

PRIVATE_GRAPH_ENTRY_POINTS = {
    "EdgeFlip secure": lambda A: tdadp.EdgeFlip(1.0, random_state="secure").fit_transform(A),
    "LaplaceFlip": lambda A: tdadp.LaplaceFlip(1.0, random_state=0).fit_transform(A),
    "LaplaceEdgeCount": lambda A: LaplaceEdgeCount(random_state=0).fit_transform(A),
    "ERGMStatisticsRelease": lambda A: ERGMStatisticsRelease(
        ("edges",), max_degree=5, random_state=0).fit_transform(A),
    "simple_graph": lambda A: tdadp.io.simple_graph(A),
    "from_networkx": lambda A: tdadp.from_networkx(A),
    "audit": lambda A: tdadp.audit(tdadp.EdgeFlip(1.0), A, A, n_trials=10),
}


@pytest.mark.parametrize("entry", sorted(PRIVATE_GRAPH_ENTRY_POINTS))
@FUZZ
@given(data=st.data())
def test_refusals_never_quote_private_dyads_or_values(entry, data):
    import networkx as nx

    n = data.draw(st.integers(4, 9))
    i, j = sorted(data.draw(st.lists(st.integers(1, n - 2), min_size=2, max_size=2,
                                     unique=True)))
    fault = data.draw(st.sampled_from(["weight", "self-loop", "asymmetric"]))
    value = data.draw(st.sampled_from([2.718281, 7.389056, 0.367879, 3]))
    A = np.zeros((n, n))
    A[0, n - 1] = A[n - 1, 0] = 1  # an honest edge besides the fault
    if fault == "weight":
        A[i, j] = A[j, i] = value
    elif fault == "self-loop":
        A[i, i] = 1
    else:
        A[i, j] = 1
    sparse = data.draw(st.booleans())
    X = sp.csr_matrix(A) if sparse else A
    names = [f"secret{k}x" for k in range(n)]
    if entry == "from_networkx":
        if fault == "asymmetric":
            return  # an undirected networkx graph cannot be asymmetric
        X = nx.relabel_nodes(nx.from_numpy_array(A), dict(enumerate(names)))
    with pytest.raises((ValueError, TypeError)) as info:
        PRIVATE_GRAPH_ENTRY_POINTS[entry](X)
    message = str(info.value)
    # Counts and the fix only: no dyad, node index or name, or entry value.
    for leak in (f"({i}, {j})", f"({j}, {i})", f"({i}, {i})", f"node {i}", "secret",
                 f"{value:g}" if fault == "weight" and value != 3 else "2.718281"):
        assert leak not in message, f"{entry} quotes {leak!r}: {message}"
