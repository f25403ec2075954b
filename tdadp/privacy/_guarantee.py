"""The privacy guarantee a fitted mechanism states, in numbers and in words."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PrivacyGuarantee"]


@dataclass(frozen=True)
class PrivacyGuarantee:
    """What a mechanism promises.

    Parameters
    ----------
    mechanism : str
        Name of the mechanism.
    epsilon : float
        Privacy loss bound; ``inf`` means no privacy (the input is released as it is).
    unit : str, default="edge"
        Neighbouring networks differ in one ``unit`` ("edge": one dyad toggled).
    local : bool, default=False
        True when the mechanism can run locally, each node randomizing its own dyads.
    flip_probability : float or None
        For randomized-response mechanisms, the probability that a dyad is flipped.
    """

    mechanism: str
    epsilon: float
    unit: str = "edge"
    local: bool = False
    flip_probability: float | None = None

    def describe(self) -> str:
        """The guarantee in plain words."""
        if self.epsilon == float("inf"):
            return (f"{self.mechanism}: epsilon = inf, no privacy: the network is released "
                    "as it is.")
        scope = "edge-local" if self.local else "edge"
        text = (f"{self.mechanism}: {self.epsilon:g}-{scope} differential privacy. Any test "
                "that tries to tell two networks differing in one dyad apart from the "
                f"release has power at most e^{self.epsilon:g} times its level.")
        if self.flip_probability is not None:
            text += f" Each dyad is flipped with probability {self.flip_probability:.6g}."
        return text

    def __str__(self) -> str:
        return self.describe()
