"""Persistence diagrams of point clouds: alpha complexes (gudhi) and Rips complexes (ripser).

Units. Every diagram is in distance units, so that scaling a cloud by c scales its diagram
by c:

* Rips (ripser): a simplex enters at its diameter, the longest edge length;
* alpha (gudhi): gudhi's filtration value is a *squared* radius; tdadp reports its square
  root, the radius r of the balls whose union (Cech / alpha complex) it is, or with
  ``alpha_scale="diameter"`` the diameter 2r, which is on the same footing as Rips edge
  lengths (a pair of points first enters both filtrations at their distance).

Scale. A cloud is computed scaled by the power of two that brings its largest |coordinate|
into [0.5, 1), and its diagram scaled back: exact in binary floating point, and it keeps
ripser's float32 distances and gudhi's squared radii from overflowing or underflowing, which
silently emptied the H1 of a circle scaled by 1e40 (Rips) or 1e160 (alpha).

Alpha and Rips diagrams are different objects (Rips at 2r is sandwiched between Cech at r and
Cech at sqrt(2 d / (d + 1)) r, Edelsbrunner & Harer, III.2), so compare a diagram only with
diagrams of the same complex.
"""

from __future__ import annotations

import math
import numbers

import gudhi
import numpy as np
import ripser
from joblib import effective_n_jobs
from scipy.spatial.distance import pdist
from sklearn.base import BaseEstimator, TransformerMixin

from ..utils._batch import join_batch, map_items, split_batch
from ..utils._memory import check_memory
from ..utils._output import ItemOutputMixin
from ..utils._params import Interval, Options, ParamsMixin, Rule, check_param, validate_params
from ._diagram import PersistenceDiagram
from ._parts import normalizing_exponent
from ._rules import HOMOLOGY_DIMENSIONS, as_dimensions, check_cloud

try:  # ripser's binding, which takes the condensed distance matrix directly
    from pyRipser import doRipsFiltrationDM
except ImportError:  # pragma: no cover - ripser's private binding moved
    doRipsFiltrationDM = None

__all__ = ["PersistentHomology", "persistence_diagram", "estimate_rips_memory"]

# "auto" uses alpha up to this ambient dimension: gudhi's Delaunay triangulation is practical
# there (about 6.8 n tetrahedra in R^3) and explodes combinatorially above.
_AUTO_ALPHA_MAX_DIM = 3


def estimate_rips_memory(n_points, max_dimension, edge_fraction=1.0):
    """A conservative estimate, in bytes, of ripser's peak memory on ``n_points`` points.

    Counted: the condensed distance matrix (scipy float64, then the float32 copy ripser
    takes), the sorted edge list of H0 (16 bytes an edge), and for every dimension
    1 <= k <= ``max_dimension`` the k-simplices to reduce with their pivot hash map
    (48 bytes each) plus the working coboundaries, which grow with the number of
    (k + 1)-simplices: ripser 0.6 peaked at 0.28 GB for H1 of 1,000 points and at 2.2 GB for
    2,000 points (ASE clouds in R^3), about 1.6 bytes a triangle; 4 bytes are counted. A
    j-simplex count is C(n, j + 1) times ``edge_fraction`` ** (j (j + 1) / 2) (all its
    edges below the threshold, as if independent).

    Parameters
    ----------
    n_points : int
    max_dimension : int
        Largest homology dimension computed.
    edge_fraction : float, default=1
        Fraction of pairs closer than the threshold (1 without threshold).

    Returns
    -------
    int
        Capped at 10**300 bytes (more simplices than atoms in the universe).

    Examples
    --------
    >>> round(estimate_rips_memory(2000, 1) / 1e9, 1)
    5.5
    """
    check_param(n_points, ["nonnegative_int"], "n_points")
    check_param(max_dimension, ["nonnegative_int"], "max_dimension")
    check_param(edge_fraction, [Interval("real", 0, 1, "both")], "edge_fraction")
    n = int(n_points)
    log_fraction = math.log(edge_fraction) if edge_fraction > 0 else -math.inf

    def count(j):  # j-simplices below the threshold, as a float (huge ones capped)
        if j + 1 > n or log_fraction == -math.inf and j > 0:
            return 0.0
        log_count = (math.lgamma(n + 1) - math.lgamma(j + 2) - math.lgamma(n - j)
                     + log_fraction * (j * (j + 1) / 2))
        return math.exp(min(log_count, _LOG_CAP))

    pairs = n * (n - 1) / 2
    total = pairs * (8 + 4) + count(1) * 16
    # No k-simplex on fewer than k + 1 points: dimensions above n add nothing.
    for k in range(1, min(int(max_dimension), n) + 1):
        total += count(k) * 48 + count(k + 1) * 4
        if total >= _CAP:
            break
    return int(min(total, _CAP))


