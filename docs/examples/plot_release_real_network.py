"""
A private release of a real network and its embedding
=====================================================

The political blogs network (Adamic and Glance, 2005; its largest component: 1,222 blogs,
16,714 links) released under eps-edge differential privacy with edgeFlip, then embedded.
Every dyad is flipped with probability ``1 / (1 + e^eps)``; the privacy-adjusted spectral
embedding ``(A_eps - pi (11^T - I)) / (1 - 2 pi)`` estimates the embedding of the network
itself. The colours are the blogs' political leaning, which the release never reads.
"""

import matplotlib.pyplot as plt
import numpy as np

from tdadp import AdjacencySpectralEmbedding, EdgeFlip, from_networkx, procrustes_align
from tdadp.datasets import load_polblogs

G = load_polblogs(largest_component=True)
A, nodes = from_networkx(G, return_nodes=True)  # sparse CSR, node order kept
leaning = np.array([G.nodes[v]["label"] for v in nodes])
print(f"{A.shape[0]} nodes, {A.nnz // 2} edges")

# %%
# The release. A seed makes this page reproducible; a real release uses
# ``random_state="secure"`` (whoever knows the seed can undo the flips).
mechanism = EdgeFlip(epsilon=4.0, random_state=0).fit()
A_eps = mechanism.transform(A)
print(mechanism.guarantee_.describe())
print(f"edges in the release: {A_eps.nnz // 2}")

# %%
# The embedding of the network and of its release, in two dimensions. The release carries its
# flip rate, so ``adjust=True`` needs no epsilon.
Y = AdjacencySpectralEmbedding(n_components=2).fit_transform(A)
Y_eps = AdjacencySpectralEmbedding(n_components=2, adjust=True).fit_transform(A_eps)
Y_eps, _ = procrustes_align(Y_eps, Y)  # the embedding is defined up to an orthogonal map

fig, axes = plt.subplots(1, 2, figsize=(9, 4), sharex=True, sharey=True)
for ax, Z, title in ((axes[0], Y, "network (not private)"),
                     (axes[1], Y_eps, "edgeFlip release, eps = 4, adjusted")):
    for value, colour, name in ((0, "tab:blue", "liberal"), (1, "tab:red", "conservative")):
        ax.scatter(*np.asarray(Z)[leaning == value].T, s=4, c=colour, label=name, alpha=0.6)
    ax.set_title(title)
    ax.set_xlabel("embedding coordinate 1")
axes[0].set_ylabel("embedding coordinate 2")
axes[0].legend(markerscale=3)
fig.tight_layout()

# %%
# How far the release moved each blog, relative to the spread of the embedding:
error = np.linalg.norm(np.asarray(Y_eps) - np.asarray(Y), axis=1)
spread = np.linalg.norm(np.asarray(Y) - np.asarray(Y).mean(axis=0), axis=1)
print(f"median displacement {np.median(error):.3f}, median distance to the centre "
      f"{np.median(spread):.3f}")
