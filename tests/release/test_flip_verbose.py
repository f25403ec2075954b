"""verbose= on the flip mechanisms: a progress bar over row blocks that never changes a release."""

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp import EdgeFlip, LaplaceFlip, edge_flip, laplace_flip
from tdadp.graphs import PackedAdjacency
from tdadp.graphs._packed import fill_blocks

N = 6000  # packed blocks of 1398 rows: five blocks


def _same(a, b):
    if isinstance(a, PackedAdjacency):
        return isinstance(b, PackedAdjacency) and np.array_equal(a.words, b.words)
    if sp.issparse(a):
        return sp.issparse(b) and (a != b).nnz == 0
    return np.array_equal(a, b)


@pytest.mark.parametrize("cls", [EdgeFlip, LaplaceFlip])
@pytest.mark.parametrize("output", ["packed", "dense", "sparse"])
def test_verbose_gives_the_same_release(cls, output, capfd):
    A = PackedAdjacency.from_edges(N, np.arange(N - 1), np.arange(1, N))
    quiet = cls(1.0, random_state=3, output=output).fit_transform(A)
    assert capfd.readouterr().err == ""
    loud = cls(1.0, random_state=3, output=output, verbose=True).fit_transform(A)
    err = capfd.readouterr().err
    assert _same(quiet, loud)
    # a packed input is flipped block by block, whatever the output kind
    assert f"{cls.__name__} release" in err and f"{N}/{N}" in err


def test_dense_input_bar_over_rows_same_release(capfd):
    n = 2500
    rng = np.random.default_rng(0)
    A = np.triu(rng.random((n, n)) < 0.01, 1).astype(np.uint8)
    A = A + A.T
    quiet = edge_flip(A, 1.0, random_state=4, output="dense")
    loud = edge_flip(A, 1.0, random_state=4, output="dense", verbose=True)
    assert np.array_equal(quiet, loud)
    assert f"{n}/{n}" in capfd.readouterr().err


def test_sparse_release_draws_at_once_no_bar(capfd):
    # the sparse path has no blocks: nothing to show, nothing changed
    A = sp.csr_matrix(np.eye(50, k=1, dtype=np.uint8) + np.eye(50, k=-1, dtype=np.uint8))
    quiet = laplace_flip(A, 2.0, random_state=5, output="sparse")
    loud = laplace_flip(A, 2.0, random_state=5, output="sparse", verbose=True)
    assert (quiet != loud).nnz == 0
    assert capfd.readouterr().err == ""


def test_verbose_is_a_declared_parameter():
    mech = EdgeFlip(verbose=True)
    assert mech.get_params()["verbose"] is True
    with pytest.raises(ValueError, match="verbose"):
        EdgeFlip(verbose="yes").fit()


def test_fill_blocks_reports_every_row_once():
    out = PackedAdjacency(N)
    seen = []

    def block(i0, i1, g):
        return np.zeros((i1 - i0, out.n_words_per_row), dtype=np.uint64)

    fill_blocks(out, block, [None] * len(out.block_ranges()), n_threads=3,
                progress=seen.append)
    assert seen == [i1 - i0 for i0, i1 in out.block_ranges()] and sum(seen) == N
