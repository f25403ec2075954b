"""A privacy budget accountant: a total (eps, delta) that successive releases spend.

The conventions are diffprivlib's (``BudgetAccountant``, ``BudgetError``, ``spent_budget``,
``check``, ``spend``, ``remaining(k)``); the composition is this package's, basic sequential
composition (:func:`tdadp.dp.compose`): the epsilons of the releases add up, and so do their
deltas.

The sums are kept as they go, exactly (an integer count of the smallest float's units), and
the spent budget is that sum rounded once to a float: the correctly rounded sum ``math.fsum``
gives of the whole ledger. A charge costs the same whatever the ledger's length, and the
answers are those of summing the ledger anew at every charge.
"""

from __future__ import annotations

import math
import threading

from ..utils._params import Interval, check_param
from ._guarantee import PrivacyGuarantee

__all__ = ["BudgetAccountant", "BudgetError"]

# Sums are compared with a relative slack of 2^-40, so that rounding alone never refuses a
# charge (three charges of 0.1 fit a total of 0.3, though the floats sum to 0.30000000000000004)
# and never lets through a charge measurably above the total.
_SLACK = 2.0 ** -40

_EPSILON = Interval("real", 0, math.inf, "both")
_DELTA = Interval("real", 0, 1, "both")


class BudgetError(ValueError):
    """A charge that would take an accountant past its total budget (nothing was spent)."""


def _key(g):
    return (g.unit, g.definition, g.restriction)


def _within(spent, total):
    return total == math.inf or spent <= total + _SLACK * total


# Every finite float is a whole number of units of 2^-1074 (the smallest subnormal), so a
# sum of floats is kept exactly as a Python int of such units: adding is integer addition,
# and CPython rounds an int / int division correctly, so the sum read back is the float
# nearest the exact sum, which math.fsum would give of the whole ledger.
_UNITS = 1074
_ONE = 1 << _UNITS


def _add(total, values):
    """The exact ``total`` (an int of units; None is inf, which every sum with an inf in
    it is) plus the non-negative floats ``values``."""
    for value in values:
        if total is None or value == math.inf:
            return None
        num, den = float(value).as_integer_ratio()  # den is a power of two, <= 2^1074
        total += num << (_UNITS + 1 - den.bit_length())
    return total


def _rounded(total):
    """An exact sum as the nearest float (inf for None, or beyond the float range)."""
    if total is None:
        return math.inf
    try:
        return total / _ONE
    except OverflowError:
        return math.inf


