"""The compiled gRDPG block sampler against its numpy reference, on every kind of block."""

import numpy as np
import pytest

import tdadp.graphs._grdpg as grdpg
from tdadp import circle, sample_grdpg
from tdadp.graphs import PackedAdjacency
from tdadp.graphs._dyads import row_blocks
from tdadp.graphs._grdpg import sample_packed_block
from tdadp.graphs._packed_kernels import bernoulli_block_reference
from tdadp.utils import OSRandom


def _reference(X, J, sparsity, seed, i0, i1):
    # The draws the sampler promises: row-major uniforms over the block's stored columns.
    n = X.shape[0]
    c0 = 64 * ((i0 + 1) // 64)
    U = np.random.default_rng(seed).random((i1 - i0, n - c0))
    full, lo, hi = bernoulli_block_reference(X[i0:i1] * (sparsity * J), X, U, c0, i0,
                                             -(-n // 64))
    return full


def _positions(n, d, q, seed=0):
    # Latent positions whose every <x_i, I_pq x_j> lies in [0, 1].
    # The positive part lies in [1/4, 1], the negative part in [0, 1/4].
    rng = np.random.default_rng(seed)
    X = np.empty((n, d))
    X[:, :d - q] = (0.5 + 0.5 * rng.random((n, d - q))) / np.sqrt(d - q)
    X[:, d - q:] = 0.5 * rng.random((n, q)) / np.sqrt(max(q, 1))
    return X, np.r_[np.ones(d - q), -np.ones(q)]


@pytest.mark.parametrize("n, d, q", [(2, 1, 0), (65, 2, 0), (130, 3, 1), (200, 5, 2),
                                     (129, 9, 0)])
def test_the_kernel_draws_what_the_reference_draws(n, d, q):
    X, J = _positions(n, d, q)
    blocks = [(0, n), (0, 1), (n - 1, n), (1, min(n, 70)), (max(0, n - 66), n),
              (n // 2, n)]
    for i0, i1 in blocks:
        got = sample_packed_block(X, J, 0.8, np.random.default_rng(5), i0, i1)
        np.testing.assert_array_equal(got, _reference(X, J, 0.8, 5, i0, i1))


def test_chunks_split_anywhere_give_the_same_draws(monkeypatch):
    X, J = _positions(300, 3, 0)
    expected = sample_packed_block(X, J, 1.0, np.random.default_rng(2), 10, 200)
    for chunk in (64, 128, 320, 1000):  # several rows a chunk, or pieces of one row
        monkeypatch.setattr(grdpg, "_CHUNK", chunk)
        got = sample_packed_block(X, J, 1.0, np.random.default_rng(2), 10, 200)
        np.testing.assert_array_equal(got, expected)


def test_a_block_of_the_last_row_alone_is_empty_not_an_error():
    # n = 128: the block of row 127 stores no word (its first word is word 2 of 2). Failed
    # on the numpy sampler (a minimum over an empty array).
    X, J = _positions(128, 2, 0)
    got = sample_packed_block(X, J, 1.0, np.random.default_rng(0), 127, 128)
    assert got.shape == (1, 2) and not got.any()


def test_a_graph_whose_last_row_block_is_one_such_row():
    # n = 15,040: row blocks of 557 rows, the 28th is row 15,039 alone, on a word boundary.
    n = 15_040
    assert list(row_blocks(n))[-1] == (n - 1, n)
    P = sample_grdpg(np.full((n, 1), 0.01), random_state=0, output="packed")
    edges = P.count_edges()
    dyads = n * (n - 1) / 2
    assert abs(edges - 1e-4 * dyads) < 5 * np.sqrt(1e-4 * dyads)


def test_os_randomness_samples_too():
    X = circle(200, random_state=0)
    P = sample_grdpg(X, random_state=OSRandom(), output="packed")
    assert isinstance(P, PackedAdjacency)
    density = P.count_edges() / (200 * 199 / 2)
    mean = float(np.triu(np.asarray(X) @ np.asarray(X).T, 1).sum()) / (200 * 199 / 2)
    assert abs(density - mean) < 0.03


def test_probabilities_out_of_range_are_found_in_any_block():
    X, J = _positions(300, 2, 0)
    X[250] = 3.0  # only the dyads of node 250 exceed 1
    for i0, i1 in [(0, 100), (250, 251), (200, 300)]:
        with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
            sample_packed_block(X, J, 1.0, np.random.default_rng(0), i0, i1)
    # Rows after 250 in a block that starts past it never meet node 250.
    sample_packed_block(X, J, 1.0, np.random.default_rng(0), 251, 300)


def test_auto_output_is_dense_when_it_fits_else_packed(monkeypatch):
    import tdadp.utils._memory as memory

    X = circle(300, random_state=0)
    dense = sample_grdpg(X, random_state=4, output="auto")
    assert isinstance(dense, np.ndarray)
    # 300^2 = 90 KB dense against a 50 KB budget: packed (6 KB), the same graph.
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 50_000})
    packed = sample_grdpg(X, random_state=4, output="auto")
    assert isinstance(packed, PackedAdjacency)
    assert packed == sample_grdpg(X, random_state=4, output="packed")
    with pytest.raises(ValueError, match='dense graph on 300 nodes.*output="packed"'):
        sample_grdpg(X, random_state=4)
    with pytest.raises(ValueError, match="disagree"):
        sample_grdpg(X, sparse=True, output="auto")
