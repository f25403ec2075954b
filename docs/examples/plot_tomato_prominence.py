"""
ToMATo's prominence diagram on a private embedding
==================================================

ToMATo (Chazal, Guibas, Oudot, Skraba, 2013) climbs a density estimate on a neighbourhood
graph and merges the modes whose *prominence* (peak density minus the density where they
meet a higher mode) is small. Its prominence diagram shows each mode as a point (birth,
death): the real clusters stand far below the diagonal. Here: two concentric latent circles
(1,200 and 400 nodes), released at eps = 2, privacy-adjusted embedding, and ToMATo with its
cluster count chosen by a bootstrap test.
"""

import matplotlib.pyplot as plt
import numpy as np

from tdadp import (
    ToMATo,
    adjacency_spectral_embedding,
    clustering_scores,
    edge_flip,
    plot_prominence,
    procrustes_align,
    sample_grdpg,
    two_circles,
)

X = two_circles((1200, 400), random_state=0)
A = sample_grdpg(X, random_state=1)
A_eps = edge_flip(A, 2.0, random_state=2)
Y = adjacency_spectral_embedding(A_eps, n_components=3, adjust=True)

model = ToMATo(random_state=0).fit(Y)
print(f"clusters: {model.n_clusters_}, significant at level 0.05: {model.significant_}")
print("scores against the two rings:", clustering_scores(X.labels, model.labels_))

# %%
# The embedding coloured by ToMATo's labels, and the prominence diagram. The dashed line is
# the merge threshold; modes below it are kept.
Y_aligned, _ = procrustes_align(Y, X)
fig, axes = plt.subplots(1, 2, figsize=(10, 4.3))
axes[0].scatter(*np.asarray(Y_aligned)[:, :2].T, c=model.labels_, s=3, cmap="coolwarm")
axes[0].set_aspect("equal")
axes[0].set_xlabel("coordinate 1")
axes[0].set_ylabel("coordinate 2")
axes[0].set_title("adjusted embedding, eps = 2, ToMATo labels")
plot_prominence(model, ax=axes[1])
axes[1].set_title("prominence diagram")
fig.tight_layout()
