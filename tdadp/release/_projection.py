"""Restricted sensitivity: bounded-degree edge projection and projected statistic releases.

Counts of k-stars and triangles have global sensitivity of order n under edge DP, which
drowns them in noise. Restricted sensitivity (Blocki, Blum, Datta, Sheffet 2013) calibrates
to the class H_D of graphs of maximum degree at most D instead, after projecting the input
into it (Kasiviswanathan, Nissim, Raskhodnikova, Smith 2013; Goldberg's "edge projection").

The projection: walk the dyads in canonical order (lexicographic (i, j), i < j) and keep an
edge iff both endpoints have fewer than D kept edges so far. Graphs in H_D are unchanged.

Sensitivities. Within H_D, toggling the edge uv (both endpoints of degree <= D - 1 before):

- edges change by 1;
- s-stars, sum_x C(d_x, s), change by C(d_u, s-1) + C(d_v, s-1) <= 2 C(D-1, s-1);
- triangles change by the number of common neighbours of u and v, <= D - 1.

The projection itself is *not* 1-Lipschitz: between neighbouring inputs the projected graphs
can differ in many edges (an added edge can push a later edge out, which frees a slot that
lets another in, and so on along a path). What matters is the sensitivity of
statistic o projection over all graphs. Let delta_x be the difference of projected degrees
of x between the two inputs. After the toggled dyad, sum_x |delta_x| is 2 (or 0, and then
the two runs coincide); a later edge kept in one run and not the other has an endpoint that
is full in that run only, whose |delta| drops by one, while the other endpoint's |delta|
changes by at most one. So sum_x |delta_x| <= 2 at every step, and at the end:

- projected edge count changes by at most 1 (sum delta / 2);
- projected degree sequence changes by at most 2 in L1;
- projected s-stars change by at most 2 C(D-1, s-1) (every projected degree is <= D).

So for edges and s-stars the restricted sensitivity holds for the composition on *all*
graphs, and the release is eps-edge DP everywhere. For triangles it does not: the projected
edge sets can differ along a long path, and exhaustive search finds neighbouring graphs on 6
nodes with D = 2 whose projected triangle counts differ by 2 > D - 1 = 1. The triangle
release is therefore calibrated to D - 1 and its guarantee is stated as restricted to H_D
(neighbouring graphs both of maximum degree <= D), which is exactly what restricted
sensitivity promises (Blocki et al.), not edge DP on every graph.
"""

from __future__ import annotations

from functools import partial
from math import comb

import numpy as np
import scipy.sparse as sp

from ..graphs._dyads import symmetric_csr
from ..graphs._packed import PackedAdjacency
from ..utils._params import Options
from ..utils._validation import check_adjacency, check_positive_int
from ._counts import StatisticRelease, degrees

__all__ = [
    "PROJECTED_STATISTICS",
    "project_max_degree",
    "graph_statistic",
    "restricted_sensitivity",
    "ProjectedCount",
    "projected_count",
]

PROJECTED_STATISTICS = ("edges", "kstars", "triangles")


def _upper_edges(A):
    if sp.issparse(A):
        upper = sp.triu(A, k=1).tocoo()
        i, j = upper.row.astype(np.int64), upper.col.astype(np.int64)
        order = np.lexsort((j, i))
        return i[order], j[order]
    i, j = np.nonzero(np.triu(A, k=1))
    return i.astype(np.int64), j.astype(np.int64)


