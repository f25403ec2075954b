"""Latent position samplers for (generalized) random dot-product graphs.

Every sampler returns :class:`~tdadp.LatentPositions` whose pairwise products
``<x, I_pq y>`` lie in [0, 1] on the whole support: this is checked from the parameters before
sampling, and a violation names the offending parameters.

Manifold samplers (circle, two circles, lemniscate, sphere, torus) place the shape around a
``center`` vector. The default centers "lift" the shape by a constant last coordinate ``h``,
so that products are ``h^2 + <shape(s), shape(t)>``: positive, below one, and the topology of
the latent manifold is the shape's.
"""

from __future__ import annotations

import hashlib
import inspect
import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ..utils._memory import check_memory
from ..utils._output import TableOutputMixin
from ..utils._params import Options, ParamsMixin, Rule
from ..utils._random import check_random_state, item_streams, stage_tag
from ..utils._validation import as_real_array, check_positive_int
from ._positions import LatentPositions

__all__ = [
    "circle",
    "two_circles",
    "lemniscate",
    "sphere",
    "torus",
    "erdos_renyi",
    "sbm",
    "mixed_membership_sbm",
    "degree_corrected_sbm",
    "LatentSampler",
    "LATENT_KINDS",
]

_TAG = stage_tag("LatentSampler")
_PRODUCT_TOL = 1e-12


def _fmt(params):
    def show(v):
        if isinstance(v, np.ndarray):
            return np.array2string(v, precision=4, separator=", ")
        return repr(v)

    return ", ".join(f"{k}={show(v)}" for k, v in params.items())


def _check_range(lo, hi, sampler, params):
    if lo < -_PRODUCT_TOL or hi > 1 + _PRODUCT_TOL:
        raise ValueError(
            f"{sampler}({_fmt(params)}) gives latent inner products ranging over "
            f"[{lo:.4g}, {hi:.4g}], outside [0, 1], so they are not edge probabilities. "
            "Change these parameters (e.g. a smaller radius/scale or a center of norm "
            "further from 0 and 1)."
        )


