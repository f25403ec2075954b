"""Shared fixtures of the privacy tests."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def pair():
    """Neighbouring graphs on 6 nodes, one edge apart (test_audit_robust has its own)."""
    G0 = np.zeros((6, 6), dtype=np.uint8)
    G0[2, 3] = G0[3, 2] = G0[4, 5] = G0[5, 4] = 1
    G1 = G0.copy()
    G1[0, 1] = G1[1, 0] = 1
    return G0, G1
