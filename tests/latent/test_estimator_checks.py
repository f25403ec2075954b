"""LatentSampler and GRDPG through scikit-learn's estimator checks.

A sample of LatentSampler is a replicate (a row of a 2-D input names one) and its output a
whole ``(n_nodes, d)`` latent matrix; a sample of GRDPG is a node (a row of a latent matrix)
and its output that node's row of a random graph, whose columns are the nodes again. The
checks listed below are inapplicable for that reason, or because their data is no latent
position matrix (negative inner products, which are no edge probabilities); each is stated.
Every other check must pass. ``test_grdpg_contract_on_latent_positions`` then checks on
valid latent positions what the inapplicable GRDPG checks would have.
"""

import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.pipeline import make_pipeline

from tdadp import GRDPG, LatentSampler, sbm

_LIST_OUTPUT = ("transform returns one whole (n_nodes, d) latent matrix per sample (a list of "
                "them), not an (n_samples, n_features) array whose shape the check reads")

SAMPLER_EXPECTED_FAILED = {
    "check_transformer_general": _LIST_OUTPUT,
    "check_transformer_data_not_an_array": _LIST_OUTPUT,
    "check_transformers_unfitted_stateless": _LIST_OUTPUT,
}

_NEGATIVE = ("its data (make_blobs, standardized) has negative inner products <X_i, X_j>, "
             "which are no edge probabilities: GRDPG refuses such latent positions with a "
             "ValueError, as it must")

GRDPG_EXPECTED_FAILED = {
    "check_n_features_in_after_fitting": (
        "transform samples each latent matrix on its own (nothing fitted is used), so a "
        "matrix of another dimension is valid input"),
    "check_methods_subset_invariance": (
        "the output's columns are the nodes too: a subset of the rows is a smaller graph "
        "(a one-row subset, a one-node graph, is refused)"),
    "check_pipeline_consistency": _NEGATIVE,
    "check_estimators_pickle": _NEGATIVE,
    "check_transformer_general": _NEGATIVE,
    "check_transformer_data_not_an_array": _NEGATIVE,
}

# At sparsity 0.03 the checks' graphs have edges (the passing checks are not vacuous), which
# makes two more checks inapplicable.
DENSER_EXPECTED_FAILED = {
    **GRDPG_EXPECTED_FAILED,
    "check_methods_sample_order_invariance": (
        "permuting the rows of the latent matrix permutes the graph's nodes, rows and columns "
        "alike, and each dyad's draw follows its position: the output is not the permuted "
        "rows of the unpermuted output"),
    "check_fit_idempotent": (
        "its data has inner products up to about 2e4, which no sparsity above 5e-5 makes "
        "probabilities; GRDPG refuses them"),
}


def _expected(estimator):
    if isinstance(estimator, LatentSampler):
        return SAMPLER_EXPECTED_FAILED
    return DENSER_EXPECTED_FAILED if estimator.sparsity > 1e-3 else GRDPG_EXPECTED_FAILED


@pytest.mark.parametrize("estimator", [LatentSampler(n_nodes=20, random_state=0),
     LatentSampler("sbm", n_nodes=[6, 6], params={"block_probabilities": [[0.2, 0.5],
                                                                          [0.5, 0.2]]},
                   random_state=0),
     GRDPG(sparsity=1e-5, random_state=0),
     GRDPG(sparsity=0.03, sparse=True, random_state=0)], ids=repr)
def test_sklearn_compatible(estimator, assert_sklearn_compatible):
    assert_sklearn_compatible(estimator, _expected(estimator))


def test_grdpg_contract_on_latent_positions():
    X = sbm([15, 15], [[0.2, 0.6], [0.6, 0.3]], random_state=0)
    for est in (GRDPG(random_state=3), GRDPG(sparse=True, random_state=3)):
        params = est.get_params()
        A = est.fit_transform(X)
        assert est.get_params() == params  # fit changes no parameter
        B = clone(est).fit(X).transform(X)
        C = pickle.loads(pickle.dumps(est)).transform(X)
        D = make_pipeline(clone(est)).fit_transform(X)
        for other in (B, C, D):  # the same graph, however it is reached
            assert (abs(A - other)).sum() == 0
        assert A.shape == (30, 30) and 0 < A.sum() < 30 * 29


def test_sampler_rows_name_their_replicates():
    s = LatentSampler(n_nodes=10, random_state=0)
    rows = np.array([[0.5, 1.0], [2.0, -1.0], [0.5, 1.0]])
    out = s.fit_transform(rows)
    np.testing.assert_array_equal(out[0], out[2])  # equal rows, same replicate
    assert not np.array_equal(out[0], out[1])
    np.testing.assert_array_equal(s.transform(rows[1:2])[0], out[1])  # batch-independent
    assert s.n_features_in_ == 2
    with pytest.raises(ValueError, match="X has 1 features, but LatentSampler is expecting 2"):
        s.transform(rows[:, :1])
    # Refitted on a count, it takes any rows; a column of ids means what the ids mean.
    s.fit(3)
    assert not hasattr(s, "n_features_in_")
    np.testing.assert_array_equal(s.transform(np.array([[4], [7]]))[1], s.transform([7])[0])
