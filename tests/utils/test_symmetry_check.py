"""check_symmetric_matrix compares square tiles with their mirror images: every asymmetric
pair is found and counted once, wherever it lies (diagonal or off-diagonal tile, tile edges)."""

import numpy as np
import pytest

from tdadp.utils._validation import _TILE, check_symmetric_matrix


def _symmetric(n, seed, dtype):
    rng = np.random.default_rng(seed)
    U = np.triu(rng.random((n, n)) < 0.2, 1)
    return (U | U.T).astype(dtype)


@pytest.mark.parametrize("dtype", [np.uint8, np.float64])
def test_a_symmetric_matrix_across_several_tiles_passes(dtype):
    n = 2 * _TILE + 37
    A = _symmetric(n, 0, dtype)
    out = check_symmetric_matrix(A, keep_dtype=True)
    np.testing.assert_array_equal(out, A)


@pytest.mark.parametrize("dtype", [np.uint8, np.float64])
def test_each_asymmetric_pair_is_counted_once(dtype):
    n = 2 * _TILE + 37
    A = _symmetric(n, 1, dtype)
    # pairs in a diagonal tile, an off-diagonal tile, on tile edges and in the ragged last tile
    pairs = [(0, 1), (3, _TILE + 5), (_TILE - 1, _TILE), (_TILE, 2 * _TILE + 36),
             (2 * _TILE + 2, 2 * _TILE + 30), (10, n - 1), (_TILE + 7, 2 * _TILE - 1)]
    for i, j in pairs:
        A[i, j] = 1 - A[j, i]
    with pytest.raises(ValueError, match=f"; {len(pairs)} pairs of entries"):
        check_symmetric_matrix(A)


def test_a_float_matrix_symmetric_to_the_tolerance_passes():
    n = _TILE + 3
    A = _symmetric(n, 2, np.float64) * 0.3
    A[2, _TILE + 1] = A[_TILE + 1, 2] = 0.3
    B = A.copy()
    B[2, _TILE + 1] *= 1 + 1e-12
    check_symmetric_matrix(B, tol=1e-9)
    with pytest.raises(ValueError, match="; 1 pair of entries"):
        B[2, _TILE + 1] = A[2, _TILE + 1] + 0.5
        check_symmetric_matrix(B, tol=1e-9)