def project_max_degree(A, max_degree):
    """Project a graph onto the graphs of maximum degree at most ``max_degree``.

    Edges are taken in canonical order (lexicographic (i, j), i < j); an edge is kept iff
    both endpoints have fewer than ``max_degree`` kept edges so far. Graphs whose maximum
    degree is already at most ``max_degree`` are returned unchanged. The result depends only
    on the graph (not on its storage), as the edge order is fixed.

    Parameters
    ----------
    A : adjacency matrix (dense binary array or scipy sparse)
    max_degree : int >= 1

    Returns
    -------
    A_proj : same storage as ``A`` (uint8 ndarray or CSR)

    Notes
    -----
    The projection is not 1-Lipschitz in the edit distance (see the module notes); the
    sensitivities of the projected statistics are stated in :func:`restricted_sensitivity`.
    The walk over edges is sequential (each decision depends on the previous ones), so it
    costs one Python-level step per edge (graphs already in the class return at once).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.release import project_max_degree
    >>> star = np.zeros((4, 4), dtype=np.uint8); star[0, 1:] = star[1:, 0] = 1
    >>> project_max_degree(star, 2)[0].tolist()          # keeps (0, 1) and (0, 2)
    [0, 1, 1, 0]
    """
    k = check_positive_int(max_degree, "max_degree")
    A = check_adjacency(A)
    n = A.shape[0]
    deg = degrees(A)
    if deg.max(initial=0) <= k:
        return A.copy()
    i, j = _upper_edges(A)
    # Each decision depends on all earlier ones: a sequential walk over plain Python ints.
    keep = np.zeros(i.size, dtype=bool)
    ii, jj = i.tolist(), j.tolist()
    cnt = [0] * n
    for e in range(len(ii)):
        a, b = ii[e], jj[e]
        if cnt[a] < k and cnt[b] < k:
            keep[e] = True
            cnt[a] += 1
            cnt[b] += 1
    i, j = i[keep], j[keep]
    if sp.issparse(A):
        return symmetric_csr(i, j, n)
    out = np.zeros_like(A)
    out[i, j] = 1
    out[j, i] = 1
    return out


def _projected_statistic(A, statistic, max_degree, star_size):
    if isinstance(A, PackedAdjacency):
        # The projection walks edges in order: on the sparse copy (memory-checked by tocsr).
        A = A.tocsr()
    return graph_statistic(project_max_degree(A, max_degree), statistic, star_size)


def _triangles(A):
    if sp.issparse(A):
        B = A.astype(np.int64)
        return int((B @ B).multiply(B).sum()) // 6
    B = A.astype(np.float64)
    return int(round(float(np.einsum("ij,ij->", B @ B, B)))) // 6


def graph_statistic(A, statistic, star_size=2):
    """Count of ``statistic`` in a graph: "edges", "kstars" (s-stars) or "triangles".

    An s-star is a node with s of its neighbours: there are sum_x C(d_x, s).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.release import graph_statistic
    >>> K4 = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> [graph_statistic(K4, s) for s in ("edges", "kstars", "triangles")]
    [6, 12, 4]
    """
    if statistic not in PROJECTED_STATISTICS:
        raise ValueError(f"statistic must be one of {PROJECTED_STATISTICS}, got {statistic!r}.")
    s = check_positive_int(star_size, "star_size")
    if statistic == "edges":
        return (A.nnz if sp.issparse(A) else int(np.count_nonzero(A))) // 2
    if statistic == "kstars":
        return int(sum(comb(int(d), s) for d in degrees(A) if d >= s))
    return _triangles(A)


def restricted_sensitivity(statistic, max_degree, star_size=2):
    """Sensitivity of a statistic over graphs of maximum degree at most ``max_degree`` (D).

    ``"edges"``: 1; ``"kstars"``: 2 C(D-1, s-1); ``"triangles"``: D - 1 (see the module
    notes for the derivation). For edges and s-stars it also bounds the sensitivity of the
    statistic of the projected graph over all graphs; for triangles it does not.

    Examples
    --------
    >>> from tdadp.release import restricted_sensitivity
    >>> [restricted_sensitivity(s, 10) for s in ("edges", "kstars", "triangles")]
    [1, 18, 9]
    """
    if statistic not in PROJECTED_STATISTICS:
        raise ValueError(f"statistic must be one of {PROJECTED_STATISTICS}, got {statistic!r}.")
    D = check_positive_int(max_degree, "max_degree")
    s = check_positive_int(star_size, "star_size")
    if statistic == "edges":
        return 1
    if statistic == "kstars":
        return 2 * comb(D - 1, s - 1)
    return D - 1


