"""
Clusters of a real network from one private release
===================================================

Books about US politics co-purchased on Amazon (105 books, 441 links; Krebs, as distributed
by Newman), each labelled liberal, neutral or conservative. The owner of the network makes
one release, charged to the network's budget, and publishes it; anyone then clusters the
published release. The same steps run on the command line as ``tdadp release``,
``tdadp embed`` and ``tdadp cluster``.
"""

import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from tdadp import (
    BlockModelClustering,
    BudgetAccountant,
    PrivateClustering,
    clustering_scores,
    from_networkx,
    load_release,
    save_release,
)
from tdadp.datasets import load_polbooks

G = load_polbooks()
A = from_networkx(G)  # carries the node names
truth = np.array([G.nodes[v]["label"] for v in G.nodes])

# %%
# The owner's side: one release at eps = 4, charged to a total budget of 4. A seed makes
# this page reproducible; a real release uses ``random_state="secure"``.
budget = BudgetAccountant(epsilon=4.0)
owner = PrivateClustering(epsilon=4.0, random_state=0, accountant=budget).fit(A)
print(budget.describe())
folder = Path(tempfile.mkdtemp())
save_release(folder / "release.csv", owner.release_)  # and its sidecar release.csv.json
print("published:", sorted(p.name for p in folder.iterdir()))

# %%
# Anyone's side: the published release, clustered. The embedding is adjusted for the flip
# rate the sidecar states; the cluster count is the number of eigenvalues of the release
# above its noise (see BlockModelClustering).
R = load_release(folder / "release.csv")
clusters = BlockModelClustering(random_state=0).fit(R)
print(f"{clusters.n_clusters_} clusters, significant: {clusters.significant_}, "
      f"partition kept: {clusters.selected_}")
print("against the books' leanings:", clustering_scores(truth, clusters.labels_))

# %%
# The same with the number of clusters given (3, the leanings):
given = BlockModelClustering(n_clusters=3, random_state=0).fit(R)
print(f"partition kept: {given.selected_};",
      "against the leanings:", clustering_scores(truth, given.labels_))

Y = np.asarray(given.embedding_)
fig, axes = plt.subplots(1, 2, figsize=(10, 4.3), sharex=True, sharey=True)
for ax, labels, title in ((axes[0], given.labels_, "clusters (3 given)"),
                          (axes[1], truth, "leanings (never read by the release)")):
    for value in np.unique(labels):
        ax.scatter(*Y[labels == value, :2].T, s=12, label=str(value))
    ax.set_title(title)
    ax.set_xlabel("embedding coordinate 1")
    ax.legend(fontsize=8)
axes[0].set_ylabel("embedding coordinate 2")
fig.tight_layout()
