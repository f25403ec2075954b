"""Input checks shared by the stages: clear ValueErrors instead of crashes or silent errors."""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

__all__ = [
    "check_epsilon",
    "check_epsilon_array",
    "check_adjacency",
    "check_symmetric_matrix",
    "check_probability",
    "check_positive_int",
]

# Rows per block when scanning a dense n x n matrix, so that checks never allocate a second
# n x n temporary.
_SCAN_BYTES = 1 << 25


def check_epsilon(epsilon, name="epsilon", *, allow_zero=True, allow_inf=True):
    """A privacy budget as a float, or a ValueError naming what is wrong."""
    if isinstance(epsilon, bool) or not isinstance(epsilon, (numbers.Real, np.floating)):
        raise ValueError(f"{name} must be a real number, got {epsilon!r}.")
    eps = float(epsilon)
    if np.isnan(eps):
        raise ValueError(f"{name} is NaN; it must be a number in [0, inf].")
    if eps < 0:
        raise ValueError(f"{name} must be non-negative, got {eps}.")
    if eps == 0 and not allow_zero:
        raise ValueError(f"{name} = 0 is not allowed here.")
    if np.isinf(eps) and not allow_inf:
        raise ValueError(f"{name} = inf is not allowed here.")
    return eps


def check_epsilon_array(epsilon):
    """Privacy budgets (scalar or array) as a float array in [0, inf]."""
    eps = np.asarray(epsilon, dtype=float)
    if np.isnan(eps).any():
        raise ValueError("epsilon is NaN; it must be a number in [0, inf].")
    if (eps < 0).any():
        raise ValueError(f"epsilon must be non-negative, got {epsilon!r}.")
    return eps


def check_probability(p, name):
    """A probability in [0, 1] as a float."""
    if isinstance(p, bool) or not isinstance(p, (numbers.Real, np.floating)):
        raise ValueError(f"{name} must be a real number in [0, 1], got {p!r}.")
    p = float(p)
    if not 0.0 <= p <= 1.0:  # also rejects NaN
        raise ValueError(f"{name} must lie in [0, 1], got {p}.")
    return p


def check_positive_int(value, name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}.")
    return int(value)


def _row_blocks(n, width):
    step = max(1, _SCAN_BYTES // max(1, 8 * width))
    for start in range(0, n, step):
        yield start, min(n, start + step)


def _check_square(A, name):
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square 2-D matrix, got shape {A.shape}.")
    if A.shape[0] < 2:
        raise ValueError(f"{name} must have at least 2 nodes, got {A.shape[0]}.")


def check_symmetric_matrix(A, name="A", *, binary=False, hollow=False, tol=0.0,
                           keep_dtype=False):
    """Validate a (weighted or binary) symmetric matrix.

    Returns a C-contiguous ndarray or a canonical CSR matrix (sorted indices, no explicit
    zeros). Binary dense input is returned as ``uint8``; other dense input as ``float64``, or
    in its own numeric dtype with ``keep_dtype`` (no copy of a large matrix).
    """
    if sp.issparse(A):
        return _check_sparse(A, name, binary=binary, hollow=hollow, tol=tol)
    if isinstance(A, np.matrix):
        A = np.asarray(A)
    if not isinstance(A, np.ndarray):
        try:
            A = np.asarray(A)
        except Exception as exc:  # pragma: no cover - numpy's own message is kept
            raise ValueError(f"{name} could not be converted to an array: {exc}") from exc
    if A.dtype == object or not (np.issubdtype(A.dtype, np.number) or A.dtype == bool):
        raise ValueError(f"{name} must be numeric, got dtype {A.dtype}.")
    if np.iscomplexobj(A):
        raise ValueError(f"{name} must be real, got complex dtype {A.dtype}.")
    _check_square(A, name)
    n = A.shape[0]
    floating = np.issubdtype(A.dtype, np.floating)
    for i0, i1 in _row_blocks(n, n):
        block = A[i0:i1]
        if floating:
            if np.isnan(block).any():
                raise ValueError(f"{name} contains NaN.")
            if np.isinf(block).any():
                raise ValueError(f"{name} contains infinite values.")
        if binary and A.dtype != bool:
            bad = (block != 0) & (block != 1)
            if bad.any():
                r, c = np.argwhere(bad)[0]
                raise ValueError(
                    f"{name} must be binary (0/1); entry ({i0 + r}, {c}) is {block[r, c]!r}."
                )
        other = A[:, i0:i1].T
        if tol == 0 or not floating:
            asym = block != other
        else:
            asym = np.abs(block - other) > tol * (1 + np.abs(block))
        if asym.any():
            r, c = np.argwhere(asym)[0]
            raise ValueError(
                f"{name} must be symmetric; entries ({i0 + r}, {c}) and ({c}, {i0 + r}) differ."
            )
    if hollow:
        diag = np.diagonal(A)
        if np.any(diag != 0):
            i = int(np.flatnonzero(diag)[0])
            raise ValueError(
                f"{name} must have a zero diagonal (no self-loops); entry ({i}, {i}) is "
                f"{diag[i]!r}."
            )
    if binary:
        return np.ascontiguousarray(A, dtype=np.uint8)
    if keep_dtype:
        return np.ascontiguousarray(A)
    return np.ascontiguousarray(A, dtype=np.float64)


def _check_sparse(A, name, *, binary, hollow, tol):
    A = sp.csr_matrix(A)  # a copy-free view when already CSR
    if A.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got shape {A.shape}.")
    _check_square(A, name)
    if np.iscomplexobj(A.data):
        raise ValueError(f"{name} must be real, got complex dtype {A.dtype}.")
    if A.dtype == object:
        raise ValueError(f"{name} must be numeric, got dtype {A.dtype}.")
    A = A.copy()
    A.sum_duplicates()
    A.eliminate_zeros()
    A.sort_indices()
    data = A.data
    if np.issubdtype(data.dtype, np.floating):
        if np.isnan(data).any():
            raise ValueError(f"{name} contains NaN.")
        if np.isinf(data).any():
            raise ValueError(f"{name} contains infinite values.")
    if binary and data.size and np.any(data != 1):
        k = int(np.flatnonzero(data != 1)[0])
        row = int(np.searchsorted(A.indptr, k, side="right") - 1)
        raise ValueError(
            f"{name} must be binary (0/1); entry ({row}, {A.indices[k]}) is {data[k]!r}."
        )
    diff = (A - A.T).tocsr()
    diff.eliminate_zeros()
    if tol and diff.nnz:
        scale = 1 + abs(A).max()
        diff.data[np.abs(diff.data) <= tol * scale] = 0
        diff.eliminate_zeros()
    if diff.nnz:
        coo = diff.tocoo()
        raise ValueError(
            f"{name} must be symmetric; entries ({coo.row[0]}, {coo.col[0]}) and "
            f"({coo.col[0]}, {coo.row[0]}) differ."
        )
    if hollow:
        diag = A.diagonal()
        if np.any(diag != 0):
            i = int(np.flatnonzero(diag)[0])
            raise ValueError(
                f"{name} must have a zero diagonal (no self-loops); entry ({i}, {i}) is "
                f"{diag[i]!r}."
            )
    if binary:
        A = A.astype(np.uint8)
    else:
        A = A.astype(np.float64)
    return A


def check_adjacency(A, name="A"):
    """A simple undirected graph's adjacency: square, symmetric, binary, zero diagonal."""
    return check_symmetric_matrix(A, name, binary=True, hollow=True)
