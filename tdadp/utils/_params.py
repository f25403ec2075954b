"""Declared parameter rules: one table per estimator, checked in ``fit``.

scikit-learn checks its estimators' parameters against a ``_parameter_constraints`` table;
its implementation is private, so tdadp has its own, small one with the same idea. Each
estimator declares, for every ``__init__`` parameter, the list of constraints any one of which
the value may satisfy; ``ParamsMixin._validate_params`` checks the current values and raises
an :class:`InvalidParameterError` naming the estimator, the parameter, what it must be and the
bad value.

Constraints are :class:`Interval`, :class:`Options`, a type (``bool`` excluded from numeric
types), ``None``, or one of the named rules in :data:`RULES` (``"boolean"``,
``"random_state"``, ``"secure_random_state"``, ``"n_jobs"``, ``"epsilon"``, ...), or a
:class:`Rule` built from a predicate.
"""

from __future__ import annotations

import math
import numbers
import re
import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._random import SECURE

__all__ = [
    "InvalidParameterError",
    "Interval",
    "Options",
    "Rule",
    "RULES",
    "ParamsMixin",
    "validate_params",
    "check_param",
    "short_repr",
]


# Quoted input in a message is capped, as read_edgelist quotes a bad line: a message is
# logged and shown, and the value can be a 100,000-character string or a million-item list.
QUOTE_LIMIT = 80

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = QUOTE_LIMIT // 2


def short_repr(value, limit=QUOTE_LIMIT):
    """``repr(value)`` in at most about ``limit`` characters, to quote input in a message.

    A longer string keeps its first ``limit`` characters and says how long it was (as
    :func:`tdadp.io.read_edgelist` quotes a bad line); a container shows its first few
    items and its length; a numpy array its summary on one line. Computing it never costs
    more than the value's own repr, and never fails (an int too long to print is named by
    its size).

    Parameters
    ----------
    value : object
    limit : int, default=80

    Returns
    -------
    str

    Examples
    --------
    >>> from tdadp.utils._params import short_repr
    >>> short_repr("x" * 100_000, limit=5)
    "'xxxxx'... (100,000 characters)"
    >>> short_repr(list(range(1000)))
    '[0, 1, 2, 3, 4, 5, ...] (1,000 items)'
    """
    if isinstance(value, (str, bytes)):
        if len(value) <= limit:
            return repr(value)
        unit = "characters" if isinstance(value, str) else "bytes"
        return f"{value[:limit]!r}... ({len(value):,} {unit})"
    try:
        text = _REPR.repr(value)
    except Exception:  # a repr that fails must not replace the error being reported
        if isinstance(value, numbers.Integral):  # beyond the interpreter's digit limit
            return f"an int of {int(value).bit_length():,} bits"
        return f"a {type(value).__name__}"
    text = re.sub(r"\s*\n\s*", " ", text)  # numpy prints arrays over several lines
    if len(text) > limit:
        text = text[:limit] + "..."
    shown = _REPR.maxdict if isinstance(value, dict) else _REPR.maxlist
    if isinstance(value, (list, tuple, set, frozenset, dict)) and len(value) > shown:
        text += f" ({len(value):,} items)"
    return text


class InvalidParameterError(ValueError, TypeError):
    """A parameter value outside its declared rules (both a ValueError and a TypeError).

    Subclassing both follows scikit-learn: a wrong type and a wrong value are reported the same
    way, and callers catching either still catch it.
    """


def _is_real(x):
    return (isinstance(x, (numbers.Real, np.floating, np.integer))
            and not isinstance(x, (bool, np.bool_)))


def _is_int(x):
    return isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_))


@dataclass(frozen=True)
class Interval:
    """Numbers of a kind (``"real"`` or ``"int"``) in an interval; ``None`` is unbounded.

    ``closed`` is one of ``"both"``, ``"left"``, ``"right"``, ``"neither"``; an infinite bound
    is included when that side is closed (so ``Interval("real", 0, math.inf, "both")`` is
    [0, inf]). NaN and complex numbers never belong to an interval.
    """

    kind: str
    left: float | None
    right: float | None
    closed: str = "both"

    def __call__(self, value):
        if self.kind == "int":
            if not _is_int(value):
                return False
        elif not _is_real(value):
            return False
        try:
            # Integers compare exactly (10**400 is a valid int, beyond every float).
            v = int(value) if self.kind == "int" else float(value)
        except (OverflowError, ValueError, TypeError):
            return False
        if isinstance(v, float) and math.isnan(v):
            return False
        lo_closed = self.closed in ("both", "left")
        hi_closed = self.closed in ("both", "right")
        if self.left is not None and (v < self.left or (v == self.left and not lo_closed)):
            return False
        if self.left is None and v == -math.inf:
            return False
        if self.right is not None and (v > self.right or (v == self.right and not hi_closed)):
            return False
        return not (self.right is None and v == math.inf)

    def __str__(self):
        what = "an int" if self.kind == "int" else "a real number"
        if self.left is None and self.right is None:
            return what
        lo = "-inf" if self.left is None else f"{self.left:g}"
        hi = "inf" if self.right is None else f"{self.right:g}"
        lb = "[" if self.closed in ("both", "left") and self.left is not None else "("
        rb = "]" if self.closed in ("both", "right") and self.right is not None else ")"
        return f"{what} in {lb}{lo}, {hi}{rb}"


