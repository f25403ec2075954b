"""Bad input on the ERGM surface: a clear ValueError or TypeError, or a valid answer.

Property-based (hypothesis), in the style of ``tests/test_bad_input.py``: every parameter of
``ERGM``, ``ERGMStatisticsRelease``, ``PrivateERGM`` and ``bayes_ergm`` gets values from a
pool of bad ones (wrong types, NaN, infinities, complex numbers, strings, negative, fractional
and huge numbers); a value its declared rule allows must run, any other must be refused with
a ValueError/TypeError naming the parameter. Then malformed graphs, terms, decays, thetas,
counts and observations go through ``ergm_statistics``, ``parse_terms``, ``sample_ergm``,
``ERGM``, ``ERGMStatisticsRelease``, ``ergm_statistics_release``, ``bayes_ergm``,
``PrivateERGM`` and the ``Observation`` constructors: never another exception, a hang or a
silent acceptance. Graphs are tiny and chains short, so the whole file runs in seconds.
"""

import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone

from tdadp.ergm import (
    ALTERNATING_TERMS,
    ERGM,
    ERGM_TERMS,
    ERGMChain,
    ERGMStatisticsRelease,
    Observation,
    PrivateERGM,
    bayes_ergm,
    ergm_statistics,
    ergm_statistics_release,
    parse_terms,
    sample_ergm,
)
from tdadp.ergm._inference import _CONSTRAINTS, _PER_STATISTIC, _model_constraints
from tdadp.utils import InvalidParameterError, check_param

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])

BAD_SCALARS = [
    -1, 0, 1, 2, 3, -1.0, 0.0, 0.5, 1.5, 2.5, 1e-20, 1e300, -1e300, math.inf, -math.inf,
    math.nan, 1 + 2j, complex(1, 0), "a", "", "1", "10", "auto", "secure", None, True, False,
    [1], (1, 2), {}, 2**31 - 1, 2**63, 10**400, np.float32(np.nan), np.int64(-3),
    np.float64(4.0), np.int64(4), object(),
]

# A 6-node graph every valid call below runs on quickly.
A6 = np.zeros((6, 6), dtype=np.uint8)
for _i, _j in [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (4, 5)]:
    A6[_i, _j] = A6[_j, _i] = 1
LABELS6 = [0, 1, 0, 1, 2, 2]
SHORT = dict(n_iter=5, burn_in=2, aux_steps=20, latent_steps=20)

# Parameters that set an amount of work: a huge value its rule allows is a long run, not an
# error, so only the rule's verdict is checked for it.
WORK = {"n_steps", "n_iter", "burn_in", "aux_steps", "latent_steps", "latent_burn_in",
        "n_chains", "n_jobs"}

# estimator -> (instance, how to run it on valid data)
ESTIMATORS = {
    "ERGM": (ERGM(["edges", "altktriangles"], theta=[-1.0, 0.2], n_steps=50, random_state=0),
             lambda e: e.fit_transform(A6)),
    "ERGMStatisticsRelease": (ERGMStatisticsRelease(["edges", "altkstars"], max_degree=3,
                                                    random_state=0),
                              lambda e: e.fit_transform(A6)),
    "ERGMStatisticsRelease node": (ERGMStatisticsRelease(["edges", "altktwopaths"],
                                                         level="node", max_degree=3,
                                                         random_state=0),
                                   lambda e: e.fit_transform(A6)),
    "PrivateERGM": (PrivateERGM(["edges"], epsilon=2.0, max_degree=3, random_state=0,
                                **SHORT),
                    lambda e: e.fit(A6)),
}

CASES = [(name, param) for name, (est, _) in ESTIMATORS.items()
         for param in est.get_params(deep=False)]


def _allowed(value, rule, param):
    try:
        return rule == "no_validation" or check_param(value, rule, param) is value
    except InvalidParameterError:
        return False


def test_every_parameter_has_a_declared_rule():
    for name, (est, _) in ESTIMATORS.items():
        assert set(type(est)._parameter_constraints) == set(est.get_params(deep=False)), name


