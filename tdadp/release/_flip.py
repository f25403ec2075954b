"""Edge-differentially-private release mechanisms for simple undirected graphs.

Both mechanisms here are randomized response on every dyad: they flip each dyad of the upper
triangle independently and mirror it. They keep nothing of their input: a fitted mechanism
holds its parameters and its guarantee, never the graph (nor its size).

Randomness: ``random_state`` as an int or a Generator gives reproducible experiments, which is
exactly what a real release must not have: anyone with the seed replays every coin, and two
releases made with the same seed leak the XOR of their inputs. ``random_state="secure"``
draws every coin from :class:`~tdadp.utils.ChaCha20Random` instead: ChaCha20 keystream under
a fresh 256-bit key from ``os.urandom`` for each release, each row block of a packed release
on its own nonce (see :mod:`tdadp.release._base`). Its 53-bit uniforms are compared with the
rate exactly as a seeded release's are, so the flip rates are the same; only the coins'
source differs (and a keystream is about as cheap to draw as numpy's generator).

Rates at the extremes: a mechanism flips at :func:`implemented_rate`, its ideal rate rounded
toward 1/2 on the grid ``k 2^-53`` of uniform doubles, so the rate is never 0 for a finite
epsilon and the release never less private than stated (``effective_epsilon`` <= 36.7 for any
finite epsilon). Why, and the proof: docs/theory/exact_noise.rst (the site's
theory/exact_noise.html).
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import scipy.sparse as sp
from tqdm.auto import tqdm

from ..dp._guarantee import PrivacyGuarantee
from ..dp._rates import (  # re-exported: the mechanisms' rates, named with them
    RATE_GRID,
    flip_probability,
    implemented_rate,
    laplace_flip_probability,
    rate_epsilon,
)
from ..graphs._dyads import (
    bernoulli_positions,
    dyad_index,
    dyad_pairs,
    n_dyads,
    row_blocks,
    symmetric_csr,
    write_upper_block,
)
from ..graphs._info import EdgeListedNodes, graph_nodes, tag_graph
from ..graphs._packed import PackedAdjacency, fill_blocks
from ..io._input import graph_batch
from ..utils._params import Interval, Options, check_param
from ..utils._random import block_streams
from ._base import GraphRelease
from ._plan import check_edge_bound, input_kind, plan_releases

__all__ = [
    "OUTPUT_KINDS",
    "flip_block",
    "RATE_GRID",
    "implemented_rate",
    "rate_epsilon",
    "flip_probability",
    "laplace_flip_probability",
    "edge_flip",
    "laplace_flip",
    "EdgeFlip",
    "LaplaceFlip",
]


def _flip_dense(A, rate, rng, progress):
    n = A.shape[0]
    out = np.empty_like(A)
    for i0, i1 in row_blocks(n):
        flips = np.less(rng.random((i1 - i0, n - i0)), rate).view(np.uint8)
        flips ^= A[i0:i1, i0:]
        write_upper_block(out, i0, flips)
        progress(i1 - i0)
    return out


def _flip_sparse(A, rate, rng):
    # Its memory was checked by the plan, before the charge, for the largest input allowed:
    # nothing here may refuse (a refusal now would depend on the private edges).
    n = A.shape[0]
    upper = sp.triu(A, k=1).tocoo()
    present = np.sort(dyad_index(upper.row, upper.col, n))
    flips = bernoulli_positions(rng, rate, n_dyads(n))
    released = np.setxor1d(present, flips, assume_unique=True)
    return symmetric_csr(*dyad_pairs(released, n), n)


#: What a release can be: the input's kind (or packed when that would not fit), or one kind.
OUTPUT_KINDS = ("auto", "dense", "sparse", "packed")


def flip_block(rng, rate, n, i0, i1):
    """The coins of rows ``i0..i1`` of a graph on ``n`` nodes, as packed full-width words.

    Entry ``(i, j)``, ``j > i``, is 1 with probability exactly ``rate`` (a uniform double on
    the grid ``k 2^-53`` below ``rate``; see :func:`implemented_rate`). Only the words a
    packed row stores are drawn, so a block costs about ``(i1 - i0)(n - i0)`` draws; the
    draws depend on ``rng``, ``n``, ``i0`` and ``i1`` alone, so a worker computing this block
    anywhere gets the same coins.

    Returns
    -------
    ndarray of uint64, shape (i1 - i0, ceil(n / 64))
    """
    W = -(-n // 64)
    w0 = (i0 + 1) // 64
    c0 = 64 * w0
    b = i1 - i0
    bits = np.less(rng.random((b, 64 * W - c0)), rate).view(np.uint8)
    bits[:, n - c0:] = 0                       # padding beyond the last column
    for r in range(b):
        bits[r, :max(0, i0 + r + 1 - c0)] = 0  # the diagonal and below are not stored
    full = np.zeros((b, W), dtype=np.uint64)
    full[:, w0:] = np.packbits(bits, axis=1, bitorder="little").view(np.uint64)
    return full


def _input_words(A, out, i0, i1):
    if isinstance(A, PackedAdjacency):
        return A.block_words(i0, i1)
    rows = A[i0:i1].toarray() if sp.issparse(A) else A[i0:i1]
    return out.pack_rows(i0, rows)


def _flip_packed(A, rate, rng, progress):
    n = A.shape[0]
    out = PackedAdjacency(n)

    def block(i0, i1, g):
        words = _input_words(A, out, i0, i1)
        if rate:
            words ^= flip_block(g, rate, n, i0, i1)
        return words

    return fill_blocks(out, block, block_streams(rng, len(out.block_ranges())),
                       progress=progress)


def _randomized_response(A, rate, rng, kind, verbose=False, desc="release"):
    """The release of ``A`` as a graph of ``kind``, planned beforehand (nothing refuses)."""
    # Only the packed and dense paths work by blocks of rows (a sparse release draws its
    # flips at once). The bar counts rows and draws nothing: the release is the same.
    blocks = kind == "packed" or isinstance(A, PackedAdjacency) or (kind == "dense" and rate > 0)
    with tqdm(total=A.shape[0], desc=desc, unit="row", file=sys.stderr,
              disable=not (verbose and blocks)) as bar:
        return _respond(A, rate, rng, kind, bar.update)


def _respond(A, rate, rng, kind, progress):
    if kind == "packed":
        return _flip_packed(A, rate, rng, progress)
    if isinstance(A, PackedAdjacency):
        released = _flip_packed(A, rate, rng, progress)
        return released.toarray() if kind == "dense" else released.tocsr()
    if kind == "sparse":
        S = A if sp.issparse(A) else sp.csr_matrix(A)
        if rate == 0:
            return S.copy()
        return _flip_sparse(S, rate, rng)
    if sp.issparse(A):
        A = A.toarray()
    return A.copy() if rate == 0 else _flip_dense(A, rate, rng, progress)


class _RandomizedResponse(GraphRelease):
    """Randomized response on every dyad at the rate ``_rate(epsilon)``.

    The release is a graph of the input's kind (dense uint8 array, CSR of the input's sparse
    matrix/array API, networkx graphs giving sparse matrices, or a packed graph) or of the kind
    ``output`` asks for, tagged with the node names of its input and the mechanism's guarantee
    (see :mod:`tdadp.graphs._info`).
    """

    _parameter_constraints = {
        **GraphRelease._parameter_constraints,
        "output": [Options(*OUTPUT_KINDS)],
        "verbose": ["boolean"],
        "max_edges": [None, Interval("int", 0, None, "left")],
    }

    def __init__(self, epsilon=1.0, random_state=None, n_jobs=None, output="auto",
                 accountant=None, verbose=False, max_edges=None):
        super().__init__(epsilon=epsilon, random_state=random_state, n_jobs=n_jobs,
                         accountant=accountant)
        self.output = output
        self.verbose = verbose
        self.max_edges = max_edges

    def _rate(self, epsilon):
        raise NotImplementedError

    def _guarantee(self):
        self.flip_probability_ = implemented_rate(self._rate(self.epsilon), self.epsilon)
        return PrivacyGuarantee(
            mechanism=type(self).__name__, epsilon=self.epsilon, unit="edge", local=True,
            flip_probability=self.flip_probability_, dyad_independent=True,
            effective_epsilon=min(self.epsilon, rate_epsilon(self.flip_probability_)))

    def _split(self, X):
        raw, single = graph_batch(X, validate=False)
        items, _ = graph_batch(raw[0] if single else raw)
        # Validation gives CSR matrices; remember which inputs were sparse *arrays*.
        return [(A, isinstance(r, sp.sparray)) for A, r in zip(items, raw)], single

    def _plan(self, items, pandas):
        # Everything shown besides the released edges is decided here, from public
        # quantities, before the charge: the output kind, a refusal, the node-set warning.
        name = type(self).__name__
        max_edges = check_param(self.max_edges, self._parameter_constraints["max_edges"],
                                "max_edges", name)
        if any(isinstance(graph_nodes(A), EdgeListedNodes) for A, _ in items):
            warnings.warn(
                f"{name}: the node set of this graph was read from its edges (read_edgelist "
                "without nodes=), so the release reveals which nodes have an edge; pass the "
                "public node list (read_edgelist(..., nodes=...)) unless the node set is "
                "public anyway.", UserWarning, stacklevel=4)
        plans = plan_releases([(A.shape[0], input_kind(A)) for A, _ in items],
                              self.flip_probability_, self.output, max_edges,
                              mechanism=f"{name} release", pandas=pandas)
        for k, (A, _) in enumerate(items):
            check_edge_bound(A, max_edges, "the graph" if len(items) == 1 else f"graph {k}")
        return [(A, sparse_array, plan.kind)
                for (A, sparse_array), plan in zip(items, plans)]

    def _release(self, item, rng):
        A, sparse_array, kind = item
        if type(self)._release_graph is _RandomizedResponse._release_graph:
            out = self._randomized_response(A, rng, kind)
        else:  # a subclass's own release (a test double of a broken mechanism)
            out = self._release_graph(A, rng)
        if sparse_array and sp.issparse(out):
            out = sp.csr_array(out)
        return tag_graph(out, nodes=graph_nodes(A), guarantee=self.guarantee_)

    def _release_graph(self, A, rng):
        """The released adjacency of one validated graph (uint8 ndarray, CSR matrix or
        PackedAdjacency), of the kind planned for it now."""
        return self._randomized_response(A, rng, self._plan([(A, False)], False)[0][2])

    def _randomized_response(self, A, rng, kind):
        return _randomized_response(A, self.flip_probability_, rng, kind, self.verbose,
                                    f"{type(self).__name__} release")

    def transform(self, X):
        """Release each graph.

        Parameters
        ----------
        X : adjacency matrix (dense binary array or scipy sparse), networkx graph, or a
            sequence of them
            Simple undirected graphs: symmetric, binary, zero diagonal.

        Returns
        -------
        A_eps : ndarray of uint8, scipy sparse CSR or PackedAdjacency, or a list of them
            With ``output="auto"``, the input's kind when its release, for the largest
            input ``max_edges`` allows, takes at most half of the memory this process can
            still use (rlimits, cgroups, available memory), else a
            :class:`~tdadp.graphs.PackedAdjacency` (one bit per dyad: at eps = 1 a sparse
            input's release is 27% dense). The input's kind: dense gives a uint8 array (a
            :class:`~tdadp.graphs.GraphArray`), a sparse matrix a ``csr_matrix``, a sparse
            array a ``csr_array``, a networkx graph a ``csr_matrix``. Each carries the node
            names of its input and ``guarantee_`` (read them with ``graph_nodes`` and
            ``graph_guarantee``), which the privacy-adjusted embedding reads its flip rate
            from.
        """
        return super().transform(X)


class EdgeFlip(_RandomizedResponse):
    """edgeFlip: randomized response on every dyad, an epsilon-edge-DP graph release.

    Each dyad of the upper triangle is flipped independently with probability
    ``pi(eps) = 1 / (1 + e^eps)`` and mirrored. For a gRDPG with latent positions X the
    release is again a gRDPG, with latent positions ``sqrt(1 - 2 pi) x ⊕ sqrt(pi)``
    (see :func:`private_latent_map`).

    Parameters
    ----------
    epsilon : float in [0, inf], default=1.0
        Privacy budget. 0 releases pure noise (Erdős–Rényi(1/2)); inf releases the input.
        Every finite epsilon flips at a positive rate, at least ``2^-53`` (see
        :func:`implemented_rate`): from eps = 36.7 on the release is in fact
        36.7-edge DP, which ``guarantee_.effective_epsilon`` states.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        Integer seeds and Generators make experiments reproducible and must never be used for
        a real release; "secure" draws every coin from a ChaCha20 keystream under a fresh
        256-bit key from the operating system's CSPRNG, one key per release
        (:class:`~tdadp.utils.ChaCha20Random`).
    n_jobs : int, optional
        Graphs of a batch released in parallel (threads); results do not depend on it.
    accountant : BudgetAccountant, optional
        Charged the fitted guarantee once per released graph, before any coin is drawn; a
        release past its budget raises ``BudgetError``. None tracks nothing.
    output : {"auto", "dense", "sparse", "packed"}, default="auto"
        The kind of the release. "auto": the input's kind when that release takes at most
        half of the memory the process can still use, else "packed" (one bit per dyad,
        :class:`~tdadp.graphs.PackedAdjacency`). Any kind that would not fit is refused up
        front with a ValueError saying how much it needs. Both are decided from public
        quantities alone (``n``, epsilon, ``max_edges``, the input's container and the
        machine), before the budget is charged: neighbouring graphs get the same kind and
        the same refusals, and a refusal costs nothing. A packed release draws the coins
        of each row block from its own stream (:func:`~tdadp.utils.block_streams`), so it is
        the same whichever worker computes a block; it has the law of the dense release,
        not its coins.
    verbose : bool, default=False
        Show a progress bar (tqdm, on stderr) over the rows of each graph released block by
        block: packed and dense releases (a sparse release draws its flips in one step). It
        draws nothing: the release is the same either way.
    max_edges : int, optional
        A public bound on the number of edges of each input graph, which a sparse
        release's memory is planned for; None plans for the largest graph on ``n`` nodes
        (every dyad an edge), which makes "auto" choose a packed release from about 15,000
        nodes on a 24 GB machine. A graph with more edges is refused before anything is
        charged or drawn. The bound must not be read off the private graph: the refusal
        says that a graph exceeds it.

    Attributes
    ----------
    guarantee_ : PrivacyGuarantee
        epsilon, unit ("edge"), locality, flip probability and ``dyad_independent=True``
        (randomized response on each dyad), with :meth:`describe`. Every release carries it.
    flip_probability_ : float
        The rate used: ``pi(epsilon)`` rounded up to the grid ``k 2^-53`` (a change below
        ``2^-50``), and ``2^-53`` where ``pi`` is smaller; dense releases flip at exactly
        this rate, sparse ones at most a relative ``2^-30`` above it.

    See Also
    --------
    edge_flip : the function twin.
    LaplaceFlip : the thresholded-Laplace comparator, dominated by edgeFlip.

    References
    ----------
    Karwa, Krivitsky, Slavković, "Sharing social network data: differentially private
    estimation of exponential family random-graph models", JRSS-C 66 (2017).
    Vishwanath, Hehir, "The shape of edge differential privacy" (2021); "Signal recovery from
    random dot-product graphs under local differential privacy", AISTATS (2025).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp import EdgeFlip
    >>> A = np.zeros((4, 4), dtype=np.uint8)
    >>> mech = EdgeFlip(epsilon=np.inf).fit()
    >>> bool((mech.transform(A) == A).all()), mech.flip_probability_
    (True, 0.0)

    The release is a plain uint8 array that also carries its release, which is what the
    privacy-adjusted embedding reads (a slice or a complement no longer does):

    >>> from tdadp.graphs import graph_guarantee
    >>> B = EdgeFlip(epsilon=1.0, random_state=0).fit_transform(A)
    >>> B.dtype, round(graph_guarantee(B).flip_probability, 4)
    (dtype('uint8'), 0.2689)
    >>> graph_guarantee(B[:2, :2]) is None
    True
    """

    def _rate(self, epsilon):
        return flip_probability(epsilon)


class LaplaceFlip(_RandomizedResponse):
    """Thresholded Laplace noise on every dyad: release ``1{A_ij + Laplace(1/eps) > 1/2}``.

    The paper's comparator. It is epsilon-edge DP, but it is randomized response with flip
    rate ``(1/2) e^(-eps/2)``, larger than edgeFlip's ``1 / (1 + e^eps)`` at every eps > 0,
    so edgeFlip dominates it.

    Parameters
    ----------
    epsilon : float in [0, inf], default=1.0
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        Whatever the source, every dyad is flipped at the exact equivalent rate: the release
        has the law of thresholded Laplace noise, without drawing floating-point Laplace
        variables. numpy's Laplace draws are bounded (about 36.7 scales), so thresholding them
        would never remove an edge from eps = 72.2 on and release an exact copy at eps = 80;
        their rounding can also leak (Mironov 2012).
    n_jobs : int, optional
    accountant : BudgetAccountant, optional
        Charged the fitted guarantee once per released graph, before any coin is drawn; a
        release past its budget raises ``BudgetError``. None tracks nothing.
    output : {"auto", "dense", "sparse", "packed"}, default="auto"
        As for :class:`EdgeFlip`.
    verbose : bool, default=False
        As for :class:`EdgeFlip`.
    max_edges : int, optional
        As for :class:`EdgeFlip`.

    Attributes
    ----------
    guarantee_ : PrivacyGuarantee
        With ``dyad_independent=True`` and the flip probability below; every release
        carries it.
    flip_probability_ : float
        ``(1/2) e^(-eps/2)`` rounded up to the grid ``k 2^-53``, at least ``2^-53`` for a
        finite epsilon (see :func:`implemented_rate`).

    See Also
    --------
    laplace_flip : the function twin.

    References
    ----------
    Vishwanath, Hehir, "The shape of edge differential privacy" (2021).
    Mironov, "On significance of the least significant bits for differential privacy",
    CCS (2012).

    Examples
    --------
    >>> from tdadp import LaplaceFlip
    >>> round(LaplaceFlip(epsilon=2.0).fit().flip_probability_, 4)
    0.1839
    """

    def _rate(self, epsilon):
        return laplace_flip_probability(epsilon)


def _function_twin(cls, A, epsilon, random_state, output, verbose, max_edges):
    return cls(epsilon=epsilon, random_state=random_state, output=output, verbose=verbose,
               max_edges=max_edges).fit_transform(A)


def edge_flip(A, epsilon, random_state=None, output="auto", verbose=False, max_edges=None):
    """Release a graph (or a sequence of graphs) with edgeFlip at budget ``epsilon``.

    Parameters
    ----------
    A : adjacency matrix (dense binary array or scipy sparse), networkx graph, or sequence
    epsilon : float in [0, inf]
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        "secure" for a real release (see :class:`EdgeFlip`).
    output : {"auto", "dense", "sparse", "packed"}, default="auto"
        The kind of the release (see :class:`EdgeFlip`).
    verbose : bool, default=False
        A progress bar on stderr (see :class:`EdgeFlip`).
    max_edges : int, optional
        A public bound on the input's edges, which a sparse release is planned for (see
        :class:`EdgeFlip`).

    Returns
    -------
    A_eps : ndarray of uint8 or scipy sparse CSR, or a list of them
        The input's kind (see :meth:`EdgeFlip.transform`), carrying the release's guarantee.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp import edge_flip
    >>> A = np.zeros((100, 100), dtype=np.uint8)
    >>> B = edge_flip(A, 0.0, random_state=0)       # pure noise: about half the dyads on
    >>> bool(0.45 < B.sum() / (100 * 99) < 0.55)
    True
    """
    return _function_twin(EdgeFlip, A, epsilon, random_state, output, verbose, max_edges)


def laplace_flip(A, epsilon, random_state=None, output="auto", verbose=False,
                 max_edges=None):
    """Release a graph with thresholded Laplace noise (see :class:`LaplaceFlip`)."""
    return _function_twin(LaplaceFlip, A, epsilon, random_state, output, verbose, max_edges)
