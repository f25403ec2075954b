"""PairwiseDistance(order=...): several homology dimensions combined into one 2-D matrix.

As giotto-tda's PairwiseDistance: entry (i, j) is the l^order norm over the compared
dimensions of the per-dimension distances (order=2 by default), so a precomputed-metric
estimator can follow it whatever the number of dimensions; order=None keeps the 3-D array.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn import config_context
from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

from tdadp.topology import PairwiseDistance, PersistenceDiagram, PersistentHomology


def _diagrams(seed=0, n=5):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b = rng.random(6)
        out.append(PersistenceDiagram({0: np.c_[np.zeros(5), rng.random(5) + 0.1],
                                       1: np.c_[b, b + rng.random(6)]}))
    return out


def _per_dimension(Ds, rows):
    est = PairwiseDistance(order=None).fit(Ds)
    out = est.transform(rows)
    assert out.shape == (len(rows), len(Ds), 2) and est.homology_dimensions_ == (0, 1)
    return out[..., 0], out[..., 1]


def test_order_2_is_the_square_root_of_the_sum_of_squares_and_the_default():
    Ds = _diagrams()
    d0, d1 = _per_dimension(Ds, Ds[:3])
    assert (d0 > 0).any() and (d1 > 0).any()  # both dimensions contribute
    est = PairwiseDistance().fit(Ds)
    assert est.order == 2
    out = est.transform(Ds[:3])
    assert out.shape == (3, 5)
    np.testing.assert_allclose(out, np.sqrt(d0 ** 2 + d1 ** 2), rtol=1e-15, atol=0)
    np.testing.assert_allclose(PairwiseDistance(order=2.0).fit(Ds).transform(Ds[:3]), out,
                               rtol=1e-15, atol=0)
    # fit_transform: the symmetric matrix of the fitted diagrams, zero on the diagonal
    sym = clone(est).fit_transform(Ds)
    assert sym.shape == (5, 5)
    np.testing.assert_array_equal(sym, sym.T)
    np.testing.assert_array_equal(np.diag(sym), 0.0)
    np.testing.assert_allclose(sym[:3], out, rtol=1e-15, atol=0)


@pytest.mark.parametrize("order", [1, np.inf, 3.5])
def test_other_orders(order):
    Ds = _diagrams(1)
    d0, d1 = _per_dimension(Ds, Ds)
    out = PairwiseDistance(order=order).fit(Ds).transform(Ds)
    expected = {1: d0 + d1, np.inf: np.maximum(d0, d1),
                3.5: (d0 ** 3.5 + d1 ** 3.5) ** (1 / 3.5)}[order]
    if order in (1, np.inf):
        np.testing.assert_array_equal(out, expected)
    else:
        np.testing.assert_allclose(out, expected, rtol=1e-14, atol=0)
    # between the largest and the sum, as every l^p norm with p >= 1
    assert np.all(out >= np.maximum(d0, d1)) and np.all(out <= d0 + d1 + 1e-15)


def test_order_none_keeps_the_3d_array():
    Ds = _diagrams(2)
    out = PairwiseDistance(order=None).fit(Ds).transform(Ds[:2])
    assert out.shape == (2, 5, 2)
    assert PairwiseDistance(order=None, homology_dimensions=(0, 1, 2)).fit(Ds).transform(
        Ds[0]).shape == (1, 5, 3)


@pytest.mark.parametrize("order", [None, 1, 2, 3.5, np.inf])
def test_one_dimension_is_the_same_matrix_whatever_the_order(order):
    Ds = _diagrams(3)
    one = PairwiseDistance(homology_dimensions=1, order=order).fit(Ds).transform(Ds[:4])
    _, d1 = _per_dimension(Ds, Ds[:4])
    assert one.shape == (4, 5)
    np.testing.assert_array_equal(one, d1)  # bit for bit, not (d^p)^(1/p)


def test_infinite_and_huge_distances():
    # H0 with different numbers of essential classes: an infinite distance stays infinite
    D1 = PersistenceDiagram({0: [[0, np.inf]], 1: [[0.0, 1e200]]})
    D2 = PersistenceDiagram({0: [[0, np.inf], [0, np.inf]], 1: [[0.0, 3e200]]})
    D3 = PersistenceDiagram({0: [[0, np.inf]], 1: [[0.0, 2e200]]})
    out = PairwiseDistance().fit([D1, D2, D3]).transform([D1, D2, D3])
    assert np.isinf(out[0, 1]) and np.isinf(out[1, 2])
    # 1e200 squared overflows; the norm does not
    np.testing.assert_allclose(out[0, 2], 1e200, rtol=1e-15)
    assert out[0, 0] == 0.0


@pytest.mark.parametrize("bad", [0.5, 0, -1, "2", True, np.nan, [2]])
def test_bad_order_is_refused(bad):
    Ds = _diagrams(4, 2)
    with pytest.raises(ValueError, match="'order' parameter of PairwiseDistance"):
        PairwiseDistance(order=bad).fit(Ds)
    est = PairwiseDistance().fit(Ds)
    est.set_params(order=bad)  # changed after fit: transform checks it too
    with pytest.raises(ValueError, match="'order' parameter of PairwiseDistance"):
        est.transform(Ds)


def test_precomputed_nearest_neighbours_after_the_default_on_two_dimensions(make_clouds):
    clouds, y = make_clouds(n_points=50)
    pipe = make_pipeline(PersistentHomology(complex="alpha", homology_dimensions=(0, 1)),
                         PairwiseDistance(),
                         KNeighborsClassifier(n_neighbors=1, metric="precomputed"))
    scores = cross_val_score(pipe, clouds, y, cv=5)
    assert scores.mean() >= 0.9  # chance is 0.5
    # what the classifier sees: test-by-train distances, 2-D
    pipe.fit(clouds[:15], y[:15])
    assert pipe[:-1].transform(clouds[15:]).shape == (5, 15)
    # the 3-D array is what scikit-learn refused
    three_d = clone(pipe).set_params(pairwisedistance__order=None)
    with pytest.raises(ValueError, match="dim 3"):
        three_d.fit(clouds, y)


def test_pandas_output_of_several_dimensions_combined():
    Ds = _diagrams(5)
    est = PairwiseDistance().set_output(transform="pandas")
    out = est.fit(Ds).transform(Ds[:2])
    assert isinstance(out, pd.DataFrame) and out.shape == (2, 5)
    assert list(out.columns) == [f"pairwisedistance{i}" for i in range(5)]
    assert list(est.get_feature_names_out()) == list(out.columns)
    np.testing.assert_array_equal(out.to_numpy(), PairwiseDistance().fit(Ds).transform(Ds[:2]))
    with config_context(transform_output="pandas"):
        assert isinstance(PairwiseDistance(order=1).fit_transform(Ds), pd.DataFrame)


def test_verbose_shows_progress_and_changes_nothing(capsys):
    from tdadp.topology import PairwiseDistance, PersistenceDiagram, pairwise_distance

    rng = np.random.default_rng(0)
    diagrams = [PersistenceDiagram({0: np.sort(rng.random((5, 2)), axis=1),
                                    1: np.sort(rng.random((4, 2)), axis=1)}) for _ in range(4)]
    params = dict(metric="shift_invariant_bottleneck", metric_params={"tol": 1e-2})
    quiet = PairwiseDistance(**params).fit_transform(diagrams)
    assert capsys.readouterr().err == ""
    loud = PairwiseDistance(**params, verbose=True, n_jobs=2).fit_transform(diagrams)
    err = capsys.readouterr().err
    assert "distances" in err and "12/12" in err  # 6 pairs x 2 dimensions
    np.testing.assert_array_equal(quiet, loud)
    twin = pairwise_distance(diagrams, **params, verbose=True)
    assert "12/12" in capsys.readouterr().err
    # the estimator scales by the larger distance before squaring: equal up to rounding
    np.testing.assert_allclose(np.sqrt(twin[0] ** 2 + twin[1] ** 2), quiet, rtol=1e-14)
