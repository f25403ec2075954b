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
from scipy.spatial.distance import pdist
from sklearn.base import BaseEstimator, TransformerMixin

from ..utils._batch import join_batch, map_items, split_batch
from ..utils._output import ContainerOutputMixin
from ..utils._params import Interval, Options, ParamsMixin, Rule, validate_params
from ..utils._validation import physical_memory
from ._diagram import PersistenceDiagram
from ._parts import normalizing_exponent
from ._rules import HOMOLOGY_DIMENSIONS, as_dimensions, check_cloud

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
    """
    n = int(n_points)

    def count(j):  # j-simplices below the threshold
        return math.comb(n, j + 1) * edge_fraction ** (j * (j + 1) / 2)

    pairs = n * (n - 1) / 2
    total = pairs * (8 + 4) + count(1) * 16
    for k in range(1, max_dimension + 1):
        total += count(k) * 48 + count(k + 1) * 4
    return int(total)


# ripser keeps a coefficient in a signed 8-bit field of each matrix entry: measured on
# ripser 0.6.15, every prime up to 127 gives the diagrams of gudhi's Rips complex, 131 to 251
# abort the interpreter (std::bad_alloc), 65,521 aborts (std::length_error), 65,537 returns
# wrong diagrams and 1,000,003 hangs. gudhi accepts primes up to 46,337 but sets its field up
# in O(p^2) (1.8 s per diagram at 46,337). One cap for both complexes, so that complex="auto"
# never makes a coefficient valid on one cloud and invalid on another.
MAX_COEFF = 127


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


def _alpha(X, dims, cap, alpha_scale, coeff):
    factor = 2.0 if alpha_scale == "diameter" else 1.0
    with np.errstate(over="ignore"):  # a cap whose square overflows caps nothing
        max_sq = float(np.square(np.float64(cap / factor)))
    st = gudhi.AlphaComplex(points=X).create_simplex_tree(max_alpha_square=max_sq)
    # H_k needs simplices up to dimension k + 1; gudhi only reports dimensions present.
    st.compute_persistence(homology_coeff_field=coeff, persistence_dim_max=True)
    out = {}
    for k in dims:
        iv = np.asarray(st.persistence_intervals_in_dimension(k), dtype=float).reshape(-1, 2)
        # Squared radii; rounding can leave -0.0 or tiny negatives on exact zeros.
        out[k] = factor * np.sqrt(np.maximum(iv, 0.0))
    return out


def _rips(X, dims, cap, coeff, max_memory):
    n = X.shape[0]
    maxdim = max(dims)
    fraction = 1.0
    if np.isfinite(cap) and n > 1:
        rng = np.random.default_rng(0)
        m = min(20000, n * (n - 1) // 2)
        i, j = rng.integers(0, n, m), rng.integers(0, n, m)
        keep = i != j
        d = np.sqrt(((X[i[keep]] - X[j[keep]]) ** 2).sum(axis=1))
        fraction = float(np.mean(d <= cap)) if d.size else 1.0
        fraction = min(1.0, fraction + 3 * math.sqrt(max(fraction, 1e-4) / max(d.size, 1)))
    need = estimate_rips_memory(n, maxdim, fraction)
    if need > max_memory:
        raise ValueError(
            f"a Rips computation up to H{maxdim} on {n} points would need about "
            f"{need / 1e9:.1f} GB (conservative estimate), above max_memory = "
            f"{max_memory / 1e9:.1f} GB. Use complex='alpha' (ambient dimension <= 3), a "
            "finite max_edge_length, fewer homology dimensions, a subsample, or raise "
            "max_memory."
        )
    dm = pdist(X).astype(np.float32) if n > 1 else np.zeros(0, dtype=np.float32)
    try:
        from pyRipser import doRipsFiltrationDM
    except ImportError:  # pragma: no cover - ripser's private binding moved
        import ripser
        dgms = ripser.ripser(X, maxdim=maxdim, thresh=cap, coeff=coeff)["dgms"]
    else:
        # ripser.ripser would also build an n x n float64 matrix and two n x n index grids;
        # its binding takes the condensed (row-major upper-triangular) matrix directly.
        res = doRipsFiltrationDM(dm, maxdim, cap, coeff, False)
        dgms = [np.reshape(np.array(v, dtype=float), (-1, 2))
                for v in res["births_and_deaths_by_dim"]]
    out = {}
    for k in dims:
        v = dgms[k] if k < len(dgms) else np.zeros((0, 2))
        out[k] = v[v[:, 0] != v[:, 1]]
    return out


def _diagram_of(X, complex, dims, cap, alpha_scale, coeff, max_memory):
    X = check_cloud(X)
    kind = _resolve_complex(complex, X.shape[1])
    # Dgm(cX) = c Dgm(X): computed at the scale of a unit cloud (see the module's notes).
    k = normalizing_exponent(X)
    X, cap = np.ldexp(X, -k), float(np.ldexp(cap, -k))
    if kind == "alpha":
        out = _alpha(X, dims, cap, alpha_scale, coeff)
    else:
        out = _rips(X, dims, cap, coeff, max_memory)
    return PersistenceDiagram({dim: np.ldexp(v, k) for dim, v in out.items()})


def persistence_diagram(X, complex="auto", homology_dimensions=(0, 1), max_edge_length=np.inf,
                        alpha_scale="radius", coeff=2, max_memory=None, n_jobs=None):
    """Persistence diagram(s) of one point cloud or a sequence of them.

    Function twin of :class:`PersistentHomology`; see there for the parameters.

    Returns
    -------
    PersistenceDiagram or list of PersistenceDiagram

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
    mem = 0.5 * physical_memory() if max_memory is None else float(max_memory)
    items, single = split_batch(X, what="point cloud")
    out = map_items(lambda Y: _diagram_of(Y, complex, dims, cap, alpha_scale, coeff, mem),
                    items, n_jobs=n_jobs)
    return join_batch(out, single)


class PersistentHomology(ContainerOutputMixin, ParamsMixin, TransformerMixin, BaseEstimator,
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
        (:func:`estimate_rips_memory`) exceeds this many bytes. Default: half the physical
        memory.
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
    ``set_output`` is accepted (so that ``Pipeline.set_output(transform="pandas")`` reaches
    the stages after this one, e.g. :class:`PairwiseDistance` comparing one dimension) and
    leaves diagrams as they are: a diagram is not a table.

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
        """
        return persistence_diagram(X, complex=self.complex,
                                   homology_dimensions=self.homology_dimensions,
                                   max_edge_length=self.max_edge_length,
                                   alpha_scale=self.alpha_scale, coeff=self.coeff,
                                   max_memory=self.max_memory, n_jobs=self.n_jobs)

    def fit_transform(self, X, y=None, **fit_params):
        """Validate, then return the diagram of each cloud (see :meth:`transform`)."""
        return self.fit(X).transform(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        # A cloud of any dtype gives a float64 diagram, which is not an array of the input.
        tags.transformer_tags.preserves_dtype = []
        return tags
