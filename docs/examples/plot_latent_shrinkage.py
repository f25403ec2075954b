"""
The latent circle shrinks under edgeFlip
========================================

An edgeFlip release of a random dot-product graph is again one, with latent positions
``phi(x) = sqrt(1 - 2 pi) x ⊕ sqrt(pi)`` (Vishwanath and Hehir): the latent circle keeps its
shape and shrinks by ``sqrt(1 - 2 pi)``, ``pi = 1 / (1 + e^eps)``. The plain embedding of the
release shows the shrunken circle; the privacy-adjusted one restores its radius, at the price
of more noise.
"""

import matplotlib.pyplot as plt
import numpy as np

from tdadp import (
    adjacency_spectral_embedding,
    circle,
    edge_flip,
    flip_probability,
    procrustes_align,
    sample_grdpg,
)

X = circle(1500, random_state=0)  # radius 0.4 around a centre that keeps P in [0, 1]
A = sample_grdpg(X, random_state=1)
epsilons = [np.inf, 2.0, 1.0, 0.5]

fig, axes = plt.subplots(2, 4, figsize=(12, 6), sharex=True, sharey=True)
for j, eps in enumerate(epsilons):
    A_eps = edge_flip(A, eps, random_state=2)
    for i, adjust in enumerate((False, True)):
        # The plain embedding of the release has one more dimension (the sqrt(pi)
        # coordinate); its first three are compared with the latent circle's.
        Y = adjacency_spectral_embedding(A_eps, n_components=3, adjust=adjust)
        Y, _ = procrustes_align(Y, X)
        Y = np.asarray(Y)
        centre = Y[:, :2].mean(axis=0)
        radius = np.linalg.norm(Y[:, :2] - centre, axis=1).mean()
        ax = axes[i, j]
        ax.scatter(*Y[:, :2].T, s=2, alpha=0.5)
        ax.set_aspect("equal")
        ax.set_title(f"eps = {eps:g}, {'adjusted' if adjust else 'plain'}\n"
                     f"mean radius {radius:.3f}", fontsize=9)
        if i == 1:
            ax.set_xlabel("coordinate 1")
        if j == 0:
            ax.set_ylabel("coordinate 2")
fig.tight_layout()

# %%
# The prediction, ``0.4 sqrt(1 - 2 pi(eps))``, for the plain embeddings above:
for eps in epsilons:
    print(f"eps = {eps:>4g}: pi = {flip_probability(eps):.4f}, "
          f"predicted radius {0.4 * np.sqrt(1 - 2 * flip_probability(eps)):.3f}")
