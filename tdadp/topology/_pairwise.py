"""Distance matrices between persistence diagrams: the last stage of a tdadp Pipeline."""

from __future__ import annotations

import inspect
import math

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted
from tqdm.auto import tqdm

from ..utils._batch import map_items
from ..utils._output import TableOutputMixin
from ..utils._params import Interval, Options, ParamsMixin, check_param, validate_params
from ._bottleneck import bottleneck_distance, wasserstein_distance
from ._diagram import diagram_batch, log_diagram
from ._dilation_invariant import dilation_invariant_bottleneck
from ._rules import HOMOLOGY_DIMENSIONS, as_dimensions
from ._shift_invariant import shift_invariant_bottleneck

__all__ = ["PairwiseDistance", "pairwise_distance"]


def _si_distance(D1, D2, homology_dimension, **params):
    return shift_invariant_bottleneck(D1, D2, homology_dimension=homology_dimension,
                                      **params)[0]


def _di_distance(D1, D2, homology_dimension, **params):
    # W_DI scales its second diagram, so it is not symmetric; the larger of the two
    # directions is (and stays 0 exactly when one diagram is a dilation of the other).
    return max(dilation_invariant_bottleneck(A, B, homology_dimension=homology_dimension,
                                             **params)[0] for A, B in ((D1, D2), (D2, D1)))


_METRICS = {
    "bottleneck": (bottleneck_distance, {"e"}),
    "wasserstein": (wasserstein_distance, {"order", "internal_p", "delta"}),
    "shift_invariant_bottleneck": (
        _si_distance,
        set(inspect.signature(shift_invariant_bottleneck).parameters)
        - {"D1", "D2", "homology_dimension"},
    ),
    "dilation_invariant_bottleneck": (
        _di_distance,
        set(inspect.signature(dilation_invariant_bottleneck).parameters)
        - {"D1", "D2", "homology_dimension"},
    ),
}

_CONSTRAINTS = {
    "metric": [Options(*_METRICS)],
    "homology_dimensions": [None, HOMOLOGY_DIMENSIONS],
    "order": [None, Interval("real", 1, math.inf, "both")],
    "log_scale": ["boolean"],
    "n_jobs": ["n_jobs"],
    "metric_params": [None, "dict"],
    "verbose": ["boolean"],
}


def _metric(metric, metric_params):
    """The metric's function and keyword arguments (a rule across two parameters)."""
    func, allowed = _METRICS[metric]
    params = dict(metric_params or {})
    unknown = set(params) - allowed
    if unknown:
        raise ValueError(f"metric_params {sorted(unknown)} are not parameters of {metric}; it "
                         f"takes {sorted(allowed)}.")
    return func, params


def _as_diagrams(X, log_scale):
    diagrams, _ = diagram_batch(X)
    if log_scale:
        diagrams = [log_diagram(D) for D in diagrams]
    return diagrams


def _resolve_dims(homology_dimensions, diagrams):
    if homology_dimensions is None:
        return tuple(sorted(set().union(*(D.homology_dimensions for D in diagrams))))
    return as_dimensions(homology_dimensions)


def _distances(rows, cols, dims, func, params, n_jobs, symmetric, verbose=False):
    """(len(rows), len(cols), len(dims)) array of distances; ``symmetric``: rows is cols.

    ``verbose``: a progress bar on stderr over the distances (one per pair and dimension),
    since a certified or Wasserstein distance between large diagrams can take seconds.
    """
    n, m = len(rows), len(cols)
    if symmetric:
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    else:
        pairs = [(i, j) for i in range(n) for j in range(m)]
    tasks = [(i, j, a) for i, j in pairs for a in range(len(dims))]

    bar = tqdm(total=len(tasks), desc="distances", unit="pair", disable=not verbose)

    def one(task):
        i, j, a = task
        k = dims[a]
        value = func(rows[i].select(k), cols[j].select(k), homology_dimension=k, **params)
        bar.update()  # tqdm's update is thread-safe (n_jobs runs threads)
        return value

    out = np.zeros((n, m, len(dims)))
    try:
        values = map_items(one, tasks, n_jobs=n_jobs)
    finally:
        bar.close()
    for (i, j, a), v in zip(tasks, values):
        out[i, j, a] = v
        if symmetric:
            out[j, i, a] = v
    return out