@pytest.mark.parametrize("name,param", CASES, ids=[f"{n}.{p}" for n, p in CASES])
@FUZZ
@given(value=st.sampled_from(BAD_SCALARS))
def test_bad_parameter_values_are_refused_clearly(name, param, value):
    est, run = ESTIMATORS[name]
    est = clone(est).set_params(**{param: value})
    rule = type(est)._parameter_constraints[param]
    allowed = _allowed(value, rule, param)
    if allowed and param in WORK and isinstance(value, int) and abs(value) > 1000:
        return
    try:
        run(est)
    except (ValueError, TypeError) as exc:
        if not allowed:
            assert param in str(exc), f"{name}({param}={value!r}): {exc}"
        return
    assert allowed, f"{name} accepted {param}={value!r}, which its rule forbids"


BAYES_PARAMS = sorted(set(_CONSTRAINTS) - {"statistics", "graph", "observation", "labels",
                                           "n_nodes"}) + list(_PER_STATISTIC)


@pytest.mark.parametrize("param", BAYES_PARAMS)
@FUZZ
@given(value=st.sampled_from(BAD_SCALARS))
def test_bayes_ergm_parameters(param, value):
    kwargs = dict(SHORT, random_state=0)
    kwargs[param] = value
    rules = _model_constraints(1) if param in _PER_STATISTIC else _CONSTRAINTS
    allowed = _allowed(value, rules[param], param)
    if allowed and param in WORK and isinstance(value, int) and abs(value) > 1000:
        return
    try:
        post = bayes_ergm(["edges"], graph=A6, **kwargs)
    except (ValueError, TypeError) as exc:
        if not allowed:
            assert param in str(exc), f"bayes_ergm({param}={value!r}): {exc}"
        return
    assert allowed, f"bayes_ergm accepted {param}={value!r}, which its rule forbids"
    assert np.isfinite(post.draws).all()


# --- graphs ------------------------------------------------------------------------------

def _bad_graphs():
    A = A6.copy()
    asym = A.copy()
    asym[0, 3] = 1
    loops = A.copy()
    loops[2, 2] = 1
    nan = A.astype(float)
    nan[0, 1] = nan[1, 0] = np.nan
    inf = A.astype(float)
    inf[0, 1] = inf[1, 0] = np.inf
    return {
        "asymmetric": asym, "self-loop": loops, "weighted": A * 0.5, "negative": -A.astype(int),
        "nan": nan, "inf": inf, "complex": A.astype(complex), "strings": A.astype(str),
        "object": A.astype(object), "rectangular": A[:, :-1], "1-D": A[0], "4-D": A[None, None],
        "empty": np.zeros((0, 0)), "one node": np.zeros((1, 1), dtype=np.uint8),
        "empty list": [], "sparse asymmetric": sp.csr_matrix(asym),
        "sparse self-loop": sp.coo_array(loops), "sparse nan": sp.csr_matrix(nan),
        "ragged": [[0, 1], [1]], "string": "graph", "none": None, "int": 6,
        "directed networkx": nx.DiGraph([(0, 1), (1, 2)]), "batch": [A, A],
    }


BAD_GRAPHS = _bad_graphs()

GRAPH_ENTRY_POINTS = {
    "ergm_statistics": lambda A: ergm_statistics(A, ["edges", "altktwopaths"]),
    "ERGMStatisticsRelease": lambda A: ERGMStatisticsRelease(max_degree=3).fit_transform(A),
    "ERGMStatisticsRelease.fit": lambda A: ERGMStatisticsRelease(max_degree=3).fit(A),
    "ERGMStatisticsRelease node": lambda A: ERGMStatisticsRelease(
        level="node", max_degree=3).fit_transform(A),
    "ERGMStatisticsRelease local": lambda A: ERGMStatisticsRelease(
        ["edges", "altktriangles"], method="local").fit_transform(A),
    "ergm_statistics_release": lambda A: ergm_statistics_release(A, ["edges"], 1.0,
                                                                 max_degree=3),
    "sample_ergm start": lambda A: sample_ergm(["edges"], [0.0], start=A, n_steps=5),
    "ERGMChain": lambda A: ERGMChain(A, ["edges"]),
    "bayes_ergm": lambda A: bayes_ergm(["edges"], graph=A, **SHORT),
    "PrivateERGM": lambda A: PrivateERGM(epsilon=1.0, max_degree=3, **SHORT).fit(A),
    "PrivateERGM nonprivate": lambda A: PrivateERGM(**SHORT).fit(A),
    "PrivateERGM.fit_release flip": lambda A: PrivateERGM(
        epsilon=1.0, mechanism="flip", **SHORT).fit_release(A),
    "Observation.flip": lambda A: Observation.flip(A, 0.2),
}
# ERGM.transform takes a node count too: an int is a valid input there.
ERGM_GRAPHS = sorted(set(BAD_GRAPHS) - {"int"})
# The releases take a batch of graphs, and fit takes no graph at all.
VALID_FOR = {"batch": {"ERGMStatisticsRelease", "ERGMStatisticsRelease.fit",
                       "ERGMStatisticsRelease node", "ERGMStatisticsRelease local",
                       "ergm_statistics_release"},
             "none": {"ERGMStatisticsRelease.fit"}}


