"""Distance matrices between persistence diagrams: the last stage of a tdadp Pipeline."""

from __future__ import annotations

import inspect
import numbers

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ..utils._batch import map_items, split_batch
from ._bottleneck import bottleneck_distance, wasserstein_distance
from ._diagram import PersistenceDiagram, as_diagram, log_diagram
from ._shift_invariant import shift_invariant_bottleneck

__all__ = ["PairwiseDistance", "pairwise_distance"]


def _si_distance(D1, D2, homology_dimension, **params):
    return shift_invariant_bottleneck(D1, D2, homology_dimension=homology_dimension,
                                      **params)[0]


_METRICS = {
    "bottleneck": (bottleneck_distance, {"e"}),
    "wasserstein": (wasserstein_distance, {"order", "internal_p", "delta"}),
    "shift_invariant_bottleneck": (
        _si_distance,
        set(inspect.signature(shift_invariant_bottleneck).parameters)
        - {"D1", "D2", "homology_dimension"},
    ),
}


def _check_metric(metric, metric_params):
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {sorted(_METRICS)}, got {metric!r}.")
    func, allowed = _METRICS[metric]
    params = dict(metric_params or {})
    unknown = set(params) - allowed
    if unknown:
        raise ValueError(f"metric_params {sorted(unknown)} are not parameters of {metric}; it "
                         f"takes {sorted(allowed)}.")
    return func, params


def _as_diagrams(X, log_scale):
    items, single = split_batch(X, what="persistence diagram",
                                single_types=(PersistenceDiagram,))
    diagrams = [as_diagram(D) for D in items]
    if log_scale:
        diagrams = [log_diagram(D) for D in diagrams]
    return diagrams


def _check_dims(homology_dimensions, diagrams):
    if homology_dimensions is None:
        return tuple(sorted(set().union(*(D.homology_dimensions for D in diagrams))))
    if isinstance(homology_dimensions, numbers.Integral) and not isinstance(
            homology_dimensions, bool):
        homology_dimensions = (homology_dimensions,)
    try:
        dims = tuple(homology_dimensions)
    except TypeError:
        raise ValueError("homology_dimensions must be None, an int or a sequence of ints, got "
                         f"{homology_dimensions!r}.") from None
    if not dims or any(isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 0
                       for k in dims):
        raise ValueError("homology_dimensions must be non-negative integers, got "
                         f"{homology_dimensions!r}.")
    return tuple(sorted(set(int(k) for k in dims)))


def _matrices(rows, cols, dims, func, params, n_jobs, symmetric):
    n, m = len(rows), len(cols)
    if symmetric:
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    else:
        pairs = [(i, j) for i in range(n) for j in range(m)]
    tasks = [(i, j, k) for i, j in pairs for k in dims]

    def one(task):
        i, j, k = task
        return func(rows[i].select(k), cols[j].select(k), homology_dimension=k, **params)

    values = map_items(one, tasks, n_jobs=n_jobs)
    out = {k: np.zeros((n, m)) for k in dims}
    for (i, j, k), v in zip(tasks, values):
        out[k][i, j] = v
        if symmetric:
            out[k][j, i] = v
    return out


def pairwise_distance(X, Y=None, metric="bottleneck", homology_dimensions=(0, 1),
                      log_scale=False, n_jobs=None, metric_params=None):
    """Distance matrices between two collections of diagrams, one per homology dimension.

    Function twin of :class:`PairwiseDistance`: ``out[k][i, j]`` is the distance in
    dimension ``k`` between ``X[i]`` and ``Y[j]`` (``Y = X`` by default, computed once per
    unordered pair).

    Returns
    -------
    dict of int -> ndarray of shape (len(X), len(Y))
    """
    func, params = _check_metric(metric, metric_params)
    rows = _as_diagrams(X, log_scale)
    cols = rows if Y is None else _as_diagrams(Y, log_scale)
    dims = _check_dims(homology_dimensions, rows + ([] if Y is None else cols))
    return _matrices(rows, cols, dims, func, params, n_jobs, symmetric=Y is None)


