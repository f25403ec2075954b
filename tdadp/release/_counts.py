"""Laplace releases of graph statistics under edge DP: edge count and degrees.

Sensitivities under edge DP (neighbours differ in one dyad), checked by brute force over all
graphs on small n in the tests:

- edge count: 1;
- degree sequence, L1: 2 (toggling ij moves d_i and d_j by one each);
- degree histogram (number of nodes of each degree), L1: 4 (each of the two nodes leaves one
  bin and enters the next: two bins down by one, two bins up by one).

The mechanisms keep nothing of their input and state their guarantee when fitted, like
:class:`tdadp.EdgeFlip`.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..dp._guarantee import PrivacyGuarantee
from ..dp._noise import NOISE_KINDS, add_noise, calibrate_noise
from ..graphs._packed import PackedAdjacency
from ..utils._params import Options
from ._base import GraphRelease

__all__ = [
    "LaplaceEdgeCount",
    "DegreeSequence",
    "laplace_edge_count",
    "degree_sequence",
    "degrees",
]


def degrees(A):
    """Degree of every node of a validated adjacency matrix (dense, sparse or packed)."""
    if isinstance(A, PackedAdjacency):
        return np.asarray(A.degrees(), dtype=np.int64)
    d = np.asarray(A.sum(axis=1)).ravel()
    return d.astype(np.int64)


def _edge_count(A):
    if isinstance(A, PackedAdjacency):
        return A.count_edges()
    return A.nnz // 2 if sp.issparse(A) else int(np.count_nonzero(A)) // 2


def _degree_histogram(A):
    return np.bincount(degrees(A), minlength=A.shape[0])


class StatisticRelease(GraphRelease):
    """A statistic of each graph plus noise calibrated to its sensitivity.

    ``fit`` fixes the calibration: the statistic released (``query_``, a function of one
    validated graph), its sensitivity and the noise scale; ``transform`` uses them alone, so
    parameters changed after ``fit`` cannot pair one statistic with another's noise.
    Subclasses define ``_query()`` and ``_sensitivity()`` from their parameters, and
    ``_restriction()`` when the promise holds on a class of inputs only.
    """

    _parameter_constraints = {
        **GraphRelease._parameter_constraints,
        "epsilon": ["positive_epsilon"],
        "noise": [Options(*NOISE_KINDS)],
    }

    def __init__(self, epsilon=1.0, noise="laplace", random_state=None, n_jobs=None,
                 accountant=None):
        super().__init__(epsilon=epsilon, random_state=random_state, n_jobs=n_jobs,
                         accountant=accountant)
        self.noise = noise

    def _query(self):
        raise NotImplementedError

    def _sensitivity(self):
        raise NotImplementedError

    def _restriction(self):
        return None

    def _guarantee(self):
        self.query_ = self._query()
        self.sensitivity_ = float(self._sensitivity())
        self.noise_calibration_ = calibrate_noise(self.sensitivity_, self.epsilon, self.noise,
                                                  integer=True)
        self.noise_scale_ = self.noise_calibration_.scale
        return PrivacyGuarantee(
            mechanism=type(self).__name__, epsilon=self.epsilon, unit="edge", local=False,
            sensitivity=self.sensitivity_, noise_scale=self.noise_scale_,
            restriction=self._restriction(),
            effective_epsilon=min(self.epsilon, self.noise_calibration_.epsilon))

    def _release(self, A, rng):
        return add_noise(self.query_(A), self.noise_calibration_, rng)

    def _join(self, outputs, single):
        if single:
            return outputs[0]
        return np.asarray(outputs) if np.ndim(outputs[0]) == 0 else outputs

    def transform(self, X):
        """Release the noisy statistic of each graph.

        Parameters
        ----------
        X : adjacency matrix (dense or scipy sparse), networkx graph, or a sequence of them

        Returns
        -------
        release : float (int with ``noise="discrete"``) or ndarray for one graph; for a
            batch, an ndarray of scalars or a list of arrays.
        """
        return super().transform(X)


_COMMON_PARAMS = """epsilon : float in (0, inf], default=1.0
        Privacy budget (inf releases the exact statistic).
    noise : {"laplace", "discrete"}, default="laplace"
        "discrete": two-sided geometric (discrete Laplace) noise, integer output (Python ints
        where int64 cannot hold them, e.g. at eps = 1e-100). "laplace": Laplace noise on a
        grid of ``2^-30`` sensitivity units, float output, for scales below ``2^1000``.
        Both are drawn by an exact integer sampler and are exactly eps-DP at every eps in
        (0, inf] (see :mod:`tdadp.dp._noise`); at huge eps they release the exact
        statistic with the probability eps-DP allows (``1 - 2/(1 + e^(eps/D))`` and more).
        Use ``random_state="secure"`` for a real release.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        Integer seeds and Generators are for experiments only; "secure" draws from a
        ChaCha20 keystream under a fresh 256-bit key from the operating system's CSPRNG
        (:class:`~tdadp.utils.ChaCha20Random`).
    n_jobs : int, optional
        Graphs of a batch released in parallel (threads); results do not depend on it.
    accountant : BudgetAccountant, optional
        Charged the fitted guarantee once per released graph, before any coin is drawn; a
        release past its budget raises ``BudgetError``. None tracks nothing."""


class LaplaceEdgeCount(StatisticRelease):
    __doc__ = f"""Edge count plus Laplace noise of scale 1/epsilon: an eps-edge-DP release.

    One dyad changes the edge count by at most 1, so ``|E| + Laplace(1/eps)`` is eps-edge
    DP (Dwork, McSherry, Nissim, Smith 2006).

    Parameters
    ----------
    {_COMMON_PARAMS}

    Attributes
    ----------
    guarantee_ : PrivacyGuarantee
    query_ : callable
        The statistic released (the edge count of a validated graph).
    sensitivity_ : float
        1.
    noise_scale_ : float
        1 / epsilon, rounded up by a relative ``2^-30`` at most to a rational the exact
        sampler takes.
    noise_calibration_ : NoiseCalibration
        The exact noise parameters (grid, rational scale) and the loss they give.

    See Also
    --------
    laplace_edge_count : the function twin.

    References
    ----------
    Dwork, McSherry, Nissim, Smith, "Calibrating noise to sensitivity in private data
    analysis", TCC (2006).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.release import LaplaceEdgeCount
    >>> A = np.ones((5, 5), dtype=np.uint8) - np.eye(5, dtype=np.uint8)   # 10 edges
    >>> mech = LaplaceEdgeCount(epsilon=2.0, random_state=0).fit()
    >>> mech.noise_scale_
    0.5
    >>> abs(mech.transform(A) - 10) < 10
    True
    """

    def _query(self):
        return _edge_count

    def _sensitivity(self):
        return 1.0


class DegreeSequence(StatisticRelease):
    """Degree sequence (or degree histogram) plus Laplace noise: eps-edge DP.

    The degree sequence has L1 sensitivity 2 under edge DP (toggling a dyad changes two
    degrees by one), so each degree gets Laplace(2/eps) noise. The degree histogram (number
    of nodes of degree 0, 1, ..., n-1) has L1 sensitivity 4 (each of the two endpoints moves
    from one bin to the next), so each bin gets Laplace(4/eps). Both sensitivities are
    checked by brute force over all graphs on up to 6 nodes in the tests.

    Parameters
    ----------
    epsilon : float in (0, inf], default=1.0
    histogram : bool, default=False
        Release the histogram of degrees (length n) instead of the sequence.
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
        The statistic released: degree sequence or histogram, as ``histogram`` was at fit.
    sensitivity_ : float
        2 (sequence) or 4 (histogram).
    noise_scale_ : float
        ``sensitivity_ / epsilon`` (rounded up by a relative ``2^-30`` at most).
    noise_calibration_ : NoiseCalibration

    See Also
    --------
    degree_sequence : the function twin.

    References
    ----------
    Hay, Li, Miklau, Jensen, "Accurate estimation of the degree distribution of private
    networks", ICDM (2009).
    Karwa, Slavković, "Inference using noisy degrees: differentially private beta-model and
    synthetic graphs", Annals of Statistics 44 (2016).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.release import DegreeSequence
    >>> DegreeSequence(1.0).fit().sensitivity_
    2.0
    >>> DegreeSequence(1.0, histogram=True).fit().noise_scale_
    4.0
    """

    _parameter_constraints = {
        **StatisticRelease._parameter_constraints,
        "histogram": ["boolean"],
    }

    def __init__(self, epsilon=1.0, histogram=False, noise="laplace", random_state=None,
                 n_jobs=None, accountant=None):
        super().__init__(epsilon=epsilon, noise=noise, random_state=random_state,
                         n_jobs=n_jobs, accountant=accountant)
        self.histogram = histogram

    def _query(self):
        return _degree_histogram if self.histogram else degrees

    def _sensitivity(self):
        return 4.0 if self.histogram else 2.0


def laplace_edge_count(A, epsilon, noise="laplace", random_state=None):
    """Release ``|E| + Laplace(1/epsilon)`` (see :class:`LaplaceEdgeCount`).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.release import laplace_edge_count
    >>> A = np.zeros((4, 4), dtype=np.uint8)
    >>> laplace_edge_count(A, np.inf)
    0.0
    """
    return LaplaceEdgeCount(epsilon=epsilon, noise=noise,
                            random_state=random_state).fit_transform(A)


def degree_sequence(A, epsilon, histogram=False, noise="laplace", random_state=None):
    """Release the noisy degree sequence or histogram (see :class:`DegreeSequence`).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.release import degree_sequence
    >>> A = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]], dtype=np.uint8)
    >>> degree_sequence(A, np.inf, noise="discrete").tolist()
    [2, 1, 1]
    """
    return DegreeSequence(epsilon=epsilon, histogram=histogram, noise=noise,
                          random_state=random_state).fit_transform(A)
