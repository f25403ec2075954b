"""Additive noise for the statistic releases, exact at every epsilon.

``noise="discrete"``: exact discrete Laplace noise on an integer statistic (integer output).
``noise="laplace"``: discrete Laplace noise on a grid of about ``2^-30`` sensitivity units,
exactly eps-DP (Mironov's snapping without its loss), for ``D / eps < 2^1000``. Scales are
rounded *up* (relative ``2^-30`` at most); :class:`NoiseCalibration` states the resulting
loss. Why every floating-point shortcut fails, and the proofs: the documentation's theory
page docs/theory/exact_noise.rst (the site's theory/exact_noise.html).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..utils._params import Options, check_param
from ._sampling import VECTOR_LIMIT, discrete_laplace, log2_floor, rational_scale

__all__ = ["NOISE_KINDS", "NoiseCalibration", "calibrate_noise", "add_noise"]

NOISE_KINDS = ("laplace", "discrete")

# Grid resolution of noise="laplace": the grid spacing is about sensitivity * 2^-30.
_GRID_BITS = 30
# Largest nominal scale noise="laplace" accepts: its float output must not overflow.
_MAX_LAPLACE_LOG2_SCALE = 1000


@dataclass(frozen=True)
class NoiseCalibration:
    """How a fitted release draws its noise (exact parameters, no floats on the privacy path).

    Attributes
    ----------
    noise : {"laplace", "discrete"}
    grid_log2 : int
        The statistic is released on the grid of spacing ``2^grid_log2`` (0 for "discrete").
    t, s : int
        Discrete Laplace scale ``t / s`` in grid units; ``t = 0`` for no noise (eps = inf).
    units : int
        Sensitivity in grid units the scale is calibrated to.
    integer : bool
        Whether the statistic is integer-valued (then it is on any grid of spacing <= 1).
    """

    noise: str
    grid_log2: int
    t: int
    s: int
    units: int
    integer: bool

    @property
    def scale(self):
        """The noise scale in the statistic's units (at least the nominal ``D / eps``).

        ``inf`` when it exceeds float range (noise="discrete" at eps below ~1e-308).
        """
        try:
            return float(Fraction(self.t, self.s) * Fraction(2) ** self.grid_log2)
        except OverflowError:
            return math.inf

    @property
    def epsilon(self):
        """The privacy loss of the noise as drawn (at most the epsilon asked)."""
        return math.inf if self.t == 0 else float(Fraction(self.units * self.s, self.t))


def calibrate_noise(sensitivity, epsilon, noise, integer=True):
    """The exact noise parameters for a statistic of the given sensitivity at ``epsilon``.

    Parameters
    ----------
    sensitivity : float >= 0
        L1 sensitivity of the statistic (0: no noise is needed).
    epsilon : float in (0, inf]
    noise : {"laplace", "discrete"}
    integer : bool, default=True
        Whether the statistic only takes integer values (counts). ``noise="discrete"``
        requires it.

    Returns
    -------
    NoiseCalibration

    Raises
    ------
    ValueError
        For ``noise="discrete"`` on a non-integer statistic, or ``noise="laplace"`` at a scale
        ``sensitivity / epsilon`` of ``2^1000`` or more (its float output would overflow).

    Examples
    --------
    >>> from tdadp.dp import calibrate_noise
    >>> c = calibrate_noise(1.0, 0.5, "discrete")
    >>> c.scale >= 2.0, abs(c.scale - 2.0) < 1e-8, c.epsilon <= 0.5
    (True, True, True)
    """
    check_param(noise, [Options(*NOISE_KINDS)], "noise")
    D = Fraction(float(sensitivity))
    if D < 0:
        raise ValueError(f"sensitivity must be non-negative, got {float(sensitivity)!r}.")
    if noise == "discrete" and not integer:
        raise ValueError("noise='discrete' releases integer statistics only; use "
                         "noise='laplace' for a real-valued one.")
    if D == 0:
        # A statistic no neighbour can change needs no noise.
        return NoiseCalibration(noise, 0, 0, 1, 0, integer)
    if noise == "discrete":
        grid_log2 = 0
    else:
        grid_log2 = log2_floor(D) - _GRID_BITS
    grid = Fraction(2) ** grid_log2
    if integer and grid_log2 <= 0:
        # An integer statistic lies on the grid: differences of at most D, in grid units.
        units = math.ceil(D / grid)
    else:
        # Rounding to the grid can move two neighbours' values one more unit apart.
        units = math.floor(D / grid) + 1
    if epsilon == math.inf:
        return NoiseCalibration(noise, grid_log2, 0, 1, units, integer)
    eps = Fraction(float(epsilon))
    if eps <= 0:
        raise ValueError(f"epsilon must be positive for additive noise, got {epsilon!r}.")
    if noise == "laplace" and log2_floor(D / eps) >= _MAX_LAPLACE_LOG2_SCALE:
        raise ValueError(
            f"noise='laplace' at epsilon={float(epsilon)!r} needs a noise scale of "
            f"{float(sensitivity):g}/epsilon >= 2^{_MAX_LAPLACE_LOG2_SCALE}, beyond float range: "
            "use noise='discrete' (exact integers at any epsilon) or a larger epsilon.")
    t, s = rational_scale(Fraction(units) / eps, round="up", bits=_GRID_BITS)
    return NoiseCalibration(noise, grid_log2, t, s, units, integer)


def _on_grid(value, grid_log2, integer):
    """The statistic in grid units, as int64 or (beyond int64) Python ints in an object array."""
    if value.dtype.kind in "iub" and grid_log2 <= 0:
        shift = -grid_log2
        if value.size == 0 or int(np.max(np.abs(value))) < VECTOR_LIMIT >> shift:
            return value.astype(np.int64) << np.int64(shift)
        return np.array([int(v) << shift for v in value.ravel()], dtype=object)
    value = value.astype(float)
    if integer and not np.array_equal(value, np.rint(value)):
        # The calibration counted on an integer statistic (its grid sensitivity depends on it).
        raise ValueError("the statistic is declared integer-valued but has fractional values.")
    with np.errstate(over="ignore"):
        rounded = np.rint(np.ldexp(value, -grid_log2))
    if value.size == 0 or np.max(np.abs(rounded)) < VECTOR_LIMIT:
        return rounded.astype(np.int64)
    if np.isfinite(rounded).all():
        return np.array([int(v) for v in rounded.ravel()], dtype=object)
    # A grid so fine that the value overflows a float in grid units: exactly, in integers
    # (round half to even, as np.rint).
    scale = Fraction(2) ** -grid_log2
    return np.array([round(Fraction(float(v)) * scale) for v in value.ravel()], dtype=object)


def _to_float(units, grid_log2):
    if units.dtype != object:
        return np.ldexp(units.astype(float), grid_log2)
    out = np.empty(units.shape, dtype=float)
    flat = out.ravel()
    for k, v in enumerate(units.ravel()):
        try:
            flat[k] = float(Fraction(int(v)) * Fraction(2) ** grid_log2)
        except OverflowError:
            flat[k] = math.copysign(math.inf, v)
    return flat.reshape(units.shape)


def add_noise(value, calibration, rng):
    """``value`` plus the noise of a :class:`NoiseCalibration` (its kind, grid and scale).

    Parameters
    ----------
    value : int, float or array of them
        The true statistic (finite).
    calibration : NoiseCalibration
        From :func:`calibrate_noise` (fitted by the mechanism).
    rng : numpy.random.Generator or OSRandom

    Returns
    -------
    int, float or ndarray
        ``noise="discrete"``: an int (int64 array; Python ints in an object array where int64
        cannot hold a value). ``noise="laplace"``: a float (float64 array).
    """
    c = calibration
    value = np.asarray(value)
    if c.t == 0:
        out = value.astype(float if c.noise == "laplace" else np.int64)
        return (float(out) if c.noise == "laplace" else int(out)) if out.ndim == 0 else out
    units = _on_grid(value.reshape(-1), c.grid_log2, c.integer)
    if c.t:
        Z = discrete_laplace(rng, c.t, c.s, units.size)
        if Z.dtype == object or units.dtype == object:
            units = units.astype(object) + Z.astype(object)
        else:
            # |units| and |Z| are below 2^62, so the sum cannot overflow int64.
            units = units + Z
    if c.noise == "laplace":
        out = _to_float(units, c.grid_log2)
    elif units.dtype == object and all(abs(int(v)) < VECTOR_LIMIT for v in units):
        out = units.astype(np.int64)
    else:
        out = units
    out = out.reshape(value.shape)
    if out.ndim == 0:
        return float(out) if c.noise == "laplace" else int(out)
    return out