def _combine(out, order):
    """The l^order norm of the distances over the dimensions (the last axis of ``out``).

    None keeps the 3-D array; one dimension is returned as it is, whatever ``order`` (its norm
    is the distance itself, which ``(d^p)^(1/p)`` would only round to).
    """
    if order is None:
        return out if out.shape[2] > 1 else out[:, :, 0]
    if out.shape[2] == 1:
        return out[:, :, 0]
    if order == math.inf:
        return out.max(axis=2)
    if order == 1:
        return out.sum(axis=2)
    # Scaled by the largest distance, so that d^p neither overflows (d = 1e200, p = 2) nor
    # underflows; an infinite distance makes the norm infinite, a zero row stays zero.
    top = out.max(axis=2)
    finite = np.isfinite(top) & (top > 0)
    norm = np.where(np.isinf(top), np.inf, 0.0)
    scaled = out[finite] / top[finite][:, None]
    norm[finite] = top[finite] * np.sum(scaled ** float(order), axis=1) ** (1.0 / float(order))
    return norm


def pairwise_distance(X, Y=None, metric="bottleneck", homology_dimensions=(0, 1),
                      log_scale=False, n_jobs=None, metric_params=None, verbose=False):
    """Distance matrices between two collections of diagrams, one per homology dimension.

    Function twin of :class:`PairwiseDistance` (see there for the parameters):
    ``out[k][i, j]`` is the distance in dimension ``k`` between ``X[i]`` and ``Y[j]``
    (``Y = X`` by default, computed once per unordered pair).

    Returns
    -------
    dict of int -> ndarray of shape (len(X), len(Y))

    Notes
    -----
    The twin has no ``order``: it returns every dimension's matrix, keyed by dimension, which
    is what :class:`PairwiseDistance` combines (its default ``order=2``: the square root of
    the sum of the squared matrices) into the one matrix a precomputed-metric estimator takes.
    A matrix combined over the dimensions has no dimension to be keyed by.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.topology import PersistenceDiagram
    >>> D1 = PersistenceDiagram({0: [[0, 1.0]], 1: [[1.0, 3.0]]})
    >>> D2 = PersistenceDiagram({0: [[0, 1.75]], 1: [[1.0, 4.0]]})
    >>> out = pairwise_distance([D1, D2])
    >>> out[0]
    array([[0.  , 0.75],
           [0.75, 0.  ]])
    >>> out[1]
    array([[0., 1.],
           [1., 0.]])
    >>> np.sqrt(out[0] ** 2 + out[1] ** 2)  # PairwiseDistance().fit_transform([D1, D2])
    array([[0.  , 1.25],
           [1.25, 0.  ]])
    """
    validate_params(_CONSTRAINTS, dict(metric=metric, homology_dimensions=homology_dimensions,
                                       log_scale=log_scale, n_jobs=n_jobs,
                                       metric_params=metric_params, verbose=verbose),
                    "pairwise_distance")
    func, params = _metric(metric, metric_params)
    rows = _as_diagrams(X, log_scale)
    cols = rows if Y is None else _as_diagrams(Y, log_scale)
    dims = _resolve_dims(homology_dimensions, rows + ([] if Y is None else cols))
    out = _distances(rows, cols, dims, func, params, n_jobs, symmetric=Y is None,
                     verbose=verbose)
    return {k: out[:, :, a] for a, k in enumerate(dims)}


