"""Every privacy release through scikit-learn's estimator checks.

A graph release takes whole graphs: a sample is a simple graph, an n x n adjacency matrix
(the ``pairwise`` tag), binary with a zero diagonal. scikit-learn's data-driven checks feed
kernels of random real data instead (real-valued, non-zero diagonal), which ``fit`` rightly
refuses, so the checks that need a successful fit on such data cannot run; each is listed
below with the reason. The API checks, and the checks of how bad input is refused, must
pass. ``test_release_contract_on_graphs`` then checks what the inapplicable checks would have
(fit returns self and changes no parameter, transform changes no attribute, pickling, fit
idempotence, sparse input) on graphs.

The Wasserstein mechanism is fitted on the secret pairs' distributions, a sequence of
``(values, p, q)`` triples (the public model of the data), and transforms query values: no
table of scikit-learn's checks is a sequence of triples.
"""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from tdadp import EdgeFlip, LaplaceFlip, sample_grdpg, sbm
from tdadp.ergm import ERGMStatisticsRelease
from tdadp.pufferfish import WassersteinMechanism
from tdadp.release import DegreeSequence, LaplaceEdgeCount, ProjectedCount

GRAPH_RELEASES = [
    EdgeFlip(random_state=0),
    LaplaceFlip(epsilon=2.0, random_state=0),
    LaplaceEdgeCount(random_state=0),
    DegreeSequence(histogram=True, noise="discrete", random_state=0),
    ProjectedCount("kstars", max_degree=3, random_state=0),
    ERGMStatisticsRelease(("edges", "altktriangles"), max_degree=3, random_state=0),
    ERGMStatisticsRelease(("edges", "altkstars"), level="node", max_degree=3, random_state=0),
    ERGMStatisticsRelease(("edges", "altktwopaths"), method="local", random_state=0),
]

_NOT_A_GRAPH = ("its input is a kernel of random real data (real entries, non-zero "
                "diagonal), not a simple graph (binary, zero diagonal), so fit refuses it")

GRAPH_EXPECTED_FAILED = {
    name: f"{_NOT_A_GRAPH}; {detail}" for name, detail in {
        "check_fit_score_takes_y": "it needs a successful fit",
        "check_estimators_overwrite_params": "it needs a successful fit",
        "check_dont_overwrite_parameters": "it needs a successful fit",
        "check_estimators_fit_returns_self": "it needs a successful fit",
        "check_readonly_memmap_input": "it needs a successful fit",
        "check_estimators_dtypes": "it needs a successful fit on each dtype",
        "check_dtype_object": "it needs a successful fit on an object array of numbers",
        "check_pipeline_consistency": "it needs a successful fit",
        "check_estimators_pickle": "it needs a successful fit",
        "check_f_contiguous_array_estimator": "it needs a successful fit",
        "check_transformer_data_not_an_array": "it needs a successful fit",
        "check_transformer_general": "it needs a successful fit",
        "check_dict_unchanged": "it needs a successful fit",
        "check_fit_idempotent": "it needs a successful fit",
        "check_fit_check_is_fitted": "it needs a successful fit",
        "check_fit2d_predict1d": "it needs a successful fit",
        "check_fit2d_1feature": "a kernel of one feature is a dense rank-one matrix",
        "check_estimators_nan_inf": (
            "its NaN and inf samples are not even square, and it needs a successful fit on "
            "the finite kernel"),
        "check_estimator_sparse_tag": "the sparse kernel is refused like the dense one",
        "check_estimator_sparse_array": "the sparse kernel is refused like the dense one",
        "check_estimator_sparse_matrix": "the sparse kernel is refused like the dense one",
        "check_positive_only_tag_during_fit": (
            "its negative entries are refused as non-binary entries (the message names the "
            "entry), not with scikit-learn's 'Negative values in data'"),
        "check_n_features_in": (
            "and a mechanism keeps nothing of its input, not even its number of nodes, so "
            "it has no n_features_in_"),
        "check_n_features_in_after_fitting": (
            "and a mechanism keeps nothing of its input, not even its number of nodes, so "
            "it has no n_features_in_"),
        "check_methods_sample_order_invariance": (
            "and permuting the rows of an adjacency matrix (not its columns) gives no graph"),
        "check_methods_subset_invariance": "and a subset of rows of a graph is no graph",
    }.items()
}

_NOT_TRIPLES = ("fit takes the secret pairs' distributions, a sequence of (values, p, q) "
                "triples; the rows of scikit-learn's tables are not triples")

