"""The privacy guarantee a fitted mechanism states, in numbers and in words."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields

from ..utils._params import Interval, check_param, short_repr
from ._bounds import posterior_bound, power_bound
from ._rates import RANDOMIZED_RESPONSE_RATES, implemented_rate, rate_epsilon

__all__ = ["PrivacyGuarantee"]

_REPORT_ALPHA = 0.05

# Randomized response flips a dyad with probability at most 1/2 (at 1/2 it is pure noise).
_RATE = Interval("real", 0, 0.5, "both")
_NONNEGATIVE = Interval("real", 0, math.inf, "both")

# Bounds on a guarantee's tree of components. compose() flattens what it composes, so a real
# guarantee is two levels deep; these leave room and stop a crafted one (a file's header
# nesting guarantees 100,000 levels deep) before it recurses or fills memory.
MAX_DEPTH = 16
MAX_COMPONENTS = 100_000

# What compose() names a composition of k releases.
_COMPOSITION = re.compile(r"composition of ([0-9]+) releases")
# compose() sums its items in the order they were grouped (a composition of compositions adds
# the inner totals first), so a total re-derived from the flat components may differ from the
# stated one by the rounding of a sum of at most MAX_COMPONENTS terms, far below this.
_SUM_RTOL = 1e-9
# Inconsistencies quoted in one message (a composition of many releases can have many).
_SHOWN = 5
# A value read from a file is quoted at most this long (several can be in one message).
_QUOTE = 40


class NotAGuarantee(ValueError):
    """Data that is not shaped like a guarantee (as opposed to a guarantee's invalid value)."""


def _tree_size(root, read_components):
    """(depth, guarantees) of a tree of guarantees, walked without recursion; raises a
    ValueError as soon as either exceeds its bound."""
    stack = [(root, 1)]
    count = depth = 0
    while stack:
        node, level = stack.pop()
        count += 1
        depth = max(depth, level)
        if level > MAX_DEPTH:
            raise NotAGuarantee(f"PrivacyGuarantee: components nested more than {MAX_DEPTH} "
                             "levels deep; compose() gives two levels (flatten the "
                             "composition).")
        if count > MAX_COMPONENTS:
            raise NotAGuarantee(f"PrivacyGuarantee: more than {MAX_COMPONENTS:,} guarantees in "
                             "one composition.")
        stack.extend((c, level + 1) for c in read_components(node))
    return depth, count


@dataclass(frozen=True)
class PrivacyGuarantee:
    """What a mechanism promises, with the hypothesis-testing reading of it.

    epsilon-differential privacy is a statement about tests: for any two neighbouring inputs
    (here, networks differing in one ``unit``) and any test of one against the other run on the
    release, ``power <= min(e^eps * alpha, 1 - e^-eps * (1 - alpha))`` at level ``alpha``
    (Wasserman and Zhou 2010; Kairouz, Oh, Viswanath 2015). :meth:`describe` says this in
    words, and also says what is *not* protected: a single edge's presence when the
    adversary's model makes edges dependent (Hehir, Niu, Slavković; see
    :func:`edge_privacy_exact`).

    Parameters
    ----------
    mechanism : str
        Name of the mechanism (or "composition of k releases").
    epsilon : float in [0, inf]
        Privacy loss bound; ``inf`` means no privacy (the input is released as it is).
    unit : str, default="edge"
        Neighbouring inputs differ in one ``unit`` ("edge": one dyad toggled; "secret pair":
        the secrets of a Pufferfish instantiation).
    local : bool, default=False
        True when the mechanism can run locally, each node randomizing its own dyads.
    flip_probability : float in [0, 1/2] or None
        For randomized-response mechanisms, the probability that a dyad is flipped.
    dyad_independent : bool, default=False
        True when the release is independent randomized response on each dyad at rate
        ``flip_probability``: every dyad is flipped independently of all others, with a law
        depending on that dyad alone. What the audit's fast path and the privacy-adjusted
        embedding rely on, declared by the mechanism rather than inferred from its type.
    effective_epsilon : float in [0, epsilon] or None
        The privacy loss of the release as implemented, when it is smaller than ``epsilon``:
        rates are rounded toward more noise (a flip rate of at least ``2^-53``, a noise scale
        rounded up), so the release can be more private than asked, never less. For
        randomized response at rate r it is ``log((1 - r) / r)``.
    sensitivity : float >= 0 or None
        For additive-noise mechanisms, the sensitivity the noise is calibrated to (L1 for
        vectors; the infinity-Wasserstein distance for the Wasserstein mechanism).
    noise_scale : float >= 0 or None
        Scale of the additive noise (Laplace ``b = sensitivity / epsilon``).
    restriction : str or None
        When the promise only holds for some inputs (restricted sensitivity), which ones.
    definition : str, default="differential privacy"
        "differential privacy" or "Pufferfish privacy".
    components : tuple of PrivacyGuarantee
        For a composition, the guarantees composed.
    delta : float in [0, 1), default=0
        Approximate DP: the promise holds except with probability ``delta`` ((eps, delta)-DP;
        e.g. releases calibrated to a private bound on the local sensitivity).

    Raises
    ------
    ValueError
        For an epsilon outside [0, inf], a flip probability outside [0, 1/2], a negative
        sensitivity or noise scale, or ``dyad_independent=True`` without a flip probability.

    Examples
    --------
    >>> from tdadp.dp import PrivacyGuarantee
    >>> g = PrivacyGuarantee("EdgeFlip", 1.0, local=True, flip_probability=0.2689414,
    ...                      dyad_independent=True)
    >>> round(g.power_bound(0.05), 4)
    0.1359
    >>> round(g.posterior_bound(0.5), 4)
    0.7311
    """

    mechanism: str
    epsilon: float
    unit: str = "edge"
    local: bool = False
    flip_probability: float | None = None
    dyad_independent: bool = False
    effective_epsilon: float | None = None
    sensitivity: float | None = None
    noise_scale: float | None = None
    restriction: str | None = None
    definition: str = "differential privacy"
    components: tuple = ()
    delta: float = 0.0

    def __post_init__(self):
        owner = "PrivacyGuarantee"
        check_param(self.mechanism, [str], "mechanism", owner)
        check_param(self.epsilon, ["epsilon"], "epsilon", owner)
        check_param(self.unit, [str], "unit", owner)
        check_param(self.local, ["boolean"], "local", owner)
        check_param(self.flip_probability, [None, _RATE], "flip_probability", owner)
        check_param(self.dyad_independent, ["boolean"], "dyad_independent", owner)
        check_param(self.effective_epsilon, [None, "epsilon"], "effective_epsilon", owner)
        if self.effective_epsilon is not None and self.effective_epsilon > self.epsilon:
            raise ValueError(f"PrivacyGuarantee: effective_epsilon={self.effective_epsilon!r} "
                             f"exceeds epsilon={self.epsilon!r}: a release may be more "
                             "private than stated, never less.")
        for name in ("sensitivity", "noise_scale"):
            check_param(getattr(self, name), [None, _NONNEGATIVE], name, owner)
        check_param(self.restriction, [None, str], "restriction", owner)
        check_param(self.definition, [str], "definition", owner)
        check_param(self.components, [tuple], "components", owner)
        bad = sum(not isinstance(c, PrivacyGuarantee) for c in self.components)
        if bad:
            raise TypeError(f"PrivacyGuarantee: components must be PrivacyGuarantee objects; "
                            f"{bad} of {len(self.components)} are not.")
        _tree_size(self, lambda g: g.components)
        check_param(self.delta, [Interval("real", 0, 1, "left")], "delta", owner)
        if self.dyad_independent and self.flip_probability is None:
            raise ValueError("PrivacyGuarantee: dyad_independent=True declares randomized "
                             "response on each dyad, which needs its flip_probability.")
        # Plain floats, so that equal guarantees compare and print alike whatever numpy
        # scalar type the mechanism computed them in.
        for name in ("epsilon", "effective_epsilon", "flip_probability", "sensitivity",
                     "noise_scale", "delta"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, float(value))

    def to_dict(self):
        """The guarantee as plain JSON values: its fields, ``components`` a list of such dicts.

        An infinite epsilon stays ``inf`` (Python's json writes it ``Infinity``).
        :meth:`from_dict` reads it back equal.

        Examples
        --------
        >>> from tdadp.dp import PrivacyGuarantee
        >>> g = PrivacyGuarantee("EdgeFlip", 1.0, flip_probability=0.25)
        >>> PrivacyGuarantee.from_dict(g.to_dict()) == g
        True
        """
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["components"] = [c.to_dict() for c in self.components]
        return out

    @classmethod
    def from_dict(cls, data):
        """Rebuild a guarantee from :meth:`to_dict`'s dict (e.g. read from a file).

        The dict is checked before anything is built from it: only the fields of a
        PrivacyGuarantee, ``components`` a list of such dicts, at most :data:`MAX_DEPTH`
        levels deep and :data:`MAX_COMPONENTS` guarantees in all, each field by its rule.

        Raises
        ------
        ValueError
            Naming what is wrong (a field that is not one, nesting too deep, an invalid
            value); never a RecursionError or MemoryError, whatever the input.
        """
        names = {f.name for f in fields(cls)}

        def components(d):
            if not isinstance(d, dict):
                raise NotAGuarantee(f"PrivacyGuarantee.from_dict expects a dict of the fields "
                                 f"of a PrivacyGuarantee, got {type(d).__name__}.")
            unknown = [k for k in d if k not in names]
            if unknown:
                shown = ", ".join(repr(str(k)[:40]) for k in unknown[:3])
                raise NotAGuarantee(f"PrivacyGuarantee.from_dict: {len(unknown)} unknown "
                                 f"field(s) ({shown}); the fields are "
                                 f"{', '.join(sorted(names))}.")
            value = d.get("components", [])
            if not isinstance(value, (list, tuple)):
                raise NotAGuarantee(f"PrivacyGuarantee.from_dict: components must be a list of "
                                 f"guarantees, got {type(value).__name__}.")
            return value

        _tree_size(data, components)  # bounded before anything recurses

        def build(d):
            kw = dict(d)
            kw["components"] = tuple(build(c) for c in d.get("components", []))
            try:
                return cls(**kw)
            except TypeError as exc:
                raise ValueError(str(exc)) from None

        return build(data)

    def check_consistent(self):
        """Check that the guarantee is the one its mechanism states, re-deriving every field.

        A guarantee read back from a file (a release's sidecar, a packed file's header) is
        trusted only if its numbers agree: an epsilon edited without its flip rate would
        make the release look more private than it is, and the privacy-adjusted embedding
        correct for a rate the release does not have. The guarantees a graph release carries
        are checked:

        - randomized response on every dyad (a mechanism of
          :data:`~tdadp.dp.RANDOMIZED_RESPONSE_RATES`: EdgeFlip, LaplaceFlip): unit "edge",
          local, dyad-independent, the flip rate the mechanism implements at ``epsilon``
          (:func:`~tdadp.dp.implemented_rate` of its ideal rate), ``effective_epsilon`` the
          smaller of ``epsilon`` and the loss of that rate (:func:`~tdadp.dp.rate_epsilon`),
          and no sensitivity, noise scale, restriction, delta or components;
        - their compositions (:func:`~tdadp.dp.compose`): named ``"composition of k
          releases"`` with k components, each checked, all of the composition's unit,
          definition and restriction; epsilon, effective_epsilon and delta their totals as
          compose computes them (up to the rounding of a sum); local only if every
          component is.

        Any other mechanism is refused: its numbers cannot be re-derived here, so they are
        not trusted.

        Returns
        -------
        self : PrivacyGuarantee

        Raises
        ------
        ValueError
            Naming each field that disagrees, with the value stated and the value derived
            (the first few, and how many in all), or the mechanism that cannot be checked.

        Examples
        --------
        >>> from tdadp import EdgeFlip
        >>> from tdadp.dp import PrivacyGuarantee
        >>> g = EdgeFlip(2.0).fit().guarantee_
        >>> g.check_consistent() is g
        True
        >>> edited = PrivacyGuarantee.from_dict({**g.to_dict(), "flip_probability": 0.2})
        >>> edited.check_consistent()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: ... flip_probability is 0.2, EdgeFlip at epsilon=2.0 flips at 0.1192...
        """
        problems = _inconsistencies(self, "")
        if problems:
            shown = "; ".join(problems[:_SHOWN])
            count = len(problems)
            raise ValueError(f"PrivacyGuarantee of {_quote(self.mechanism)} is not consistent: "
                             f"{shown} ({count} problem{'s' if count > 1 else ''}).")
        return self

    def power_bound(self, alpha):
        """Largest power of a level-``alpha`` test between neighbouring inputs.

        See :func:`tdadp.dp.power_bound`.
        """
        return power_bound(self.epsilon, alpha, self.delta)

    def posterior_bound(self, prior, direction="upper"):
        """Largest (or smallest) posterior an adversary can reach from ``prior``.

        See :func:`tdadp.dp.posterior_bound`.
        """
        return posterior_bound(self.epsilon, prior, direction=direction)

    def _protection_text(self):
        eps = self.epsilon
        power = self.power_bound(_REPORT_ALPHA)
        if self.definition == "Pufferfish privacy":
            return (f" Protected: for every secret pair and every data distribution assumed, "
                    f"a level-{_REPORT_ALPHA:g} test of one secret against the other has power "
                    f"at most {power:.4g}, and the odds on a secret change at most "
                    f"e^{eps:g}-fold. Not protected: anything the assumed distributions get "
                    "wrong (the promise is only as good as the model of the data).")
        what = {"edge": "two networks differing in one dyad"}.get(
            self.unit, f"two inputs differing in one {self.unit}")
        if self.delta:
            text = (f" Protected: any test between {what} (a whole network against its "
                    f"neighbour) has power at most min(e^eps*alpha + delta, 1 - e^-eps*(1 - "
                    f"alpha - delta)): {power:.4g} at level {_REPORT_ALPHA:g}; except with "
                    f"probability delta = {self.delta:.3g} an adversary's odds on one such "
                    f"network against the other grow at most e^{eps:g}-fold.")
        else:
            text = (f" Protected: any test between {what} (a whole network against its "
                    f"neighbour) has power at most min(e^eps*alpha, 1 - e^-eps*(1 - alpha)): "
                    f"{power:.4g} at level {_REPORT_ALPHA:g}; an adversary's odds on one such "
                    f"network against the other grow at most e^{eps:g}-fold, whatever else "
                    f"they know. Groups of g units: g*epsilon.")
        if self.unit == "edge":
            text += (" Not protected: a single edge's presence when the adversary's model "
                     "makes edges dependent; there the edge-level loss is up to "
                     f"{eps:g} + a, a = sup |logit P(ij | rest) - logit P(ij)| "
                     "(Hehir, Niu, Slavkovic, Lemma 10; see edge_privacy_exact).")
        return text

    def describe(self) -> str:
        """The guarantee in plain words: what is protected, what is not, and the numbers."""
        if self.epsilon == float("inf"):
            return (f"{self.mechanism}: epsilon = inf, no privacy: the network is released "
                    "as it is.")
        if self.definition == "Pufferfish privacy":
            text = f"{self.mechanism}: {self.epsilon:g}-Pufferfish privacy."
        else:
            scope = "edge-local" if self.local else self.unit
            level = f"({self.epsilon:g}, {self.delta:.3g})" if self.delta else f"{self.epsilon:g}"
            text = f"{self.mechanism}: {level}-{scope} {self.definition}."
        if self.restriction is not None:
            text += f" Only for inputs in the class: {self.restriction}."
        text += self._protection_text()
        if self.flip_probability is not None:
            text += f" Each dyad is flipped with probability {self.flip_probability:.6g}."
        eff = self.effective_epsilon
        if eff is not None and eff < self.epsilon * (1 - 1e-6):
            text += (f" As implemented the release is in fact {eff:.6g}-DP (its rate is "
                     "rounded toward more noise).")
        if self.noise_scale is not None:
            text += (f" Laplace-type noise of scale {self.noise_scale:.6g} "
                     f"(sensitivity {self.sensitivity:g}).")
        if self.components:
            parts = "; ".join(f"{c.mechanism} ({c.epsilon:g})" for c in self.components)
            text += f" Basic composition of: {parts}."
        return text

    def __str__(self) -> str:
        return self.describe()


def _quote(value):
    return short_repr(value, _QUOTE)


def _randomized_response(mechanism, epsilon):
    """The guarantee the randomized-response ``mechanism`` states at ``epsilon``: what
    EdgeFlip and LaplaceFlip build, from the rates they use."""
    rate = implemented_rate(RANDOMIZED_RESPONSE_RATES[mechanism](epsilon), epsilon)
    return PrivacyGuarantee(mechanism=mechanism, epsilon=epsilon, unit="edge", local=True,
                            flip_probability=rate, dyad_independent=True,
                            effective_epsilon=min(epsilon, rate_epsilon(rate)))


def _close(stated, derived):
    if stated is None or derived is None:
        return stated is derived
    return stated == derived or math.isclose(stated, derived, rel_tol=_SUM_RTOL)


def _inconsistencies(g, where):
    """What disagrees in ``g`` (``where`` prefixes each line: which component it is)."""
    if g.mechanism in RANDOMIZED_RESPONSE_RATES:
        expected = _randomized_response(g.mechanism, g.epsilon)
        out = []
        for f in fields(g):
            stated, derived = getattr(g, f.name), getattr(expected, f.name)
            if f.name == "components":
                if stated:
                    out.append(f"{where}it has {len(stated)} components (a mechanism's own "
                               "guarantee has none)")
            elif stated != derived or type(stated) is not type(derived):
                verb = "flips at" if f.name == "flip_probability" else f"states {f.name}"
                out.append(f"{where}{f.name} is {_quote(stated)}, {g.mechanism} at epsilon="
                           f"{g.epsilon!r} {verb} {_quote(derived)}")
        return out
    match = _COMPOSITION.fullmatch(g.mechanism)
    if match is None:
        return [f"{where}mechanism {_quote(g.mechanism)} is not one whose guarantee can be "
                f"re-derived ({', '.join(RANDOMIZED_RESPONSE_RATES)} or a composition of "
                "them), so its numbers cannot be trusted"]
    return _composition_inconsistencies(g, where, int(match[1]))


def _composition_inconsistencies(g, where, k):
    """What disagrees in the composition ``g`` of ``k`` releases, as compose() builds it."""
    parts = g.components
    if not parts:
        return [f"{where}it names a composition of {k} releases but has no components"]
    out = []
    if k != len(parts):
        out.append(f"{where}it names a composition of {k} releases but has {len(parts)} "
                   "components")
    for i, c in enumerate(parts):
        out.extend(_inconsistencies(c, f"{where}component {i}: "))
    scope = (g.unit, g.definition, g.restriction)
    if any((c.unit, c.definition, c.restriction) != scope for c in parts):
        out.append(f"{where}its components do not all share its unit, definition and "
                   "restriction")
    total = float(sum(c.epsilon for c in parts))
    effective = None
    if any(c.effective_epsilon is not None for c in parts):
        effective = min(total, float(sum(c.epsilon if c.effective_epsilon is None
                                         else c.effective_epsilon for c in parts)))
    delta = min(float(sum(c.delta for c in parts)), math.nextafter(1.0, 0.0))
    derived = {"epsilon": total, "effective_epsilon": effective, "delta": delta}
    for name, value in derived.items():
        if not _close(getattr(g, name), value):
            out.append(f"{where}{name} is {_quote(getattr(g, name))}, its components' total "
                       f"is {_quote(value)}")
    if g.local != all(c.local for c in parts):
        out.append(f"{where}local is {g.local}, its components' is "
                   f"{all(c.local for c in parts)}")
    for name in ("flip_probability", "sensitivity", "noise_scale"):
        if getattr(g, name) is not None:
            out.append(f"{where}{name} is {_quote(getattr(g, name))}, a composition states "
                       "none")
    if g.dyad_independent:
        out.append(f"{where}dyad_independent is True, a composition is not one randomized "
                   "response")
    return out