class PairwiseDistance(TransformerMixin, BaseEstimator):
    """Distances from diagrams to reference diagrams, per homology dimension.

    ``fit`` stores the reference diagrams (one diagram or a sequence); ``transform`` returns,
    for every homology dimension ``k``, the (n_samples, n_fitted) matrix of distances between
    the input diagrams and the references in that dimension, as a dict ``k -> matrix``
    (``fit_transform`` gives the symmetric matrices of the fitted diagrams among themselves).
    A dict keeps each dimension's matrix addressable by its dimension rather than by its
    position; stack them with ``np.stack([out[k] for k in est.homology_dimensions_], -1)``.

    Parameters
    ----------
    metric : {"bottleneck", "shift_invariant_bottleneck", "wasserstein"}, default="bottleneck"
        :func:`bottleneck_distance`, :func:`shift_invariant_bottleneck` (per dimension, each
        dimension with its own optimal shift) or :func:`wasserstein_distance`.
    homology_dimensions : int, sequence of int or None, default=(0, 1)
        Dimensions compared; None takes every dimension of the fitted diagrams. A dimension
        missing from a diagram counts as empty.
    log_scale : bool, default=False
        Compare :func:`log_diagram` of the diagrams (so that, with the shift-invariant metric,
        changes of units do not count).
    n_jobs : int, optional
        Pairs computed in parallel (threads).
    metric_params : dict, optional
        Keyword arguments of the metric (e.g. ``{"order": 2}`` for Wasserstein,
        ``{"tol": 1e-3, "method": "certified"}`` for the shift-invariant bottleneck).

    Attributes
    ----------
    diagrams_ : list of PersistenceDiagram
        The references (in log scale if ``log_scale``).
    homology_dimensions_ : tuple of int

    References
    ----------
    .. [1] D. R. Sheehy, O. Kisielius and N. J. Cavanna, "Computing the shift-invariant
       bottleneck distance for persistence diagrams", CCCG 2018.
    .. [2] G. Tauzin et al., "giotto-tda: a topological data analysis toolkit for machine
       learning and data exploration", JMLR 22, 2021 (the batch-of-diagrams design).

    Examples
    --------
    >>> import numpy as np
    >>> D1 = PersistenceDiagram({0: [[0, np.inf]], 1: [[1.0, 3.0]]})
    >>> D2 = PersistenceDiagram({0: [[0, np.inf]], 1: [[1.0, 2.5]]})
    >>> out = PairwiseDistance().fit([D1, D2]).transform(D1)
    >>> out[1]
    array([[0. , 0.5]])
    """

    def __init__(self, metric="bottleneck", homology_dimensions=(0, 1), log_scale=False,
                 n_jobs=None, metric_params=None):
        self.metric = metric
        self.homology_dimensions = homology_dimensions
        self.log_scale = log_scale
        self.n_jobs = n_jobs
        self.metric_params = metric_params

    def fit(self, X, y=None):
        """Store the reference diagrams.

        Parameters
        ----------
        X : PersistenceDiagram or sequence of PersistenceDiagram
        y : ignored

        Returns
        -------
        self
        """
        _check_metric(self.metric, self.metric_params)
        if not isinstance(self.log_scale, (bool, np.bool_)):
            raise ValueError(f"log_scale must be a bool, got {self.log_scale!r}.")
        self.diagrams_ = _as_diagrams(X, self.log_scale)
        self.homology_dimensions_ = _check_dims(self.homology_dimensions, self.diagrams_)
        return self

    def transform(self, X):
        """Distances to the references.

        Parameters
        ----------
        X : PersistenceDiagram or sequence of PersistenceDiagram

        Returns
        -------
        dict of int -> ndarray of shape (n_samples, n_fitted)
        """
        check_is_fitted(self, "diagrams_")
        func, params = _check_metric(self.metric, self.metric_params)
        rows = _as_diagrams(X, self.log_scale)
        return _matrices(rows, self.diagrams_, self.homology_dimensions_, func, params,
                         self.n_jobs, symmetric=False)

    def fit_transform(self, X, y=None, **fit_params):
        """Fit and return the symmetric matrices of the diagrams among themselves."""
        self.fit(X)
        func, params = _check_metric(self.metric, self.metric_params)
        return _matrices(self.diagrams_, self.diagrams_, self.homology_dimensions_, func,
                         params, self.n_jobs, symmetric=True)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        return tags