@pytest.mark.parametrize("entry", sorted(GRAPH_ENTRY_POINTS))
@pytest.mark.parametrize("kind", sorted(BAD_GRAPHS))
def test_bad_graphs_are_refused_clearly(entry, kind):
    if entry in VALID_FOR.get(kind, ()):
        GRAPH_ENTRY_POINTS[entry](BAD_GRAPHS[kind])
        return
    with pytest.raises((ValueError, TypeError)):
        GRAPH_ENTRY_POINTS[entry](BAD_GRAPHS[kind])


@pytest.mark.parametrize("kind", ERGM_GRAPHS)
def test_bad_graphs_are_refused_by_ergm_transform(kind):
    if kind == "batch":
        pytest.skip("a list of graphs is a batch for ERGM")
    with pytest.raises((ValueError, TypeError)):
        ERGM(n_steps=5).fit_transform(BAD_GRAPHS[kind])


GOOD_GRAPHS = [A6, A6.tolist(), sp.csr_matrix(A6), sp.coo_array(A6), nx.from_numpy_array(A6)]


@pytest.mark.parametrize("entry", sorted(set(GRAPH_ENTRY_POINTS) - {"Observation.flip",
                                                                     "PrivateERGM.fit_release "
                                                                     "flip"}))
@pytest.mark.parametrize("k", range(len(GOOD_GRAPHS)))
def test_every_container_of_a_valid_graph_works(entry, k):
    GRAPH_ENTRY_POINTS[entry](GOOD_GRAPHS[k])


# --- terms and decays ----------------------------------------------------------------------

DECAYS = [1, 1.0, 1.5, 2, 1e9, 1e300, np.float64(3.0), np.int64(2), 0.5, 0.999, 0, -1, math.inf,
          math.nan, 10**400, "2", 1 + 1j, True, None, [2.0], object()]


def _valid_decay(d):
    if d is None:
        return True
    if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, float, np.integer,
                                                             np.floating)):
        return False
    try:
        return math.isfinite(float(d)) and d >= 1
    except OverflowError:
        return False


NAMES = [*ERGM_TERMS, "triangles", "", "EDGES"]
entry = st.one_of(
    st.sampled_from(NAMES),
    st.tuples(st.sampled_from(NAMES), st.sampled_from(DECAYS)),
    st.sampled_from([None, 3, 2.5, ("edges",), ("altkstars", 2, 3), b"edges", {"edges": 1}]),
)


def _expected_valid(terms):
    """Whether a list of entries is a valid model for the labels LABELS6 (3 levels)."""
    seen, names = set(), []
    for e in terms:
        if isinstance(e, str):
            name, decay = e, None
        elif isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], str):
            name, decay = e
        else:
            return False
        if name not in ERGM_TERMS:
            return False
        if name in ALTERNATING_TERMS:
            if not _valid_decay(decay):
                return False
            key = (name, 2.0 if decay is None else float(decay))
        else:
            if decay is not None:
                return False
            key = (name, None)
            if name in names:
                return False
        if key in seen:
            return False
        seen.add(key)
        names.append(name)
    return bool(terms)