@dataclass(frozen=True)
class Options:
    """One of a fixed set of values (strings compared exactly, never by truthiness)."""

    values: tuple

    def __init__(self, *values):
        object.__setattr__(self, "values", tuple(values))

    def __call__(self, value):
        return any(type(option) is type(value) and option == value for option in self.values)

    def __str__(self):
        return "one of " + ", ".join(repr(v) for v in self.values)


@dataclass(frozen=True)
class Rule:
    """A named predicate, for rules that are neither an interval nor a set of options."""

    description: str
    test: Callable[[Any], bool]

    def __call__(self, value):
        try:
            return bool(self.test(value))
        except Exception:  # a predicate that fails on an odd value has rejected it
            return False

    def __str__(self):
        return self.description


def _random_state(value, allow_secure):
    if value is None or isinstance(value, (np.random.Generator, np.random.SeedSequence)):
        return True
    if allow_secure and isinstance(value, str) and value == SECURE:
        return True
    return _is_int(value) and value >= 0


# joblib counts workers in a C int; more than this is a typo, not a machine.
_MAX_JOBS = 2**31 - 1


def _n_jobs(value):
    return value is None or (_is_int(value) and value != 0 and -_MAX_JOBS <= value <= _MAX_JOBS)


def _pair_of_nonnegative_ints(value):
    try:
        items = tuple(value)
    except TypeError:
        return False
    return len(items) == 2 and all(_is_int(v) and v >= 0 for v in items)


RULES = {
    "boolean": Rule("a bool", lambda v: isinstance(v, (bool, np.bool_))),
    "random_state": Rule("None, a non-negative int, a numpy Generator or SeedSequence",
                         lambda v: _random_state(v, False)),
    "secure_random_state": Rule(
        "None, a non-negative int, a numpy Generator or SeedSequence, or 'secure'",
        lambda v: _random_state(v, True)),
    "n_jobs": Rule("None or a non-zero int (-1: all cores)", _n_jobs),
    "epsilon": Interval("real", 0, math.inf, "both"),
    "positive_epsilon": Interval("real", 0, math.inf, "right"),
    "positive_int": Interval("int", 1, None, "left"),
    "nonnegative_int": Interval("int", 0, None, "left"),
    "probability": Interval("real", 0, 1, "both"),
    "signature": Rule("a pair (p, q) of non-negative ints", _pair_of_nonnegative_ints),
    "dict": Rule("a dict", lambda v: isinstance(v, dict)),
    "callable": Rule("a callable", callable),
}


def _resolve(constraint):
    if constraint is None:
        return Rule("None", lambda v: v is None)
    if isinstance(constraint, str):
        try:
            return RULES[constraint]
        except KeyError:
            raise KeyError(f"unknown parameter rule {constraint!r}") from None
    if isinstance(constraint, type):
        if constraint in (numbers.Real, float):
            return Interval("real", None, None, "neither")
        if constraint in (numbers.Integral, int):
            return Interval("int", None, None, "neither")
        return Rule(f"an instance of {constraint.__name__}",
                    lambda v, t=constraint: isinstance(v, t))
    return constraint


def check_param(value, constraints, name, owner=None):
    """Check one value against its constraints; return it or raise InvalidParameterError."""
    rules = [_resolve(c) for c in constraints]
    if any(rule(value) for rule in rules):
        return value
    must = " or ".join(str(rule) for rule in rules)
    where = f"The {name!r} parameter of {owner}" if owner else f"{name}"
    raise InvalidParameterError(f"{where} must be {must}; got {short_repr(value)}.")


def validate_params(constraints, params, owner):
    """Check every parameter of ``params`` against its entry in ``constraints``.

    Parameters without an entry are a programming error (every parameter must be declared);
    an entry ``"no_validation"`` skips a parameter on purpose.
    """
    for name, value in params.items():
        if name not in constraints:
            raise KeyError(f"{owner} declares no rule for its parameter {name!r}.")
        rule = constraints[name]
        if rule == "no_validation":
            continue
        check_param(value, rule, name, owner)


class ParamsMixin:
    """Adds ``_validate_params``: check ``get_params(deep=False)`` against the class's table.

    Subclasses declare ``_parameter_constraints = {"name": [constraint, ...], ...}`` (a
    subclass extends its parent's table with ``{**Parent._parameter_constraints, ...}``).
    """

    _parameter_constraints: dict = {}

    def _validate_params(self):
        validate_params(self._parameter_constraints, self.get_params(deep=False),
                        type(self).__name__)
