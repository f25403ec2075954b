"""The topology stages through scikit-learn's estimator checks, and the same contracts on
their own samples.

A sample of PersistentHomology is a whole point cloud, a sample of PairwiseDistance a whole
diagram. scikit-learn's checks feed (n_samples, n_features) tables and take their rows for
samples: PersistentHomology reads such a table as one point cloud (one diagram out), and
PairwiseDistance reads it as one diagram, which a table of width other than 2 is not. The
checks that depend on rows being samples are listed below, each with its reason; every other
check runs and must pass (the API checks, dtypes, complex, sparse and NaN input, pickling,
empty data...). The contracts those listed checks stand for are then checked on clouds and
diagrams, where they apply.
"""

import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline

from tdadp.topology import PairwiseDistance, PersistenceDiagram, PersistentHomology

_ONE_DIAGRAM = ("a 2-D array is one point cloud, whose diagram is one PersistenceDiagram "
                "(a sample is a whole cloud), not an array with a row per row of the input")
_ROWS_ARE_POINTS = ("it compares outputs row by row, but the rows of a point cloud are its "
                    "points, not samples: the diagram of a permuted or partial cloud is not a "
                    "permutation or part of the diagram")

PERSISTENT_HOMOLOGY_EXPECTED_FAILED = {
    "check_transformer_general": _ONE_DIAGRAM,
    "check_transformer_data_not_an_array": _ONE_DIAGRAM,
    "check_transformers_unfitted_stateless": _ONE_DIAGRAM,
    "check_methods_sample_order_invariance": _ROWS_ARE_POINTS,
    "check_methods_subset_invariance": _ROWS_ARE_POINTS,
    "check_n_features_in_after_fitting": (
        "each cloud's diagram is computed on its own (the stage is stateless), so a cloud "
        "in another ambient dimension is a valid sample for transform"),
}

_NOT_A_DIAGRAM = ("it fits an (n_samples, n_features) table whose rows it takes for samples; "
                  "a sample of PairwiseDistance is a whole diagram, a (k, 2) array of (birth, "
                  "death) pairs, and a table of another width is refused as no diagram")

PAIRWISE_DISTANCE_EXPECTED_FAILED = dict.fromkeys(
    [
        "check_fit_score_takes_y", "check_estimators_overwrite_params",
        "check_dont_overwrite_parameters", "check_estimators_fit_returns_self",
        "check_readonly_memmap_input", "check_positive_only_tag_during_fit",
        "check_estimators_dtypes", "check_dtype_object", "check_pipeline_consistency",
        "check_estimators_pickle", "check_f_contiguous_array_estimator",
        "check_transformer_data_not_an_array", "check_transformer_general",
        "check_transformer_preserve_dtypes", "check_fit2d_1sample", "check_fit2d_1feature",
        "check_fit2d_predict1d", "check_dict_unchanged", "check_fit_idempotent",
        "check_fit_check_is_fitted", "check_n_features_in",
    ],
    _NOT_A_DIAGRAM,
) | {
    "check_n_features_in_after_fitting": (
        "every diagram has the same two coordinates: there is no number of features to "
        "record, and a diagram with any number of points is a valid sample"),
    "check_estimators_empty_data_messages": (
        "an array without rows is the empty diagram, a valid sample (its distance to a "
        "diagram is half the largest persistence); a table without columns is no diagram"),
    "check_estimators_nan_inf": (
        "inf is a valid death (an essential class), so only NaN is refused, and the "
        "check's (10, 3) tables are no diagrams"),
    "check_methods_sample_order_invariance": (
        "it permutes the rows of one array, the points of one diagram: a diagram is a "
        "multiset, so its distances do not change, while the check expects their rows to"),
    "check_methods_subset_invariance": (
        "its subsets of rows are subsets of the points of one diagram, not of samples"),
}


def _expected(estimator):
    if isinstance(estimator, PersistentHomology):
        return PERSISTENT_HOMOLOGY_EXPECTED_FAILED
    return PAIRWISE_DISTANCE_EXPECTED_FAILED


