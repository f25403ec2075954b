"""The noise scale of a Markov-chain release: its result types and the shared checks.

Every scale function (:func:`mqm_exact_scale`, :func:`mqm_approx_scale`,
:func:`group_dp_scale`, :func:`gk16_scale`) returns a :class:`ChainNoiseScale`, the Markov
quilt scales with a :class:`QuiltChoice` per theta. Numbers of nodes are 1-based in every
result (X_1 is the first node), as in the paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..utils._memory import check_memory
from ..utils._params import Interval, check_param

__all__ = ["QuiltChoice", "ChainNoiseScale", "check_scale_args", "quiet_log",
           "check_work_memory", "check_work_operations", "MAX_OPERATIONS"]

# Work below this many bytes is not checked against the memory left (reading the limits costs
# about 0.1 ms, and the interval family runs a search per cell).
_SMALL_WORK = 1 << 26

# The most elementary operations (one sum, comparison or logarithm of one array element) a
# noise scale may need. numpy runs the influence tables' operations at 1e8 to 3e8 a second on
# one core (the two-sided tables of a 51-state chain, with and without other work on the
# machine), so this is about a minute of work, give or take a factor of 2.
# Memory no longer stops the exact tables (they are built a few distances at a time), so
# without this bound a 51-state chain of 10^4 records started anywhere ran for hours.
MAX_OPERATIONS = 1e10


def check_work_memory(nbytes, what):
    """Refuse, before allocating, work that needs more memory than this process has left.

    ``nbytes`` is the estimate of the main arrays (see :func:`tdadp.utils._memory.check_memory`);
    the message says how much is needed and what to change.
    """
    if nbytes > _SMALL_WORK:
        check_memory(nbytes, what, " Give a shorter chain (length T) or a smaller max_quilt "
                                   "(the quilt-length parameter l).")


def check_work_operations(ops, what, instead):
    """Refuse, before starting it, work estimated at more than :data:`MAX_OPERATIONS`.

    ``ops`` is the estimate of the elementary operations; the message says how many, how far
    past the bound, and ``instead`` (what to do instead).
    """
    if ops > MAX_OPERATIONS:
        raise ValueError(f"{what} would need about {ops:.2g} elementary operations, "
                         f"{ops / MAX_OPERATIONS:.3g} times the {MAX_OPERATIONS:.0e} (about a "
                         f"minute of work) it starts at most. {instead}")


def check_scale_args(T, epsilon, lipschitz, max_quilt):
    """(T, epsilon, lipschitz, l) checked; l is the longest quilt distance, at most T - 1."""
    check_param(T, [Interval("int", 1, None, "left")], "T")
    check_param(epsilon, ["positive_epsilon"], "epsilon")
    check_param(lipschitz, [Interval("real", 0, math.inf, "neither")], "lipschitz")
    check_param(max_quilt, [None, Interval("int", 0, None, "left")], "max_quilt")
    T = int(T)
    L = T - 1 if max_quilt is None else min(int(max_quilt), T - 1)
    return T, float(epsilon), float(lipschitz), L


def quiet_log(x):
    """``np.log`` without the divide-by-zero warning (log 0 = -inf)."""
    with np.errstate(divide="ignore"):
        return np.log(x)


@dataclass(frozen=True)
class QuiltChoice:
    """The node with the largest score and its best Markov quilt (one theta, or the class).

    Attributes
    ----------
    score : float
        ``sigma_i = card(X_N) / (eps - e(X_Q | X_i))`` of the best quilt at that node.
    node : int
        The node, 1-based (X_1 is the first).
    quilt : tuple of int
        The quilt's nodes, 1-based (``()``: the empty quilt, every node nearby).
    nearby : int
        ``card(X_N)``, the nearby nodes (X_i included).
    influence : float
        ``e(X_Q | X_i)`` (an upper bound of it for MQMApprox and the interval family).
    """

    score: float
    node: int
    quilt: tuple
    nearby: int
    influence: float


@dataclass(frozen=True)
class ChainNoiseScale:
    """The Laplace noise a release of a function of a Markov chain needs.

    ``float(result)`` is :attr:`scale`.

    Attributes
    ----------
    method : str
        "MQMExact", "MQMApprox", "GroupDP" or "GK16".
    scale : float
        The Laplace scale of the noise added to F(X): ``lipschitz * score`` (``inf`` when the
        method does not apply).
    score : float
        sigma_max, the largest score (the noise in units of L).
    epsilon, lipschitz : float
    length : int
        T, the chain's length.
    per_theta : tuple of QuiltChoice
        MQMExact: one entry per theta (per worst cell for the interval family); MQMApprox: one
        entry for the class. Empty for the baselines.
    applicable : bool
        False when the method cannot give the guarantee (GK16 with a spectral norm >= 1).
    reason : str
        What the numbers rest on, or why the method does not apply.
    lower_score : float or None
        Interval family, MQMExact: the largest exact score over the cells' corner chains (a
        lower bound on what the family needs; ``score`` is an upper bound).
    """

    method: str
    scale: float
    score: float
    epsilon: float
    lipschitz: float
    length: int
    per_theta: tuple = ()
    applicable: bool = True
    reason: str = ""
    lower_score: float | None = None

    def __float__(self):
        return float(self.scale)
