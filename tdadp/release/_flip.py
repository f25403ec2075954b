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
from sklearn.base import BaseEstimator, TransformerMixin

from ..utils._batch import join_batch, map_items
from ..graphs._dyads import bernoulli_positions, dyad_index, dyad_pairs, n_dyads, row_blocks, \
    symmetric_csr, write_upper_block
from ..utils._random import OSRandom, item_streams, stage_tag, validate_random_state
from ..io._input import graph_batch
from ._base import ReleaseTagsMixin
from ..utils._validation import check_epsilon, check_epsilon_array
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


class _Mechanism(ReleaseTagsMixin, TransformerMixin, BaseEstimator):
    """Shared machinery of the randomized-response mechanisms."""

    _name = "mechanism"

    def __init__(self, epsilon=1.0, random_state=None, n_jobs=None):
        self.epsilon = epsilon
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _rate(self, epsilon):
        raise NotImplementedError

    def _release(self, A, epsilon, rng):
        return _randomized_response(A, self._rate(epsilon), rng)

    def _guarantee(self, epsilon):
        return PrivacyGuarantee(mechanism=type(self).__name__, epsilon=epsilon, unit="edge",
                                local=True, flip_probability=self._rate(epsilon))

    def fit(self, X=None, y=None):
        """Validate the parameters (and the graphs, if given) and state the guarantee.

        Nothing of ``X`` is kept.

        Parameters
        ----------
        X : adjacency matrix, networkx graph, or sequence of them, optional
        y : ignored

        Returns
        -------
        self
        """
        epsilon = check_epsilon(self.epsilon)
        validate_random_state(self.random_state, allow_secure=True)
        if X is not None:
            graph_batch(X)
        self.guarantee_ = self._guarantee(epsilon)
        self.flip_probability_ = self.guarantee_.flip_probability
        return self

    def transform(self, X):
        """Release each graph.

        Parameters
        ----------
        X : adjacency matrix (dense binary array or scipy sparse), networkx graph, or a
            sequence of them
            Simple undirected graphs: symmetric, binary, zero diagonal.

        Returns
        -------
        A_eps : ndarray of uint8 or scipy.sparse.csr_matrix, or a list of them
            Same storage as the input (networkx graphs give sparse matrices).
        """
        epsilon = check_epsilon(self.epsilon)
        items, single = graph_batch(X)
        streams = item_streams(self.random_state, range(len(items)),
                               stage_tag(type(self).__name__), allow_secure=True)
        out = map_items(lambda A, rng: self._release(A, epsilon, rng), items, streams,
                        self.n_jobs)
        return join_batch(out, single)

    def fit_transform(self, X, y=None, **fit_params):
        return self.fit().transform(X)



class EdgeFlip(_Mechanism):
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
        epsilon, unit ("edge"), locality and flip probability, with :meth:`describe`.
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
    """

    def _rate(self, epsilon):
        return flip_probability(epsilon)


class LaplaceFlip(_Mechanism):
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

    def _release(self, A, epsilon, rng):
        if sp.issparse(A) or isinstance(rng, OSRandom) or epsilon in (0.0, np.inf):
            return super()._release(A, epsilon, rng)
        return _laplace_dense(A, epsilon, rng)


def _function_twin(cls, A, epsilon, random_state):
    return cls(epsilon=epsilon, random_state=random_state).fit().transform(A)


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
    A_eps : ndarray of uint8 or scipy.sparse.csr_matrix, or a list of them

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