WASSERSTEIN_EXPECTED_FAILED = dict.fromkeys([
    "check_fit_score_takes_y", "check_estimators_overwrite_params",
    "check_dont_overwrite_parameters", "check_estimators_fit_returns_self",
    "check_readonly_memmap_input", "check_n_features_in_after_fitting",
    "check_positive_only_tag_during_fit", "check_estimators_dtypes", "check_complex_data",
    "check_dtype_object", "check_estimators_empty_data_messages", "check_pipeline_consistency",
    "check_estimators_nan_inf", "check_estimator_sparse_tag", "check_estimator_sparse_array",
    "check_estimator_sparse_matrix", "check_estimators_pickle",
    "check_f_contiguous_array_estimator", "check_transformer_data_not_an_array",
    "check_transformer_general", "check_methods_sample_order_invariance",
    "check_methods_subset_invariance", "check_fit2d_1sample", "check_fit2d_1feature",
    "check_dict_unchanged", "check_fit_idempotent", "check_fit_check_is_fitted",
    "check_n_features_in", "check_fit2d_predict1d",
], _NOT_TRIPLES)
WASSERSTEIN_EXPECTED_FAILED["check_transformer_preserve_dtypes"] = (
    "it calls fit_transform, which cannot exist here: fit and transform take different "
    "inputs (distributions, then query values), so fit_transform raises TypeError")


def _expected_failed(estimator):
    if isinstance(estimator, WassersteinMechanism):
        return WASSERSTEIN_EXPECTED_FAILED
    return GRAPH_EXPECTED_FAILED


@pytest.mark.parametrize("estimator", GRAPH_RELEASES + [WassersteinMechanism(random_state=0)],
                         ids=repr)
def test_sklearn_compatible(estimator, assert_sklearn_compatible):
    assert_sklearn_compatible(estimator, _expected_failed(estimator))


@pytest.fixture(scope="module")
def graph():
    X = sbm([30, 30], [[0.6, 0.1], [0.1, 0.6]], random_state=0)
    return sample_grdpg(X, random_state=1)


def _dense(x):
    return x.toarray() if sp.issparse(x) else np.asarray(x)


def _same(a, b):
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return sp.issparse(a) == sp.issparse(b) and np.array_equal(_dense(a), _dense(b))


@pytest.mark.parametrize("estimator", GRAPH_RELEASES, ids=lambda e: type(e).__name__)
def test_release_contract_on_graphs(estimator, graph):
    est = clone(estimator)
    params = est.get_params()
    assert est.fit(graph) is est
    assert est.get_params() == params  # fit changes no parameter
    state = dict(vars(est))
    guarantee = est.guarantee_
    released = est.transform(graph)
    assert vars(est).keys() == state.keys()  # transform sets nothing
    assert all(vars(est)[k] is v for k, v in state.items())
    assert est.fit(graph).guarantee_ == guarantee  # fit is idempotent
    # Pickled, the fitted mechanism releases exactly the same (fixed seed).
    again = pickle.loads(pickle.dumps(est))
    assert _same(again.transform(graph), released)
    assert _same(est.fit_transform(graph), released)
    assert _same(est.transform([graph, graph])[0], released)
    # Every sparse container of the same graph gives the same release.
    reference = _dense(est.transform(sp.csr_matrix(graph)))
    for container in (sp.csr_array, sp.coo_array, sp.csc_matrix, sp.lil_matrix):
        assert np.array_equal(_dense(est.transform(container(graph))), reference)
    if not est.guarantee_.dyad_independent:
        # A statistic does not depend on the storage either (a flip draws its coins per
        # dyad when dense and per edge when sparse).
        assert np.array_equal(reference, _dense(released))


def test_wasserstein_contract():
    pairs = [([0.0, 1.0, 2.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5])]
    est = WassersteinMechanism(epsilon=2.0, random_state=0)
    params = est.get_params()
    assert est.fit(pairs) is est and est.get_params() == params
    released = est.transform(np.arange(5.0))
    assert _same(pickle.loads(pickle.dumps(est)).transform(np.arange(5.0)), released)
    with pytest.raises(TypeError, match="fit_transform"):
        est.fit_transform(pairs)


@pytest.mark.parametrize("estimator", GRAPH_RELEASES + [WassersteinMechanism()],
                         ids=lambda e: type(e).__name__)
def test_tags_are_honest(estimator):
    tags = estimator.__sklearn_tags__()
    assert tags.requires_fit  # transform releases with the calibration fit states
    assert tags.non_deterministic is (estimator.random_state is None)
    graph_release = not isinstance(estimator, WassersteinMechanism)
    # A sample is one whole graph, not a row of a kernel: pairwise would make model
    # selection slice a list of graphs as a kernel matrix.
    assert not tags.input_tags.pairwise
    assert tags.input_tags.sparse is graph_release
    assert not clone(estimator).set_params(random_state=3).__sklearn_tags__().non_deterministic
    assert clone(estimator).set_params(random_state="secure").__sklearn_tags__() \
        .non_deterministic
