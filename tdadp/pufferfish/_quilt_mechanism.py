"""The Markov Quilt Mechanism for any Bayesian network (Song, Wang, Chaudhuri 2017, Section 4).

When records are correlated (a Bayesian network: one person's activity along a day), DP's
neighbouring databases do not protect a record whose neighbours give it away, and group DP
protects it at the price of the whole group. Pufferfish privacy with secrets "X_i = a" and a
class Theta of distributions asks for what is needed: a Markov quilt X_Q of X_i cuts the
network into nearby nodes X_N (X_i among them), the quilt and the far nodes X_R, independent
of X_i given X_Q; with the quilt's max-influence ``e(X_Q | X_i)``, noise of scale
``L card(X_N) / (eps - e(X_Q | X_i))`` hides X_i (Theorem 4.3). The mechanism takes, at each
node, the quilt with the smallest such score, and the largest score over the nodes.

* :class:`MarkovQuiltMechanism`: Algorithm 2 for any Bayesian network, given each node's
  candidate quilts (their max-influence from :func:`quilt_max_influence`, the quilts checked
  by :func:`is_markov_quilt`, both by enumeration of the joint distribution).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..dp._guarantee import PrivacyGuarantee
from ..dp._noise import calibrate_noise
from ..utils._params import Interval, check_param
from ._value_release import ValueRelease, as_databases, as_real, check_positive_noise

__all__ = [
    "quilt_max_influence",
    "is_markov_quilt",
    "MarkovQuiltMechanism",
    "markov_quilt_mechanism",
]


def _joint(databases, probabilities):
    D = as_databases(databases)
    ws = probabilities
    if ws is None or isinstance(ws, (str, bytes)) or np.ndim(ws) == 0 and not isinstance(
            ws, (list, tuple)):
        raise ValueError("probabilities must be an array of one probability per database, or "
                         f"a sequence of them, got {type(ws).__name__}.")
    if isinstance(ws, np.ndarray) and ws.ndim == 1 or (
            isinstance(ws, (list, tuple)) and ws and isinstance(ws[0], numbers.Real)):
        ws = [ws]
    out = []
    for w in ws:
        w = as_real(w, "probabilities")
        if w.shape != (D.shape[0],):
            raise ValueError(f"probabilities must have one value per database ({D.shape[0]}), "
                             f"got shape {w.shape}.")
        if not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
            raise ValueError("probabilities must be non-negative, finite and not all 0.")
        out.append(w / w.sum())
    if not out:
        raise ValueError("probabilities must hold at least one distribution.")
    return D, out


def _columns(D, nodes, name):
    """Column indices: ints (not bools, floats or strings), each a column of D."""
    try:
        arr = np.asarray(nodes) if nodes is not None else None
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.ndim > 1:
        raise ValueError(f"{name} must be a column index (an int) or a sequence of them, got "
                         f"{type(nodes).__name__}.")
    nodes = list(arr.ravel()) if arr.dtype == object else arr.ravel().tolist()
    for v in nodes:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Integral, np.integer)):
            raise ValueError(f"{name}: a node is a column index (an int), got {v!r}.")
    nodes = [int(v) for v in nodes]
    for v in nodes:
        if not 0 <= v < D.shape[1]:
            raise ValueError(f"{name}: node {v} is not a column of databases (0..."
                             f"{D.shape[1] - 1}).")
    return nodes


def quilt_max_influence(databases, probabilities, node, quilt):
    """The max-influence ``e(X_Q | X_i)`` of a set of nodes on one node, by enumeration.

    ``max over theta, over values a, b of X_i with positive probability, over x_Q of
    log P(X_Q = x_Q | X_i = a, theta) / P(X_Q = x_Q | X_i = b, theta)`` (Definition 4.1):
    ``inf`` when some x_Q is possible under one value and not the other, 0 for the empty set.

    Parameters
    ----------
    databases : array-like of shape (m, n)
        Every possible database (the values of the n nodes), one per row.
    probabilities : array-like of shape (m,), or a sequence of them
        Their probabilities under each theta of the class (up to a constant factor).
    node : int
        Column of X_i.
    quilt : sequence of int
        Columns of X_Q.

    Returns
    -------
    float

    Examples
    --------
    Three nodes in a chain, X_0 -> X_1 -> X_2 (binary, stay with probability 0.9, X_0
    uniform): the influence of X_2 on X_0 is that of two steps.

    >>> import numpy as np
    >>> from itertools import product
    >>> from tdadp.pufferfish import quilt_max_influence
    >>> D = np.array(list(product([0, 1], repeat=3)))
    >>> P = np.array([[0.9, 0.1], [0.1, 0.9]])
    >>> w = 0.5 * P[D[:, 0], D[:, 1]] * P[D[:, 1], D[:, 2]]
    >>> round(quilt_max_influence(D, w, 0, [2]), 4)      # log(0.82 / 0.18)
    1.5163
    """
    D, ws = _joint(databases, probabilities)
    (i,) = _columns(D, [node], "node")
    Q = _columns(D, quilt, "quilt")
    if i in Q:
        raise ValueError("the quilt must not contain the node itself.")
    if not Q:
        return 0.0
    _, keys = np.unique(D[:, Q], axis=0, return_inverse=True)
    keys = keys.ravel()
    n_keys = int(keys.max()) + 1
    best = 0.0
    for w in ws:
        values = [v for v in np.unique(D[:, i]) if w[D[:, i] == v].sum() > 0]
        cond = []
        for v in values:
            sel = D[:, i] == v
            mass = np.bincount(keys[sel], weights=w[sel], minlength=n_keys)
            cond.append(mass / mass.sum())
        for a, pa in enumerate(cond):
            for b, pb in enumerate(cond):
                if a == b:
                    continue
                pos = pa > 0
                if np.any(pos & (pb == 0)):
                    return math.inf
                if pos.any():
                    best = max(best, float(np.max(np.log(pa[pos]) - np.log(pb[pos]))))
    return best


def is_markov_quilt(databases, probabilities, node, quilt, nearby, atol=1e-12):
    """Whether ``quilt`` is a Markov quilt of ``node`` with these nearby nodes, by enumeration.

    Checks Definition 4.2 on the joint distribution(s): ``node`` is in ``nearby``, the three
    sets are disjoint, and the remote nodes (all the others) are independent of X_i given X_Q
    under every theta.

    Examples
    --------
    >>> import numpy as np
    >>> from itertools import product
    >>> from tdadp.pufferfish import is_markov_quilt
    >>> D = np.array(list(product([0, 1], repeat=3)))
    >>> P = np.array([[0.9, 0.1], [0.1, 0.9]])
    >>> w = 0.5 * P[D[:, 0], D[:, 1]] * P[D[:, 1], D[:, 2]]
    >>> is_markov_quilt(D, w, 0, [1], [0]), is_markov_quilt(D, w, 1, [2], [1])
    (True, False)
    """
    check_param(atol, [Interval("real", 0, math.inf, "left")], "atol")
    D, ws = _joint(databases, probabilities)
    (i,) = _columns(D, [node], "node")
    Q = _columns(D, quilt, "quilt")
    N = _columns(D, nearby, "nearby")
    if i not in N or set(Q) & set(N):
        return False
    R = [c for c in range(D.shape[1]) if c not in Q and c not in N]
    if not R:
        return True
    for w in ws:
        _, kq = np.unique(D[:, Q], axis=0, return_inverse=True) if Q else (None, np.zeros(
            D.shape[0], dtype=np.int64))
        _, kr = np.unique(D[:, R], axis=0, return_inverse=True)
        _, ki = np.unique(D[:, i], return_inverse=True)
        kq, kr, ki = kq.ravel(), kr.ravel(), ki.ravel()
        shape = (kq.max() + 1, ki.max() + 1, kr.max() + 1)
        J = np.zeros(shape)
        np.add.at(J, (kq, ki, kr), w)
        Pq = J.sum(axis=(1, 2))
        for g in np.flatnonzero(Pq > 0):
            cond = J[g] / Pq[g]
            if not np.allclose(cond, np.outer(cond.sum(1), cond.sum(0)), atol=atol, rtol=0):
                return False
    return True


def _candidates(X):
    """[(label, [(influence, nearby, quilt label), ...]), ...] from the fit input."""
    if X is None:
        raise ValueError("MarkovQuiltMechanism is fitted on the candidate quilts: fit(X) needs "
                         "X, for each node a sequence of (max-influence, card(X_N)) pairs.")
    if isinstance(X, (str, bytes)):
        raise ValueError("X must be, for each node, a sequence of (max-influence, card(X_N)) "
                         "candidates (a dict or a sequence), got a string.")
    try:
        items = list(X.items()) if isinstance(X, dict) else list(enumerate(X))
    except TypeError:
        raise ValueError("X must be, for each node, a sequence of (max-influence, card(X_N)) "
                         f"candidates (a dict or a sequence), got {type(X).__name__}.") from None
    if not items:
        raise ValueError("X must hold at least one node's candidate quilts.")
    out = []
    for label, quilts in items:
        if not isinstance(quilts, (list, tuple)):
            raise ValueError(f"node {label!r}: its candidate quilts must be a list of "
                             f"(max-influence, card(X_N)) pairs, got {type(quilts).__name__}.")
        cands = []
        for j, q in enumerate(quilts):
            if not isinstance(q, (tuple, list)) or len(q) not in (2, 3):
                raise ValueError(f"node {label!r}: each candidate quilt must be (max-influence, "
                                 "card(X_N)) or (max-influence, card(X_N), label).")
            e, n = q[0], q[1]
            if isinstance(e, (bool, np.bool_)) or not isinstance(e, numbers.Real) \
                    or math.isnan(e) or e < 0:
                raise ValueError(f"node {label!r}: a max-influence must be a number >= 0 "
                                 f"(inf allowed), got {e!r}.")
            if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral) or n < 1:
                raise ValueError(f"node {label!r}: card(X_N) must be an int >= 1 (X_N "
                                 f"contains the node), got {n!r}.")
            cands.append((float(e), int(n), q[2] if len(q) == 3 else j))
        if not cands:
            raise ValueError(f"node {label!r} has no candidate quilt (give at least the "
                             "empty quilt: influence 0, every node nearby).")
        out.append((label, cands))
    return out


def _quilt_search(cands, eps):
    """(sigma_max, node label, quilt label, per-node sigma)."""
    worst = (-1.0, None, None)
    sigmas = {}
    for label, quilts in cands:
        best = (math.inf, None)
        for e, n, q in quilts:
            s = math.inf if e >= eps else (0.0 if eps == math.inf else n / (eps - e))
            if s < best[0]:
                best = (s, q)
        sigmas[label] = best[0]
        if best[0] > worst[0]:
            worst = (best[0], label, best[1])
    return worst[0], worst[1], worst[2], sigmas


class MarkovQuiltMechanism(ValueRelease):
    """Algorithm 2 of Song, Wang, Chaudhuri: Laplace noise of scale L times the largest score.

    ``fit`` takes, for every node X_i of the Bayesian network, its candidate Markov quilts as
    ``(e(X_Q | X_i), card(X_N))`` pairs; each node's score is the smallest
    ``card(X_N) / (epsilon - e)`` (inf when ``e >= epsilon``), and ``transform`` adds Laplace
    noise of scale ``lipschitz * max score`` to the query value. eps-Pufferfish private for the
    secrets "X_i = a" and the class the influences were computed for (Theorem 4.3), provided
    each candidate is a Markov quilt (:func:`is_markov_quilt`) and the query is
    ``lipschitz``-Lipschitz in L1 per changed node. Include the empty quilt (influence 0, all
    n nodes nearby) so that every node has a finite score. A noise scale that underflows to 0
    or overflows at the given epsilon and Lipschitz constant is refused.

    Parameters
    ----------
    epsilon : float in (0, inf], default=1.0
    lipschitz : float > 0, default=1.0
        L: ``||F(x) - F(x')||_1 <= L * (number of nodes where x and x' differ)``.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        Laplace noise on a grid of ``2^-30`` scales by an exact integer sampler, as
        :class:`WassersteinMechanism`; "secure" draws from the operating system's CSPRNG.
    accountant : BudgetAccountant or None, default=None
        Charged each release (each call of ``transform``) before any noise is drawn;
        BudgetError past its budget. None: nothing is tracked.

    Attributes
    ----------
    score_ : float
        sigma_max, the largest score over the nodes.
    node_ : object
        The node attaining it (its key in ``X``, or its position).
    quilt_ : object
        Its best quilt (the candidate's label, or its position).
    node_scores_ : dict
        Each node's score.
    noise_scale_ : float
        ``lipschitz * score_`` (rounded up by a relative ``2^-30`` at most).
    noise_calibration_ : NoiseCalibration
    guarantee_ : PrivacyGuarantee
        ``definition="Pufferfish privacy"``, ``unit="secret pair"``.

    See Also
    --------
    quilt_max_influence, is_markov_quilt, MQMExact

    References
    ----------
    Song, Wang, Chaudhuri, "Pufferfish privacy mechanisms for correlated data", SIGMOD
    (2017), Section 4.2.

    Examples
    --------
    The chain X_0 -> X_1 -> X_2 (stay with probability 0.9): X_0's quilts {X_1} and the empty
    one, X_1's {X_0, X_2} and the empty one, X_2's {X_1} and the empty one.

    >>> import numpy as np
    >>> from itertools import product
    >>> from tdadp.pufferfish import MarkovQuiltMechanism, quilt_max_influence
    >>> D = np.array(list(product([0, 1], repeat=3)))
    >>> P = np.array([[0.9, 0.1], [0.1, 0.9]])
    >>> w = 0.5 * P[D[:, 0], D[:, 1]] * P[D[:, 1], D[:, 2]]
    >>> e = lambda i, Q: quilt_max_influence(D, w, i, Q)
    >>> quilts = {0: [(e(0, [1]), 1, "{X1}"), (0.0, 3, "{}")],
    ...           1: [(e(1, [0, 2]), 1, "{X0, X2}"), (0.0, 3, "{}")],
    ...           2: [(e(2, [1]), 1, "{X1}"), (0.0, 3, "{}")]}
    >>> mech = MarkovQuiltMechanism(epsilon=5.0, random_state=0).fit(quilts)
    >>> round(mech.score_, 4), mech.node_, mech.quilt_
    (0.6, 1, '{}')
    """

    _parameter_constraints = {
        **ValueRelease._parameter_constraints,
        "epsilon": ["positive_epsilon"],
        "lipschitz": [Interval("real", 0, math.inf, "neither")],
    }
    _fitted_on = "the candidate quilts"
    _fit_input = "quilts"

    def __init__(self, epsilon=1.0, lipschitz=1.0, random_state=None, accountant=None):
        self.epsilon = epsilon
        self.lipschitz = lipschitz
        self.random_state = random_state
        self.accountant = accountant

    def fit(self, X, y=None):
        """Score every node's candidate quilts and calibrate the noise.

        Parameters
        ----------
        X : dict or sequence
            For each node (key, or position), a sequence of ``(max-influence, card(X_N))``
            or ``(max-influence, card(X_N), label)`` candidates. The model, not private data.
        y : ignored

        Returns
        -------
        self
        """
        return super().fit(X, y)

    def _calibrate(self, X):
        eps = float(self.epsilon)
        cands = _candidates(X)
        sigma, node, quilt, sigmas = _quilt_search(cands, eps)
        if not math.isfinite(sigma):
            below = any(e < eps for label, quilts in cands if label == node
                        for e, _, _ in quilts)
            if below:       # card / (eps - e) overflows: a finite influence, a tiny epsilon
                raise ValueError(f"epsilon: the noise scale card(X_N) / (epsilon - e) of node "
                                 f"{node!r} is beyond float range at epsilon = {eps:g}; use a "
                                 "larger epsilon.")
            raise ValueError(f"node {node!r} has no candidate quilt with max-influence below "
                             f"epsilon = {eps:g}: add the empty quilt (influence 0, every "
                             "node nearby).")
        self.score_ = float(sigma)
        self.node_ = node
        self.quilt_ = quilt
        self.node_scores_ = sigmas
        # Noise of scale L sigma, calibrated as a sensitivity L sigma eps at eps (the grid of
        # the noise follows the sensitivity, which stays near L card(X_N) at any eps).
        sens = float(self.lipschitz) * self.score_ * eps if math.isfinite(eps) else 0.0
        if math.isfinite(eps) and not 0.0 < sens < math.inf:
            raise ValueError(f"lipschitz: lipschitz * score * epsilon = {sens!r} is 0 or beyond "
                             "float range (lipschitz too small or too large for this "
                             "epsilon): rescale the query and its Lipschitz constant.")
        calibration = calibrate_noise(sens, eps, "laplace", integer=False)
        check_positive_noise(calibration, eps, "MarkovQuiltMechanism")
        self.noise_calibration_ = calibration
        self.noise_scale_ = self.noise_calibration_.scale
        return PrivacyGuarantee(
            mechanism="MarkovQuiltMechanism", epsilon=eps, unit="secret pair",
            sensitivity=sens, noise_scale=self.noise_scale_, definition="Pufferfish privacy")


def markov_quilt_mechanism(value, quilts, epsilon, lipschitz=1.0, random_state=None):
    """Release ``value`` with the Markov Quilt Mechanism (see :class:`MarkovQuiltMechanism`).

    Examples
    --------
    >>> from tdadp.pufferfish import markov_quilt_mechanism
    >>> markov_quilt_mechanism(3.0, [[(0.0, 1)]], float("inf"))
    3.0
    """
    return MarkovQuiltMechanism(epsilon=epsilon, lipschitz=lipschitz,
                                random_state=random_state).fit(quilts).transform(value)
