"""The point cloud a clusterer fits: validated once, the same way for every clusterer.

Rules, in order:

1. The clusterers take an embedding of the nodes (points, one row a node), never a graph. A
   released graph (it carries a guarantee, see :func:`~tdadp.graphs.graph_guarantee`, or
   holds it in ``DataFrame.attrs["guarantee"]`` as a graph stage's pandas output does), a
   tagged graph (a :class:`~tdadp.graphs.GraphArray` carrying node names), a scipy sparse
   matrix, a :class:`~tdadp.graphs.PackedAdjacency` or a networkx graph is refused with a
   ValueError saying how to embed it.
2. So is a plain dense array that is almost surely an adjacency matrix: square ``n x n``
   with ``n >= 3``, entries 0 and 1 only, at least one 1, symmetric, zero diagonal. As a
   point cloud (n points with n binary features) that is a coincidence: uniform random
   binary points meet the last two conditions with probability ``2**(-n (n + 1) / 2)``
   (1/64 at n = 3, below 1e-3 from n = 4), and sorted one-hot codes put their 1s on the
   diagonal.
   A cloud that really is one is passed as :class:`~tdadp.LatentPositions` (an embedding by
   construction, never judged) to skip this rule. It applies to ``fit`` only: ``predict``
   takes the points the fitted model describes.
3. Then scikit-learn's checks: finite reals, 2-D, at least 2 points (``fit``), the number of
   features recorded (``fit``) or compared (``predict``).

An embedding made by :class:`~tdadp.AdjacencySpectralEmbedding` marks the nodes isolated in
its graph (see :func:`~tdadp.latent.get_isolated`). :func:`check_node_embedding` drops those
rows with a warning; the clusterer fits the others and labels them -1 (noise).
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp

from ..graphs._info import GraphArray, graph_guarantee
from ..graphs._packed import PackedAdjacency
from ..io._networkx import is_networkx_graph
from ..latent._positions import LatentPositions, get_isolated
from ..utils._validation import as_real_array

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data
except ImportError:  # pragma: no cover - older scikit-learn
    def _validate_data(estimator, X, **kwargs):
        return estimator._validate_data(X, **kwargs)

__all__ = ["check_point_cloud", "check_node_embedding", "with_isolated", "NOISE",
           "without_direction", "DIRECTION_RTOL"]

# The label of a point that belongs to no cluster (an isolated node).
NOISE = -1

# A row of an embedding this much shorter than the longest has no direction: a node outside
# the components the leading eigenvectors describe gets entries at the eigensolver's rounding
# level (~1e-16 relative), whose direction changes with the BLAS thread count. The square root
# of the machine epsilon leaves a wide margin on both sides.
DIRECTION_RTOL = float(np.sqrt(np.finfo(np.float64).eps))


def without_direction(X):
    """Rows of ``X`` with no direction: zero, or shorter than ``DIRECTION_RTOL`` times the
    longest row."""
    norms = np.linalg.norm(X, axis=1)
    top = float(norms.max()) if norms.size else 0.0
    return norms <= DIRECTION_RTOL * top

_HOW_TO_EMBED = (
    "Embed the graph first: AdjacencySpectralEmbedding().fit_transform(A) gives one point a "
    "node; or cluster a private graph end to end with tdadp.make_private_clustering(...) or "
    "tdadp.PrivateClustering(...)."
)


def _graph_kind(X):
    """What kind of graph ``X`` is, or None for anything else."""
    attrs = getattr(X, "attrs", None)  # a graph stage's pandas output keeps it there
    guarantee = graph_guarantee(X) or (attrs.get("guarantee") if isinstance(attrs, dict)
                                       else None)
    if guarantee is not None:
        return (f"a graph released by {getattr(guarantee, 'mechanism', 'a mechanism')} (it "
                "carries the release's guarantee)")
    if isinstance(X, GraphArray):
        return "a tagged graph (an adjacency matrix carrying its node names)"
    if sp.issparse(X):
        # "sparse" named: scikit-learn's estimator checks look for the word.
        return "a scipy sparse matrix (an adjacency matrix; sparse input is not supported)"
    if isinstance(X, PackedAdjacency):
        return "a PackedAdjacency"
    if is_networkx_graph(X):
        return "a networkx graph"
    return None


def _looks_like_adjacency(X):
    """Rule 2 of the module docstring on a validated float array."""
    n, d = X.shape
    if n != d or n < 3 or np.any(np.diagonal(X) != 0):
        return False
    binary = (X == 0) | (X == 1)
    return bool(binary.all() and X.any() and np.array_equal(X, X.T))


def _refuse_graph(estimator, kind):
    raise ValueError(f"{type(estimator).__name__} takes an embedding of the nodes (points, "
                     f"one row a node), not a graph: got {kind}. {_HOW_TO_EMBED}")


def check_point_cloud(estimator, X, *, reset=True):
    """``X`` as a float64 array of at least 2 points, recording (``reset``) or checking the
    number of features on ``estimator``; a graph is refused (see the module docstring)."""
    kind = _graph_kind(X)
    if kind is not None:
        _refuse_graph(estimator, kind)
    # check_array would parse strings such as "1.5" and drop imaginary parts
    as_real_array(X, "a point cloud", finite=False)
    if not reset:
        return _validate_data(estimator, X, dtype=np.float64, reset=False)
    Xa = _validate_data(estimator, X, dtype=np.float64, ensure_min_samples=2)
    if not isinstance(X, LatentPositions) and _looks_like_adjacency(Xa):
        _refuse_graph(estimator, f"a square {Xa.shape[0]} x {Xa.shape[1]} symmetric 0/1 "
                      "matrix with a zero diagonal, i.e. an adjacency matrix (a point cloud "
                      "that really is one: pass it as tdadp.LatentPositions(X))")
    return Xa


def check_node_embedding(estimator, X, *, reset=True):
    """The rows of ``X`` to cluster, and the isolated-node mask ``X`` carries.

    ``X`` is checked by :func:`check_point_cloud`. When it marks isolated nodes (see
    :func:`~tdadp.latent.get_isolated`), a UserWarning says how many, and only the other rows
    are returned; ``fit`` (``reset``) needs at least 2 of them.

    Returns
    -------
    points : ndarray of shape (n_samples - n_isolated, n_features)
    isolated : ndarray of bool of shape (n_samples,), or None when no node is isolated
    """
    isolated = get_isolated(X)  # read before validation, which makes a plain array
    Xa = check_point_cloud(estimator, X, reset=reset)
    if isolated is None or not isolated.any():
        return Xa, None
    n = Xa.shape[0]
    if isolated.shape != (n,):
        raise ValueError(f"the isolated-node mask X carries has {isolated.size} entries for "
                         f"{n} rows.")
    n_isolated = int(np.count_nonzero(isolated))
    if reset and n - n_isolated < 2:
        raise ValueError(f"{n_isolated} of the {n} nodes are isolated (no edge in the graph "
                         f"they were embedded from), which leaves {n - n_isolated} to cluster; "
                         "at least 2 are needed.")
    warnings.warn(f"{n_isolated} of the {n} nodes are isolated (no edge in the graph they "
                  f"were embedded from): they are labelled {NOISE} (noise) and not clustered.",
                  UserWarning, stacklevel=3)
    return Xa[~isolated], isolated


def with_isolated(values, isolated, fill=NOISE):
    """``values`` of the clustered rows spread back over every row, ``fill`` at the isolated
    ones (``values`` unchanged when ``isolated`` is None)."""
    if isolated is None:
        return values
    values = np.asarray(values)
    dtype = np.result_type(values.dtype, np.min_scalar_type(fill))
    out = np.full(isolated.shape + values.shape[1:], fill, dtype=dtype)
    out[~isolated] = values
    return out