@FUZZ
@given(terms=st.lists(entry, min_size=0, max_size=4))
def test_terms_and_decays(terms):
    valid = _expected_valid(terms)
    try:
        parsed = parse_terms(terms, labels=LABELS6)
        s = ergm_statistics(A6, terms, labels=LABELS6)
    except (ValueError, TypeError):
        assert not valid, f"refused a valid model {terms!r}"
        return
    assert valid, f"accepted {terms!r}"
    assert s.shape == (parsed.n_statistics,) and np.isfinite(s).all()
    assert all(isinstance(n, str) for n in parsed.statistic_names)


@pytest.mark.parametrize("statistics", [{"edges"}, {"edges": 1}, 3, None, [], "", b"edges",
                                        ("edges", "edges"), [("altkstars", 2), ("altkstars",
                                                                               2.0)]])
def test_malformed_term_lists_are_refused(statistics):
    with pytest.raises(ValueError):
        parse_terms(statistics)


# --- thetas and counts -----------------------------------------------------------------------

THETAS = [[-1.0], [-1], (0.5,), np.array([0.0]), -1.0, [np.nan], [np.inf], ["-1"], "-1",
          [1 + 1j], np.array([1 + 1j]), [True], [None], None, [], [0.0, 1.0], [[0.0]],
          [object()], {"edges": 0.0}, np.array(["1.0"]), [10**400], [1e308 * 10]]


def _valid_theta(t, sequence=False):
    if isinstance(t, (str, dict)) or t is None:
        return False
    if sequence and not isinstance(t, (list, tuple, np.ndarray)):
        return False  # ERGM's rule: theta is a list, tuple or array
    arr = np.asarray(t, dtype=object).ravel() if not isinstance(t, np.ndarray) else t.ravel()
    if arr.size != 1:
        return False
    v = arr.tolist()[0]
    return (isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e308)


@FUZZ
@given(theta=st.sampled_from(THETAS))
def test_thetas(theta):
    for sequence, call in (
            (False, lambda: sample_ergm(["edges"], theta, n_nodes=5, n_steps=20,
                                        random_state=0)),
            (True, lambda: ERGM(["edges"], theta=theta, n_steps=20).fit_transform(5)),
            (False, lambda: ERGMChain(A6, ["edges"]).run(theta, 20, np.random.default_rng(0)))):
        valid = _valid_theta(theta, sequence)
        try:
            call()
        except (ValueError, TypeError):
            assert not valid, f"refused theta={theta!r}"
            continue
        assert valid, f"accepted theta={theta!r}"


COUNT_ARGS = ["n_nodes", "n_steps", "max_degree"]


@pytest.mark.parametrize("arg", COUNT_ARGS)
@FUZZ
@given(value=st.sampled_from(BAD_SCALARS))
def test_sample_ergm_counts(arg, value):
    kwargs = {"n_nodes": 5, "n_steps": 20, "random_state": 0, arg: value}
    is_int = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    minimum = {"n_nodes": 2, "n_steps": 0, "max_degree": 1}[arg]
    valid = is_int and minimum <= value <= {"n_nodes": 10**9, "n_steps": 10**4,
                                            "max_degree": 2**53}[arg]
    if value is None and arg != "n_nodes":
        valid = True  # the default
    if arg == "n_nodes" and is_int and value > 2000:
        valid = None  # a memory refusal or a run: both fine
    if arg == "n_steps" and is_int and value > 10**4:
        return  # a long run its rule allows
    try:
        A = sample_ergm(["edges"], [-1.0], **kwargs)
    except (ValueError, TypeError) as exc:
        assert not isinstance(exc, OverflowError)
        assert valid is not True, f"sample_ergm refused {arg}={value!r}: {exc}"
        assert arg in str(exc) or valid is None or "GB" in str(exc), str(exc)
        return
    assert valid is not False, f"sample_ergm accepted {arg}={value!r}"
    assert A.shape == (kwargs["n_nodes"],) * 2


