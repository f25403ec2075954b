"""Checking privacy claims: what edge DP promises under dependence, an audit, exact levels.

- Edge-level privacy under dependent edges, exactly: :func:`edge_privacy_exact`,
  :func:`latent_dependence_bound`.
- Empirical audit of any mechanism: :func:`audit`, and the leak it can detect:
  :func:`audit_power`; the queens example: :func:`queens_example`.

The guarantee vocabulary (:class:`tdadp.dp.PrivacyGuarantee`, the bounds, composition) lives in
:mod:`tdadp.dp`; the mechanisms in :mod:`tdadp.release`, :mod:`tdadp.ergm` and
:mod:`tdadp.pufferfish`.
"""

from ._audit import (
    AuditResult,
    audit,
    audit_power,
)
from ._exact import (
    MAX_EXACT_NODES,
    EdgePrivacyLevel,
    edge_privacy_exact,
    latent_dependence_bound,
)
from ._queens import (
    QueensResult,
    queens_example,
    sample_queens,
)

__all__ = [
    "edge_privacy_exact",
    "EdgePrivacyLevel",
    "latent_dependence_bound",
    "MAX_EXACT_NODES",
    "audit",
    "audit_power",
    "AuditResult",
    "queens_example",
    "sample_queens",
    "QueensResult",
]