def _gram_range(points, signature=None):
    """Min and max of <x, I_pq y> over all pairs (x, y) of ``points`` (diagonal included)."""
    J = np.ones(points.shape[1])
    if signature is not None:
        J[signature[0]:] = -1.0
    lo, hi = np.inf, -np.inf
    step = max(1, 4_000_000 // max(1, len(points)))
    for i in range(0, len(points), step):
        G = (points[i:i + step] * J) @ points.T
        lo, hi = min(lo, G.min()), max(hi, G.max())
    return float(lo), float(hi)


def _center(center, min_dim, sampler):
    c = as_real_array(center, f"{sampler}: center")
    if c.ndim != 1 or c.size < min_dim:
        raise ValueError(
            f"{sampler}: center must be a vector of length >= {min_dim}, got {center!r}."
        )
    return c


def _positive(value, name, sampler):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0 \
            or not np.isfinite(value):
        raise ValueError(f"{sampler}: {name} must be a positive finite number, got {value!r}.")
    return float(value)


def _check_nodes(n, d, sampler):
    # A sampler holds the n x d positions and a few length-n temporaries (angles, uniform
    # draws, labels); refuse sizes the machine cannot hold rather than be killed for them.
    check_memory(8 * n * (2 * d + 8), f"{sampler}: {n} latent positions in R^{d}",
                 " Use fewer nodes.")


def _place(shape_points, c):
    out = np.tile(c, (len(shape_points), 1))
    out[:, : shape_points.shape[1]] += shape_points
    return out


# --- manifolds -------------------------------------------------------------------------------

def _circle_points(theta, radius):
    return radius * np.column_stack([np.cos(theta), np.sin(theta)])


def circle(n_nodes, *, radius=0.4, center=(0.0, 0.0, 0.6), random_state=None):
    """Latent positions uniform on a circle.

    Parameters
    ----------
    n_nodes : int
        Number of nodes.
    radius : float, default=0.4
        Radius of the circle, drawn in the first two coordinates.
    center : array-like of shape (d,), d >= 2, default=(0, 0, 0.6)
        Center of the circle. The default lifts a circle centred at the origin to height 0.6
        in R^3, so inner products lie in [0.6^2 - r^2, 0.6^2 + r^2].
    random_state : None, int, numpy.random.Generator or SeedSequence
        Source of randomness.

    Returns
    -------
    X : LatentPositions of shape (n_nodes, d)
        Signature (d, 0).

    Examples
    --------
    >>> from tdadp import circle
    >>> X = circle(100, random_state=0)
    >>> X.shape, X.signature
    ((100, 3), (3, 0))
    """
    n = check_positive_int(n_nodes, "n_nodes")
    r = _positive(radius, "radius", "circle")
    c = _center(center, 2, "circle")
    _check_nodes(n, c.size, "circle")
    grid = _place(_circle_points(np.linspace(0, 2 * np.pi, 1024, endpoint=False), r), c)
    _check_range(*_gram_range(grid), "circle", {"radius": r, "center": c})
    rng = check_random_state(random_state, _TAG)
    theta = rng.uniform(0, 2 * np.pi, n)
    return LatentPositions(_place(_circle_points(theta, r), c))


def two_circles(n_nodes=(900, 300), *, radii=(0.5, 0.25), center=(0.0, 0.0, 0.6),
                random_state=None):
    """Latent positions on two concentric circles, with the circle of each node as label.

    Parameters
    ----------
    n_nodes : pair of int, default=(900, 300)
        Nodes on the first and on the second circle (exact counts).
    radii : pair of float, default=(0.5, 0.25)
        Radii of the two circles, sharing the plane of the first two coordinates.
    center : array-like of shape (d,), d >= 2, default=(0, 0, 0.6)
        Common center.
    random_state : None, int, numpy.random.Generator or SeedSequence

    Returns
    -------
    X : LatentPositions of shape (sum(n_nodes), d)
        Signature (d, 0); ``X.labels`` is 0 for the first circle and 1 for the second.

    Examples
    --------
    >>> from tdadp import two_circles
    >>> X = two_circles((90, 30), random_state=0)
    >>> X.shape, int(X.labels.sum())
    ((120, 3), 30)
    """
    if np.ndim(n_nodes) != 1 or np.ndim(radii) != 1 or len(n_nodes) != 2 or len(radii) != 2:
        raise ValueError(f"two_circles: n_nodes and radii must both be pairs, got "
                         f"n_nodes={n_nodes!r} and radii={radii!r}.")
    n1 = check_positive_int(n_nodes[0], "n_nodes[0]")
    n2 = check_positive_int(n_nodes[1], "n_nodes[1]")
    r1 = _positive(radii[0], "radii[0]", "two_circles")
    r2 = _positive(radii[1], "radii[1]", "two_circles")
    c = _center(center, 2, "two_circles")
    _check_nodes(n1 + n2, c.size, "two_circles")
    t = np.linspace(0, 2 * np.pi, 1024, endpoint=False)
    grid = np.vstack([_place(_circle_points(t, r1), c), _place(_circle_points(t, r2), c)])
    _check_range(*_gram_range(grid), "two_circles", {"radii": (r1, r2), "center": c})
    rng = check_random_state(random_state, _TAG)
    theta = rng.uniform(0, 2 * np.pi, n1 + n2)
    labels = np.repeat([0, 1], [n1, n2])
    radius = np.where(labels == 0, r1, r2)[:, None]
    X = _place(_circle_points(theta, 1.0) * radius, c)
    return LatentPositions(X, labels=labels)


def _gerono(t, scale):
    # Lemniscate of Gerono: (cos t, sin t cos t), a figure eight crossing itself at the origin.
    return scale * np.column_stack([np.cos(t), np.sin(t) * np.cos(t)])


def lemniscate(n_nodes, *, scale=0.45, center=(0.0, 0.0, 0.65), random_state=None):
    """Latent positions on the lemniscate of Gerono (a figure eight: two loops, one crossing).

    The curve is ``scale * (cos t, sin t cos t)`` with ``t`` uniform on [0, 2 pi), placed
    around ``center``.

    Parameters
    ----------
    n_nodes : int
    scale : float, default=0.45
    center : array-like of shape (d,), d >= 2, default=(0, 0, 0.65)
    random_state : None, int, numpy.random.Generator or SeedSequence

    Returns
    -------
    X : LatentPositions of shape (n_nodes, d), signature (d, 0)

    Examples
    --------
    >>> from tdadp import lemniscate
    >>> lemniscate(50, random_state=1).shape
    (50, 3)
    """
    n = check_positive_int(n_nodes, "n_nodes")
    s = _positive(scale, "scale", "lemniscate")
    c = _center(center, 2, "lemniscate")
    _check_nodes(n, c.size, "lemniscate")
    grid = _place(_gerono(np.linspace(0, 2 * np.pi, 2048, endpoint=False), s), c)
    _check_range(*_gram_range(grid), "lemniscate", {"scale": s, "center": c})
    rng = check_random_state(random_state, _TAG)
    return LatentPositions(_place(_gerono(rng.uniform(0, 2 * np.pi, n), s), c))


def _sphere_grid(m=48):
    phi = np.arccos(np.linspace(-1, 1, m))
    theta = np.linspace(0, 2 * np.pi, 2 * m, endpoint=False)
    P, T = np.meshgrid(phi, theta)
    return np.column_stack([np.sin(P).ravel() * np.cos(T).ravel(),
                            np.sin(P).ravel() * np.sin(T).ravel(), np.cos(P).ravel()])


def sphere(n_nodes, *, radius=0.4, center=(0.0, 0.0, 0.0, 0.6), random_state=None):
    """Latent positions uniform on a 2-sphere.

    Parameters
    ----------
    n_nodes : int
    radius : float, default=0.4
        Radius of the sphere, drawn in the first three coordinates.
    center : array-like of shape (d,), d >= 3, default=(0, 0, 0, 0.6)
        The default lifts a sphere centred at the origin of R^3 to height 0.6 in R^4.
    random_state : None, int, numpy.random.Generator or SeedSequence

    Returns
    -------
    X : LatentPositions of shape (n_nodes, d), signature (d, 0)

    Examples
    --------
    >>> from tdadp import sphere
    >>> sphere(10, random_state=0).shape
    (10, 4)
    """
    n = check_positive_int(n_nodes, "n_nodes")
    r = _positive(radius, "radius", "sphere")
    c = _center(center, 3, "sphere")
    _check_nodes(n, c.size, "sphere")
    _check_range(*_gram_range(_place(r * _sphere_grid(), c)), "sphere",
                 {"radius": r, "center": c})
    rng = check_random_state(random_state, _TAG)
    g = rng.standard_normal((n, 3))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    return LatentPositions(_place(r * g, c))


def _torus_points(theta, phi, R, r):
    ring = R + r * np.cos(phi)
    return np.column_stack([ring * np.cos(theta), ring * np.sin(theta), r * np.sin(phi)])


def torus(n_nodes, *, major_radius=0.3, minor_radius=0.12, center=(0.0, 0.0, 0.0, 0.6),
          random_state=None):
    """Latent positions uniform (by area) on a ring torus.

    Parameters
    ----------
    n_nodes : int
    major_radius, minor_radius : float, default=0.3, 0.12
        Distance from the torus' center to the tube's center, and the tube's radius
        (``minor_radius < major_radius``).
    center : array-like of shape (d,), d >= 3, default=(0, 0, 0, 0.6)
    random_state : None, int, numpy.random.Generator or SeedSequence

    Returns
    -------
    X : LatentPositions of shape (n_nodes, d), signature (d, 0)

    Notes
    -----
    Angles are drawn by rejection so that points are uniform with respect to surface area,
    not uniform in the angles (which would crowd the inner equator).

    Examples
    --------
    >>> from tdadp import torus
    >>> torus(10, random_state=0).shape
    (10, 4)
    """
    n = check_positive_int(n_nodes, "n_nodes")
    R = _positive(major_radius, "major_radius", "torus")
    r = _positive(minor_radius, "minor_radius", "torus")
    if r >= R:
        raise ValueError(f"torus: minor_radius ({r}) must be smaller than major_radius ({R}).")
    c = _center(center, 3, "torus")
    _check_nodes(n, c.size, "torus")
    t = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    T, P = np.meshgrid(t, t)
    grid = _place(_torus_points(T.ravel(), P.ravel(), R, r), c)
    _check_range(*_gram_range(grid), "torus",
                 {"major_radius": R, "minor_radius": r, "center": c})
    rng = check_random_state(random_state, _TAG)
    theta, phi = np.empty(0), np.empty(0)
    while theta.size < n:
        m = 2 * (n - theta.size) + 16
        th, ph = rng.uniform(0, 2 * np.pi, m), rng.uniform(0, 2 * np.pi, m)
        keep = rng.uniform(0, 1, m) < (R + r * np.cos(ph)) / (R + r)
        theta, phi = np.concatenate([theta, th[keep]]), np.concatenate([phi, ph[keep]])
    return LatentPositions(_place(_torus_points(theta[:n], phi[:n], R, r), c))


# --- block models ----------------------------------------------------------------------------

def _block_matrix(B, sampler):
    B = as_real_array(B, f"{sampler}: block_probabilities")
    if B.ndim != 2 or B.shape[0] != B.shape[1] or B.shape[0] < 1:
        raise ValueError(f"{sampler}: block_probabilities must be a square K x K matrix, "
                         f"got shape {B.shape}.")
    if not np.allclose(B, B.T, atol=1e-12, rtol=0):
        raise ValueError(f"{sampler}: block_probabilities must be symmetric.")
    bad = np.argwhere((B < 0) | (B > 1))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"{sampler}: block_probabilities[{i}, {j}] = {B[i, j]} is not a "
                         "probability in [0, 1].")
    return (B + B.T) / 2


