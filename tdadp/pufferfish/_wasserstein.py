"""The Wasserstein mechanism of Pufferfish privacy (Song, Wang, Chaudhuri 2017).

Pufferfish privacy protects chosen secret pairs (s, s') under a class of data distributions
Theta: for every theta and pair, the release's distribution given s and given s' must be
within e^eps of each other. For a query F, the Wasserstein mechanism adds Laplace noise of
scale W / eps, where W is the largest infinity-Wasserstein distance between the conditional
distributions of F(X) given s and given s', over all pairs and all theta. With correlated
records W can be much smaller than the group-DP sensitivity (which assumes the whole
correlated group can change).
"""

from __future__ import annotations

import math

import numpy as np

from ..dp._guarantee import PrivacyGuarantee
from ..dp._noise import calibrate_noise
from ._value_release import ValueRelease, as_databases, as_real, check_positive_noise

__all__ = [
    "infinity_wasserstein",
    "secret_pair_distributions",
    "WassersteinMechanism",
    "wasserstein_mechanism",
]

# Gaps between cumulative probabilities below this many float epsilons per support point are
# the rounding of the cumulative sums (and of the normalization), not mass: a fixed tolerance
# (it was 1e-12) would hide a real mass below it, and W_inf does not shrink with the mass moved
# (1e-13 of the mass moved by 1 makes W = 1), so the noise would be too small.
_ROUNDING_ULPS = 8


def _pmf(p, size, name):
    p = as_real(p, name)
    if p.shape != (size,):
        raise ValueError(f"{name} must have one probability per value ({size}), got shape "
                         f"{p.shape}.")
    if np.isnan(p).any() or (p < 0).any():
        raise ValueError(f"{name} must be non-negative probabilities (no NaN).")
    total = p.sum()
    if not abs(total - 1.0) <= 1e-9:
        raise ValueError(f"{name} must sum to 1, got {total!r}.")
    return p / total


def infinity_wasserstein(values, p, q):
    """The infinity-Wasserstein distance between two pmfs on a common sorted support.

    ``W_inf(p, q) = sup_u |F_p^{-1}(u) - F_q^{-1}(u)|`` over u in (0, 1), with
    ``F^{-1}(u) = min{x : F(x) >= u}`` the quantile function: the smallest d such that mass
    can be moved from p to q without moving any of it farther than d. Both quantile functions
    are constant between consecutive cumulative probabilities of p and q, so the supremum is
    a maximum over those finitely many intervals (exact, up to cumulative sums that differ by
    less than their rounding, ``8 (m + 1)`` float epsilons, which are treated as equal: a
    mass above that counts, however small, since moving it far is what W measures).

    Parameters
    ----------
    values : array-like of shape (m,), strictly increasing
    p, q : array-like of shape (m,)
        Probabilities on ``values`` (each summing to 1).

    Returns
    -------
    float

    Examples
    --------
    >>> from tdadp.pufferfish import infinity_wasserstein
    >>> infinity_wasserstein([0, 1, 2], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5])
    1.0
    >>> infinity_wasserstein([0, 1, 2], [0.9, 0.0, 0.1], [1.0, 0.0, 0.0])   # 10% moves by 2
    2.0
    """
    x = as_real(values, "values")
    if x.ndim != 1 or x.size == 0:
        raise ValueError("values must be a non-empty 1-D array.")
    if not np.isfinite(x).all():
        raise ValueError("values must be finite.")
    if np.any(np.diff(x) <= 0):
        raise ValueError("values must be strictly increasing.")
    p = _pmf(p, x.size, "p")
    q = _pmf(q, x.size, "q")
    Fp, Fq = np.cumsum(p), np.cumsum(q)
    cuts = np.unique(np.clip(np.concatenate([[0.0, 1.0], Fp, Fq]), 0.0, 1.0))
    lo, hi = cuts[:-1], cuts[1:]
    tol = _ROUNDING_ULPS * (x.size + 1) * np.finfo(float).eps
    mid = 0.5 * (lo + hi)[hi - lo > tol]
    # F^{-1}(u) = min{i : F_i >= u}, evaluated inside each interval, away from the cuts.
    qp = np.minimum(np.searchsorted(Fp, mid, side="left"), x.size - 1)
    qq = np.minimum(np.searchsorted(Fq, mid, side="left"), x.size - 1)
    return float(np.max(np.abs(x[qp] - x[qq]))) if mid.size else 0.0


