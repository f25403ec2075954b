"""
Cross-validated classification of private graphs
================================================

A sample is a whole graph. Here 12 graphs of 240 nodes: 6 drawn from a latent circle and 6
from a three-block SBM, each released at eps = 2. A Pipeline embeds every release (adjusted for its
flip rate), computes its persistence diagrams, turns them into distances to the training
diagrams (H0 and H1 combined) and classifies with a nearest-neighbour rule on those
distances; ``cross_val_score`` runs it with no wrapper.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

from tdadp import (
    AdjacencySpectralEmbedding,
    EdgeFlip,
    PairwiseDistance,
    PersistentHomology,
    circle,
    plot_diagram,
    sample_grdpg,
    sbm,
)

N_GRAPHS, N_NODES = 6, 240
B = [[0.5, 0.2, 0.2], [0.2, 0.5, 0.2], [0.2, 0.2, 0.5]]
graphs, y = [], []
for r in range(N_GRAPHS):
    graphs.append(sample_grdpg(circle(N_NODES, random_state=r), random_state=100 + r))
    y.append("circle")
    graphs.append(sample_grdpg(sbm([80, 80, 80], B, random_state=r), random_state=200 + r))
    y.append("sbm")
y = np.array(y)

pipe = make_pipeline(
    EdgeFlip(epsilon=2.0, random_state=0),
    AdjacencySpectralEmbedding(n_components=3, adjust=True),
    PersistentHomology(complex="alpha", homology_dimensions=(0, 1)),
    PairwiseDistance(metric="bottleneck"),
    KNeighborsClassifier(n_neighbors=3, metric="precomputed"),
)
cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
scores = cross_val_score(pipe, graphs, y, cv=cv)
print(f"accuracy per fold: {np.round(scores, 3)}; mean {scores.mean():.3f}")

# %%
# The graphs must be large enough for their shape to stand above the release's noise: with
# 120 nodes per graph (SBM blocks of 40) the same pipeline scored 0.5, 0.75 and 0.5 on the
# three folds when this example was written.

# %%
# What the classifier tells apart: the H1 diagrams of one release of each kind (the circle's
# loop stands far from the diagonal; the SBM's three blobs have none).
diagrams = pipe[:3].fit_transform(graphs[:2])
fig, axes = plt.subplots(1, 2, figsize=(9, 4.2))
for ax, D, kind in zip(axes, diagrams, y[:2]):
    plot_diagram(D, ax=ax, title=f"{kind}: diagrams of the adjusted embedding")
fig.tight_layout()