def block_latent_positions(B):
    """Rows ``V_k |lambda|^(1/2)`` with ``V_k I_pq V_l^T = B_kl`` and the signature (p, q).

    Positive eigenvalues come first, so that ``I_pq = diag(1 x p, -1 x q)``. Zero eigenvalues
    are dropped: the latent dimension is rank(B).
    """
    w, V = np.linalg.eigh(B)
    tol = max(B.shape) * np.finfo(float).eps * max(1.0, np.abs(w).max())
    pos, neg = np.flatnonzero(w > tol)[::-1], np.flatnonzero(w < -tol)
    order = np.concatenate([pos, neg])
    if order.size == 0:  # all-zero B: an empty graph, keep one zero coordinate
        return np.zeros((B.shape[0], 1)), (1, 0)
    Xb = V[:, order] * np.sqrt(np.abs(w[order]))
    return Xb, (len(pos), len(neg))


def _block_sizes(n_nodes, proportions, K, rng, sampler):
    if isinstance(n_nodes, numbers.Integral) and not isinstance(n_nodes, bool):
        n = check_positive_int(n_nodes, "n_nodes")
        _check_nodes(n, K, sampler)
        if proportions is None:
            proportions = np.full(K, 1.0 / K)
        pr = as_real_array(proportions, f"{sampler}: proportions")
        if pr.shape != (K,) or np.any(pr < 0) or not np.isclose(pr.sum(), 1.0):
            raise ValueError(f"{sampler}: proportions must be {K} non-negative numbers summing "
                             f"to 1, got {proportions!r}.")
        return rng.choice(K, size=n, p=pr / pr.sum())
    sizes = np.asarray(n_nodes)
    if sizes.shape != (K,) or not np.issubdtype(sizes.dtype, np.integer) or np.any(sizes < 0) \
            or sizes.sum() < 1:
        raise ValueError(f"{sampler}: n_nodes must be an int or {K} non-negative block sizes, "
                         f"got {n_nodes!r}.")
    if proportions is not None:
        raise ValueError(f"{sampler}: give either block sizes in n_nodes or proportions, not "
                         "both.")
    _check_nodes(int(sizes.sum()), K, sampler)
    return np.repeat(np.arange(K), sizes)