@FUZZ
@given(value=st.sampled_from(BAD_SCALARS))
def test_private_inference_node_counts(value):
    release = ERGMStatisticsRelease(["edges"], max_degree=3, random_state=0).fit_transform(A6)
    is_int = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    calls = [
        lambda: PrivateERGM(["edges"], epsilon=1.0, max_degree=3, random_state=0,
                            **SHORT).fit_release(release, n_nodes=value),
        lambda: bayes_ergm(["edges"], observation=Observation.laplace([5.0], [1.0]),
                           n_nodes=value, random_state=0, **SHORT),
    ]
    for call in calls:
        try:
            call()
        except (ValueError, TypeError) as exc:
            assert not isinstance(exc, OverflowError)
            assert not (is_int and 2 <= value <= 200), f"refused n_nodes={value!r}: {exc}"
            continue
        assert is_int and value >= 2, f"accepted n_nodes={value!r}"


# --- observations -------------------------------------------------------------------------

VECTORS = [[1.0], [1], np.array([2.0]), 3.0, [np.nan], [np.inf], [-1.0], ["1"], "1", [1 + 1j],
           np.array([1 + 0j]), [True], [None], None, [], [1.0, 2.0], [[1.0]], [object()],
           [10**400]]


@FUZZ
@given(values=st.sampled_from(VECTORS), scales=st.sampled_from(VECTORS),
       kind=st.sampled_from(["laplace", "cauchy", "smooth_cauchy"]))
def test_observation_vectors(values, scales, kind):
    def ok(v, nonneg):
        if isinstance(v, str) or v is None:
            return False
        arr = np.asarray(v, dtype=object).ravel() if not isinstance(v, np.ndarray) \
            else v.ravel()
        if any(isinstance(x, (bool, complex, np.complexfloating)) or x is None
               or not isinstance(x, (int, float, np.integer, np.floating)) for x in arr.tolist()):
            return False
        if any(isinstance(x, int) and abs(x) > 1e308 for x in arr.tolist()):
            return False
        f = np.asarray(arr.tolist(), dtype=float)
        return bool(np.all(f >= 0) and not np.isnan(f).any()) if nonneg else \
            bool(np.isfinite(f).all())
    valid = ok(values, False) and ok(scales, True) and \
        np.size(np.asarray(values, dtype=object)) == np.size(np.asarray(scales, dtype=object))
    build = {"laplace": lambda: Observation.laplace(values, scales),
             "cauchy": lambda: Observation.cauchy(values, scales),
             "smooth_cauchy": lambda: Observation.smooth_cauchy(values, scales, 3, 0.5)}[kind]
    try:
        obs = build()
    except (ValueError, TypeError):
        assert not valid, f"refused {kind}({values!r}, {scales!r})"
        return
    assert valid, f"accepted {kind}({values!r}, {scales!r})"
    assert np.isfinite(obs.values).all()


@pytest.mark.parametrize("arg", ["max_degree", "beta"])
@FUZZ
@given(value=st.sampled_from(BAD_SCALARS))
def test_smooth_cauchy_parameters(arg, value):
    kwargs = {"max_degree": 3, "beta": 0.5, arg: value}
    is_int = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if arg == "max_degree":
        valid = is_int and 0 <= value <= 2**53
    else:
        valid = (isinstance(value, (int, float, np.integer, np.floating))
                 and not isinstance(value, bool) and not isinstance(value, complex)
                 and value == value and value > 0 and value <= math.inf
                 and (not isinstance(value, int) or value < 10**309))
    try:
        obs = Observation.smooth_cauchy([1.0], [1.0], **kwargs)
    except (ValueError, TypeError) as exc:
        assert not valid and arg in str(exc), f"refused {arg}={value!r}: {exc}"
        return
    assert valid, f"accepted {arg}={value!r}"
    # the observation drives a chain restricted to its truncation degree without error
    if obs.max_degree >= 2:
        chain = ERGMChain(np.zeros((5, 5), dtype=np.uint8), ["edges"],
                          max_degree=max(1, min(obs.max_degree, 2**53)), observation=obs)
        chain.run([0.0], 50, np.random.default_rng(0))


@FUZZ
@given(value=st.sampled_from(BAD_SCALARS))
def test_flip_probability(value):
    valid = (isinstance(value, (int, float, np.integer, np.floating))
             and not isinstance(value, bool) and 0 < value < 0.5)
    try:
        obs = Observation.flip(A6, value)
    except (ValueError, TypeError) as exc:
        assert not valid and "flip_probability" in str(exc)
        return
    assert valid, f"accepted flip_probability={value!r}"
    assert 0 < obs.flip_probability < 0.5
