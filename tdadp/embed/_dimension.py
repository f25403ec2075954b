"""Embedding dimension selection by profile likelihood (Zhu & Ghodsi, 2006)."""

from __future__ import annotations

import numpy as np

__all__ = ["zhu_ghodsi_elbows", "TIE_RTOL"]

# Two values closer than this times the largest are equal: the eigenvalues of a dense
# symmetric eigensolver are exact to about n * 1e-16 of the largest.
TIE_RTOL = 1e-12


def _profile_loglik(d, atol):
    """The split of ``d`` (sorted decreasingly) of highest profile likelihood, never between
    two values within ``atol`` of each other; 0 when every split is such a tie."""
    m = d.size
    best_q, best_ll = 0, -np.inf
    csum, csum2 = np.cumsum(d), np.cumsum(d * d)
    for q in range(1, m):
        if d[q - 1] - d[q] <= atol:
            continue
        n1, n2 = q, m - q
        s1, s2 = csum[q - 1], csum[-1] - csum[q - 1]
        ss1 = csum2[q - 1] - s1 * s1 / n1
        ss2 = (csum2[-1] - csum2[q - 1]) - s2 * s2 / n2
        # Both groups share one variance (the MLE of the pooled model).
        var = max((ss1 + ss2) / m, 1e-300 * max(1.0, d[0] ** 2))
        ll = -0.5 * m * (np.log(2 * np.pi * var) + 1)
        # Ties (flat spectra) keep the smaller dimension.
        if best_q == 0 or ll > best_ll + 1e-12 * abs(best_ll):
            best_q, best_ll = q, ll
    return best_q


def zhu_ghodsi_elbows(values, n_elbows=2, *, rtol=TIE_RTOL):
    """Elbows of a scree plot by the Zhu–Ghodsi profile likelihood.

    The values are sorted decreasingly and split at every position ``q`` into two Gaussian
    groups with their own means and a common variance; the first elbow maximizes the profile
    likelihood. Later elbows repeat the search on the values after the previous elbow.

    No elbow falls between two equal values (within ``rtol`` times the largest): the
    eigenvectors of a repeated eigenvalue are any basis of its eigenspace, so keeping some of
    them keeps an arbitrary subspace, chosen by rounding (the 19 eigenvalues -1 of a complete
    graph on 20 nodes, the 10 eigenvalues 2 of ten disjoint triangles). Values after an elbow
    that are all equal give no further elbow; values that are all equal give one elbow after
    the last of them (the caller may look further down the spectrum).

    Parameters
    ----------
    values : array-like of shape (m,)
        Non-negative values (e.g. eigenvalue magnitudes).
    n_elbows : int, default=2
    rtol : float, default=1e-12
        Values within ``rtol`` times the largest are equal (e.g. the accuracy of the
        eigensolver that computed them).

    Returns
    -------
    elbows : list of int
        Cumulative positions: the first elbow keeps ``elbows[0]`` values, and so on; fewer
        than ``n_elbows`` when the values left after an elbow are all equal.

    References
    ----------
    Zhu, Ghodsi, "Automatic dimensionality selection from the scree plot via the use of
    profile likelihood", Computational Statistics & Data Analysis 51 (2006).

    Examples
    --------
    >>> from tdadp.embed._dimension import zhu_ghodsi_elbows
    >>> zhu_ghodsi_elbows([100, 98, 97, 10, 9, 9.5, 8, 1, 1.1, 0.9], n_elbows=1)
    [3]
    >>> zhu_ghodsi_elbows([19, 1, 1, 1, 1])
    [1]
    >>> zhu_ghodsi_elbows([2, 2, 2, 2, 2])
    [5]
    """
    d = np.sort(np.abs(np.asarray(values, dtype=float)))[::-1]
    atol = float(rtol) * (float(d[0]) if d.size else 0.0)
    elbows, start = [], 0
    for _ in range(n_elbows):
        rest = d[start:]
        if rest.size < 2:
            break
        q = _profile_loglik(rest, atol)
        if q == 0:
            break
        start += q
        elbows.append(start)
    if not elbows:
        elbows = [max(1, d.size)]
    return elbows