def erdos_renyi(n_nodes, p, *, random_state=None):
    """Erdős–Rényi as an RDPG: every node at the point mass ``sqrt(p)`` in R^1.

    Parameters
    ----------
    n_nodes : int
    p : float in [0, 1]
        Edge probability.
    random_state : ignored (the latent positions are deterministic); kept for a uniform API.

    Returns
    -------
    X : LatentPositions of shape (n_nodes, 1), signature (1, 0)

    Examples
    --------
    >>> from tdadp import erdos_renyi
    >>> float(erdos_renyi(3, 0.25)[0, 0])
    0.5
    """
    n = check_positive_int(n_nodes, "n_nodes")
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
        raise ValueError(f"erdos_renyi: p must be a probability in [0, 1], got {p!r}.")
    _check_nodes(n, 1, "erdos_renyi")
    return LatentPositions(np.full((n, 1), np.sqrt(p)), labels=np.zeros(n, dtype=int))


def sbm(n_nodes, block_probabilities, *, proportions=None, random_state=None):
    """Stochastic block model as a gRDPG: one point mass per block.

    Parameters
    ----------
    n_nodes : int or sequence of int
        Total number of nodes (memberships drawn iid from ``proportions``), or the exact size
        of every block (memberships in block order).
    block_probabilities : array-like of shape (K, K)
        Symmetric matrix B of edge probabilities between blocks.
    proportions : array-like of shape (K,), optional
        Block probabilities when ``n_nodes`` is an int; uniform by default.
    random_state : None, int, numpy.random.Generator or SeedSequence

    Returns
    -------
    X : LatentPositions of shape (n, rank(B))
        ``X.signature`` is the inertia of B (a B with a negative eigenvalue needs q >= 1);
        ``X.labels`` the blocks.

    Examples
    --------
    >>> from tdadp import sbm
    >>> X = sbm([50, 50], [[0.2, 0.5], [0.5, 0.2]], random_state=0)
    >>> X.signature
    (1, 1)
    """
    B = _block_matrix(block_probabilities, "sbm")
    Xb, signature = block_latent_positions(B)
    rng = check_random_state(random_state, _TAG)
    z = _block_sizes(n_nodes, proportions, B.shape[0], rng, "sbm")
    return LatentPositions(Xb[z], signature=signature, labels=z)


