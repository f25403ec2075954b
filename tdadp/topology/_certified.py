"""The result of an invariant bottleneck distance: a value, where it is reached, bounds."""

from __future__ import annotations

__all__ = ["CertifiedResult"]


class CertifiedResult(tuple):
    """``(distance, argument)`` with certificates; subclasses name the argument (``_arg``:
    the shift or the scale) and document it.

    It unpacks as a 2-tuple; ``distance``, the argument, ``lower``, ``upper``, ``method`` and
    ``n_evaluations`` are attributes.
    """

    _arg = "argument"

    def __new__(cls, distance, argument, lower, upper, method, n_evaluations):
        self = super().__new__(cls, (float(distance), float(argument)))
        self.distance = float(distance)
        setattr(self, cls._arg, float(argument))
        self.lower = float(lower)
        self.upper = float(upper)
        self.method = method
        self.n_evaluations = int(n_evaluations)
        return self

    def __getnewargs__(self):
        return (self.distance, getattr(self, self._arg), self.lower, self.upper, self.method,
                self.n_evaluations)

    def __repr__(self):
        return (f"{type(self).__name__}(distance={self.distance!r}, "
                f"{self._arg}={getattr(self, self._arg)!r}, lower={self.lower!r}, "
                f"method={self.method!r}, n_evaluations={self.n_evaluations})")
