"""The fixed-budget Krylov embedding: the same answer as LAPACK on releases with signal, a
bounded cost and an honest warning on releases without."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp import AdjacencySpectralEmbedding, EdgeFlip, PackedAdjacency, circle, sample_grdpg
from tdadp.embed import ShiftedAdjacency, top_eigenpairs
from tdadp.embed._eigen import KRYLOV_BUDGET


def _gram(X, signature):
    p, q = signature
    return (X * np.r_[np.ones(p), -np.ones(q)]) @ X.T


@pytest.mark.parametrize("output", ["dense", "sparse", "packed"])
def test_krylov_equals_lapack_on_a_release_with_signal(output):
    A = sample_grdpg(circle(1500, random_state=0), random_state=1)
    flip = EdgeFlip(2.0, random_state=2, output="packed" if output == "packed" else "auto")
    R = flip.fit_transform(sp.csr_matrix(A) if output == "sparse" else A)
    kry = AdjacencySpectralEmbedding(adjust=True, solver="krylov")
    dense = AdjacencySpectralEmbedding(adjust=True, solver="dense")
    X, Y = kry.fit_transform(R), dense.fit_transform(R)
    assert kry.n_components_ == dense.n_components_ == 3
    G, H = _gram(np.asarray(X), kry.signature_), _gram(np.asarray(Y), dense.signature_)
    assert np.abs(G - H).max() <= 1e-6 * np.abs(H).max()
    assert kry.residuals_.shape == (3,) and kry.residuals_.max() < 1e-6
    # the signal stands far above the noise edge: no warning was needed
    assert np.abs(kry.eigenvalues_).min() > 1.05 * kry.noise_edge_
    assert kry.n_above_noise_ == 3


def test_the_budget_bounds_the_products_and_the_residuals_say_how_far_it_got():
    rng = np.random.default_rng(0)
    n = 1200
    upper = np.triu(rng.random((n, n)) < 0.02, 1)
    A = (upper | upper.T).astype(np.int8)
    op = ShiftedAdjacency(A)
    w, V, info = top_eigenpairs(op, 10, "krylov", tol=1e-12, max_products=7, return_info=True)
    assert info.products == 7 and not info.converged
    R = op.matmat(V) - V * w
    # float32 products of a 0/1 matrix: the recurrence's residuals agree to ~1e-9
    np.testing.assert_allclose(info.residuals, np.linalg.norm(R, axis=0) / abs(w[0]),
                               rtol=1e-5, atol=1e-8)
    assert KRYLOV_BUDGET >= 7


def test_a_release_without_signal_says_so():
    rng = np.random.default_rng(1)
    n = 1500
    upper = np.triu(rng.random((n, n)) < 0.01, 1)
    A = (upper | upper.T).astype(np.int8)  # Erdos-Renyi: nothing but the mean
    R = EdgeFlip(1.0, random_state=3).fit_transform(A)
    est = AdjacencySpectralEmbedding(adjust=True, n_components=3)
    with pytest.warns(UserWarning, match="no eigenvalue .* stands above its noise edge"):
        est.fit(R)
    # the estimate: pi(1) = 0.269, q about 0.27, 2 sqrt(n q (1-q)) / (1 - 2 pi)
    q = np.asarray(R).sum() / (n * (n - 1))
    assert est.noise_edge_ == pytest.approx(2 * np.sqrt(n * q * (1 - q)) / (1 - 2 * 0.2689414),
                                            rel=1e-3)
    assert est.n_above_noise_ == 0
    # the largest eigenvalue of the noise is near the edge (within 10%)
    assert np.abs(est.eigenvalues_).max() == pytest.approx(est.noise_edge_, rel=0.1)


def test_the_noise_edge_is_the_same_in_every_container():
    # Read from the sum of the entries (a popcount of a packed graph), not from the degrees.
    rng = np.random.default_rng(5)
    n = 1100
    upper = np.triu(rng.random((n, n)) < 0.03, 1)
    R = EdgeFlip(1.0, random_state=4).fit_transform((upper | upper.T).astype(np.int8))
    R = np.asarray(R)
    q = R.sum() / (n * (n - 1))
    expected = 2 * np.sqrt(n * q * (1 - q)) / (1 - 2 * 0.2689414)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no signal: the warning is tested above
        edges = [AdjacencySpectralEmbedding(epsilon=1.0, n_components=2).fit(G).noise_edge_
                 for G in (R, sp.csr_matrix(R), PackedAdjacency.from_dense(R))]
    np.testing.assert_allclose(edges, expected, rtol=1e-6)


def test_a_strong_signal_does_not_warn():
    A = sample_grdpg(circle(1200, random_state=0), random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        AdjacencySpectralEmbedding(adjust=True, n_components=3).fit(
            EdgeFlip(4.0, random_state=0).fit_transform(A))


def test_the_small_dense_steps_run_on_one_blas_thread(monkeypatch):
    # Under CPU contention threaded OpenBLAS busy-waits on these small steps; the limit is
    # set even when the caller allows more threads, and restored after.
    from threadpoolctl import threadpool_info, threadpool_limits

    seen = []
    real_qr = np.linalg.qr

    def spy(X, *args, **kwargs):
        seen.append({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})
        return real_qr(X, *args, **kwargs)

    monkeypatch.setattr(np.linalg, "qr", spy)
    A = sample_grdpg(circle(1500, random_state=0), random_state=1)
    with threadpool_limits(limits=2, user_api="blas"):
        top_eigenpairs(ShiftedAdjacency(A), 3, "krylov")
        after = {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
    assert seen and all(s == {1} for s in seen)
    assert after == {2}