def mixed_membership_sbm(n_nodes, block_probabilities, *, alpha=None, random_state=None):
    """Mixed-membership SBM: memberships ``pi_i ~ Dirichlet(alpha)``, ``X_i = pi_i^T X_B``.

    Edge probabilities are ``pi_i^T B pi_j``, convex combinations of B's entries.

    Parameters
    ----------
    n_nodes : int
    block_probabilities : array-like of shape (K, K)
    alpha : array-like of shape (K,) or float, default=1/K for each block
        Dirichlet concentration.
    random_state : None, int, numpy.random.Generator or SeedSequence

    Returns
    -------
    X : LatentPositions, signature the inertia of B; ``labels`` the dominant block.

    Examples
    --------
    >>> from tdadp import mixed_membership_sbm
    >>> mixed_membership_sbm(20, [[0.6, 0.1], [0.1, 0.5]], random_state=0).shape
    (20, 2)
    """
    n = check_positive_int(n_nodes, "n_nodes")
    B = _block_matrix(block_probabilities, "mixed_membership_sbm")
    K = B.shape[0]
    _check_nodes(n, K, "mixed_membership_sbm")
    a = np.full(K, 1.0 / K) if alpha is None else \
        as_real_array(alpha, "mixed_membership_sbm: alpha")
    if a.shape not in ((), (K,)) or np.any(a <= 0):
        raise ValueError(f"mixed_membership_sbm: alpha must be positive, got {alpha!r}.")
    Xb, signature = block_latent_positions(B)
    rng = check_random_state(random_state, _TAG)
    memberships = rng.dirichlet(np.broadcast_to(a, (K,)), size=n)
    return LatentPositions(memberships @ Xb, signature=signature,
                           labels=memberships.argmax(axis=1))


