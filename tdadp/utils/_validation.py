"""Input checks shared by the stages: clear ValueErrors instead of crashes or silent errors.

Numeric data is checked for what a cast would hide: ``np.asarray(X, dtype=float)`` drops the
imaginary part of complex numbers (with a mere warning) and parses strings such as ``"0.5"``,
so :func:`as_real_array` refuses both before casting.

:func:`check_adjacency` is the simple-graph contract of every container: a graph whose
adjacency has a nonzero diagonal (self-loops) or entries other than 0 and 1 (weights, or the
parallel edges of a multigraph) is refused with a ValueError that counts them (never naming
nodes or values: the graph may be private), unless the caller opts in to dropping the
self-loops (``self_loops="drop"``) or binarizing the weights (``weights="binarize"``), which is
then reported in a UserWarning with the counts.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import scipy.sparse as sp

from ._params import Options, check_param, short_repr

__all__ = [
    "check_epsilon",
    "check_epsilon_array",
    "check_adjacency",
    "check_symmetric_matrix",
    "check_probability",
    "check_positive_int",
    "as_real_array",
    "SELF_LOOP_POLICIES",
    "WEIGHT_POLICIES",
]

SELF_LOOP_POLICIES = ("error", "drop", "keep")
WEIGHT_POLICIES = ("error", "binarize", "keep")

# Rows per block when scanning a dense n x n matrix, so that checks never allocate a second
# n x n temporary.
_SCAN_BYTES = 1 << 25


def check_epsilon(epsilon, name="epsilon", *, allow_zero=True, allow_inf=True):
    """A privacy budget as a float, or a ValueError naming what is wrong."""
    if isinstance(epsilon, bool) or not isinstance(epsilon, (numbers.Real, np.floating)):
        raise ValueError(f"{name} must be a real number, got {short_repr(epsilon)}.")
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
        raise ValueError(f"epsilon must be non-negative, got {short_repr(epsilon)}.")
    return eps


def check_probability(p, name):
    """A probability in [0, 1] as a float."""
    if isinstance(p, bool) or not isinstance(p, (numbers.Real, np.floating)):
        raise ValueError(f"{name} must be a real number in [0, 1], got {short_repr(p)}.")
    p = float(p)
    if not 0.0 <= p <= 1.0:  # also rejects NaN
        raise ValueError(f"{name} must lie in [0, 1], got {p}.")
    return p


def check_positive_int(value, name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {short_repr(value)}.")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {short_repr(value)}.")
    return int(value)


def _real_values(arr, name):
    """``arr`` (an ndarray) with a real numeric dtype, or a ValueError/TypeError saying why not.

    Object arrays holding real numbers are converted to float (as scikit-learn does); strings
    are refused rather than parsed, and complex numbers rather than cast (a cast drops the
    imaginary part), inside object arrays too.
    """
    if arr.dtype == object:
        # Counts, never the values: the data may be private.
        strings = sum(isinstance(v, (str, bytes)) for v in arr.flat)
        if strings:
            raise ValueError(f"{name} must be numeric, got strings ({strings} of "
                             f"{arr.size} entries).")
        complexes = sum(isinstance(v, (complex, np.complexfloating)) for v in arr.flat)
        if complexes:
            raise ValueError(f"{name} must be real: Complex data not supported ({complexes} "
                             f"of {arr.size} entries are complex).")
        if any(v is None for v in arr.flat):  # numpy would cast None to NaN
            raise TypeError(f"{name} must hold real numbers, got None.")
        try:
            return arr.astype(np.float64)
        except TypeError as exc:  # numpy's "float() argument must be ... a real number"
            raise TypeError(f"{name} must hold real numbers: {exc}.") from exc
    if np.iscomplexobj(arr):
        raise ValueError(f"{name} must be real: Complex data not supported (got dtype "
                         f"{arr.dtype}; casting would drop the imaginary part).")
    if arr.dtype.kind in "SU":
        raise ValueError(f"{name} must be numeric, got strings.")
    if arr.dtype.kind not in "biuf":  # dates, durations, raw bytes: not numbers at all
        raise TypeError(f"{name} must be numeric, got dtype {arr.dtype}.")
    return arr


def as_real_array(X, name="X", *, finite=True):
    """``X`` as a float64 ndarray of real numbers, or a clear error.

    Refused: sparse matrices (TypeError), ragged sequences, strings (also inside object arrays),
    complex numbers, other objects, and with ``finite`` (default) NaN and infinities; a
    persistence diagram's infinite deaths need ``finite=False``. Booleans count as 0 and 1.
    """
    if sp.issparse(X):
        # np.asarray would wrap a sparse matrix in a 0-d object array.
        raise TypeError(f"Sparse data not supported: {name} must be a dense array; convert "
                        "it with X.toarray().")
    try:
        arr = np.asarray(X)
    except ValueError as exc:  # a ragged nested sequence
        raise ValueError(f"{name} could not be read as an array: {exc}") from exc
    arr = np.asarray(_real_values(arr, name), dtype=np.float64)
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf.")
    return arr


def _row_blocks(n, width):
    step = max(1, _SCAN_BYTES // max(1, 8 * width))
    for start in range(0, n, step):
        yield start, min(n, start + step)


def _check_finite(values, name):
    if np.isnan(values).any():
        raise ValueError(f"{name} contains NaN.")
    if np.isinf(values).any():
        raise ValueError(f"{name} contains infinite values.")


def _check_shape(A, name):
    """A 2-D matrix with at least 2 rows and 2 columns (squareness is checked after NaN)."""
    if A.ndim != 2:
        raise ValueError(f"{name} must be a square 2-D matrix, got shape {A.shape}.")
    n, m = A.shape
    if n == 0 or m == 0:
        # Worded as scikit-learn words empty data, which its estimator checks look for.
        raise ValueError(f"{name} is empty: {n} sample(s) and {m} feature(s) (shape={A.shape}) "
                         "while a minimum of 2 is required (a graph's adjacency has a row and a "
                         "column per node).")
    if n < 2:
        raise ValueError(f"{name} must have at least 2 nodes, got n_samples = {n}.")


def _check_square(A, name):
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square 2-D matrix, got shape {A.shape}.")


def check_symmetric_matrix(A, name="A", *, tol=0.0, keep_dtype=False):
    """Validate a (weighted or binary) symmetric matrix of finite real numbers.

    Returns a C-contiguous ndarray or a canonical CSR matrix (sorted indices, no explicit
    zeros, duplicates summed as scipy defines them), as float64, or in the input's own numeric
    dtype with ``keep_dtype`` (no copy of a large dense matrix). ``tol`` is a relative
    tolerance on asymmetry, for float matrices symmetric only up to rounding.
    """
    if sp.issparse(A):
        return _check_sparse(A, name, tol=tol, keep_dtype=keep_dtype)
    if isinstance(A, np.matrix):
        A = np.asarray(A)
    if not isinstance(A, np.ndarray):
        try:
            A = np.asarray(A)
        except ValueError as exc:  # a ragged nested sequence
            raise ValueError(f"{name} could not be read as an array: {exc}") from exc
    if A.dtype == object:  # a graph's entries are numbers, never Python objects
        raise ValueError(f"{name} must be numeric, got dtype object.")
    A = _real_values(A, name)
    _check_shape(A, name)
    floating = np.issubdtype(A.dtype, np.floating)
    if A.shape[0] != A.shape[1]:
        if floating:
            _check_finite(A, name)  # NaN is the more basic fault: name it first
        _check_square(A, name)
    n = A.shape[0]
    for i0, i1 in _tiles(n):
        if floating:
            _check_finite(A[i0:i1], name)
        for j0, j1 in _tiles(n, i0):
            if _disagree(A, i0, i1, j0, j1, floating, tol).any():
                raise ValueError(_asymmetry(name, _count_asymmetric(A, floating, tol)))
    return np.ascontiguousarray(A, dtype=None if keep_dtype else np.float64)


# Side of the square tiles the symmetry check compares with their mirror images: both read
# in short contiguous runs that stay in cache, where a block of rows against the same block
# of columns read the columns with a stride of a whole row (0.31 CPU-s for a 10,000-node
# uint8 graph, 0.04 by tiles).
_TILE = 512


def _tiles(n, start=0):
    for i0 in range(start, n, _TILE):
        yield i0, min(n, i0 + _TILE)


def _disagree(A, i0, i1, j0, j1, floating, tol):
    """Where tile ``A[i0:i1, j0:j1]`` differs from the transpose of its mirror tile."""
    block, other = A[i0:i1, j0:j1], A[j0:j1, i0:i1].T
    if tol == 0 or not floating:
        return block != other
    return np.abs(block - other) > tol * (1 + np.abs(block))


def _count_asymmetric(A, floating, tol):
    """Pairs (i, j), i < j, with A[i, j] != A[j, i]: tiles on or above the diagonal, where a
    diagonal tile sees each of its pairs from both sides."""
    n = A.shape[0]
    total = 0
    for i0, i1 in _tiles(n):
        for j0, j1 in _tiles(n, i0):
            count = int(np.count_nonzero(_disagree(A, i0, i1, j0, j1, floating, tol)))
            total += count // 2 if j0 == i0 else count
    return total


def _asymmetry(name, pairs):
    # The graph may be private: say how many dyads disagree, never which.
    return (f"{name} must be symmetric (an undirected graph); {_plural(pairs, 'pair')} of "
            "entries A[i, j] != A[j, i]. Symmetrize it first, e.g. with the maximum of A "
            "and its transpose.")


def _check_sparse(A, name, *, tol, keep_dtype):
    if A.ndim != 2:
        raise ValueError(f"{name} must be a square 2-D matrix, got shape {A.shape}.")
    if A.dtype.kind == "c":
        raise ValueError(f"{name} must be real: Complex data not supported (got dtype "
                         f"{A.dtype}; casting would drop the imaginary part).")
    if A.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got dtype {A.dtype}.")
    _check_shape(A, name)
    A = sp.csr_matrix(A, copy=True)
    A.sum_duplicates()
    A.eliminate_zeros()
    A.sort_indices()
    if np.issubdtype(A.dtype, np.floating):
        _check_finite(A.data, name)
    _check_square(A, name)
    diff = (A - A.T).tocsr()
    diff.eliminate_zeros()
    if tol and diff.nnz:
        scale = 1 + abs(A).max()
        diff.data[np.abs(diff.data) <= tol * scale] = 0
        diff.eliminate_zeros()
    if diff.nnz:
        raise ValueError(_asymmetry(name, diff.nnz // 2))
    return A if keep_dtype else A.astype(np.float64)


# --- the simple-graph contract ---------------------------------------------------------------

def _plural(k, word):
    return f"{k} {word}" + ("" if k == 1 else "s")




def _without_diagonal(A):
    if sp.issparse(A):
        coo = A.tocoo()
        off = coo.row != coo.col
        out = sp.csr_matrix((coo.data[off], (coo.row[off], coo.col[off])), shape=A.shape)
        out.sort_indices()
        return out
    out = A.copy()
    np.fill_diagonal(out, 0)
    return out


def _nonbinary_entries(A):
    """How many upper-triangle entries are neither 0 nor 1."""
    if A.dtype == bool:
        return 0
    if sp.issparse(A):
        return int(np.count_nonzero(sp.triu(A, format="coo").data != 1))  # no explicit zeros
    n = A.shape[0]
    count = 0
    for i0, i1 in _row_blocks(n, n):
        block = A[i0:i1, i0:]
        bad = block > 1 if A.dtype.kind == "u" else (block != 0) & (block != 1)
        bad &= np.arange(i0, n)[None, :] >= np.arange(i0, i1)[:, None]  # upper triangle
        count += int(np.count_nonzero(bad))
    return count


def _binarized(A):
    if sp.issparse(A):
        out = A.astype(bool).astype(np.uint8)  # every stored entry is nonzero
        out.sort_indices()
        return out
    return np.not_equal(A, 0).view(np.uint8)


def check_adjacency(A, name="A", *, self_loops="error", weights="error", nodes=None,
                    opt_in="tdadp.io.simple_graph(A, {})", stacklevel=2):
    """The adjacency matrix of a simple undirected graph: symmetric, zero diagonal, binary.

    A nonzero diagonal entry is a self-loop; an entry other than 0 and 1 is a weighted edge
    (a multigraph's parallel edges add up to one). Both are refused with a ValueError that
    counts them, unless the caller opts in (messages never name the nodes or quote the values:
    the graph may be private, and an error message is often logged or shown):

    - ``self_loops="drop"`` zeroes the diagonal, ``"keep"`` leaves it;
    - ``weights="binarize"`` makes every nonzero entry 1, ``"keep"`` leaves the weights (the
      result is then float64).

    What an opt-in changed is reported in a UserWarning with the counts (once nothing is
    refused). Self-loops are handled first, so a dropped loop is never reported as a weight.

    Parameters
    ----------
    A : array-like or scipy sparse matrix of shape (n, n)
    name : str, default="A"
        How messages call the graph.
    self_loops : {"error", "drop", "keep"}, default="error"
    weights : {"error", "binarize", "keep"}, default="error"
    nodes : list, optional
        Node names, checked to be one per row.
    opt_in : str, default="tdadp.io.simple_graph(A, {})"
        The call that opts in, shown in the error (``{}`` is replaced by the keyword).
    stacklevel : int, default=2
        Of the warning, counted from the caller of this function.

    Returns
    -------
    A : C-contiguous ndarray or CSR matrix
        ``uint8`` unless ``weights="keep"`` (then float64).
    """
    check_param(self_loops, [Options(*SELF_LOOP_POLICIES)], "self_loops")
    check_param(weights, [Options(*WEIGHT_POLICIES)], "weights")
    A = check_symmetric_matrix(A, name, keep_dtype=True)
    if nodes is not None and len(nodes) != A.shape[0]:
        raise ValueError(f"{len(nodes)} node names for {name}, a graph with {A.shape[0]} nodes.")
    changed = []  # what the opt-ins changed, reported once nothing is refused
    n_loops = int(np.count_nonzero(A.diagonal()))
    if n_loops and self_loops != "keep":
        what = f"{_plural(n_loops, 'self-loop')} (nonzero diagonal entries)"
        if self_loops == "error":
            raise ValueError(
                f"{name} has {what}; a simple graph has none. To drop them, say so: "
                + opt_in.format("self_loops='drop'") + ".")
        changed.append(f"{name}: dropped {what}.")
        A = _without_diagonal(A)
    if weights == "keep":
        A = A.astype(np.float64) if sp.issparse(A) else np.ascontiguousarray(A, np.float64)
    else:
        count = _nonbinary_entries(A)
        if count:
            what = f"{_plural(count, 'weighted edge')} (entries other than 0 and 1)"
            if weights == "error":
                raise ValueError(
                    f"{name} has {what}; a simple graph's edges have weight 1. To make every "
                    "nonzero weight an edge, say so: " + opt_in.format("weights='binarize'")
                    + ".")
            changed.append(f"{name}: binarized {what} (each is now an edge of weight 1).")
            A = _binarized(A)
        A = A.astype(np.uint8) if sp.issparse(A) else np.ascontiguousarray(A, np.uint8)
    for message in changed:
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)
    return A