class BudgetAccountant:
    """A total privacy budget, and the ledger of the releases that spent it.

    Every mechanism of the package takes ``accountant=``: each release it makes (each item of
    each ``transform`` batch; :class:`~tdadp.ergm.PrivateERGM`'s ``fit``) is charged its
    fitted ``guarantee_`` *before* any random number is drawn, and a charge that would exceed
    the total raises :class:`BudgetError` and releases nothing. With ``accountant=None``
    (the default) nothing is tracked: there is no implicit global accountant.

    Charges compose by basic sequential composition, as :func:`tdadp.dp.compose` does: the
    spent epsilon is the sum of the charged epsilons, the spent delta the sum of the deltas.
    Like ``compose``, the accountant refuses to add up guarantees about different units,
    definitions or input classes (an edge-DP release and a node-DP or Pufferfish one), with
    a ValueError naming both; edge-local and central releases of the same unit add up. A
    charge of bare numbers (``spend(eps, delta)``) is taken as it is, in whatever unit the
    caller means.

    The accountant is shared, not copied: ``copy.deepcopy`` (hence ``sklearn.base.clone`` of
    an estimator holding it) returns the same accountant, so that a clone spends the budget
    of the original, as in diffprivlib (a copied ledger would spend the same budget twice).
    Pickling writes a snapshot: the unpickled accountant is a separate ledger, holding what
    was spent when it was pickled. Charges are atomic across threads.

    Parameters
    ----------
    epsilon : float in [0, inf], default=inf
        The total epsilon.
    delta : float in [0, 1], default=0.0
        The total delta; the default admits pure-DP releases only (diffprivlib's is 1).

    Attributes
    ----------
    spent : tuple (epsilon, delta)
        What the releases charged so far spent together (sums, by basic composition).
    spent_budget : list of (epsilon, delta)
        One pair per charge, in order (diffprivlib's ledger).
    guarantees : tuple of PrivacyGuarantee
        The guarantees charged (charges of bare numbers are not in it).
    n_releases : int
        How many charges were made.

    Examples
    --------
    >>> from tdadp.dp import BudgetAccountant, BudgetError
    >>> acc = BudgetAccountant(epsilon=3.0)
    >>> acc.spend(1.0).spend(1.5).spent
    (2.5, 0.0)
    >>> acc.remaining()
    (0.5, 0.0)
    >>> try:
    ...     acc.spend(1.0)
    ... except BudgetError as exc:
    ...     print("refused")
    refused
    >>> acc.n_releases
    2
    """

    def __init__(self, epsilon=math.inf, delta=0.0):
        check_param(epsilon, [_EPSILON], "epsilon", "BudgetAccountant")
        check_param(delta, [_DELTA], "delta", "BudgetAccountant")
        self._epsilon = float(epsilon)
        self._delta = float(delta)
        self._charges = []  # (epsilon, delta, PrivacyGuarantee or None)
        self._lock = threading.RLock()
        self._tally()

    def _tally(self):
        """Set the running sums and kind of guarantee from the ledger (a new or unpickled
        accountant; every charge then updates them)."""
        self._sum_epsilon = _add(0, (e for e, _, _ in self._charges))
        self._sum_delta = _add(0, (d for _, d, _ in self._charges))
        self._kind = next((_key(g) for _, _, g in self._charges if g is not None), None)

    # --- the totals and what is spent -------------------------------------------------------

    @property
    def epsilon(self):
        """The total epsilon."""
        return self._epsilon

    @property
    def delta(self):
        """The total delta."""
        return self._delta

    @property
    def spent_budget(self):
        """One (epsilon, delta) pair per charge, in order (a copy)."""
        return [(e, d) for e, d, _ in self._charges]

    @property
    def guarantees(self):
        """The guarantees charged, in order (charges of bare numbers left out)."""
        return tuple(g for _, _, g in self._charges if g is not None)

    @property
    def n_releases(self):
        """How many charges were made."""
        return len(self._charges)

    @property
    def spent(self):
        """(epsilon, delta) spent so far: the sums of the charges (0.0 before any)."""
        with self._lock:
            return (_rounded(self._sum_epsilon), _rounded(self._sum_delta))

    def remaining(self, k=1):
        """The (epsilon, delta) each of ``k`` further equal releases may still spend.

        As diffprivlib's ``remaining``: ``k`` releases of this much each exhaust the total
        (by basic composition, the remainder divided by ``k``); inf when the total is inf.
        """
        check_param(k, [Interval("int", 1, None, "left")], "k", "BudgetAccountant.remaining")
        eps, delta = self.spent
        left_eps = math.inf if self._epsilon == math.inf else max(self._epsilon - eps, 0.0)
        left_delta = max(self._delta - delta, 0.0)
        return (left_eps / k, left_delta / k)

    # --- charges ------------------------------------------------------------------------------

    def _items(self, charges):
        """(epsilon, delta, guarantee) of each charge, validated."""
        items = []
        for c in charges:
            if isinstance(c, PrivacyGuarantee):
                items.append((c.epsilon, c.delta, c))
            elif isinstance(c, tuple) and len(c) == 2:
                eps = check_param(c[0], [_EPSILON], "epsilon", "BudgetAccountant")
                delta = check_param(c[1], [_DELTA], "delta", "BudgetAccountant")
                items.append((float(eps), float(delta), None))
            else:
                raise TypeError("BudgetAccountant charges are PrivacyGuarantee objects or "
                                f"(epsilon, delta) pairs, got {type(c).__name__}.")
        return items

    def _check_items(self, items):
        """The running sums and kind after ``items``, or the error refusing them.

        Called under the lock: only the kind of the ledger so far and its sums are read.
        """
        keys = {_key(g) for _, _, g in items if g is not None}
        if self._kind is not None:
            keys.add(self._kind)
        if len(keys) > 1:
            raise ValueError(
                "BudgetAccountant: cannot add up guarantees about different units, definitions "
                f"or input classes (as compose): {sorted(map(str, keys))}. Use one accountant "
                "per kind of guarantee.")
        sum_epsilon = _add(self._sum_epsilon, (e for e, _, _ in items))
        sum_delta = _add(self._sum_delta, (d for _, d, _ in items))
        if not (_within(_rounded(sum_epsilon), self._epsilon)
                and _within(_rounded(sum_delta), self._delta)):
            spent_eps, spent_delta = self.spent
            what = "this release" if len(items) == 1 else f"these {len(items)} releases"
            charge = (_rounded(_add(0, (e for e, _, _ in items))),
                      _rounded(_add(0, (d for _, d, _ in items))))
            raise BudgetError(
                f"Privacy budget exceeded: {what} would spend (epsilon, delta) = "
                f"({charge[0]:g}, {charge[1]:g}); of the total ({self._epsilon:g}, "
                f"{self._delta:g}), ({spent_eps:g}, {spent_delta:g}) is spent already "
                f"by {self.n_releases} release(s). Nothing was released.")
        return sum_epsilon, sum_delta, keys.pop() if keys else None

    def _as_charges(self, epsilon, delta):
        if isinstance(epsilon, PrivacyGuarantee):
            if delta not in (None, 0, 0.0):
                raise ValueError("BudgetAccountant: a PrivacyGuarantee states its own delta; "
                                 "do not give delta with it.")
            return [epsilon]
        return [(epsilon, 0.0 if delta is None else delta)]

    def check(self, epsilon, delta=0.0):
        """Whether a release of (``epsilon``, ``delta``) fits what is left; spends nothing.

        Parameters
        ----------
        epsilon : float in [0, inf] or PrivacyGuarantee
            A guarantee is charged its own epsilon and delta.
        delta : float in [0, 1], default=0.0

        Returns
        -------
        True

        Raises
        ------
        BudgetError
            If the charge would take the spent budget past the total.
        """
        items = self._items(self._as_charges(epsilon, delta))
        with self._lock:
            self._check_items(items)
        return True

    def spend(self, epsilon, delta=0.0):
        """Charge one release of (``epsilon``, ``delta``), or of a PrivacyGuarantee.

        Checks first (:meth:`check`): a charge past the total raises BudgetError and spends
        nothing.

        Returns
        -------
        self
        """
        return self.charge(self._as_charges(epsilon, delta))

    def charge(self, releases):
        """Charge a batch of releases at once: all of them, or (BudgetError) none.

        Parameters
        ----------
        releases : sequence of PrivacyGuarantee or (epsilon, delta) pairs
            One entry per release (a batch of k graphs released by one mechanism is k
            charges of its ``guarantee_``).

        Returns
        -------
        self
        """
        if isinstance(releases, (PrivacyGuarantee, str)) or not hasattr(releases, "__iter__"):
            raise TypeError("BudgetAccountant.charge expects a sequence of guarantees or "
                            "(epsilon, delta) pairs; use spend for a single one.")
        items = self._items(releases)
        with self._lock:
            self._sum_epsilon, self._sum_delta, self._kind = self._check_items(items)
            self._charges.extend(items)
        return self

    # --- words --------------------------------------------------------------------------------

    def describe(self):
        """The budget in words: the total, what is spent, what remains, how many releases."""
        eps, delta = self.spent
        left_eps, left_delta = self.remaining()
        n = self.n_releases

        def pair(e, d):
            return f"epsilon = {e:g}" + (f", delta = {d:.3g}" if self._delta or d else "")

        text = (f"Privacy budget: total {pair(self._epsilon, self._delta)}; spent "
                f"{pair(eps, delta)} by {n} release{'' if n == 1 else 's'}; remaining "
                f"{pair(left_eps, left_delta)}.")
        names = {}
        for g in self.guarantees:
            names[g.mechanism] = names.get(g.mechanism, 0) + 1
        if names:
            text += " Releases: " + ", ".join(f"{m} x{c}" for m, c in names.items()) + "."
        if n:
            text += " Composed by basic sequential composition (epsilons and deltas add up)."
        return text

    def __str__(self):
        return self.describe()

    def __repr__(self):
        eps, delta = self.spent
        return (f"BudgetAccountant(epsilon={self._epsilon!r}, delta={self._delta!r}, "
                f"spent=({eps!r}, {delta!r}), n_releases={self.n_releases})")

    # --- sharing --------------------------------------------------------------------------------

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_lock", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()
        if "_sum_epsilon" not in state:  # pickled before the sums were kept
            self._tally()