def degree_corrected_sbm(n_nodes, block_probabilities, *, proportions=None,
                         degree_range=(0.5, 1.0), random_state=None):
    """Degree-corrected SBM: ``X_i = theta_i X_B[z_i]``, ``theta_i ~ Uniform(degree_range)``.

    Edge probabilities are ``theta_i theta_j B_{z_i z_j}``; with ``0 < theta <= 1`` they stay
    in [0, 1]. Each block becomes a ray segment instead of a point mass.

    Parameters
    ----------
    n_nodes : int or sequence of int
    block_probabilities : array-like of shape (K, K)
    proportions : array-like of shape (K,), optional
    degree_range : pair of float, default=(0.5, 1.0)
        ``0 < low <= high <= 1``.
    random_state : None, int, numpy.random.Generator or SeedSequence

    Returns
    -------
    X : LatentPositions, signature the inertia of B; ``labels`` the blocks.

    Examples
    --------
    >>> from tdadp import degree_corrected_sbm
    >>> degree_corrected_sbm(30, [[0.3, 0.6], [0.6, 0.3]], random_state=0).signature
    (1, 1)
    """
    B = _block_matrix(block_probabilities, "degree_corrected_sbm")
    bounds = as_real_array(degree_range, "degree_corrected_sbm: degree_range")
    lo, hi = bounds if bounds.shape == (2,) else (np.nan, np.nan)
    if not 0 < lo <= hi <= 1:
        raise ValueError("degree_corrected_sbm: degree_range must satisfy 0 < low <= high <= 1,"
                         f" got {degree_range!r}.")
    Xb, signature = block_latent_positions(B)
    rng = check_random_state(random_state, _TAG)
    z = _block_sizes(n_nodes, proportions, B.shape[0], rng, "degree_corrected_sbm")
    theta = rng.uniform(lo, hi, size=z.size)
    return LatentPositions(theta[:, None] * Xb[z], signature=signature, labels=z)


LATENT_KINDS = {
    "circle": circle,
    "two_circles": two_circles,
    "lemniscate": lemniscate,
    "sphere": sphere,
    "torus": torus,
    "erdos_renyi": erdos_renyi,
    "sbm": sbm,
    "mixed_membership_sbm": mixed_membership_sbm,
    "degree_corrected_sbm": degree_corrected_sbm,
}


def _row_key(row):
    """The stream key of a replicate named by a row of values.

    A row holding one non-negative integer is that replicate id (a column of ids means what
    the ids mean); any other row is keyed by a 64-bit hash of its values, so that equal rows
    name the same replicate and a row's sample never depends on the rest of the batch.
    """
    if row.size == 1 and row[0] >= 0 and float(row[0]).is_integer():
        return int(row[0])
    digest = hashlib.blake2b((row + 0.0).tobytes(), digest_size=8).digest()  # -0.0 is 0.0
    return int.from_bytes(digest, "little")


def _template_size(n_nodes):
    """The smallest ``n_nodes`` of the same form (a count, or one size per block/circle)."""
    if isinstance(n_nodes, (numbers.Integral, np.integer)):
        return 1
    return np.minimum(np.asarray(n_nodes), 1).tolist()


def _is_size_sequence(value):
    sizes = np.asarray(value)
    return sizes.ndim == 1 and sizes.size > 0 and np.issubdtype(sizes.dtype, np.integer) \
        and bool(np.all(sizes >= 0))