def secret_pair_distributions(databases, probabilities, query):
    """Conditional distributions of a query given each side of each record-level secret.

    The secret pairs are "record i takes value a" against "record i takes value b", for every
    record (column) i and every two values a < b that record takes with positive probability
    (for binary records: "i is 1" against "i is 0").

    Parameters
    ----------
    databases : array-like of shape (m, r)
        Every possible database (one row each, r records).
    probabilities : array-like of shape (m,)
        Their probabilities under one data distribution theta (up to a constant factor).
        For a class of distributions, call once per theta and concatenate the results.
    query : callable
        Maps the (m, r) array of databases to the m query values.

    Returns
    -------
    list of (values, p, q)
        For each secret pair, the sorted support of the query and its pmfs given each side;
        the input of :class:`WassersteinMechanism`.

    Examples
    --------
    >>> import numpy as np
    >>> from itertools import product
    >>> from tdadp.pufferfish import secret_pair_distributions
    >>> D = np.array(list(product([0, 1], repeat=2)))      # two independent fair coins
    >>> [(v.tolist(), p.tolist(), q.tolist())
    ...  for v, p, q in secret_pair_distributions(D, np.ones(4), lambda D: D.sum(1))][0]
    ([0.0, 1.0, 2.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5])
    """
    D = as_databases(databases)
    if not callable(query):
        raise TypeError(f"query must be a callable (the (m, r) databases -> m values), got "
                        f"{type(query).__name__}.")
    w = as_real(probabilities, "probabilities")
    if w.shape != (D.shape[0],):
        raise ValueError(f"probabilities must have one value per database ({D.shape[0]}), "
                         f"got shape {w.shape}.")
    if not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
        raise ValueError("probabilities must be non-negative, finite and not all 0.")
    F = as_real(query(D), "the query's values")
    if F.shape != (D.shape[0],):
        raise ValueError(f"query must return one value per database, got shape {F.shape}.")
    if not np.isfinite(F).all():
        raise ValueError("query must return finite values (no NaN or infinity).")
    support, inverse = np.unique(F, return_inverse=True)
    out = []
    for i in range(D.shape[1]):
        levels = [a for a in np.unique(D[:, i]) if w[D[:, i] == a].sum() > 0]
        for ia, a in enumerate(levels):
            for b in levels[ia + 1:]:
                pmfs = []
                for value in (a, b):
                    sel = D[:, i] == value
                    mass = np.bincount(inverse[sel], weights=w[sel], minlength=support.size)
                    pmfs.append(mass / mass.sum())
                out.append((support.copy(), pmfs[0], pmfs[1]))
    return out


