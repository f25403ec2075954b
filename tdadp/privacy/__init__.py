"""Privacy guarantees: what edge differential privacy promises."""

from ._guarantee import PrivacyGuarantee

__all__ = ["PrivacyGuarantee"]
