"""Agreement between two clusterings: misclassification with the best label matching, ARI, NMI."""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score
from sklearn.metrics.cluster import contingency_matrix

__all__ = ["misclassification_rate", "clustering_scores"]


def _check_labelings(y_true, y_pred):
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_true.ndim != 1 or y_pred.ndim != 1:
        raise ValueError(
            f"labels must be 1-D, got shapes {y_true.shape} and {y_pred.shape}."
        )
    if y_true.shape[0] != y_pred.shape[0]:
        raise ValueError(
            f"y_true and y_pred must have the same length, got {y_true.shape[0]} and "
            f"{y_pred.shape[0]}."
        )
    if y_true.shape[0] == 0:
        raise ValueError("labels are empty.")
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        if y.dtype.kind == "f" and np.isnan(y).any():
            raise ValueError(f"{name} contains NaN.")
    return y_true, y_pred


def misclassification_rate(y_true, y_pred):
    """Fraction of points misclassified under the best matching of cluster labels.

    Cluster names are arbitrary, so the predicted clusters are matched one-to-one to the true
    classes so as to maximise the number of agreeing points (a maximum-weight matching on the
    contingency table, solved by the Hungarian algorithm). With different numbers of clusters,
    the clusters left unmatched count entirely as errors: predicting one cluster for two equal
    classes gives 0.5, splitting a class in two counts the smaller part as misclassified.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Ground-truth classes (any hashable labels; -1 is an ordinary label).
    y_pred : array-like of shape (n_samples,)
        Predicted clusters.

    Returns
    -------
    rate : float
        In ``[0, 1 - 1/n_classes]``; 0 when the two partitions coincide up to renaming.

    Examples
    --------
    >>> from tdadp.cluster import misclassification_rate
    >>> misclassification_rate([0, 0, 1, 1], [1, 1, 0, 0])
    0.0
    >>> misclassification_rate([0, 0, 1, 1], [0, 0, 0, 1])
    0.25
    >>> misclassification_rate([0, 0, 1, 1], [0, 0, 0, 0])
    0.5
    """
    y_true, y_pred = _check_labelings(y_true, y_pred)
    table = contingency_matrix(y_true, y_pred)
    rows, cols = linear_sum_assignment(table, maximize=True)
    return float(1.0 - table[rows, cols].sum() / y_true.shape[0])


def clustering_scores(y_true, y_pred):
    """Adjusted Rand index, normalised mutual information and misclassification rate.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_pred : array-like of shape (n_samples,)

    Returns
    -------
    scores : dict
        ``{"ari": float, "nmi": float, "misclassification": float}``; ARI is 1 for identical
        partitions and about 0 for independent ones, NMI (arithmetic normalisation) lies in
        [0, 1], misclassification as in :func:`misclassification_rate`.

    Examples
    --------
    >>> from tdadp.cluster import clustering_scores
    >>> clustering_scores([0, 0, 1, 1], [1, 1, 0, 0])
    {'ari': 1.0, 'nmi': 1.0, 'misclassification': 0.0}
    """
    y_true, y_pred = _check_labelings(y_true, y_pred)
    return {
        "ari": float(adjusted_rand_score(y_true, y_pred)),
        "nmi": float(normalized_mutual_info_score(y_true, y_pred)),
        "misclassification": misclassification_rate(y_true, y_pred),
    }
