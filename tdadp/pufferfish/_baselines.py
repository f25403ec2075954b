"""The baselines of the paper's experiments: the GroupDP and GK16 noise scales.

* :func:`group_dp_scale`: group differential privacy over the whole chain.
* :func:`gk16_scale`: differential privacy scaled by Ghosh and Kleinberg's influence matrix
  (for the interval family, bounded over its cells as for MQMExact).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.linalg import LinAlgError, cholesky_banded, eigvalsh_tridiagonal, solve_banded

from ._scale import ChainNoiseScale, check_scale_args, check_work_memory, quiet_log
from ._theta import check_secret_pairs, family_cells, parse_thetas

__all__ = ["group_dp_scale", "gk16_scale"]


def group_dp_scale(T, epsilon, lipschitz=1.0):
    """GroupDP: the whole chain is one group, Laplace scale ``lipschitz * T / epsilon``.

    Differential privacy for two chains differing anywhere, hence Pufferfish privacy for
    every class Theta; the baseline of the paper's experiments.

    Examples
    --------
    >>> from tdadp.pufferfish import group_dp_scale
    >>> float(group_dp_scale(100, 1.0, lipschitz=2 / 100))
    2.0
    """
    T, eps, lip, _ = check_scale_args(T, epsilon, lipschitz, None)
    score = T / eps
    return ChainNoiseScale("GroupDP", lip * score, score, eps, lip, T, (), True,
                           "group differential privacy over all T records")


def _max_log_ratio(num, den, ok):
    """max of log(num / den) over the entries where ``ok`` and num > 0 (den = 0: inf); at
    least 0 (an influence is non-negative)."""
    with np.errstate(invalid="ignore"):
        r = quiet_log(num) - quiet_log(den)
    r = np.where((num > 0) & ok, r, -np.inf)
    return max(0.0, float(r.max())) if r.size else 0.0


def _gk16_chain_influence(chain, T):
    """(upper, lower) off-diagonals of GK16's influence matrix of one theta:
    ``upper[i] = phi_{i, i+1}`` (influence of X_{i+1} on X_i), ``lower[i] = phi_{i+1, i}``:
    half the largest log-ratio of the conditional of X_i given all the other nodes when X_j
    alone changes (over both orders of the two conditions, so the absolute value)."""
    P = chain.P
    # interior: P(x | u, w) proportional to P(u, x) P(x, w)
    joint = P[:, :, None] * P[None, :, :]                  # [u, x, w]
    norm = joint.sum(axis=1)                               # [u, w]
    ok = norm > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        cond = np.where(ok[:, None, :], joint / np.where(ok, norm, 1.0)[:, None, :], 0.0)
    vary_w = _max_log_ratio(cond[:, :, :, None], cond[:, :, None, :],
                            ok[:, None, :, None] & ok[:, None, None, :])
    vary_u = _max_log_ratio(cond[:, None, :, :], cond[None, :, :, :],
                            ok[:, None, None, :] & ok[None, :, None, :])
    # X_T given X_{T-1} = u: P(u, x); vary u
    end_T = _max_log_ratio(P[:, None, :], P[None, :, :], np.ones((1, 1, 1), dtype=bool))
    # X_1 given X_2 = w: proportional to q(x) P(x, w); vary w
    if chain.initial is None:
        # the supremum over initial distributions adds max_y log P(y, w') / P(y, w)
        col = P.sum(axis=0) > 0
        with np.errstate(invalid="ignore"):
            lr = quiet_log(P)[:, :, None] - quiet_log(P)[:, None, :]     # [x, w, w']
        lr = np.where(P[:, :, None] > 0, lr, -np.inf)
        extra = lr.max(axis=0).T                                # [w, w']: max_y P(y,w')/P(y,w)
        tot = np.where(np.isneginf(lr), -np.inf, lr + extra[None, :, :])
        tot = np.where(col[None, :, None] & col[None, None, :], tot, -np.inf)
        end_1 = max(0.0, float(tot.max()))
    else:
        j1 = chain.initial[:, None] * P                    # [x, w]
        n1 = j1.sum(axis=0)
        ok1 = n1 > 0
        c1 = np.where(ok1[None, :], j1 / np.where(ok1, n1, 1.0)[None, :], 0.0)
        end_1 = _max_log_ratio(c1[:, :, None], c1[:, None, :],
                               ok1[None, :, None] & ok1[None, None, :])
    upper = np.full(T - 1, 0.5 * vary_w)
    lower = np.full(T - 1, 0.5 * vary_u)
    if T >= 2:
        upper[0] = 0.5 * end_1    # phi_{1,2}
        lower[-1] = 0.5 * end_T   # phi_{T,T-1}
    return upper, lower


def _family_gk16(fam, T):
    """Influence off-diagonals bounding every chain of the interval family."""
    a = fam.alpha
    gamma = 0.0

    def phi(odds):
        return np.log(odds / (1.0 + odds))

    def psi(odds):
        return np.log1p(odds)

    for p0, p1, q0, q1 in family_cells(fam):
        # odds of X_i = 1 given (u, w): rho_u * kappa_w, each monotone in p and q
        rho = {0: ((1 - p1) / p1, (1 - p0) / p0), 1: (q0 / (1 - q0), q1 / (1 - q1))}
        kap = {0: ((1 - q1) / p1, (1 - q0) / p0), 1: (q0 / (1 - p0), q1 / (1 - p1))}
        pairs = []
        for u in (0, 1):      # vary w with u fixed
            pairs.append(((rho[u][0] * kap[0][0], rho[u][1] * kap[0][1]),
                          (rho[u][0] * kap[1][0], rho[u][1] * kap[1][1])))
        for w in (0, 1):      # vary u with w fixed
            pairs.append(((rho[0][0] * kap[w][0], rho[0][1] * kap[w][1]),
                          (rho[1][0] * kap[w][0], rho[1][1] * kap[w][1])))
        for (lo0, hi0), (lo1, hi1) in pairs:
            h = max(phi(hi0) - phi(lo1), phi(hi1) - phi(lo0),
                    psi(hi1) - psi(lo0), psi(hi0) - psi(lo1))
            gamma = max(gamma, 0.5 * h)
    end = 0.5 * math.log((1 - a) / a)
    # X_1 given X_2: the odds P(x, w) / P(x, w') times the ratio of the marginals of X_2, whose
    # product is at most (1 - a) / a at stationarity (p / (1 - q) and the like); over every
    # initial distribution that ratio reaches max_y P(y, w') / P(y, w), up to (1 - a) / a more.
    first = 2.0 * end if fam.start == "any" else end
    upper = np.full(T - 1, gamma)
    lower = np.full(T - 1, gamma)
    if T >= 2:
        upper[0] = first
        lower[-1] = end
    return upper, lower


_EPS = np.finfo(float).eps


def _round_up(x, rel):
    """x (>= 0) times (1 + rel), rounded up: an upper bound of x (1 + rel) whatever the
    rounding of the product."""
    return float(np.nextafter(x * (1.0 + rel), np.inf))


def _top_eigenvalue_bound(d, e):
    """A certified upper bound of the largest eigenvalue of the symmetric tridiagonal matrix
    with diagonal ``d >= 0`` and off-diagonal ``e >= 0``, whose entries carry a relative
    rounding error of a few ulps (they are sums of products). O(n).

    The estimate is LAPACK's bisection on the Sturm count (``stebz``, O(n) per eigenvalue); it
    is certified by a banded Cholesky factorization of ``x I - M`` at ``x`` just above it:
    when it runs to completion, ``x I - M + E`` is positive semi-definite with
    ``|E| <= gamma_3 |R^T| |R|`` (Higham, Accuracy and Stability of Numerical Algorithms,
    Thm 10.5; inner products of length 2 for a bandwidth of 1), whose 2-norm is at most
    ``3 gamma_3 (x + ||M||)``; the entries' own rounding adds ``2.5 eps ||M||_inf``. So
    ``lambda_max <= x + 16 eps (x + ||M||_inf)``. If the factorization fails at every trial
    shift, Gershgorin's bound ``||M||_inf`` is used (always an upper bound).
    """
    n = d.size
    ae = np.abs(e)
    row = d.copy()
    row[:-1] += ae
    row[1:] += ae
    norm_inf = _round_up(float(row.max()), 4 * _EPS)      # Gershgorin, rounded up
    if n == 1 or not ae.any():
        return _round_up(float(d.max()), 4 * _EPS)
    lam = float(eigvalsh_tridiagonal(d, e, select="i", select_range=(n - 1, n - 1),
                                     lapack_driver="stebz")[0])
    margin = 8.0 * _EPS * norm_inf
    for _ in range(12):
        x = lam + margin
        band = np.empty((2, n))
        band[0, 0] = 0.0
        band[0, 1:] = -e
        band[1] = x - d
        try:
            cholesky_banded(band, lower=False, check_finite=False)
        except LinAlgError:
            margin *= 8.0
            continue
        return min(norm_inf, _round_up(x + 16.0 * _EPS * (x + norm_inf), 4 * _EPS))
    return norm_inf


def _tridiagonal_norm(upper, lower):
    """An upper bound of the spectral norm of the tridiagonal matrix with these off-diagonals
    (zero diagonal), certified and within a few ulps of it, in O(T).

    ``||Phi||^2`` is the top eigenvalue of ``M = Phi^T Phi``; with a zero diagonal, ``Phi``
    maps the even nodes to the odd ones and back, so ``M`` (pentadiagonal, zero first
    off-diagonal) splits into two symmetric tridiagonal matrices, on the even and on the odd
    nodes, each bounded by :func:`_top_eigenvalue_bound`. Infinite influences: ``inf``.
    """
    T = upper.size + 1
    if T == 1:
        return 0.0
    if not (np.isfinite(upper).all() and np.isfinite(lower).all()):
        return math.inf
    up = np.zeros(T)
    up[1:] = upper            # Phi[j - 1, j]
    lo = np.zeros(T)
    lo[:-1] = lower           # Phi[j + 1, j]
    diag = up * up + lo * lo                 # M[j, j]
    off = lower[:-1] * upper[1:]             # M[j, j + 2] = Phi[j + 1, j] Phi[j + 1, j + 2]
    top = max(_top_eigenvalue_bound(diag[0::2], off[0::2]),
              _top_eigenvalue_bound(diag[1::2], off[1::2]))
    return _round_up(math.sqrt(top), 2 * _EPS)


def gk16_scale(thetas, T, epsilon, lipschitz=1.0):
    """GK16: differential privacy scaled by Ghosh and Kleinberg's influence matrix.

    ``Phi[i, j]`` is the influence of X_j on X_i: half the largest log-ratio of the conditional
    distribution of X_i given all other nodes when X_j alone changes (on a chain only
    neighbours influence each other; the end nodes use their one neighbour). When its spectral
    norm is below 1, an ``eps_DP``-DP release is eps-Pufferfish private for
    ``eps_DP = eps / (2 max_i sum_j (I - Phi)^{-1}_{ij})`` (Ghosh and Kleinberg 2016, as run in
    Song, Wang, Chaudhuri's experiments), so the Laplace scale is ``lipschitz / eps_DP``. The
    supremum over Theta is taken entry by entry (for the interval family, over cells as for
    MQMExact).

    The spectral norm is computed in O(T) and is an upper bound, certified (the privacy
    calibration rests on it being below 1): LAPACK's bisection on the Sturm count of the two
    tridiagonal blocks of ``Phi^T Phi`` (even and odd nodes), checked by a banded Cholesky
    factorization just above it, within a few ulps of the exact value.

    Returns
    -------
    ChainNoiseScale
        ``applicable=False`` (and ``scale=inf``, with the reason) when some theta's influence
        matrix has spectral norm >= 1 (or an infinite entry: a transition of probability 0
        next to a possible one): GK16 gives no guarantee there.

    Raises
    ------
    ValueError
        At a finite epsilon, for a class without a possible secret pair (see
        :func:`mqm_exact_scale`); before any work, for more memory than left (O(T)).

    References
    ----------
    Ghosh, Kleinberg, "Inferential privacy guarantees for differentially private mechanisms",
    ITCS (2017), arXiv:1603.01508.

    Examples
    --------
    >>> from tdadp.pufferfish import gk16_scale
    >>> res = gk16_scale(("stationary", [[0.6, 0.4], [0.4, 0.6]]), 100, 1.0)
    >>> res.applicable, round(res.score, 3)
    (True, 3.887)
    >>> res = gk16_scale(("stationary", [[0.9, 0.1], [0.1, 0.9]]), 100, 1.0)
    >>> res.applicable, res.scale
    (False, inf)
    """
    kind, chains = parse_thetas(thetas)
    T, eps, lip, _ = check_scale_args(T, epsilon, lipschitz, None)
    if math.isfinite(eps):
        check_secret_pairs(kind, chains, T)
    # the influence off-diagonals, the even / odd tridiagonal blocks and their factorization,
    # the banded system of the row sums: about 20 arrays of T floats
    check_work_memory(8 * 20 * T, f"GK16's influence matrix (T = {T})")
    if kind == "family":
        offs = [_family_gk16(chains, T)]
    else:
        offs = [_gk16_chain_influence(c, T) for c in chains]
    worst_rows = 0.0
    worst_norm = 0.0
    for upper, lower in offs:
        rho = _tridiagonal_norm(upper, lower)
        worst_norm = max(worst_norm, rho)
        if not rho < 1.0:
            return ChainNoiseScale(
                "GK16", math.inf, math.inf, eps, lip, T, (), False,
                f"GK16 does not apply: the influence matrix has spectral norm {rho:.4g} >= 1 "
                "(the chain is too strongly correlated for Ghosh and Kleinberg's bound)")
        if T == 1:
            rows = np.ones(1)
        else:
            ab = np.zeros((3, T))
            ab[0, 1:] = -upper
            ab[1, :] = 1.0
            ab[2, :-1] = -lower
            rows = solve_banded((1, 1), ab, np.ones(T))
        worst_rows = max(worst_rows, float(np.max(rows)))
    score = 2.0 * worst_rows / eps
    return ChainNoiseScale("GK16", lip * score, score, eps, lip, T, (), True,
                           f"influence matrix spectral norm {worst_norm:.4g} < 1; "
                           f"max row sum of (I - Phi)^-1 = {worst_rows:.6g}")