class WassersteinMechanism(ValueRelease):
    """Pufferfish-private release of a query with Laplace noise of scale W / epsilon.

    ``fit`` takes the conditional distributions of the query given each side of each secret
    pair (for every data distribution in the class Theta), computes
    ``W = max infinity_wasserstein(values, p, q)`` over them, and calibrates the noise;
    ``transform`` adds Laplace(W / eps) noise to the true query value(s). The release is
    eps-Pufferfish private for those secrets and distributions (Song, Wang, Chaudhuri 2017,
    Theorem 3.2) — a promise only as good as the assumed distributions. At a finite epsilon,
    ``W = 0`` (the query has the same law under both sides of every secret) is refused rather
    than released without noise.

    Parameters
    ----------
    epsilon : float in (0, inf], default=1.0
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        The noise is Laplace on a grid of ``2^-30`` W, drawn by an exact integer sampler
        (see :mod:`tdadp.dp._noise`): exactly eps-Pufferfish private, for scales
        ``W / eps`` below ``2^1000``. "secure" draws from the operating system's CSPRNG.
    accountant : BudgetAccountant or None, default=None
        Charged each release (each call of ``transform``) before any noise is drawn;
        BudgetError past its budget. None: nothing is tracked.

    Attributes
    ----------
    sensitivity_ : float
        W, the largest infinity-Wasserstein distance over the secret pairs.
    noise_scale_ : float
        W / epsilon (rounded up by a relative ``2^-30`` at most).
    noise_calibration_ : NoiseCalibration
    worst_pair_ : int
        Index of a pair attaining W.
    guarantee_ : PrivacyGuarantee
        ``definition="Pufferfish privacy"``, ``unit="secret pair"``.

    See Also
    --------
    wasserstein_mechanism : the function twin.
    secret_pair_distributions, infinity_wasserstein

    References
    ----------
    Song, Wang, Chaudhuri, "Pufferfish privacy mechanisms for correlated data", SIGMOD
    (2017).

    Examples
    --------
    The flu clique of Song, Wang, Chaudhuri: 4 friends, P(N infected) = (0.1, 0.15, 0.5,
    0.15, 0.1) for N = 0..4, every set of N people equally likely; secrets "person i has the
    flu" vs "does not"; query N.

    >>> import numpy as np
    >>> from itertools import product
    >>> from math import comb
    >>> from tdadp.pufferfish import WassersteinMechanism, secret_pair_distributions
    >>> D = np.array(list(product([0, 1], repeat=4)))
    >>> P_N = np.array([0.1, 0.15, 0.5, 0.15, 0.1])
    >>> w = P_N[D.sum(1)] / [comb(4, k) for k in D.sum(1)]
    >>> pairs = secret_pair_distributions(D, w, lambda D: D.sum(1))
    >>> mech = WassersteinMechanism(epsilon=1.0).fit(pairs)
    >>> mech.sensitivity_, round(mech.noise_scale_, 6)   # against 4 / eps under group DP
    (2.0, 2.0)
    """

    _parameter_constraints = {
        **ValueRelease._parameter_constraints,
        "epsilon": ["positive_epsilon"],
    }
    _fitted_on = "the secret pairs' distributions"
    _fit_input = "distributions"

    def __init__(self, epsilon=1.0, random_state=None, accountant=None):
        self.epsilon = epsilon
        self.random_state = random_state
        self.accountant = accountant

    def fit(self, X, y=None):
        """Compute W over the secret pairs' conditional distributions and state the guarantee.

        The distributions are the public model of the data (the class Theta), not private
        data; only W (and which pair attains it) is kept.

        Parameters
        ----------
        X : sequence of (values, p, q)
            For each secret pair and each data distribution, the query's pmf given each side
            (e.g. from :func:`secret_pair_distributions`).
        y : ignored

        Returns
        -------
        self
        """
        return super().fit(X, y)

    def _calibrate(self, X):
        if X is None:
            raise ValueError("WassersteinMechanism is fitted on the secret pairs' "
                             "distributions: fit(X) needs X, a sequence of (values, p, q).")
        try:
            pairs = list(X)
        except TypeError:
            raise ValueError("X must be a sequence of (values, p, q) triples.") from None
        if not pairs:
            raise ValueError("X must contain at least one (values, p, q) triple.")
        distances = []
        for item in pairs:
            if not isinstance(item, (tuple, list, np.ndarray)) or len(item) != 3:
                raise ValueError("each item of X must be a (values, p, q) triple, got "
                                 f"{type(item).__name__}.")
            distances.append(infinity_wasserstein(*item))
        W = float(max(distances))
        eps = float(self.epsilon)
        if W == 0 and math.isfinite(eps):
            raise ValueError(
                "X: every secret pair gives the query the same distribution (W = 0), so the "
                "release would carry no noise at all, a promise that rests entirely on the "
                "model being exact. Refused at a finite epsilon: check the distributions "
                "(the query's pmf given each side of each secret), or use epsilon=inf for a "
                "release without privacy.")
        calibration = calibrate_noise(W, self.epsilon, "laplace", integer=False)
        check_positive_noise(calibration, eps, "WassersteinMechanism")
        self.sensitivity_ = W
        self.noise_calibration_ = calibration
        self.noise_scale_ = self.noise_calibration_.scale
        self.worst_pair_ = int(np.argmax(distances))
        return PrivacyGuarantee(
            mechanism="WassersteinMechanism", epsilon=self.epsilon, unit="secret pair",
            sensitivity=W, noise_scale=self.noise_scale_, definition="Pufferfish privacy",
            effective_epsilon=min(self.epsilon, self.noise_calibration_.epsilon))


def wasserstein_mechanism(value, distributions, epsilon, random_state=None):
    """Release ``value`` with the Wasserstein mechanism (see :class:`WassersteinMechanism`).

    Examples
    --------
    >>> from tdadp.pufferfish import wasserstein_mechanism
    >>> wasserstein_mechanism(3.0, [([0, 1], [1.0, 0.0], [0.0, 1.0])], float("inf"))
    3.0
    """
    return WassersteinMechanism(epsilon=epsilon, random_state=random_state).fit(
        distributions).transform(value)