# Estimates are capped here (and their logarithms below), so that absurd sizes give a huge
# number rather than an OverflowError.
_CAP = 1e300
_LOG_CAP = math.log(_CAP)


# ripser keeps a coefficient in a signed 8-bit field of each matrix entry: measured on
# ripser 0.6.15, every prime up to 127 gives the diagrams of gudhi's Rips complex, 131 to 251
# abort the interpreter (std::bad_alloc), 65,521 aborts (std::length_error), 65,537 returns
# wrong diagrams and 1,000,003 hangs. gudhi accepts primes up to 46,337 but sets its field up
# in O(p^2) (1.8 s per diagram at 46,337). One cap for both complexes, so that complex="auto"
# never makes a coefficient valid on one cloud and invalid on another.
MAX_COEFF = 127

_ALPHA_BYTES_PER_POINT = 10_000


def _is_supported_prime(p):
    return (isinstance(p, (numbers.Integral, np.integer)) and not isinstance(p, (bool, np.bool_))
            and 2 <= p <= MAX_COEFF and all(p % q for q in range(2, math.isqrt(int(p)) + 1)))


_CONSTRAINTS = {
    "complex": [Options("auto", "alpha", "rips")],
    "homology_dimensions": [HOMOLOGY_DIMENSIONS],
    "max_edge_length": [Interval("real", 0, math.inf, "right")],
    "alpha_scale": [Options("radius", "diameter")],
    "coeff": [Rule(f"a prime number at most {MAX_COEFF} (ripser's limit)",
                   _is_supported_prime)],
    "max_memory": [None, Interval("real", 0, math.inf, "right")],
    "n_jobs": ["n_jobs"],
}


def _resolve_complex(complex, n_features):
    if complex != "auto":
        return complex
    return "alpha" if n_features <= _AUTO_ALPHA_MAX_DIM else "rips"


