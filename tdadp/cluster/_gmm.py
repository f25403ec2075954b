"""A Gaussian mixture chosen by BIC: the baseline clusterer of spectral embeddings of RDPGs."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.mixture import GaussianMixture
from sklearn.utils.validation import check_is_fitted

from ..utils._params import Interval, ParamsMixin
from ..utils._random import check_random_state, stage_tag
from ._input import check_node_embedding, with_isolated

__all__ = ["BICGaussianMixture"]

_COVARIANCES = ("full", "tied", "diag", "spherical")


class BICGaussianMixture(ParamsMixin, ClusterMixin, BaseEstimator):
    """Gaussian mixture clustering with the model chosen by the Bayesian information criterion.

    Fits scikit-learn's ``GaussianMixture`` for every covariance type in ``covariance_types``
    and every number of components (``n_clusters``, or 1 to ``max_clusters``) and keeps the
    fit of lowest BIC. The adjacency spectral embedding of a stochastic block model is
    asymptotically a Gaussian mixture [1]_, which makes this the field's standard clusterer
    of embedded networks [2]_ and the baseline ToMATo is compared with.

    Parameters
    ----------
    n_clusters : int or None, default=None
        Number of components; None chooses it by BIC between 1 and ``max_clusters``.
    max_clusters : int, default=10
        Largest number of components tried when ``n_clusters`` is None (at most the number
        of points).
    covariance_types : tuple of {"full", "tied", "diag", "spherical"}, default=all four
        Covariance structures tried.
    n_init : int in [1, 1000], default=3
        Initialisations of each fit (the best likelihood is kept).
    reg_covar : float >= 0, default=0.01
        Added to the covariances' diagonals, as a fraction of the mean variance of the
        features (scikit-learn's ``reg_covar`` is absolute, hence not invariant to the scale
        of the embedding). With scikit-learn's 1e-6, BIC chose 9.8 components on average for
        the 32-node Davis network at eps = 4 (components collapsed on a few points, whose
        likelihood grows without bound) and 2.2 with 0.01.
    random_state : None, int, numpy Generator or SeedSequence, default=None
        Seeds the initialisations.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Component of highest posterior probability of each point; -1 for an isolated node.
    n_clusters_ : int
        Number of components of the chosen model.
    covariance_type_ : str
        Covariance type of the chosen model.
    bic_ : dict
        BIC of every model fitted, keyed by ``(covariance_type, n_components)``.
    mixture_ : sklearn.mixture.GaussianMixture
        The chosen fit.
    isolated_ : ndarray of bool of shape (n_samples,)
        The isolated nodes ``X`` marked (all False for a plain point cloud).
    n_features_in_ : int

    Notes
    -----
    An embedding by :class:`~tdadp.AdjacencySpectralEmbedding` marks the nodes with no edge
    in its graph (``X.isolated``, or a DataFrame's ``attrs["isolated"]``): their rows carry no
    signal, so the mixture is fitted on the other rows (with a warning) and they are labelled
    -1, in :meth:`fit` and :meth:`predict` alike. A plain point cloud marks none.

    References
    ----------
    .. [1] A. Athreya, C. E. Priebe, M. Tang, V. Lyzinski, D. J. Marchette and D. L.
       Sussman, "A limit theorem for scaled eigenvectors of random dot product graphs",
       Sankhya A 78, 1-18, 2016.
    .. [2] P. Rubin-Delanchy, J. Cape, M. Tang and C. E. Priebe, "A statistical
       interpretation of spectral embedding: the generalised random dot product graph",
       JRSS B 84(4), 1446-1473, 2022.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.cluster import BICGaussianMixture
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(0, 0.3, (100, 2)), rng.normal(3, 0.3, (100, 2))])
    >>> est = BICGaussianMixture(random_state=0).fit(X)
    >>> est.n_clusters_
    2
    >>> np.bincount(est.labels_).tolist()
    [100, 100]
    """

    _parameter_constraints = {
        "n_clusters": [None, "positive_int"],
        "max_clusters": ["positive_int"],
        "covariance_types": [tuple, list],
        # Each initialisation is a whole EM fit: a bound keeps a typo from running for days.
        "n_init": [Interval("int", 1, 1000, "both")],
        "reg_covar": [Interval("real", 0, None, "left")],
        "random_state": ["random_state"],
    }

    def __init__(self, n_clusters=None, max_clusters=10, covariance_types=_COVARIANCES,
                 n_init=3, reg_covar=0.01, random_state=None):
        self.n_clusters = n_clusters
        self.max_clusters = max_clusters
        self.covariance_types = covariance_types
        self.n_init = n_init
        self.reg_covar = reg_covar
        self.random_state = random_state

    def fit(self, X, y=None):
        """Fit every candidate mixture to ``X`` and keep the one of lowest BIC.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            An embedding of the nodes of a graph (the graph itself is refused); rows it marks
            as isolated nodes are left out and labelled -1.
        y : None
            Ignored.

        Returns
        -------
        self : BICGaussianMixture
        """
        self._validate_params()
        types = tuple(self.covariance_types)
        if not types or any(t not in _COVARIANCES for t in types):
            raise ValueError(f"covariance_types must be a non-empty subset of {_COVARIANCES}, "
                             f"got {self.covariance_types!r}.")
        X, isolated = check_node_embedding(self, X)
        n = X.shape[0]
        if self.n_clusters is not None and self.n_clusters > n:
            raise ValueError(f"n_clusters={self.n_clusters} components need at least as many "
                             f"points, got n_samples={n}.")
        sizes = ([self.n_clusters] if self.n_clusters is not None
                 else range(1, min(self.max_clusters, n) + 1))
        rng = check_random_state(self.random_state, stage_tag("BICGaussianMixture"))
        seed = int(rng.integers(2**31 - 1))
        scale = float(np.mean(np.var(X, axis=0)))
        reg = self.reg_covar * scale if scale > 0 else 1e-6
        self.bic_, best = {}, None
        for cov in types:
            for k in sizes:
                gm = GaussianMixture(k, covariance_type=cov, n_init=self.n_init,
                                     reg_covar=reg, random_state=seed).fit(X)
                bic = float(gm.bic(X))
                self.bic_[(cov, int(k))] = bic
                if best is None or bic < best[0]:
                    best = (bic, cov, gm)
        _, self.covariance_type_, self.mixture_ = best
        self.labels_ = with_isolated(self.mixture_.predict(X), isolated)
        self.isolated_ = np.zeros(n, dtype=bool) if isolated is None else isolated
        self.n_clusters_ = int(self.mixture_.n_components)
        return self

    def predict(self, X):
        """Component of highest posterior probability of each point of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows it marks as isolated nodes are labelled -1 (with a warning).

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "mixture_")
        X, isolated = check_node_embedding(self, X, reset=False)
        # Every row isolated leaves nothing for the mixture to score.
        labels = self.mixture_.predict(X) if X.shape[0] else np.empty(0, dtype=np.intp)
        return with_isolated(labels, isolated)
