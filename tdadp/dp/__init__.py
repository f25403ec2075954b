"""The guarantee vocabulary, below every mechanism: what a release promises and how it adds up.

- :class:`PrivacyGuarantee`: the (eps, delta) statement every fitted mechanism gives as
  ``guarantee_``, in words and as hypothesis-testing bounds (:func:`power_bound`,
  :func:`posterior_bound`).
- :func:`compose`: sequential composition of guarantees.
- :class:`BudgetAccountant`: a total (eps, delta) that the releases of every mechanism given
  ``accountant=`` spend, refusing (:class:`BudgetError`) a release past it.
- Flip rates: :func:`flip_probability` (edgeFlip), :func:`laplace_flip_probability`, the
  rate a mechanism implements (:func:`implemented_rate`) and the loss of a rate
  (:func:`rate_epsilon`), by which every randomized-response guarantee is checked.
- Exact noise: :func:`calibrate_noise` and :func:`add_noise` (discrete Laplace on a rational
  grid, so no floating-point shortcut leaks), on the integer samplers
  :func:`bernoulli_exp`, :func:`geometric_exp` and :func:`discrete_laplace` (Canonne, Kamath,
  Steinke 2020) that every guarantee rests on, edgeFlip's geometric skipping included.
"""

from ._accountant import (
    BudgetAccountant,
    BudgetError,
)
from ._bounds import (
    posterior_bound,
    power_bound,
)
from ._composition import (
    compose,
)
from ._guarantee import (
    PrivacyGuarantee,
)
from ._noise import (
    NOISE_KINDS,
    NoiseCalibration,
    add_noise,
    calibrate_noise,
)
from ._rates import (
    RANDOMIZED_RESPONSE_RATES,
    RATE_GRID,
    flip_probability,
    implemented_rate,
    laplace_flip_probability,
    rate_epsilon,
)
from ._sampling import (
    bernoulli_exp,
    discrete_laplace,
    geometric_exp,
    rational_scale,
)

__all__ = [
    "PrivacyGuarantee",
    "power_bound",
    "posterior_bound",
    "NOISE_KINDS",
    "NoiseCalibration",
    "calibrate_noise",
    "add_noise",
    "compose",
    "BudgetAccountant",
    "BudgetError",
    "bernoulli_exp",
    "geometric_exp",
    "discrete_laplace",
    "rational_scale",
    "RANDOMIZED_RESPONSE_RATES",
    "RATE_GRID",
    "flip_probability",
    "laplace_flip_probability",
    "implemented_rate",
    "rate_epsilon",
]
