"""Model selection over a list of real connectomes, with no wrapper.

The data are the 32 mouse connectomes that graspologic ships (Wang et al., NeuroImage 2020:
diffusion-MRI connectomes of 332 regions, 8 mice of each of 4 genotypes), binarised to the
10% strongest pairs of each graph and stored in ``tests/data/mouse_connectomes.npz`` (see
``tests/data/README.md`` for how it was made). Only numpy reads it here.

A sample is one whole connectome: ``cross_val_score``, ``GridSearchCV`` and
``cross_val_predict`` index the list of graphs by graph, and the labels are the genotypes.
The pipeline releases each graph under edgeFlip, embeds it with the privacy adjustment,
takes its H0 diagram and classifies by 1-nearest neighbour on bottleneck distances (the
pattern of ``test_graph_model_selection.py``).

The bottleneck distances between diagrams dominate the cost: about 3 ms a pair of 166-point
diagrams, and a fold costs C(n_train, 2) + n_test * n_train pairs. To keep the default run
short the model-selection tests see a subset, 16 connectomes (the first four mice of each
genotype in subject-id order: two males, two females) cut to their left hemisphere (166
regions). The ``slow`` test runs cross-validation on all 32 whole connectomes.
"""

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

import tdadp
from tdadp.topology import PairwiseDistance, PersistentHomology

DATA = Path(__file__).parent / "data" / "mouse_connectomes.npz"
GENOTYPES = ("B6", "BTBR", "CAST", "DBA2")


def _unpack(bits, n):
    """Symmetric 0/1 adjacency matrix from the packed strict upper triangle (row-major)."""
    iu = np.triu_indices(n, 1)
    A = np.zeros((n, n), dtype=np.uint8)
    A[iu] = np.unpackbits(bits, count=iu[0].size)
    return A | A.T


@pytest.fixture(scope="module")
def mice():
    with np.load(DATA, allow_pickle=False) as z:
        data = {key: z[key] for key in z.files}
    n = int(data["n_nodes"])
    data["graphs"] = [_unpack(bits, n) for bits in data["upper_bits"]]
    return data


def _first_four(genotype):
    """Indices of the first four mice of each genotype, in the file's (subject-id) order."""
    return [i for i, g in enumerate(genotype) if np.count_nonzero(genotype[:i] == g) < 4]


@pytest.fixture(scope="module")
def left(mice):
    """The subset: the left-hemisphere subgraphs (dense arrays) of the first four mice of each
    genotype, and their genotypes."""
    y = mice["genotype"]
    mouse = _first_four(y)
    keep = np.flatnonzero(mice["hemisphere"] == "L")
    return [mice["graphs"][i][np.ix_(keep, keep)] for i in mouse], y[mouse]


def _pipeline():
    return make_pipeline(
        tdadp.EdgeFlip(4.0, random_state=0),
        # ARPACK (seeded, deterministic) for the 2-3 top eigenpairs: several times faster
        # than the full dense eigendecomposition that solver="auto" picks at this size.
        tdadp.AdjacencySpectralEmbedding(n_components=2, adjust=True, solver="arpack"),
        PersistentHomology(complex="alpha", homology_dimensions=0),
        PairwiseDistance(homology_dimensions=0),
        KNeighborsClassifier(n_neighbors=1, metric="precomputed"),
    )


def test_the_extract_is_the_documented_data(mice):
    assert Counter(mice["genotype"].tolist()) == dict.fromkeys(GENOTYPES, 8)
    for genotype in GENOTYPES:
        sexes = mice["sex"][mice["genotype"] == genotype]
        assert Counter(sexes.tolist()) == {"male": 4, "female": 4}
    assert len(set(mice["participant_id"].tolist())) == 32
    n = int(mice["n_nodes"])
    assert n == 332
    # Vertices 0-165 are the left hemisphere, 166-331 the right (Waxholm Space atlas).
    assert mice["hemisphere"].tolist() == ["L"] * 166 + ["R"] * 166
    pairs = n * (n - 1) // 2
    kept = round(float(mice["keep_fraction"]) * pairs)
    assert kept == 5495
    assert len(mice["graphs"]) == 32
    for A in mice["graphs"]:
        assert A.shape == (n, n) and np.array_equal(A, A.T) and not A.diagonal().any()
        assert A.sum() // 2 == kept  # exactly 10% of the pairs, in every graph
    assert len({A.tobytes() for A in mice["graphs"]}) == 32


def test_left_hemisphere_density(mice):
    # The strongest pairs are mostly within a hemisphere, so the left-hemisphere subgraphs
    # are denser than the 10% of the whole graph: 11.7% to 15.9% measured.
    keep = np.flatnonzero(mice["hemisphere"] == "L")
    m = keep.size
    density = np.array([A[np.ix_(keep, keep)].sum() / (m * (m - 1)) for A in mice["graphs"]])
    assert m == 166
    assert ((density > 0.10) & (density < 0.20)).all(), density


def test_the_subset(mice, left):
    X, y = left
    assert len(X) == 16 and all(A.shape == (166, 166) for A in X)
    assert Counter(y.tolist()) == dict.fromkeys(GENOTYPES, 4)
    sex = mice["sex"][_first_four(mice["genotype"])]
    assert Counter(zip(y.tolist(), sex.tolist())) == {
        (g, s): 2 for g in GENOTYPES for s in ("male", "female")}


def test_cross_validation_splits_the_connectomes_by_graph(left):
    X, y = left
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    scores = cross_val_score(_pipeline(), X, y, cv=cv, error_score="raise")
    # The same folds by hand: fit on the training graphs, score on the held-out graphs.
    manual = [clone(_pipeline()).fit([X[i] for i in train], y[train])
              .score([X[i] for i in test], y[test]) for train, test in cv.split(X, y)]
    assert len(scores) == 4
    np.testing.assert_array_equal(scores, manual)


def test_grid_search_over_the_release_and_the_embedding(left):
    X, y = left
    grid = {"edgeflip__epsilon": [1.0, 4.0, np.inf],
            "adjacencyspectralembedding__n_components": [2, 3]}
    cv = StratifiedKFold(2, shuffle=True, random_state=0)
    search = GridSearchCV(_pipeline(), grid, cv=cv, error_score="raise").fit(X, y)
    assert len(search.cv_results_["params"]) == 6
    assert len(search.cv_results_["mean_test_score"]) == 6
    assert search.best_params_ in search.cv_results_["params"]
    predicted = search.predict(X)
    assert predicted.shape == (16,) and set(predicted) <= set(GENOTYPES)


def test_cross_val_predict_labels_every_connectome(left):
    X, y = left
    predicted = cross_val_predict(_pipeline(), X, y, cv=StratifiedKFold(4))
    assert predicted.shape == y.shape and set(predicted) <= set(GENOTYPES)


@pytest.mark.slow
def test_cross_val_predict_on_all_whole_connectomes(mice):
    X, y = mice["graphs"], mice["genotype"]
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    predicted = cross_val_predict(_pipeline(), X, y, cv=cv)
    assert predicted.shape == (32,) and set(predicted) <= set(GENOTYPES)