@pytest.mark.parametrize("estimator", [PersistentHomology(), PersistentHomology(complex="rips"),
                          PairwiseDistance(), PairwiseDistance(homology_dimensions=0)], ids=repr)
def test_sklearn_compatible(estimator, assert_sklearn_compatible):
    assert_sklearn_compatible(estimator, _expected(estimator))


# --- the same contracts where a sample is a cloud or a diagram ---------------------------

def _clouds(n=6, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(int(rng.integers(15, 30)), 2)) for _ in range(n)]


def _diagrams(n=6, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b = rng.random(5)
        out.append(PersistenceDiagram({0: np.r_[np.c_[np.zeros(4), rng.random(4)],
                                                [[0, np.inf]]],
                                       1: np.c_[b, b + rng.random(5)]}))
    return out


def test_persistent_homology_maps_samples_one_to_one():
    clouds = _clouds()
    est = PersistentHomology()
    assert est.fit(clouds) is est and est.n_features_in_ == 2
    out = est.transform(clouds)
    assert len(out) == len(clouds)
    # stateless: the same without fit, and fit_transform agrees
    assert clone(est).transform(clouds) == out
    assert clone(est).fit_transform(clouds) == out
    # sample order and subsets: samples are clouds
    perm = [3, 0, 5, 1, 4, 2]
    assert est.transform([clouds[i] for i in perm]) == [out[i] for i in perm]
    assert est.transform(clouds[2:4]) == out[2:4]
    # a cloud in another ambient dimension is a valid sample
    assert est.transform(np.random.default_rng(1).normal(size=(20, 3))).homology_dimensions \
        == (0, 1)
    # array-likes, lists of lists and read-only arrays are clouds too
    frozen = clouds[0].copy()
    frozen.setflags(write=False)
    assert est.transform(frozen) == est.transform(clouds[0].tolist()) == out[0]
    assert pickle.loads(pickle.dumps(est)).transform(clouds) == out


def test_pairwise_distance_contract_on_diagrams():
    Ds = _diagrams()
    est = PairwiseDistance()
    params = est.get_params()
    assert est.fit(Ds) is est
    assert est.get_params() == params  # fit sets no parameter
    with pytest.raises(NotFittedError):
        clone(est).transform(Ds)
    out = est.transform(Ds[:4])
    state = dict(est.__dict__)
    # sample order and subsets: rows follow the input diagrams, columns the fitted ones
    perm = [2, 0, 3, 1]
    np.testing.assert_array_equal(est.transform([Ds[i] for i in perm]), out[perm])
    np.testing.assert_array_equal(est.transform(Ds[1:3]), out[1:3])
    assert est.__dict__.keys() == state.keys()
    assert all(est.__dict__[k] is state[k] for k in state)  # transform changes nothing
    # idempotent fit, pickling, a Pipeline of one step, fit_transform
    np.testing.assert_array_equal(clone(est).fit(Ds).fit(Ds).transform(Ds[:4]), out)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(est)).transform(Ds[:4]), out)
    np.testing.assert_array_equal(make_pipeline(clone(est)).fit(Ds).transform(Ds[:4]), out)
    np.testing.assert_allclose(clone(est).fit_transform(Ds)[:4], out, rtol=1e-12)
    # dtypes: float32 and integer diagrams give the distances of their float64 values
    ints = [PersistenceDiagram({1: [[0, 3], [1, 2]]}), PersistenceDiagram({1: [[0, 4]]})]
    as_arrays = [np.asarray(D[1], dtype=dtype) for D, dtype in zip(ints, (np.int32, np.int64))]
    np.testing.assert_array_equal(
        PairwiseDistance(homology_dimensions=0).fit(as_arrays).transform(as_arrays),
        PairwiseDistance(homology_dimensions=1).fit(ints).transform(ints))
    # NaN is refused, in fit and in transform
    bad = np.array([[0.0, np.nan]])
    with pytest.raises(ValueError, match="NaN"):
        PairwiseDistance().fit([bad])
    with pytest.raises(ValueError, match="NaN"):
        est.transform([bad])