def _edge_fraction(X, cap):
    """An upper estimate of the fraction of pairs of ``X`` at most ``cap`` apart."""
    n = X.shape[0]
    if not np.isfinite(cap) or n < 2:
        return 1.0
    rng = np.random.default_rng(0)
    m = min(20000, n * (n - 1) // 2)
    i, j = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = i != j
    d = np.sqrt(((X[i[keep]] - X[j[keep]]) ** 2).sum(axis=1))
    fraction = float(np.mean(d <= cap)) if d.size else 1.0
    return min(1.0, fraction + 3 * math.sqrt(max(fraction, 1e-4) / max(d.size, 1)))


def _rips_maxdim(n, dims):
    # A complex on n vertices has no k-cycle for k >= n - 1 (its only (n - 1)-simplex has a
    # non-zero boundary): higher dimensions are empty, and ripser never sees a dimension that
    # would overflow its int or make it enumerate nothing for hours.
    return min(max(dims), max(n - 2, 0))


class _Plan:
    """One checked cloud at unit scale, its complex and its memory estimate."""

    __slots__ = ("X", "kind", "exponent", "cap", "need", "maxdim")

    def __init__(self, X, complex, dims, cap):
        X = check_cloud(X)
        self.kind = _resolve_complex(complex, X.shape[1])
        # Dgm(cX) = c Dgm(X): computed at the scale of a unit cloud (see the module's notes).
        self.exponent = k = normalizing_exponent(X)
        self.X, self.cap = np.ldexp(X, -k), float(np.ldexp(cap, -k))
        self.need, self.maxdim = 0, max(dims)
        if self.kind == "rips":
            self.maxdim = _rips_maxdim(X.shape[0], dims)
            self.need = estimate_rips_memory(X.shape[0], self.maxdim,
                                             _edge_fraction(self.X, self.cap))


def _check_rips_memory(plans, dims, max_memory, workers):
    """Refuse, before any cloud is computed, Rips work above the memory budget.

    ``workers`` clouds are computed at once (threads), so the ``workers`` largest estimates
    add up.
    """
    rips = sorted((p for p in plans if p.kind == "rips"), key=lambda p: p.need, reverse=True)
    if not rips:
        return
    peak = sum(p.need for p in rips[:workers])
    top = max(dims)
    n = rips[0].X.shape[0]
    what = f"a Rips computation up to H{top} on {n} points"
    if min(workers, len(rips)) > 1:
        what = (f"{min(workers, len(rips))} Rips computations at once (n_jobs; the largest "
                f"up to H{top} on {n} points)")
    advice = ("Use complex='alpha' (ambient dimension <= 3), a finite max_edge_length, fewer "
              "homology dimensions or n_jobs, or a subsample")
    if max_memory is None:
        # The estimate is conservative (see estimate_rips_memory), so it may take all the
        # memory left: rlimits, cgroup limits and available memory, which a native abort
        # (std::bad_alloc) would otherwise discover.
        check_memory(peak, f"{what} (conservative estimate)", f" {advice} (max_memory "
                     "overrides the estimate, at the risk of an abort).", fraction=1.0)
    elif peak > max_memory:
        raise ValueError(f"{what} (conservative estimate) would need about "
                         f"{peak / 1e9:.3g} GB, above max_memory = {max_memory / 1e9:.3g} GB. "
                         f"{advice}, or raise max_memory.")


def _alpha(X, dims, cap, alpha_scale, coeff):
    # gudhi's Delaunay complex and simplex tree: measured 8.1-8.2 KB a point in 3-D (uniform
    # clouds of 20,000 and 80,000 points); 10 KB a point leaves a margin.
    check_memory(_ALPHA_BYTES_PER_POINT * X.shape[0], f"an alpha complex on {X.shape[0]} "
                 f"points in R^{X.shape[1]}", " Subsample the cloud (or use fewer points).",
                 fraction=1.0)
    factor = 2.0 if alpha_scale == "diameter" else 1.0
    with np.errstate(over="ignore"):  # a cap whose square overflows caps nothing
        max_sq = float(np.square(np.float64(cap / factor)))
    st = gudhi.AlphaComplex(points=X).create_simplex_tree(max_alpha_square=max_sq)
    # H_k needs simplices up to dimension k + 1 and no higher: the tetrahedra of a 3-D cloud
    # only kill H2 classes, and dropping them before the reduction (on a 100,000-point
    # circle embedding, 2.9M simplices) saves about a quarter of its time for H0/H1 alone.
    # The homology of the top dimension is then not wanted; it is when nothing was dropped
    # and the top dimension is asked for (gudhi only reports dimensions present).
    needed = max(dims) + 1
    if st.dimension() > needed:
        st.prune_above_dimension(needed)
    st.compute_persistence(homology_coeff_field=coeff,
                           persistence_dim_max=st.dimension() <= max(dims))
    top = st.dimension()
    out = {}
    for k in dims:
        if k > top:  # no k-simplex, no H_k (and gudhi takes k as a C int)
            out[k] = np.zeros((0, 2))
            continue
        iv = np.asarray(st.persistence_intervals_in_dimension(k), dtype=float).reshape(-1, 2)
        # Squared radii; rounding can leave -0.0 or tiny negatives on exact zeros.
        out[k] = factor * np.sqrt(np.maximum(iv, 0.0))
    return out


def _rips(X, dims, cap, coeff, maxdim):
    n = X.shape[0]
    if doRipsFiltrationDM is None:  # pragma: no cover - ripser's private binding moved
        dgms = ripser.ripser(X, maxdim=maxdim, thresh=cap, coeff=coeff)["dgms"]
    else:
        # ripser.ripser would also build an n x n float64 matrix and two n x n index grids;
        # its binding takes the condensed (row-major upper-triangular) matrix directly.
        dm = pdist(X).astype(np.float32) if n > 1 else np.zeros(0, dtype=np.float32)
        res = doRipsFiltrationDM(dm, maxdim, cap, coeff, False)
        dgms = [np.reshape(np.array(v, dtype=float), (-1, 2))
                for v in res["births_and_deaths_by_dim"]]
    out = {}
    for k in dims:
        v = dgms[k] if k < len(dgms) else np.zeros((0, 2))
        out[k] = v[v[:, 0] != v[:, 1]]
    return out


def _diagram_of(plan, dims, alpha_scale, coeff):
    if plan.kind == "alpha":
        out = _alpha(plan.X, dims, plan.cap, alpha_scale, coeff)
    else:
        out = _rips(plan.X, dims, plan.cap, coeff, plan.maxdim)
    return PersistenceDiagram({dim: np.ldexp(v, plan.exponent) for dim, v in out.items()})


def persistence_diagram(X, complex="auto", homology_dimensions=(0, 1), max_edge_length=np.inf,
                        alpha_scale="radius", coeff=2, max_memory=None, n_jobs=None):
    """Persistence diagram(s) of one point cloud or a sequence of them.

    Function twin of :class:`PersistentHomology`; see there for the parameters.

    Returns
    -------
    PersistenceDiagram or list of PersistenceDiagram

    Raises
    ------
    ValueError
        Bad parameters or clouds, or Rips work whose memory estimate exceeds the budget
        (checked for every cloud before any is computed).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.random.default_rng(0).uniform(0, 2 * np.pi, 200)
    >>> D = persistence_diagram(np.c_[np.cos(t), np.sin(t)], complex="alpha")
    >>> birth, death = D[1][np.argmax(D[1][:, 1] - D[1][:, 0])]
    >>> round(float(death), 6)  # the circumradius of the largest Delaunay triangle
    1.0
    """
    validate_params(_CONSTRAINTS, dict(
        complex=complex, homology_dimensions=homology_dimensions,
        max_edge_length=max_edge_length, alpha_scale=alpha_scale, coeff=coeff,
        max_memory=max_memory, n_jobs=n_jobs), "persistence_diagram")
    dims = as_dimensions(homology_dimensions)
    cap = float(max_edge_length)
    items, single = split_batch(X, what="point cloud")
    plans = [_Plan(Y, complex, dims, cap) for Y in items]
    workers = 1 if n_jobs in (None, 1) or len(plans) == 1 else effective_n_jobs(n_jobs)
    _check_rips_memory(plans, dims, None if max_memory is None else float(max_memory),
                       workers)
    out = map_items(lambda plan: _diagram_of(plan, dims, alpha_scale, coeff), plans,
                    n_jobs=n_jobs)
    return join_batch(out, single)


class PersistentHomology(ItemOutputMixin, ParamsMixin, TransformerMixin, BaseEstimator,
                         auto_wrap_output_keys=None):
    """Persistence diagrams of point clouds (alpha via gudhi, Rips via ripser).

    A stage of the pipeline ``... -> AdjacencySpectralEmbedding -> PersistentHomology ->
    PairwiseDistance``. It maps one point cloud to one :class:`PersistenceDiagram`, or a
    sequence of clouds (a list, or a 3-D array of equal-size clouds) to a list of diagrams: a
    sample is a whole point cloud, so scikit-learn's ``cross_val_score`` and ``Pipeline``
    index a batch of clouds by cloud. Diagrams are in distance units: scaling a cloud
    by c scales its diagram by c. Rips filtrations are by edge length (diameter), alpha
    filtrations by ball radius (``alpha_scale="radius"``, square root of gudhi's squared
    radius) or by diameter ``2 * radius`` (``alpha_scale="diameter"``, comparable to Rips).
    The essential H0 class (and any class alive at ``max_edge_length``) has death ``inf``.

    Parameters
    ----------
    complex : {"auto", "alpha", "rips"}, default="auto"
        ``"auto"`` uses alpha in ambient dimension <= 3 (a Delaunay triangulation, about
        linear size there) and Rips above. Alpha and Rips diagrams are different
        filtrations in different units (radius vs edge length): when comparing clouds of
        different ambient dimensions (say X in R^3 and ``private_latent_map(X, eps)`` in
        R^4), pass the same ``complex`` explicitly.
    homology_dimensions : int or sequence of int, default=(0, 1)
        Dimensions to compute; each appears in every output diagram (possibly empty).
    max_edge_length : float, default=inf
        Largest filtration value computed, in the units of the diagram (Rips edge length,
        alpha radius or diameter); classes still alive there get death ``inf``.
    alpha_scale : {"radius", "diameter"}, default="radius"
        Units of alpha diagrams.
    coeff : int, default=2
        Prime field of coefficients, a prime at most 127. ripser keeps coefficients in 8
        signed bits: measured, larger primes abort the interpreter, hang or return wrong
        diagrams (gudhi's alpha complex would take primes up to 46,337, at a set-up cost
        quadratic in the prime; the same cap applies to both complexes).
    max_memory : float, optional
        Rips is refused up front, with a ValueError, when its conservative memory estimate
        (:func:`estimate_rips_memory`, summed over the clouds computed at once with
        ``n_jobs``) exceeds this many bytes. Default: the memory this process can still use,
        the smallest of its address-space and data rlimits, its cgroup limit and the
        system's available memory (:func:`tdadp.utils.memory_limits`). A larger value
        overrides the estimate at your own risk: ripser aborts the interpreter
        (``std::bad_alloc``) when it runs out of memory.
    n_jobs : int, optional
        Clouds computed in parallel (threads).

    Attributes
    ----------
    homology_dimensions_ : tuple of int
        Validated, sorted homology dimensions.
    complex_ : str
        The complex ``"auto"`` chose for the first cloud seen by ``fit``.
    n_features_in_ : int
        Ambient dimension of the clouds seen by ``fit``, when they all have the same.

    Notes
    -----
    ``set_output(transform="pandas")`` (or scikit-learn's global ``transform_output``) makes
    each diagram its DataFrame form (:meth:`PersistenceDiagram.to_frame`): one row per
    point, columns ``dimension, birth, death`` as giotto-tda lays diagrams out, and
    ``attrs["homology_dimensions"]`` listing every computed dimension, empty ones included;
    a batch gives a list of DataFrames. Every diagram consumer (:class:`PairwiseDistance`,
    the distances, the plots) reads such a DataFrame back as the diagram, so
    ``Pipeline.set_output(transform="pandas")`` runs through this stage to a DataFrame of
    distances. A point cloud may be a DataFrame too (the embedding's pandas output).

    References
    ----------
    .. [1] H. Edelsbrunner and J. Harer, *Computational Topology: An Introduction*, AMS, 2010.
    .. [2] The GUDHI Project, *GUDHI User and Reference Manual*, alpha complex (2015-).
    .. [3] U. Bauer, "Ripser: efficient computation of Vietoris-Rips persistence barcodes",
       J. Appl. Comput. Topol. 5, 2021; C. Tralie, N. Saul, R. Bar-On, "Ripser.py", JOSS 2018.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(100, 2))
    >>> D = PersistentHomology(complex="rips").fit_transform(X)
    >>> D.homology_dimensions
    (0, 1)
    >>> int(np.isinf(D[0][:, 1]).sum())
    1
    """

    _parameter_constraints = _CONSTRAINTS

    def __init__(self, complex="auto", homology_dimensions=(0, 1), max_edge_length=np.inf,
                 alpha_scale="radius", coeff=2, max_memory=None, n_jobs=None):
        self.complex = complex
        self.homology_dimensions = homology_dimensions
        self.max_edge_length = max_edge_length
        self.alpha_scale = alpha_scale
        self.coeff = coeff
        self.max_memory = max_memory
        self.n_jobs = n_jobs

    def fit(self, X, y=None):
        """Validate the parameters and the clouds (diagrams are computed by ``transform``).

        Parameters
        ----------
        X : (n_points, n_features) array_like or sequence of them
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        items, _ = split_batch(X, what="point cloud")
        widths = [check_cloud(item).shape[1] for item in items]
        self.homology_dimensions_ = as_dimensions(self.homology_dimensions)
        self.complex_ = _resolve_complex(self.complex, widths[0])
        widths = set(widths)
        if len(widths) == 1:
            self.n_features_in_ = widths.pop()
        elif hasattr(self, "n_features_in_"):
            del self.n_features_in_  # a refit on clouds of different dimensions
        return self

    def transform(self, X):
        """Diagram of each cloud.

        Parameters
        ----------
        X : (n_points, n_features) array_like or sequence of them

        Returns
        -------
        PersistenceDiagram or list of PersistenceDiagram
            DataFrames with pandas output (see the Notes).
        """
        pandas = self._output_kind() == "pandas"  # a bad setting fails before the work
        out = persistence_diagram(X, complex=self.complex,
                                  homology_dimensions=self.homology_dimensions,
                                  max_edge_length=self.max_edge_length,
                                  alpha_scale=self.alpha_scale, coeff=self.coeff,
                                  max_memory=self.max_memory, n_jobs=self.n_jobs)
        if not pandas:
            return out
        return out.to_frame() if isinstance(out, PersistenceDiagram) else [
            D.to_frame() for D in out]

    def fit_transform(self, X, y=None, **fit_params):
        """Validate, then return the diagram of each cloud (see :meth:`transform`)."""
        return self.fit(X).transform(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        # A cloud of any dtype gives a float64 diagram, which is not an array of the input.
        tags.transformer_tags.preserves_dtype = []
        return tags
