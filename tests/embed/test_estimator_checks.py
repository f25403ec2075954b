"""The embedding through scikit-learn's estimator checks.

A sample is one whole graph (a batch is a list of graphs), so the embedding does not declare
the ``pairwise`` tag: with it, model selection would slice a list of graphs as a kernel
matrix. scikit-learn's data-driven checks then feed (n_samples, n_features) tables of random
data, which are not graphs (not square), and ``fit`` rightly refuses them; each check that
needs a successful fit on such data is listed with that reason. The API checks must pass, and
``tests/embed/test_embedding.py`` checks on graphs what these checks would have.
"""

import pytest

from tdadp import AdjacencySpectralEmbedding

_NOT_A_GRAPH = ("its input is a table of random data with more rows than columns, not a "
                "graph's square adjacency matrix, so fit refuses it")

EXPECTED_FAILED = {
    **dict.fromkeys((
        "check_fit_score_takes_y", "check_estimators_overwrite_params",
        "check_dont_overwrite_parameters", "check_estimators_fit_returns_self",
        "check_readonly_memmap_input", "check_n_features_in_after_fitting",
        "check_estimators_dtypes", "check_pipeline_consistency", "check_estimators_nan_inf",
        "check_estimators_pickle", "check_f_contiguous_array_estimator",
        "check_transformer_data_not_an_array", "check_transformer_general",
        "check_transformer_preserve_dtypes", "check_transformers_unfitted_stateless",
        "check_methods_sample_order_invariance", "check_methods_subset_invariance",
        "check_dict_unchanged", "check_fit_idempotent", "check_fit_check_is_fitted",
        "check_n_features_in", "check_fit2d_predict1d"), _NOT_A_GRAPH),
    "check_positive_only_tag_during_fit": (
        f"{_NOT_A_GRAPH} (as not square, before any sign is looked at; a weighted graph may "
        "have negative weights)"),
    "check_estimator_sparse_tag": f"{_NOT_A_GRAPH}, sparse or not (sparse graphs are taken)",
    "check_estimator_sparse_array": f"{_NOT_A_GRAPH}, sparse or not (sparse graphs are taken)",
    "check_estimator_sparse_matrix": f"{_NOT_A_GRAPH}, sparse or not (sparse graphs are taken)",
    "check_fit2d_1feature": (
        f"{_NOT_A_GRAPH}; the message says the matrix is not square, not the "
        "'n_features = 1' wording the check looks for"),
    "check_dtype_object": (
        "an adjacency matrix of dtype object is refused on purpose, on every graph stage: "
        "the input contract takes numeric containers only, so a matrix of strings or mixed "
        "Python objects is never parsed into numbers silently"),
}


def _expected(estimator):
    return EXPECTED_FAILED


@pytest.mark.parametrize("estimator", [AdjacencySpectralEmbedding(n_components=1),
                          AdjacencySpectralEmbedding(n_components=2, solver="arpack")], ids=repr)
def test_sklearn_compatible(estimator, assert_sklearn_compatible):
    assert_sklearn_compatible(estimator, _expected(estimator))
