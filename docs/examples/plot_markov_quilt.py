"""
A Markov quilt release of a correlated sequence
===============================================

Pufferfish privacy protects each record ``X_i = a`` against ``X_i = b`` when the records are
correlated, for every data distribution in a class Theta (Song, Wang and Chaudhuri, SIGMOD
2017). Here the records are one binary Markov chain of length 100 (say, active or not minute
by minute), Theta is every chain whose transition probabilities lie in [0.2, 0.8]
(``BinaryIntervalFamily(0.2)``), and the query is the histogram of states. Group DP protects
a record by treating the whole chain as one group; the Markov Quilt Mechanism needs only the
nearby records, and so far less noise.
"""

import matplotlib.pyplot as plt
import numpy as np

from tdadp.pufferfish import BinaryIntervalFamily, GroupDPHistogram, MQMApprox, MQMExact

T = 100
family = BinaryIntervalFamily(0.2)
rng = np.random.default_rng(0)
p, q = 0.8, 0.7  # a chain of the family: stay active with 0.8, stay inactive with 0.7
x = np.empty(T, dtype=int)
x[0] = 0
for t in range(1, T):
    stay = p if x[t - 1] == 1 else q
    x[t] = x[t - 1] if rng.random() < stay else 1 - x[t - 1]
print("relative frequencies of the states:", np.bincount(x, minlength=2) / T)

# %%
# The noise scale of each mechanism (Laplace noise on the relative frequencies) against eps.
epsilons = [0.2, 1.0, 5.0]
mechanisms = {"GroupDP": GroupDPHistogram, "MQMApprox": MQMApprox, "MQMExact": MQMExact}
scales = {name: [] for name in mechanisms}
fitted = {}
for eps in epsilons:
    for name, cls in mechanisms.items():
        # The class is covered by cells, so MQMExact's scale takes seconds: fit once.
        fitted[name, eps] = cls(family, eps, length=T, random_state=0).fit()
        scales[name].append(fitted[name, eps].noise_scale_)
for name, values in scales.items():
    print(f"{name:10s}" + "".join(f"{v:9.4f}" for v in values))

fig, ax = plt.subplots(figsize=(6, 4))
for name, values in scales.items():
    ax.plot(epsilons, values, marker="o", label=name)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("epsilon")
ax.set_ylabel("Laplace noise scale on the relative frequencies")
ax.set_title(f"binary chains with p, q in [0.2, 0.8], T = {T}")
ax.legend()
fig.tight_layout()

# %%
# One release at eps = 1: the fitted mechanism needs only the length of the data (fixed at
# fit), and states its guarantee.
mech = fitted["MQMExact", 1.0]
print("released frequencies:", np.round(mech.transform(x), 3),
      f"(noise scale {mech.noise_scale_:.3f}: one release of 100 records at eps = 1 is coarse)")
print(mech.guarantee_.describe())
