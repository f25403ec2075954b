"""Exact samplers for the draws a privacy guarantee rests on.

Integer arithmetic only (Canonne, Kamath and Steinke 2020): ``Bernoulli(exp(-num/den))``,
the geometric variable of ratio ``exp(-s/t)`` and the discrete Laplace variable, each exact for
the rational parameter given (no overflow, no truncated tail), vectorized in int64 up to 2^62
and in Python integers beyond. Why floating-point samplers fail, and the algorithms: the
documentation's theory page docs/theory/exact_noise.rst (the site's theory/exact_noise.html).

References
----------
Canonne, Kamath, Steinke, "The discrete Gaussian for differential privacy", NeurIPS (2020).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = [
    "VECTOR_LIMIT",
    "rational_scale",
    "bernoulli_exp",
    "geometric_exp",
    "discrete_laplace",
]

#: Largest integer parameter the vectorized (int64) samplers accept.
VECTOR_LIMIT = 1 << 62

# Values of V above which U + t V is formed in Python integers, so that no int64 product
# can overflow (V > 2^29 has probability below exp(-5e8); the branch exists for exactness).
_V_SAFE = 1 << 29


def rational_scale(scale, *, round="up", bits=30):
    """A rational ``t / s`` (positive ints) within a relative ``2^-bits`` of ``scale``.

    ``round="up"`` gives ``t / s >= scale`` (noise at least as large as asked: never less
    private), ``round="down"`` gives ``t / s <= scale`` (for a geometric gap, a success rate at
    least the one asked). ``s`` is a power of two, or 1 when ``scale >= 2^bits``.

    Parameters
    ----------
    scale : Fraction, int or float, positive and finite
    round : {"up", "down"}
    bits : int

    Returns
    -------
    (t, s) : pair of Python ints
    """
    scale = Fraction(scale)
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {float(scale)!r}.")
    num, den = scale.numerator, scale.denominator
    # 2^k / den * num >= 2^bits gives t with at least `bits` significant bits.
    k = max(0, bits + den.bit_length() - num.bit_length() + 1)
    if round == "up":
        t = -((-num << k) // den)
    elif round == "down":
        t = (num << k) // den
    else:
        raise ValueError(f"round must be 'up' or 'down', got {round!r}.")
    s = 1 << k
    # Reduce powers of two: smaller parameters keep more work in the vectorized path.
    shift = min((t & -t).bit_length() - 1, k)
    return t >> shift, s >> shift


def _randbelow(rng, n):
    """A uniform Python int on {0, ..., n - 1}, exactly, for any positive int n."""
    if n <= VECTOR_LIMIT:
        return int(rng.integers(0, n))
    k = n.bit_length()
    nbytes = (k + 7) // 8
    while True:
        x = int.from_bytes(rng.bytes(nbytes), "little") >> (8 * nbytes - k)
        if x < n:
            return x


def _bernoulli_exp_unit_py(rng, num, den):
    # Alternating series: K is the index of the first failure of Bernoulli(gamma / K);
    # P(K odd) = exp(-gamma) for gamma = num / den in [0, 1].
    K = 1
    while _randbelow(rng, den * K) < num:
        K += 1
    return K % 2 == 1


def _bernoulli_exp_unit(rng, num, den):
    """Bernoulli(exp(-num/den)) elementwise: int64 ``num`` array, ``den`` an int or an array
    of the same shape, 0 <= num <= den <= 2^62."""
    num = np.asarray(num, np.int64).ravel()
    scalar = np.ndim(den) == 0
    den = int(den) if scalar else np.asarray(den, np.int64).ravel()
    K = np.ones(num.size, dtype=np.int64)
    idx = np.arange(num.size)
    k = 1
    while idx.size:
        # Bernoulli(num / (den k)) as W < num with W uniform on {0, ..., den k - 1}, drawn
        # as (W1, W2) uniform on {0..k-1} x {0..den-1}: W < num iff W1 = 0 and W2 < num.
        # Every element still running has the same K = k, so the bounds are scalars when den
        # is (numpy's bounded integers are much faster with a scalar bound).
        high = den if scalar else den[idx]
        hit = rng.integers(0, high, size=idx.size) < num[idx]
        if k > 1:
            hit &= rng.integers(0, k, size=idx.size) == 0
        idx = idx[hit]
        k += 1
        K[idx] = k
    return K % 2 == 1


def bernoulli_exp(rng, num, den):
    """Exact ``Bernoulli(exp(-num / den))`` draws for non-negative integers ``num``, ``den``.

    Parameters
    ----------
    rng : numpy.random.Generator or OSRandom
    num, den : int or int array (den > 0)

    Returns
    -------
    ndarray of bool
    """
    num, den = np.broadcast_arrays(np.asarray(num, np.int64), np.asarray(den, np.int64))
    shape = num.shape
    num, den = num.ravel(), den.ravel()
    whole, frac = np.divmod(num, den)
    out = _bernoulli_exp_unit(rng, frac, den)
    # exp(-g) = exp(-1)^floor(g) exp(-frac(g)): every one of the floor(g) factors must succeed.
    idx = np.flatnonzero(out & (whole > 0))
    left = whole[idx]
    while idx.size:
        ok = _bernoulli_exp_unit(rng, np.ones(idx.size, np.int64), 1)
        out[idx[~ok]] = False
        left = left[ok] - 1
        idx = idx[ok]
        idx, left = idx[left > 0], left[left > 0]
    return out.reshape(shape)


def _successes_exp_one(rng, size):
    """Number of successive Bernoulli(exp(-1)) successes before the first failure."""
    V = np.zeros(size, dtype=np.int64)
    idx = np.arange(size)
    while idx.size:
        ok = _bernoulli_exp_unit(rng, np.ones(idx.size, np.int64), 1)
        idx = idx[ok]
        V[idx] += 1
    return V


def _geometric_exp_py(rng, t, s):
    while True:
        U = _randbelow(rng, t)
        if not _bernoulli_exp_unit_py(rng, U, t):
            continue
        V = 0
        while _bernoulli_exp_unit_py(rng, 1, 1):
            V += 1
        return (U + t * V) // s


def _geometric_exp_vec(rng, t, s, size):
    """Exact Y (object entries only where int64 cannot hold them) for t, s <= 2^62."""
    out = np.empty(size, dtype=np.int64)
    huge = {}
    q, r = divmod(t, s)
    todo = np.arange(size)
    while todo.size:
        U = rng.integers(0, t, size=todo.size)
        accept = _bernoulli_exp_unit(rng, U, t)
        done, U = todo[accept], U[accept]
        V = _successes_exp_one(rng, done.size)
        safe = V <= _V_SAFE
        # (U + t V) // s = q V + (U + r V) // s, with every term below 2^62 when V <= 2^29
        # and t, s <= 2^62 (r < s): no int64 overflow.
        Us, Vs = U[safe], V[safe]
        out[done[safe]] = q * Vs + (Us + r * Vs) // s
        for i, u, v in zip(done[~safe], U[~safe], V[~safe]):
            huge[int(i)] = (int(u) + t * int(v)) // s
        todo = todo[~accept]
    return out, huge


def geometric_exp(rng, t, s, size, cap=None):
    """Exact geometric draws ``Y`` on {0, 1, ...} with ``P(Y >= y) = exp(-y s / t)``.

    The number of failures before the first success of independent trials with success
    probability ``1 - exp(-s / t)``.

    Parameters
    ----------
    rng : numpy.random.Generator or OSRandom
    t, s : positive int
    size : int
    cap : int, optional
        Draws above ``cap`` are returned as ``cap`` (for callers that only need to know a gap
        exceeds a range); with a cap the result is always int64 (``cap <= 2^62``).

    Returns
    -------
    ndarray of int64 (object dtype of Python ints if a draw exceeds int64 and no cap is given)
    """
    t, s, size = int(t), int(s), int(size)
    if t <= 0 or s <= 0:
        raise ValueError("geometric_exp: t and s must be positive integers.")
    if t <= VECTOR_LIMIT and s <= VECTOR_LIMIT:
        out, huge = _geometric_exp_vec(rng, t, s, size)
    else:
        out, huge = np.empty(size, dtype=np.int64), {}
        for i in range(size):
            y = _geometric_exp_py(rng, t, s)
            if y < VECTOR_LIMIT:
                out[i] = y
            else:
                huge[i] = y
    if cap is not None:
        out = np.minimum(out, cap)
        for i, y in huge.items():
            out[i] = min(y, cap)
        return out
    if huge:
        out = out.astype(object)
        for i, y in huge.items():
            out[i] = y
    return out


def discrete_laplace(rng, t, s, size):
    """Exact discrete Laplace draws: ``P(Z = z)`` proportional to ``exp(-|z| s / t)``.

    Parameters
    ----------
    rng : numpy.random.Generator or OSRandom
    t, s : positive int
        The scale is ``t / s`` (see :func:`rational_scale`).
    size : int

    Returns
    -------
    ndarray of int64, or of Python ints (object dtype) when a draw exceeds int64.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.dp import discrete_laplace
    >>> z = discrete_laplace(np.random.default_rng(0), 1, 1, 100_000)
    >>> p0 = (1 - np.exp(-1)) / (1 + np.exp(-1))          # P(Z = 0) at scale 1
    >>> bool(abs((z == 0).mean() - p0) < 0.01)
    True
    """
    size = int(size)
    out = np.zeros(size, dtype=np.int64)
    todo = np.arange(size)
    while todo.size:
        Y = geometric_exp(rng, t, s, todo.size)
        negative = rng.integers(0, 2, size=todo.size) == 1
        keep = ~(negative & (Y == 0))
        if Y.dtype == object and out.dtype != object:
            out = out.astype(object)
        out[todo[keep]] = np.where(negative[keep], -Y[keep], Y[keep])
        todo = todo[~keep]
    return out


def log2_floor(x):
    """``floor(log2(x))`` of a positive Fraction or int, exactly."""
    x = Fraction(x)
    k = x.numerator.bit_length() - x.denominator.bit_length()
    # 2^k is within a factor 2 of x: adjust by one step.
    if Fraction(2) ** k > x:
        k -= 1
    return k if Fraction(2) ** (k + 1) > x else k + 1

