"""Additive noise for the statistic releases: Laplace and discrete Laplace.

Floating-point Laplace noise is not exactly differentially private: the set of doubles a
sampler can output around ``f(x)`` depends on ``f(x)``, and Mironov (2012) recovers inputs
from the low bits of textbook samplers. ``noise="discrete"`` avoids the issue for the
integer-valued statistics of this package (counts with integer sensitivities): it adds a
two-sided geometric ("discrete Laplace") variable, P(Z = z) proportional to
exp(-eps |z| / sensitivity), which is exactly eps-DP for integer statistics (Ghosh,
Roughgarden, Sundararajan 2012) and whose output is an integer, so no low bits leak.
"""

from __future__ import annotations

import numpy as np

from ..utils._params import Options, check_param
from ..utils._random import OSRandom

__all__ = ["NOISE_KINDS", "add_noise"]

NOISE_KINDS = ("laplace", "discrete")


def _laplace(rng, scale, shape):
    if isinstance(rng, OSRandom):
        # Difference of two unit exponentials by inversion of CSPRNG uniforms on [0, 1):
        # -log1p(-u) lies in [0, 37.4], so the noise is truncated at about 37 scales, and its
        # values are doubles (Mironov's caveat above); use noise="discrete" for a release.
        u = rng.random(shape)
        v = rng.random(shape)
        return scale * (np.log1p(-v) - np.log1p(-u))
    return rng.laplace(0.0, scale, size=shape)


def _discrete_laplace(rng, scale, shape):
    # Z = G1 - G2 with G geometric, success probability 1 - e^{-1/scale}: P(Z = z) is
    # proportional to e^{-|z| / scale}.
    p = -np.expm1(-1.0 / scale)
    g1 = np.asarray(rng.geometric(p, size=shape), dtype=np.int64)
    g2 = np.asarray(rng.geometric(p, size=shape), dtype=np.int64)
    return g1 - g2


def add_noise(value, scale, noise, rng):
    """``value`` plus noise of the given kind and scale (scale 0: the value itself)."""
    check_param(noise, [Options(*NOISE_KINDS)], "noise")
    value = np.asarray(value)
    shape = value.shape if value.ndim else 1
    if scale == 0:
        out = value.astype(np.int64 if noise == "discrete" else float)
    elif noise == "discrete":
        out = value.astype(np.int64) + _discrete_laplace(rng, scale, shape)
    else:
        out = value.astype(float) + _laplace(rng, scale, shape)
    out = np.asarray(out).reshape(value.shape)
    if out.ndim == 0:
        return int(out) if noise == "discrete" else float(out)
    return out