class ProjectedCount(StatisticRelease):
    """A count of the degree-projected graph plus noise calibrated to restricted sensitivity.

    The graph is projected with :func:`project_max_degree` and the count of edges, s-stars
    or triangles of the projection released with Laplace (or discrete Laplace) noise of scale
    ``restricted_sensitivity(statistic, max_degree, star_size) / epsilon``.

    For ``"edges"`` and ``"kstars"`` the release is eps-edge DP on every graph (the
    projected statistic's sensitivity is proven equal to the restricted sensitivity, see the
    module notes). For ``"triangles"`` the naive projection can change the triangle count by
    more than D - 1 between neighbouring graphs, so the guarantee is restricted to graphs of
    maximum degree at most D, and ``guarantee_.restriction`` says so.

    Parameters
    ----------
    statistic : {"edges", "kstars", "triangles"}, default="edges"
    max_degree : int >= 1, default=10
        D, the degree bound of the projection.
    epsilon : float in (0, inf], default=1.0
    star_size : int >= 1, default=2
        s, for ``statistic="kstars"``.
    noise : {"laplace", "discrete"}, default="laplace"
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
    n_jobs : int, optional
    accountant : BudgetAccountant, optional
        Charged the fitted guarantee once per released graph, before any coin is drawn; a
        release past its budget raises ``BudgetError``. None tracks nothing.

    Attributes
    ----------
    guarantee_ : PrivacyGuarantee
    query_ : callable
        The statistic released: ``statistic`` of the projection, as the parameters were at
        fit.
    sensitivity_ : float
    noise_scale_ : float

    See Also
    --------
    projected_count : the function twin.
    project_max_degree, restricted_sensitivity

    References
    ----------
    Blocki, Blum, Datta, Sheffet, "Differentially private data analysis of social networks
    via restricted sensitivity", ITCS (2013).
    Kasiviswanathan, Nissim, Raskhodnikova, Smith, "Analyzing graphs with node differential
    privacy", TCC (2013).
    Goldberg, "Towards differentially private inference on network data" (2019).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.release import ProjectedCount
    >>> mech = ProjectedCount("kstars", max_degree=5, epsilon=1.0).fit()
    >>> mech.sensitivity_, mech.guarantee_.restriction is None
    (8.0, True)
    >>> ProjectedCount("triangles", max_degree=5).fit().guarantee_.restriction
    'graphs of maximum degree at most 5'
    """

    _parameter_constraints = {
        **StatisticRelease._parameter_constraints,
        "statistic": [Options(*PROJECTED_STATISTICS)],
        "max_degree": ["positive_int"],
        "star_size": ["positive_int"],
    }

    def __init__(self, statistic="edges", max_degree=10, epsilon=1.0, star_size=2,
                 noise="laplace", random_state=None, n_jobs=None, accountant=None):
        super().__init__(epsilon=epsilon, noise=noise, random_state=random_state,
                         n_jobs=n_jobs, accountant=accountant)
        self.statistic = statistic
        self.max_degree = max_degree
        self.star_size = star_size

    def _sensitivity(self):
        return restricted_sensitivity(self.statistic, self.max_degree, self.star_size)

    def _restriction(self):
        if self.statistic == "triangles":
            return f"graphs of maximum degree at most {self.max_degree}"
        return None

    def _query(self):
        return partial(_projected_statistic, statistic=self.statistic,
                       max_degree=self.max_degree, star_size=self.star_size)


def projected_count(A, statistic, max_degree, epsilon, star_size=2, noise="laplace",
                    random_state=None):
    """Release a projected count with restricted-sensitivity noise (see :class:`ProjectedCount`).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.release import projected_count
    >>> K4 = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> projected_count(K4, "edges", max_degree=2, epsilon=np.inf)   # triangle 0-1-2 is kept
    3.0
    """
    return ProjectedCount(statistic=statistic, max_degree=max_degree, epsilon=epsilon,
                          star_size=star_size, noise=noise,
                          random_state=random_state).fit_transform(A)
