"""Leiden's partition coarsened to K blocks, and the likelihood merges behind it."""

import itertools

import numpy as np
import pytest
from scipy.special import xlogy

from tdadp import EdgeFlip, sample_grdpg, sbm
from tdadp.cluster import clustering_scores
from tdadp.cluster._modularity import leiden_partition, merge_blocks
from tdadp.embed import adjusted_adjacency


def _loglik(M):
    kappa = M.sum(axis=1)
    return xlogy(M, M).sum() - xlogy(M, np.outer(kappa, kappa)).sum()


def _brute_force_greedy(M, n_blocks):
    """The greedy merges by trying every pair and recomputing the whole likelihood."""
    groups, M = [[i] for i in range(M.shape[0])], M.copy()
    while len(groups) > n_blocks:
        best = None
        for a, b in itertools.combinations(range(len(groups)), 2):
            keep = [i for i in range(len(groups)) if i != b]
            X = M.copy()
            X[a] += X[b]
            X[:, a] += X[:, b]
            X = X[np.ix_(keep, keep)]
            if best is None or _loglik(X) > best[0] + 1e-9:
                best = (_loglik(X), a, b, X)
        _, a, b, M = best
        groups[a] += groups[b]
        del groups[b]
    out = np.empty(sum(map(len, groups)), dtype=int)
    for i, group in enumerate(groups):
        out[group] = i
    return out


@pytest.mark.parametrize("seed", range(40))
def test_merges_are_the_greedy_likelihood_merges(seed):
    rng = np.random.default_rng(seed)
    c = int(rng.integers(2, 9))
    M = rng.random((c, c)) * 10
    M = M + M.T
    n_blocks = int(rng.integers(1, c + 1))
    found = merge_blocks(M, n_blocks)
    assert np.unique(found).size == n_blocks
    assert clustering_scores(_brute_force_greedy(M, n_blocks), found)["ari"] == 1.0


def test_leiden_partition_has_k_blocks_and_finds_planted_communities():
    B = np.full((4, 4), 0.04) + np.eye(4) * 0.4
    A = sample_grdpg(sbm([40, 40, 40, 40], B, random_state=0), random_state=1)
    truth = np.repeat(np.arange(4), 40)
    for K in (2, 4, 6):
        labels = leiden_partition(A, adjusted_adjacency(A), K, seed=0)
        assert np.unique(labels).size == K
    release = EdgeFlip(4.0, random_state=2).fit_transform(A)
    labels = leiden_partition(release, adjusted_adjacency(release), 4, seed=0)
    assert clustering_scores(truth, labels)["ari"] > 0.9


def test_leiden_partition_is_reproducible_and_leaves_igraphs_generator_alone():
    import random

    import igraph

    B = np.full((3, 3), 0.1) + np.eye(3) * 0.2
    A = EdgeFlip(2.0, random_state=3).fit_transform(
        sample_grdpg(sbm([30, 30, 30], B, random_state=0), random_state=1))
    first = leiden_partition(A, adjusted_adjacency(A), 3, seed=5)
    second = leiden_partition(A, adjusted_adjacency(A), 3, seed=5)
    np.testing.assert_array_equal(first, second)
    random.seed(11)
    expected = random.random()
    random.seed(11)
    leiden_partition(A, adjusted_adjacency(A), 3, seed=5)
    assert random.random() == expected  # the module's generator was not drawn from
    assert igraph.Graph.Erdos_Renyi(5, 0.5) is not None


def test_a_packed_release_is_partitioned_as_its_sparse_copy():
    from tdadp import PackedAdjacency

    B = np.full((3, 3), 0.05) + np.eye(3) * 0.3
    A = EdgeFlip(3.0, random_state=4).fit_transform(
        sample_grdpg(sbm([30, 30, 30], B, random_state=0), random_state=1))
    packed = EdgeFlip(3.0, random_state=4, output="packed").fit_transform(
        sample_grdpg(sbm([30, 30, 30], B, random_state=0), random_state=1))
    assert isinstance(packed, PackedAdjacency)
    np.testing.assert_array_equal(
        leiden_partition(packed, adjusted_adjacency(packed), 3, seed=0),
        leiden_partition(A, adjusted_adjacency(A), 3, seed=0))


def test_block_counts_of_the_merges_are_the_operators():
    # The merges read the adjusted block counts from the CSR copy: the same as the operator's.
    from tdadp.cluster._modularity import _coarsened, _csr

    B = np.full((3, 3), 0.1) + np.eye(3) * 0.2
    release = EdgeFlip(1.5, random_state=2).fit_transform(
        sample_grdpg(sbm([20, 25, 30], B, random_state=0), random_state=1))
    op = adjusted_adjacency(release)
    labels = np.random.default_rng(0).integers(0, 9, 75)
    Z = np.eye(9)[labels]
    expected = merge_blocks(Z.T @ op.matmat(Z), 4)[labels]
    np.testing.assert_array_equal(_coarsened(labels, _csr(release), op, 4), expected)
