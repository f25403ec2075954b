"""Shared data of the topology tests."""

import numpy as np
import pytest


def circles_and_blobs(n_clouds=20, n_points=60, seed=0):
    """Noisy circles (label 1, one long H1 bar) and Gaussian blobs (label 0, none)."""
    rng = np.random.default_rng(seed)
    clouds, labels = [], []
    for i in range(n_clouds):
        if i % 2:
            t = rng.uniform(0, 2 * np.pi, n_points)
            X = np.c_[np.cos(t), np.sin(t)] + rng.normal(0, 0.1, (n_points, 2))
        else:
            X = rng.normal(0, 0.6, (n_points, 2))
        clouds.append(X)
        labels.append(i % 2)
    return clouds, np.array(labels)


@pytest.fixture
def make_clouds():
    """:func:`circles_and_blobs`, for the test modules (which cannot import each other)."""
    return circles_and_blobs
