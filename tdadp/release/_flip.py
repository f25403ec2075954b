"""Edge-differentially-private release mechanisms for simple undirected graphs.

Both mechanisms here are randomized response on every dyad: they flip each dyad of the upper
triangle independently and mirror it. They keep nothing of their input: a fitted mechanism
holds its parameters and its guarantee, never the graph (nor its size).

Randomness: ``random_state`` as an int or a Generator gives reproducible experiments, which is
exactly what a real release must not have: anyone with the seed replays every coin, and two
releases made with the same seed leak the XOR of their inputs. ``random_state="secure"``
draws every coin from the operating system's CSPRNG instead.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.special import expit

from ..graphs._dyads import (
    bernoulli_positions,
    dyad_index,
    dyad_pairs,
    n_dyads,
    row_blocks,
    symmetric_csr,
    write_upper_block,
)
from ..graphs._info import graph_nodes, tag_graph
from ..io._input import graph_batch
from ..utils._random import OSRandom
from ..utils._validation import check_epsilon_array
from ._base import GraphRelease
from ._guarantee import PrivacyGuarantee

__all__ = [
    "flip_probability",
    "laplace_flip_probability",
    "edge_flip",
    "laplace_flip",
    "EdgeFlip",
    "LaplaceFlip",
]


def flip_probability(epsilon):
    """edgeFlip's flip probability ``pi(eps) = 1 / (1 + e^eps)``.

    Computed as ``expit(-eps)``, which neither overflows for large ``eps`` nor loses
    precision near 0.

    Parameters
    ----------
    epsilon : float or array-like, in [0, inf]

    Returns
    -------
    pi : float or ndarray, in [0, 1/2]

    Examples
    --------
    >>> from tdadp import flip_probability
    >>> round(flip_probability(1.0), 7), flip_probability(0.0), flip_probability(float("inf"))
    (0.2689414, 0.5, 0.0)
    """
    eps = check_epsilon_array(epsilon)
    pi = expit(-eps)
    return float(pi) if pi.ndim == 0 else pi


def laplace_flip_probability(epsilon):
    """Flip rate ``(1/2) e^(-eps/2)`` of thresholded Laplace noise, ``1{A + Lap(1/eps) > 1/2}``.

    Examples
    --------
    >>> from tdadp import laplace_flip_probability
    >>> round(laplace_flip_probability(1.0), 4)
    0.3033
    """
    eps = check_epsilon_array(epsilon)
    rate = 0.5 * np.exp(-eps / 2)
    return float(rate) if rate.ndim == 0 else rate


def _flip_dense(A, rate, rng):
    n = A.shape[0]
    out = np.empty_like(A)
    for i0, i1 in row_blocks(n):
        flips = np.less(rng.random((i1 - i0, n - i0)), rate).view(np.uint8)
        flips ^= A[i0:i1, i0:]
        write_upper_block(out, i0, flips)
    return out


def _flip_sparse(A, rate, rng):
    n = A.shape[0]
    upper = sp.triu(A, k=1).tocoo()
    present = np.sort(dyad_index(upper.row, upper.col, n))
    flips = bernoulli_positions(rng, rate, n_dyads(n))
    released = np.setxor1d(present, flips, assume_unique=True)
    return symmetric_csr(*dyad_pairs(released, n), n)


def _randomized_response(A, rate, rng):
    if rate == 0:
        return A.copy()
    if sp.issparse(A):
        return _flip_sparse(A, rate, rng)
    return _flip_dense(A, rate, rng)


def _laplace_dense(A, epsilon, rng):
    n = A.shape[0]
    out = np.empty_like(A)
    for i0, i1 in row_blocks(n):
        noise = rng.laplace(0.0, 1.0 / epsilon, size=(i1 - i0, n - i0))
        noise += A[i0:i1, i0:]
        write_upper_block(out, i0, np.greater(noise, 0.5).view(np.uint8))
    return out


class _RandomizedResponse(GraphRelease):
    """Randomized response on every dyad at the rate ``_rate(epsilon)``.

    The release is a graph of the input's kind (dense uint8 array, or CSR of the input's
    sparse matrix/array API; networkx graphs give sparse matrices) tagged with the node names
    of its input and the mechanism's guarantee (see :mod:`tdadp.graphs._info`).
    """

    def _rate(self, epsilon):
        raise NotImplementedError

    def _guarantee(self):
        self.flip_probability_ = self._rate(self.epsilon)
        return PrivacyGuarantee(
            mechanism=type(self).__name__, epsilon=self.epsilon, unit="edge", local=True,
            flip_probability=self.flip_probability_, dyad_independent=True)

    def _split(self, X):
        raw, single = graph_batch(X, validate=False)
        items, _ = graph_batch(raw[0] if single else raw)
        # Validation gives CSR matrices; remember which inputs were sparse *arrays*.
        return [(A, isinstance(r, sp.sparray)) for A, r in zip(items, raw)], single

    def _release(self, item, rng):
        A, sparse_array = item
        out = self._release_graph(A, rng)
        if sparse_array:
            out = sp.csr_array(out)
        return tag_graph(out, nodes=graph_nodes(A), guarantee=self.guarantee_)

    def _release_graph(self, A, rng):
        """The released adjacency of one validated graph (uint8 ndarray or CSR matrix)."""
        return _randomized_response(A, self.flip_probability_, rng)

    def transform(self, X):
        """Release each graph.

        Parameters
        ----------
        X : adjacency matrix (dense binary array or scipy sparse), networkx graph, or a
            sequence of them
            Simple undirected graphs: symmetric, binary, zero diagonal.

        Returns
        -------
        A_eps : ndarray of uint8 or scipy sparse CSR, or a list of them
            Same kind as the input: dense gives a uint8 array (a
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
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        Integer seeds and Generators make experiments reproducible and must never be used for
        a real release; "secure" draws every coin from the operating system's CSPRNG.
    n_jobs : int, optional
        Graphs of a batch released in parallel (threads); results do not depend on it.

    Attributes
    ----------
    guarantee_ : PrivacyGuarantee
        epsilon, unit ("edge"), locality, flip probability and ``dyad_independent=True``
        (randomized response on each dyad), with :meth:`describe`. Every release carries it.
    flip_probability_ : float
        ``pi(epsilon)``.

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
        With an int, Generator or None, dense graphs get genuine Laplace noise (the definition,
        reproducibly). With "secure", and for sparse input, dyads are flipped at the exact
        equivalent rate: the release has the same distribution, without floating-point
        Laplace sampling (whose rounding can leak, Mironov 2012) and in time proportional to
        the edges.
    n_jobs : int, optional

    Attributes
    ----------
    guarantee_ : PrivacyGuarantee
        With ``dyad_independent=True`` and the flip probability below; every release
        carries it.
    flip_probability_ : float
        ``(1/2) e^(-eps/2)``.

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

    def _release_graph(self, A, rng):
        epsilon = self.guarantee_.epsilon
        if sp.issparse(A) or isinstance(rng, OSRandom) or epsilon in (0.0, np.inf):
            return super()._release_graph(A, rng)
        return _laplace_dense(A, epsilon, rng)


def _function_twin(cls, A, epsilon, random_state):
    return cls(epsilon=epsilon, random_state=random_state).fit_transform(A)


def edge_flip(A, epsilon, random_state=None):
    """Release a graph (or a sequence of graphs) with edgeFlip at budget ``epsilon``.

    Parameters
    ----------
    A : adjacency matrix (dense binary array or scipy sparse), networkx graph, or sequence
    epsilon : float in [0, inf]
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        "secure" for a real release (see :class:`EdgeFlip`).

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
    return _function_twin(EdgeFlip, A, epsilon, random_state)


def laplace_flip(A, epsilon, random_state=None):
    """Release a graph with thresholded Laplace noise (see :class:`LaplaceFlip`)."""
    return _function_twin(LaplaceFlip, A, epsilon, random_state)
