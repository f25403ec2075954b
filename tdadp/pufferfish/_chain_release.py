"""Releases of a Markov chain's relative-frequency histogram under Pufferfish privacy.

* :class:`MQMExact`, :class:`MQMApprox` (Algorithms 3 and 4 of Song, Wang, Chaudhuri 2017)
  and the baselines :class:`GroupDPHistogram` and :class:`GK16Histogram`, with their function
  twin :func:`chain_histogram_release`; the noise scales come from :func:`mqm_exact_scale`,
  :func:`mqm_approx_scale`, :func:`group_dp_scale` and :func:`gk16_scale`.
* :func:`compose_markov_quilt`: the privacy of several such releases of the same chain
  (Section 4.3).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from ..dp._guarantee import PrivacyGuarantee
from ..dp._noise import add_noise, calibrate_noise
from ..release._base import ReleaseMechanism
from ..utils._params import Interval, Options
from ._approx_scale import mqm_approx_scale
from ._baselines import gk16_scale, group_dp_scale
from ._exact_scale import exact_tables, family_tables, mqm_exact_scale
from ._quilt_search import Objective, search_built
from ._theta import chain_support, parse_thetas
from ._value_release import check_positive_noise

__all__ = [
    "MQMExact",
    "MQMApprox",
    "GroupDPHistogram",
    "GK16Histogram",
    "CHAIN_METHODS",
    "chain_histogram_release",
    "compose_markov_quilt",
]

# Sensitivities of the counts from this on put the noise grid above 1 (calibrate_noise's grid
# is ~2^-30 of the sensitivity): integer counts would be rounded. 2 sigma eps <= 2 T, so every
# chain shorter than _MAX_LENGTH is fine, and longer ones are refused before any work.
_MAX_COUNT_SENSITIVITY = 2.0 ** 31
_MAX_LENGTH = 2 ** 30


def _sequences(X, n_states, length=None):
    """(list of int arrays, single) from one sequence of states or a batch of them."""
    try:
        arr = np.asarray(X)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.dtype == object:
        raise ValueError("X must be a sequence of states (ints in 0..k-1) or a batch of "
                         "equal-length sequences.")
    if arr.ndim == 1:
        seqs, single = [arr], True
    elif arr.ndim == 2:
        seqs, single = list(arr), False
    else:
        raise ValueError(f"X must be one sequence of states (1-D) or a batch (2-D), got shape "
                         f"{arr.shape}.")
    if arr.size == 0:
        raise ValueError("X must hold at least one state.")
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer)
                                 or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"the states must be integers 0..{n_states - 1}, got dtype "
                         f"{arr.dtype}.")
    if np.issubdtype(arr.dtype, np.floating) and not (
            np.isfinite(arr).all() and np.array_equal(arr, np.rint(arr))):
        raise ValueError("the states must be integers (no NaN, no fractions).")
    if (arr < 0).any() or (arr >= n_states).any():
        raise ValueError(f"the states must lie in 0..{n_states - 1} (the chain has {n_states} "
                         "states).")
    if length is not None and arr.shape[-1] != length:
        raise ValueError(f"each sequence must have the fitted length T = {length}, got "
                         f"{arr.shape[-1]}.")
    return [np.asarray(s, dtype=np.int64) for s in seqs], single


CHAIN_METHODS = ("MQMExact", "MQMApprox", "GroupDP", "GK16")


class _ChainHistogram(ReleaseMechanism):
    """Base of the releases of a Markov chain's relative-frequency histogram.

    The data are one chain X_1..X_T of states 0..k-1 (or a batch of such chains, each released
    independently); the release is ``counts / T`` plus Laplace noise on each of the k bins.
    Changing one record moves 1/T from one bin to another, so the histogram is
    ``2 / T``-Lipschitz; the noise is drawn on the counts (exact integers, scale ``2 sigma``)
    and divided by T.

    At a finite epsilon there is always noise: ``fit`` refuses a class without a possible
    secret pair, and the Pufferfish releases (not GroupDP, differential privacy for any data)
    refuse in ``transform`` a chain of probability zero under every theta (a first state or a
    transition the class rules out: the guarantee says nothing about it), without saying
    where. Chains of ``2^30`` records or more are refused before any work.
    """

    _method = ""
    _parameter_constraints = {
        **ReleaseMechanism._parameter_constraints,
        "epsilon": ["positive_epsilon"],
        "thetas": "no_validation",
        "length": [None, Interval("int", 1, None, "left")],
    }

    def _scale(self, thetas, T, lipschitz):
        raise NotImplementedError

    def _n_states(self):
        kind, chains = parse_thetas(self.thetas)
        return 2 if kind == "family" else chains[0].P.shape[0]

    def _calibrate(self, X):
        k = self._n_states()
        T = self.length
        if X is not None:
            seqs, _ = _sequences(X, k, T)
            T = int(seqs[0].size)
        if T is None:
            raise ValueError(f"{type(self).__name__} needs the chain's length: set length=T or "
                             "fit on the sequence(s) to release (only their length is read).")
        if T >= _MAX_LENGTH:
            raise ValueError(f"length: the chain is too long (T = {T}) for exact integer noise: "
                             f"at most {_MAX_LENGTH - 1} records.")
        result = self._scale(self.thetas, int(T), 2.0 / T)
        if not result.applicable:
            raise ValueError(f"{type(self).__name__}: {result.reason}.")
        eps = float(self.epsilon)
        # Noise of scale 2 sigma on the counts, calibrated as a sensitivity 2 sigma eps (at most
        # 2 T) at eps: the counts stay on the noise's grid (exact integers).
        sens = 2.0 * result.score * eps if math.isfinite(eps) else 0.0
        if sens >= _MAX_COUNT_SENSITIVITY:
            raise ValueError(f"the chain is too long (T = {T}) for exact integer noise.")
        calibration = calibrate_noise(sens, eps, "laplace", integer=True)
        check_positive_noise(calibration, eps, type(self).__name__)
        self.length_ = int(T)
        self.n_states_ = k
        self.score_ = float(result.score)
        self.scale_result_ = result
        self.noise_calibration_ = calibration
        self.noise_scale_ = self.noise_calibration_.scale / self.length_
        self._support = self._class_support() if math.isfinite(eps) else None
        return self._guarantee(eps)

    def _class_support(self):
        """What the class allows (see :func:`chain_support`): a release is promised for the
        chains of positive probability under some theta, and refuses the others."""
        return chain_support(*parse_thetas(self.thetas))

    def _check_support(self, seqs):
        """Refuse chains of probability zero under every theta, without saying where."""
        support = getattr(self, "_support", None)
        if support is None:
            return
        bad = 0
        for seq in seqs:
            possible = False
            for first, moves in support:
                if (first is None or first[seq[0]]) and moves[seq[:-1], seq[1:]].all():
                    possible = True
                    break
            bad += not possible
        if bad:
            which = "the chain has" if len(seqs) == 1 else f"{bad} of the {len(seqs)} chains have"
            raise ValueError(
                f"X: {which} probability zero under every theta of the class (a first state or "
                "a transition the class rules out). The Pufferfish guarantee holds for the "
                "chains the class can generate only: fix the class (thetas) or the data.")

    def _guarantee(self, eps):
        return PrivacyGuarantee(
            mechanism=f"{type(self).__name__} (relative-frequency histogram of a Markov chain, "
                      f"T = {self.length_})",
            epsilon=eps, unit="secret pair",
            sensitivity=self.noise_scale_ * eps if self.noise_scale_ > 0 else 0.0,
            noise_scale=self.noise_scale_, definition="Pufferfish privacy")

    def _split(self, X):
        seqs, single = _sequences(X, self.n_states_, self.length_)
        self._check_support(seqs)
        return seqs, single

    def _release(self, seq, rng):
        counts = np.bincount(seq, minlength=self.n_states_).astype(np.int64)
        return np.asarray(add_noise(counts, self.noise_calibration_, rng),
                          dtype=float) / self.length_

    def _join(self, outputs, single):
        return outputs[0] if single else np.vstack(outputs)

    def fit(self, X=None, y=None):
        """Compute the noise scale for the class ``thetas`` and state the guarantee.

        Parameters
        ----------
        X : array-like of shape (T,) or (n, T), optional
            The chain(s) to release: only their length is read (T, a public fact in the
            Pufferfish framework), and nothing is kept. Without X, ``length`` must be set.
        y : ignored

        Returns
        -------
        self
        """
        return super().fit(X, y)

    def transform(self, X):
        """Release the relative-frequency histogram of each chain, plus the fitted noise.

        Parameters
        ----------
        X : array-like of shape (T,) or (n, T)
            States 0..k-1.

        Returns
        -------
        ndarray of shape (k,) or (n, k)
            Noisy relative frequencies (not clipped: post-processing is the caller's).
        """
        return super().transform(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags


class MQMExact(_ChainHistogram):
    """Release a Markov chain's histogram with MQMExact (Algorithm 3 of Song et al. 2017).

    The noise scale is :func:`mqm_exact_scale`'s, for the relative-frequency histogram
    (L = 2 / T): eps-Pufferfish privacy for the secrets "X_i = a" against "X_i = b" of every
    node, under every theta of ``thetas``. ``fit`` refuses at once, saying what to use
    instead, a scale that would need more than about a minute of work (many states with a
    pmf or "any" start, whose every node has its own tables: 51 states and T = 10^4 need
    about 7e10 operations); :class:`MQMApprox` needs no tables node by node.

    Parameters
    ----------
    thetas : (initial, transition) pair, sequence of them, or BinaryIntervalFamily
        The class Theta (public knowledge of how the data are generated). An initial
        distribution is a pmf, "stationary" or "any".
    epsilon : float in (0, inf], default=1.0
    length : int or None, default=None
        T; None: read from the sequence(s) given to ``fit``.
    max_quilt : int or None, default=None
        The quilt-length parameter l.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        Exact discrete Laplace noise on the counts (see :mod:`tdadp.dp._noise`);
        "secure" draws from the operating system's CSPRNG.
    accountant : BudgetAccountant or None, default=None
        Charged each chain released (a batch of n chains: n charges) before any noise is
        drawn; BudgetError past its budget. None: nothing is tracked.

    Attributes
    ----------
    length_ : int
    n_states_ : int
    score_ : float
        sigma_max (in nodes).
    scale_result_ : ChainNoiseScale
        The scale's details: per theta, the worst node and its best quilt.
    noise_scale_ : float
        Laplace scale on each relative frequency, ``2 score_ / T`` (rounded up by a relative
        ``2^-30`` at most).
    noise_calibration_ : NoiseCalibration
        The noise on the counts.
    guarantee_ : PrivacyGuarantee

    References
    ----------
    Song, Wang, Chaudhuri, "Pufferfish privacy mechanisms for correlated data", SIGMOD
    (2017).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.pufferfish import MQMExact
    >>> thetas = [([1.0, 0.0], [[0.9, 0.1], [0.4, 0.6]]),
    ...           ([0.9, 0.1], [[0.8, 0.2], [0.3, 0.7]])]
    >>> mech = MQMExact(thetas, epsilon=1.0, length=100, random_state=0).fit()
    >>> round(mech.score_, 4), round(mech.noise_scale_, 4)
    (13.0219, 0.2604)
    >>> mech.transform(np.zeros(100, dtype=int)).shape
    (2,)
    """

    _parameter_constraints = {
        **_ChainHistogram._parameter_constraints,
        "max_quilt": [None, Interval("int", 0, None, "left")],
    }

    def __init__(self, thetas, epsilon=1.0, length=None, max_quilt=None, random_state=None,
                 accountant=None):
        self.thetas = thetas
        self.epsilon = epsilon
        self.length = length
        self.max_quilt = max_quilt
        self.random_state = random_state
        self.accountant = accountant

    def _scale(self, thetas, T, lipschitz):
        return mqm_exact_scale(thetas, T, self.epsilon, lipschitz, self.max_quilt)


class MQMApprox(MQMExact):
    """Release a Markov chain's histogram with MQMApprox (Algorithm 4 of Song et al. 2017).

    As :class:`MQMExact`, with the max-influence bounded from the class's pi_min and eigengap
    (:func:`mqm_approx_scale`): faster, never less noise than MQMExact (it bounds the same
    influences from above); every transition matrix must be irreducible.

    Parameters
    ----------
    thetas, epsilon, length, max_quilt
        As :class:`MQMExact`.
    gap : {"singular", "paper"}, default="singular"
        How the bound reads the chain's mixing (see :func:`mqm_approx_scale`): tdadp's
        ``exp(-g t)`` with ``g = 1 - s_2`` (s_2: P's second singular value on L2(pi)), or the
        paper's ``exp(-g t / 2)`` with ``g`` the eigengap of ``P P*``, a looser bound.
    random_state, accountant
        As :class:`MQMExact`.

    Attributes
    ----------
    length_, n_states_, score_, scale_result_, noise_scale_, noise_calibration_, guarantee_
        As :class:`MQMExact`.

    Examples
    --------
    >>> from tdadp.pufferfish import BinaryIntervalFamily, MQMApprox
    >>> mech = MQMApprox(BinaryIntervalFamily(0.2), epsilon=1.0, length=100).fit()
    >>> round(mech.score_, 3)
    29.632
    >>> round(MQMApprox(BinaryIntervalFamily(0.2), 1.0, length=100, gap="paper").fit().score_, 3)
    37.311
    """

    _parameter_constraints = {
        **MQMExact._parameter_constraints,
        "gap": [Options("singular", "paper")],
    }

    def __init__(self, thetas, epsilon=1.0, length=None, max_quilt=None, gap="singular",
                 random_state=None, accountant=None):
        self.thetas = thetas
        self.epsilon = epsilon
        self.length = length
        self.max_quilt = max_quilt
        self.gap = gap
        self.random_state = random_state
        self.accountant = accountant

    def _scale(self, thetas, T, lipschitz):
        return mqm_approx_scale(thetas, T, self.epsilon, lipschitz, self.max_quilt,
                                gap=self.gap)


class GroupDPHistogram(_ChainHistogram):
    """The GroupDP baseline: Laplace noise of scale 2 / epsilon on each relative frequency.

    Differential privacy with the whole chain as the unit (two chains differing anywhere), so
    Pufferfish privacy for any class; ``thetas`` only gives the number of states.

    Parameters
    ----------
    thetas, epsilon, length, random_state, accountant
        As :class:`MQMExact`.

    Attributes
    ----------
    length_, n_states_, score_, scale_result_, noise_scale_, noise_calibration_, guarantee_
        As :class:`MQMExact`; ``guarantee_`` is differential privacy for whole sequences.

    Examples
    --------
    >>> from tdadp.pufferfish import GroupDPHistogram
    >>> mech = GroupDPHistogram(("stationary", [[0.9, 0.1], [0.4, 0.6]]), 1.0, 100).fit()
    >>> round(mech.noise_scale_, 6)
    2.0
    """

    def __init__(self, thetas, epsilon=1.0, length=None, random_state=None, accountant=None):
        self.thetas = thetas
        self.epsilon = epsilon
        self.length = length
        self.random_state = random_state
        self.accountant = accountant

    def _scale(self, thetas, T, lipschitz):
        return group_dp_scale(T, self.epsilon, lipschitz)

    def _class_support(self):
        return None     # differential privacy: a guarantee for every chain, whatever the class

    def _guarantee(self, eps):
        return PrivacyGuarantee(
            mechanism=f"GroupDPHistogram (relative-frequency histogram, T = {self.length_})",
            epsilon=eps, unit=f"sequence (all {self.length_} records)",
            sensitivity=2.0, noise_scale=self.noise_scale_)


class GK16Histogram(GroupDPHistogram):
    """The GK16 baseline: DP at ``eps_DP`` from Ghosh and Kleinberg's influence matrix.

    See :func:`gk16_scale`. ``fit`` raises a ValueError saying so when the influence matrix of
    some theta has spectral norm >= 1 (strongly correlated chains): GK16 does not apply there.

    Parameters
    ----------
    thetas, epsilon, length, random_state, accountant
        As :class:`MQMExact`.

    Attributes
    ----------
    length_, n_states_, score_, scale_result_, noise_scale_, noise_calibration_, guarantee_
        As :class:`MQMExact`.

    Examples
    --------
    >>> from tdadp.pufferfish import GK16Histogram
    >>> GK16Histogram(("stationary", [[0.9, 0.1], [0.1, 0.9]]), 1.0, 100).fit()
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: GK16Histogram: GK16 does not apply: ... spectral norm 3.712 >= 1 ...
    """

    def _scale(self, thetas, T, lipschitz):
        return gk16_scale(thetas, T, self.epsilon, lipschitz)

    def _class_support(self):
        return _ChainHistogram._class_support(self)

    def _guarantee(self, eps):
        return _ChainHistogram._guarantee(self, eps)


_CHAIN_CLASSES = {"MQMExact": MQMExact, "MQMApprox": MQMApprox, "GroupDP": GroupDPHistogram,
                  "GK16": GK16Histogram}


def chain_histogram_release(X, thetas, epsilon, method="MQMExact", max_quilt=None,
                            random_state=None):
    """Release the relative-frequency histogram of Markov chain(s) ``X`` (function twin).

    ``method`` is one of :data:`CHAIN_METHODS`; see :class:`MQMExact` and the others.

    Examples
    --------
    >>> from tdadp.pufferfish import chain_histogram_release
    >>> chain_histogram_release([0, 0, 1, 1], ("stationary", [[0.9, 0.1], [0.4, 0.6]]),
    ...                         float("inf")).tolist()
    [0.5, 0.5]
    """
    if not Options(*CHAIN_METHODS)(method):
        raise ValueError(f"method must be one of {', '.join(CHAIN_METHODS)}, got {method!r}.")
    cls = _CHAIN_CLASSES[method]
    kw = {"max_quilt": max_quilt} if method in ("MQMExact", "MQMApprox") else {}
    return cls(thetas, epsilon, random_state=random_state, **kw).fit(X).transform(X)


def _same_thetas(a, b):
    ka, ca = parse_thetas(a)
    kb, cb = parse_thetas(b)
    if ka != kb:
        return False
    if ka == "family":
        return ca == cb
    if len(ca) != len(cb):
        return False
    for x, y in zip(ca, cb):
        if (x.initial is None) != (y.initial is None) or not np.array_equal(x.P, y.P):
            return False
        if x.initial is not None and not np.array_equal(x.initial, y.initial):
            return False
    return True


def compose_markov_quilt(releases):
    """The Pufferfish privacy of several MQM releases of the same chain (Section 4.3).

    Releases of functions of the same data with independent Laplace noise of scales ``b_k``
    (Lipschitz constants ``L_k``): at each node and theta, for any Markov quilt the joint
    density of the outputs given the quilt changes by at most
    ``exp(card(X_N) sum_k L_k / b_k)`` when X_i changes, so the composition is
    ``max_theta max_i min_Q [e(X_Q | X_i) + card(X_N) sum_k L_k / b_k]``-Pufferfish private
    (the argument of Theorem 4.3 applied to the joint release). It is at most the sum of the
    epsilons when the releases share their quilts (the paper's linear composition); it is
    computed here with the exact influences (for the interval family, their upper bounds).

    Parameters
    ----------
    releases : sequence of fitted MQMExact / MQMApprox
        Releases of the same chain: same ``thetas`` and length.

    Returns
    -------
    PrivacyGuarantee
        With ``epsilon = inf`` when a release has ``epsilon = inf`` (no noise, no privacy).

    Examples
    --------
    >>> from tdadp.pufferfish import MQMExact, compose_markov_quilt
    >>> theta = ("stationary", [[0.9, 0.1], [0.4, 0.6]])
    >>> mechs = [MQMExact(theta, 1.0, length=100).fit() for _ in range(3)]
    >>> g = compose_markov_quilt(mechs)
    >>> round(g.epsilon, 3), g.epsilon <= 3.0
    (2.211, True)
    """
    if isinstance(releases, (str, bytes, MQMExact)):
        releases = None
    try:
        releases = list(releases)
    except TypeError:
        raise ValueError("releases must be a sequence of fitted MQMExact / MQMApprox "
                         "releases.") from None
    if not releases:
        raise ValueError("compose_markov_quilt needs at least one fitted release.")
    for r in releases:
        if not isinstance(r, MQMExact) or not hasattr(r, "guarantee_"):
            raise ValueError("compose_markov_quilt composes fitted MQMExact / MQMApprox "
                             f"releases, got {type(r).__name__}.")
    first = releases[0]
    T = first.length_
    for r in releases[1:]:
        if r.length_ != T or not _same_thetas(r.thetas, first.thetas):
            raise ValueError("the releases must share their class Theta and their length T.")
    total = sum(r.guarantee_.epsilon for r in releases)
    if not math.isfinite(total):
        # a release without privacy (eps = inf, no noise) leaves none to the composition
        return PrivacyGuarantee(
            mechanism=f"composition of {len(releases)} Markov Quilt releases (one at "
                      "epsilon = inf: no privacy)",
            epsilon=math.inf, unit="secret pair", definition="Pufferfish privacy",
            components=tuple(r.guarantee_ for r in releases))
    # sum_k L_k / b_k, in counts (L = 2 per changed record)
    scales = [r.noise_calibration_.scale for r in releases]
    rate = sum(2.0 / s for s in scales)

    def value(e, card):
        e = np.asarray(e, dtype=float)
        with np.errstate(invalid="ignore"):
            v = e + np.asarray(card, dtype=float) * rate
        return np.where(np.isneginf(e), 0.0, v)

    # e + card * rate >= card * rate
    objective = Objective(value, lambda v: max(0.0, v) / rate)

    kind, chains = parse_thetas(first.thetas)
    L = T - 1
    # each theta's (or cell's) search widens its quilts only as far as a longer one could
    # still win, as the noise scales' search does
    if kind == "family":
        cells = np.linspace(chains.alpha, 1 - chains.alpha, chains.cells + 1)
        fixed = True        # windowed search, as in mqm_exact_scale
        builds = [(partial(family_tables, cells[j], cells[j + 1], cells[m], cells[m + 1], T,
                           start=chains.start), fixed)
                  for j in range(chains.cells) for m in range(chains.cells)]
    else:
        builds = [(partial(exact_tables, c, T), c.stationary) for c in chains]
    eps = max(max(0.0, float(search_built(build, L, objective, fixed, T=T)[0]))
              for build, fixed in builds)
    return PrivacyGuarantee(
        mechanism=f"composition of {len(releases)} Markov Quilt releases (sum of epsilons "
                  f"{total:g})",
        epsilon=eps, unit="secret pair", definition="Pufferfish privacy",
        components=tuple(r.guarantee_ for r in releases))
