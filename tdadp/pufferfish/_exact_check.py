"""The exact Pufferfish level of a noisy chain histogram, by enumerating every chain.

For a short Markov chain (``k^T`` sequences) the release "counts + independent Laplace noise
of scale b on each of the k bins" has, given the secret X_i = a, the density
``p_a(y) = sum_c P(counts = c | X_i = a) prod_j exp(-|y_j - c_j| / b) / (2b)``: a mixture over
the possible count vectors. Its privacy loss ``sup_y log p_a(y) / p_b(y)`` is attained at a
point of the integer grid {-1, ..., T + 1}^k: inside a cell of that grid each term is
``C exp(+-y_1/b) ... exp(+-y_k/b)`` with fixed signs, so the ratio is, in each coordinate with
the others fixed, a ratio of ``alpha e^{y/b} + beta e^{-y/b}`` forms (monotone), and beyond
the atoms it is constant. Evaluating there is exact, not a sample of outputs.
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np
from scipy.special import logsumexp

from ..utils._params import Interval, check_param
from ._theta import parse_thetas

__all__ = ["MAX_CHAIN_SEQUENCES", "chain_histogram_privacy_exact"]

# k^T sequences enumerated at most.
MAX_CHAIN_SEQUENCES = 1 << 16
# (output grid points) x (count vectors) evaluated at most (about 0.5 GB of floats).
MAX_GRID_CELLS = 1 << 26


def chain_histogram_privacy_exact(thetas, length, noise_scale):
    """The exact Pufferfish level of a chain's relative-frequency histogram + Laplace noise.

    Secrets: "X_i = a" against "X_i = b" for every node i and states a, b of positive
    probability; for every theta of a finite class (initial distributions given as pmfs or
    "stationary"). The release adds independent Laplace noise of scale ``noise_scale`` to each
    relative frequency (``noise_scale * T`` on the counts), as :class:`MQMExact` and the other
    chain releases do (their discrete-Laplace noise on the counts has the same density ratio
    at the outputs it takes).

    Parameters
    ----------
    thetas : (initial, transition) pair or sequence of them
    length : int
        T, with ``k^T <= MAX_CHAIN_SEQUENCES`` (and at most ``MAX_GRID_CELLS`` terms: the
        ``(T + 3)^k`` output points times the count vectors).
    noise_scale : float > 0
        Laplace scale on each relative frequency (e.g. a fitted release's ``noise_scale_``).

    Returns
    -------
    float
        ``max over theta, i, a != b, y of log p(y | X_i = a) / p(y | X_i = b)``.

    Examples
    --------
    Two independent fair coins: one record moves the histogram by 1/2 in each of two bins.

    >>> from tdadp.pufferfish import chain_histogram_privacy_exact
    >>> theta = ([0.5, 0.5], [[0.5, 0.5], [0.5, 0.5]])
    >>> round(chain_histogram_privacy_exact(theta, 2, 1.0), 6)   # two bins, each 1/2: 1
    1.0
    """
    kind, chains = parse_thetas(thetas)
    if kind != "finite":
        raise ValueError("chain_histogram_privacy_exact needs a finite class of thetas.")
    check_param(length, [Interval("int", 1, None, "left")], "length")
    check_param(noise_scale, [Interval("real", 0, np.inf, "neither")], "noise_scale")
    T = int(length)
    k = chains[0].P.shape[0]
    # k^T without building a huge integer: with k >= 2, T > 16 is already too many
    if k ** min(T, 17) > MAX_CHAIN_SEQUENCES:
        raise ValueError(f"length: {k}^{T} sequences is more than the {MAX_CHAIN_SEQUENCES} "
                         "this exact computation enumerates.")
    if T > MAX_CHAIN_SEQUENCES:
        raise ValueError(f"length: the chain is too long (T = {T}) for this exact computation "
                         f"(at most {MAX_CHAIN_SEQUENCES} records).")
    # the output grid {-1..T+1}^k against every count vector (at most C(T+k-1, k-1) of them)
    cells = (T + 3) ** k * min(k ** T, math.comb(T + k - 1, k - 1))
    if cells > MAX_GRID_CELLS:
        raise ValueError(f"length: the exact check evaluates {T + 3}^{k} outputs against every "
                         f"count vector, {cells} terms, more than the {MAX_GRID_CELLS} it "
                         "handles: use a shorter chain or fewer states.")
    if any(c.initial is None for c in chains):
        raise ValueError("chain_histogram_privacy_exact needs each initial distribution (a pmf "
                         "or 'stationary'), not 'any'.")
    b = float(noise_scale) * T
    X = np.array(list(product(range(k), repeat=T)), dtype=np.int64)
    counts = np.stack([(s == X).sum(axis=1) for s in range(k)], axis=1)
    atoms, inverse = np.unique(counts, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    axis = np.arange(-1, T + 2)
    grid = np.array(list(product(axis, repeat=k)), dtype=float)
    # log kernel[c, y] = -sum_j |y_j - c_j| / b
    logK = -np.abs(grid[None, :, :] - atoms[:, None, :]).sum(axis=2) / b
    worst = 0.0
    for chain in chains:
        P, q = chain.P, chain.initial
        with np.errstate(divide="ignore"):
            logp = np.log(q)[X[:, 0]] + np.log(P)[X[:, :-1], X[:, 1:]].sum(axis=1)
        p = np.exp(logp)
        for i in range(T):
            dens = []
            for a in range(k):
                sel = X[:, i] == a
                mass = np.bincount(inverse[sel], weights=p[sel], minlength=atoms.shape[0])
                if mass.sum() <= 0:
                    continue
                with np.errstate(divide="ignore"):
                    lw = np.log(mass / mass.sum())
                dens.append(logsumexp(lw[:, None] + logK, axis=0))
            for da in dens:
                for db in dens:
                    worst = max(worst, float(np.max(da - db)))
    return worst