class PairwiseDistance(TableOutputMixin, ParamsMixin, TransformerMixin, BaseEstimator,
                       auto_wrap_output_keys=None):
    """Distances from diagrams to reference diagrams: the input of precomputed-metric models.

    ``fit`` stores the reference diagrams (one diagram or a sequence); ``transform`` returns
    the distances between the input diagrams (the samples: a sample is a whole diagram) and
    the references, as an ndarray of shape ``(n_samples, n_fitted)``: with several homology
    dimensions, entry ``(i, j)`` is the l^``order`` norm of the per-dimension distances
    (``order=2``: the square root of the sum of their squares), as giotto-tda's
    ``PairwiseDistance`` combines them [2]_; ``order=None`` keeps them apart instead, as an
    array of shape ``(n_samples, n_fitted, n_dims)``, the last axis in the order of
    :attr:`homology_dimensions_`. ``fit_transform`` gives the symmetric matrix of the fitted
    diagrams among themselves. So a Pipeline can end in any scikit-learn estimator with a
    precomputed metric (``KNeighborsClassifier(metric="precomputed")``,
    ``AgglomerativeClustering(metric="precomputed")``, ``MDS(dissimilarity="precomputed")``)
    and run under ``cross_val_score``, which fits on the training diagrams and transforms
    the test diagrams into their (n_test, n_train) distances. The function
    :func:`pairwise_distance` returns the per-dimension matrices as a dict keyed by
    dimension.

    Distances may be ``inf`` (diagrams with different numbers of essential classes in a
    dimension, typically H0 of clouds computed with different ``max_edge_length``);
    scikit-learn's precomputed-metric estimators refuse non-finite input.

    Parameters
    ----------
    metric : {"bottleneck", "shift_invariant_bottleneck", "dilation_invariant_bottleneck", \
"wasserstein"}, default="bottleneck"
        :func:`bottleneck_distance`, :func:`shift_invariant_bottleneck` (per dimension, each
        dimension with its own optimal shift), :func:`dilation_invariant_bottleneck` (per
        dimension with its own scale, symmetrised: the larger of the two directions) or
        :func:`wasserstein_distance`.
    homology_dimensions : int, sequence of int or None, default=(0, 1)
        Dimensions compared; None takes every dimension of the fitted diagrams. A dimension
        missing from a diagram counts as empty.
    order : float >= 1, inf or None, default=2
        How the distances of several dimensions make one: their l^order norm (1: the sum,
        inf: the largest). None: no combination, a 3-D output. With one dimension compared
        the output is that dimension's matrix whatever ``order``. (Not the ``order`` of the
        Wasserstein distance, which is a key of ``metric_params``.)
    log_scale : bool, default=False
        Compare :func:`log_diagram` of the diagrams (so that, with the shift-invariant metric,
        changes of units do not count).
    n_jobs : int, optional
        Pairs computed in parallel (threads).
    metric_params : dict, optional
        Keyword arguments of the metric (e.g. ``{"order": 2}`` for Wasserstein,
        ``{"tol": 1e-3, "method": "certified"}`` for the shift-invariant bottleneck).
    verbose : bool, default=False
        A progress bar (tqdm, on stderr) over the distances computed; results are the same.

    Attributes
    ----------
    diagrams_ : list of PersistenceDiagram
        The references (in log scale if ``log_scale``).
    homology_dimensions_ : tuple of int
        The dimensions compared, in the order of the last axis of a 3-D output.

    Notes
    -----
    ``set_output(transform="pandas")`` (or scikit-learn's global ``transform_output``)
    makes the 2-D output a DataFrame with one column per fitted diagram
    (:meth:`get_feature_names_out`). The diagrams may come in their DataFrame form
    (:meth:`PersistenceDiagram.to_frame`, what :class:`PersistentHomology` returns with
    pandas output). A 3-D output (``order=None`` with several dimensions) is no table: with
    pandas output configured, ``transform`` then raises a ``ValueError`` rather than return
    something else.

    References
    ----------
    .. [1] D. R. Sheehy, O. Kisielius and N. J. Cavanna, "Computing the shift-invariant
       bottleneck distance for persistence diagrams", CCCG 2018.
    .. [2] G. Tauzin et al., "giotto-tda: a topological data analysis toolkit for machine
       learning and data exploration", JMLR 22, 2021 (the batch-of-diagrams design).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.topology import PersistenceDiagram
    >>> D1 = PersistenceDiagram({0: [[0, 1.0]], 1: [[1.0, 3.0]]})
    >>> D2 = PersistenceDiagram({0: [[0, 1.75]], 1: [[1.0, 4.0]]})
    >>> PairwiseDistance(homology_dimensions=1).fit([D1, D2]).transform(D1)
    array([[0., 1.]])
    >>> PairwiseDistance().fit_transform([D1, D2])  # sqrt(0.75^2 + 1^2): H0 and H1
    array([[0.  , 1.25],
           [1.25, 0.  ]])
    >>> PairwiseDistance(order=np.inf).fit_transform([D1, D2])  # the larger, H1's
    array([[0., 1.],
           [1., 0.]])
    >>> PairwiseDistance(order=None).fit_transform([D1, D2]).shape  # H0, H1 on the last axis
    (2, 2, 2)
    """

    _parameter_constraints = _CONSTRAINTS

    def __init__(self, metric="bottleneck", homology_dimensions=(0, 1), order=2,
                 log_scale=False, n_jobs=None, metric_params=None, verbose=False):
        self.metric = metric
        self.homology_dimensions = homology_dimensions
        self.order = order
        self.log_scale = log_scale
        self.n_jobs = n_jobs
        self.metric_params = metric_params
        self.verbose = verbose

    def fit(self, X, y=None):
        """Store the reference diagrams.

        Parameters
        ----------
        X : PersistenceDiagram (or its DataFrame form) or a sequence of them
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        _metric(self.metric, self.metric_params)
        self.diagrams_ = _as_diagrams(X, self.log_scale)
        self.homology_dimensions_ = _resolve_dims(self.homology_dimensions, self.diagrams_)
        return self

    def transform(self, X):
        """Distances to the references.

        Parameters
        ----------
        X : PersistenceDiagram (or its DataFrame form) or a sequence of them

        Returns
        -------
        ndarray of shape (n_samples, n_fitted), or (n_samples, n_fitted, n_dims)
            The second for ``order=None`` with several dimensions; the first is a DataFrame
            with pandas output.
        """
        check_is_fitted(self, "diagrams_")
        self._check_output()
        rows = _as_diagrams(X, self.log_scale)
        return self._output(rows, symmetric=False)

    def fit_transform(self, X, y=None, **fit_params):
        """Fit and return the symmetric distances of the diagrams among themselves.

        Parameters
        ----------
        X : PersistenceDiagram (or its DataFrame form) or a sequence of them
        y : ignored

        Returns
        -------
        ndarray of shape (n_samples, n_samples), or (n_samples, n_samples, n_dims)
            As for :meth:`transform`.
        """
        self.fit(X)
        self._check_output()
        return self._output(self.diagrams_, symmetric=True)

    def get_feature_names_out(self, input_features=None):
        """One name per fitted diagram, ``pairwisedistance0, pairwisedistance1, ...``.

        Parameters
        ----------
        input_features : ignored
            A sample is a diagram: there are no input feature names to carry over.

        Returns
        -------
        ndarray of str objects

        Raises
        ------
        ValueError
            When the output is 3-D (``order=None`` with several dimensions): it has no
            columns.
        """
        check_is_fitted(self, "diagrams_")
        self._check_table()
        return self._names(len(self.diagrams_))

    def _order(self):
        # Checked again here: set_params after fit changes it without a new fit.
        return check_param(self.order, _CONSTRAINTS["order"], "order", type(self).__name__)

    def _check_table(self):
        if self._order() is None and len(self.homology_dimensions_) != 1:
            raise ValueError(
                f"{type(self).__name__}(order=None) keeps the homology dimensions "
                f"{self.homology_dimensions_} apart: its output is a 3-D array (n_samples, "
                "n_fitted, n_dims), which has no columns to name or put in a DataFrame. "
                "Combine them into one matrix with order (the default, order=2) or compare "
                "one dimension (homology_dimensions=k) for table output.")

    def _check_output(self):
        if self._output_kind() == "pandas":
            self._check_table()

    def _output(self, rows, symmetric):
        func, params = _metric(self.metric, self.metric_params)
        out = _distances(rows, self.diagrams_, self.homology_dimensions_, func, params,
                         self.n_jobs, symmetric, bool(self.verbose))
        out = _combine(out, self._order())
        return self._wrap_table(out) if out.ndim == 2 else out
