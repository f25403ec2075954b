"""Basic sequential composition: epsilons of successive releases of the same data add up."""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from ._guarantee import PrivacyGuarantee

__all__ = ["compose"]


def _as_guarantee(item):
    if isinstance(item, PrivacyGuarantee):
        return item
    if hasattr(item, "guarantee_"):
        return item.guarantee_
    if hasattr(item, "fit") and hasattr(item, "get_params"):
        # An unfitted mechanism: fit a clone (fitting validates and states the guarantee),
        # leaving the caller's object untouched.
        return clone(item).fit().guarantee_
    raise ValueError(
        f"compose expects PrivacyGuarantee objects or mechanisms, got {type(item).__name__}."
    )


def compose(guarantees):
    """The guarantee of releasing every item of ``guarantees`` on the same network.

    Basic composition (Dwork, McSherry, Nissim, Smith 2006): running eps_1-, ..., eps_k-DP
    mechanisms on the same input is (eps_1 + ... + eps_k)-DP, whatever the mechanisms and
    even when each is chosen after seeing the previous releases; with approximate components
    the deltas add up too. The sum is tight in the
    worst case for pure DP; advanced composition (which trades a delta for a smaller epsilon)
    is not offered here.

    Parameters
    ----------
    guarantees : sequence of PrivacyGuarantee or mechanisms
        Fitted mechanisms give their ``guarantee_``; unfitted ones are fitted on a clone.
        All must protect the same unit under the same definition.

    Returns
    -------
    PrivacyGuarantee
        ``epsilon`` is the total; ``effective_epsilon`` the total of the components'
        effective losses; ``components`` the guarantees composed; ``local`` holds only if
        every component is local.

    Examples
    --------
    >>> from tdadp import EdgeFlip
    >>> from tdadp.dp import compose
    >>> from tdadp.release import LaplaceEdgeCount
    >>> total = compose([EdgeFlip(1.0), LaplaceEdgeCount(0.5)])
    >>> total.epsilon, total.local
    (1.5, False)
    """
    if isinstance(guarantees, (PrivacyGuarantee, str)) or not hasattr(guarantees, "__iter__"):
        raise ValueError("compose expects a sequence of guarantees or mechanisms.")
    items = [_as_guarantee(g) for g in guarantees]
    if not items:
        raise ValueError("compose expects at least one guarantee or mechanism.")
    units = {(g.unit, g.definition, g.restriction) for g in items}
    if len(units) > 1:
        raise ValueError(
            "cannot compose guarantees about different units, definitions or input classes: "
            f"{sorted(map(str, units))}."
        )
    unit, definition, restriction = units.pop()
    total = float(sum(g.epsilon for g in items))
    # What the releases as implemented lose together (their rates are rounded toward more
    # noise); stated only when some component states one.
    effective = None
    if any(g.effective_epsilon is not None for g in items):
        effective = min(total, float(sum(g.epsilon if g.effective_epsilon is None
                                         else g.effective_epsilon for g in items)))
    flat = []
    for g in items:
        flat.extend(g.components if g.components else (g,))
    return PrivacyGuarantee(
        mechanism=f"composition of {len(flat)} releases",
        epsilon=total,
        effective_epsilon=effective,
        unit=unit,
        local=all(g.local for g in items),
        restriction=restriction,
        definition=definition,
        components=tuple(flat),
        delta=min(float(sum(g.delta for g in items)), float(np.nextafter(1.0, 0.0))),
    )