class LatentSampler(TableOutputMixin, ParamsMixin, TransformerMixin, BaseEstimator,
                    auto_wrap_output_keys=None):
    """Sample latent positions, one matrix per replicate.

    A stage of the pipeline ``LatentSampler -> GRDPG -> mechanism -> embedding``. Its input
    names the replicates, each of which is one sample whose output is a whole latent matrix:

    - an int ``R``: replicates ``0..R-1``; None: replicate 0;
    - a 1-D sequence of non-negative ints (a list, a range, an array): the replicate ids;
    - a 2-D array of shape ``(R, k)`` of finite real numbers (scikit-learn's convention: rows
      are samples): one replicate per row, named by the row's values. A row holding one
      non-negative integer is that replicate id; any other row is keyed by a hash of its
      values, so equal rows give the same latent matrix.

    Replicate ``r`` always gets the same stream (``SeedSequence`` spawn key ``r``), whatever
    else is in the batch and wherever it runs.

    Parameters
    ----------
    kind : {"circle", "two_circles", "lemniscate", "sphere", "torus", "erdos_renyi", "sbm", \
"mixed_membership_sbm", "degree_corrected_sbm"}, default="circle"
        The latent distribution.
    n_nodes : int or sequence of int, default=500
        Nodes per replicate (block sizes for the block models, the pair of circle sizes for
        ``two_circles``).
    params : dict, optional
        Further keyword arguments of the sampler function (``radius``, ``center``,
        ``block_probabilities``, ...).
    random_state : None, int, numpy.random.Generator or SeedSequence
        Root of the replicate streams.

    Attributes
    ----------
    signature_ : tuple of int
        ``(p, q)`` of the latent distribution.
    n_features_out_ : int
        Latent dimension ``d = p + q``.
    n_features_in_ : int
        Number of columns of a 2-D input (only when fitted on one).

    Notes
    -----
    With ``set_output(transform="pandas")`` each replicate's ``(n, d)`` table is a DataFrame
    with columns :meth:`get_feature_names_out`; its ``attrs`` hold the ``"signature"`` and the
    ``"labels"`` (a list, or None), so that :class:`~tdadp.GRDPG` downstream still samples
    with the gRDPG signature.

    References
    ----------
    Athreya et al., "Statistical inference on random dot product graphs: a survey", JMLR 18
    (2018). Rubin-Delanchy, Cape, Tang, Priebe, "A statistical interpretation of spectral
    embedding: the generalised random dot product graph", JRSS-B 84 (2022).

    Examples
    --------
    >>> from tdadp import LatentSampler
    >>> Xs = LatentSampler("circle", n_nodes=100, random_state=0).fit_transform(3)
    >>> len(Xs), Xs[0].shape
    (3, (100, 3))
    """

    _parameter_constraints = {
        "kind": [Options(*LATENT_KINDS)],
        "n_nodes": ["positive_int",
                    Rule("a non-empty sequence of non-negative ints (block or circle sizes)",
                         _is_size_sequence)],
        "params": [None, "dict"],
        "random_state": ["random_state"],
    }

    def __init__(self, kind="circle", n_nodes=500, params=None, random_state=None):
        self.kind = kind
        self.n_nodes = n_nodes
        self.params = params
        self.random_state = random_state

    def _sampler(self):
        self._validate_params()
        func = LATENT_KINDS[self.kind]
        params = dict(self.params or {})
        accepted = set(inspect.signature(func).parameters) - {"n_nodes", "random_state"}
        unknown = set(params) - accepted
        if unknown:
            raise ValueError(f"params {sorted(unknown)} are not parameters of {self.kind}; it "
                             f"takes {sorted(accepted)}.")
        return func, params

    def _replicate_keys(self, X, *, reset):
        """The stream keys of the replicates ``X`` names (see the class docstring).

        ``reset`` (in fit) records the width of a 2-D input as ``n_features_in_``; otherwise a
        2-D input must have the fitted width.
        """
        if X is None or (isinstance(X, (numbers.Integral, np.integer))
                         and not isinstance(X, (bool, np.bool_))):
            keys = [0] if X is None else list(range(check_positive_int(int(X),
                                                                       "number of replicates")))
            if reset and hasattr(self, "n_features_in_"):
                del self.n_features_in_  # refitted on a count
            return keys
        if not isinstance(X, str) and not sp.issparse(X) and np.ndim(X) == 1:
            ids = np.asarray(X)
            if ids.size == 0 or not np.issubdtype(ids.dtype, np.integer) or np.any(ids < 0):
                raise ValueError(
                    "LatentSampler input must be a replicate count, a 1-D sequence of "
                    "non-negative integer replicate ids or a 2-D array with one replicate per "
                    f"row, got {X!r}. Reshape your data if it names replicates otherwise.")
            if reset and hasattr(self, "n_features_in_"):
                del self.n_features_in_
            return [int(i) for i in ids]
        table = as_real_array(X, "LatentSampler input")
        if table.ndim != 2:
            raise ValueError("LatentSampler input must be a replicate count, a sequence of "
                             "replicate ids or a 2-D array (one replicate per row), got an "
                             f"array of shape {table.shape}. Reshape your data.")
        rows, width = table.shape
        if rows == 0 or width == 0:
            # Worded as scikit-learn words empty data, which its estimator checks look for.
            raise ValueError(f"LatentSampler input is empty: {rows} sample(s) and {width} "
                             f"feature(s) (shape={table.shape}) while a minimum of 1 is "
                             "required (a row names a replicate by its values).")
        if reset:
            self.n_features_in_ = width
        elif hasattr(self, "n_features_in_") and width != self.n_features_in_:
            raise ValueError(f"X has {width} features, but LatentSampler is expecting "
                             f"{self.n_features_in_} features as input (it was fitted on rows "
                             f"of {self.n_features_in_} values).")
        return [_row_key(row) for row in table]

    def fit(self, X=None, y=None):
        """Validate the parameters and the input, and record the signature.

        Parameters
        ----------
        X : int, sequence of int, 2-D array or None
            The replicates (see the class docstring).
        y : ignored

        Returns
        -------
        self
        """
        func, params = self._sampler()
        self._replicate_keys(X, reset=True)
        # The signature and dimension depend on the model, not on the number of nodes.
        template = func(n_nodes=_template_size(self.n_nodes), random_state=0, **params)
        self.signature_ = template.signature
        self.n_features_out_ = template.shape[1]
        return self

    def transform(self, X):
        """Sample the latent positions of each replicate.

        Parameters
        ----------
        X : int, sequence of int or 2-D array
            The replicates (see the class docstring).

        Returns
        -------
        list of LatentPositions (or of DataFrames with pandas output), one per replicate
        """
        func, params = self._sampler()
        streams = item_streams(self.random_state, self._replicate_keys(X, reset=False), _TAG)
        out = []
        for rng in streams:
            Z = func(n_nodes=self.n_nodes, random_state=rng, **params)
            labels = None if Z.labels is None else Z.labels.tolist()
            out.append(self._wrap_table(Z, attrs={"signature": Z.signature, "labels": labels},
                                        columns=self._names(Z.shape[1])))
        return out

    def fit_transform(self, X=None, y=None, **fit_params):
        """Fit, then sample the latent positions of each replicate (see :meth:`transform`)."""
        return self.fit(X).transform(X)

    def get_feature_names_out(self, input_features=None):
        """Column names of each replicate's table: ``latentsampler0 .. latentsampler{d-1}``.

        Parameters
        ----------
        input_features : ignored
            The input's columns are not features (a row names a replicate).

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self, "n_features_out_")
        return self._names(self.n_features_out_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.non_deterministic = self.random_state is None
        # A replicate's output is a float latent matrix, whatever the input's dtype.
        tags.transformer_tags.preserves_dtype = []
        return tags
