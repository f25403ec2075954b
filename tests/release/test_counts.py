import itertools

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

from tdadp.release import DegreeSequence, LaplaceEdgeCount, degree_sequence, laplace_edge_count


def all_graphs(n):
    pairs = list(itertools.combinations(range(n), 2))
    for bits in itertools.product([0, 1], repeat=len(pairs)):
        A = np.zeros((n, n), dtype=np.uint8)
        for (i, j), b in zip(pairs, bits):
            A[i, j] = A[j, i] = b
        yield A


def neighbours(A):
    n = A.shape[0]
    for i, j in itertools.combinations(range(n), 2):
        B = A.copy()
        B[i, j] = B[j, i] = 1 - B[i, j]
        yield B


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sensitivities_by_brute_force(n):
    exact = {
        "edges": LaplaceEdgeCount(np.inf),
        "sequence": DegreeSequence(np.inf),
        "histogram": DegreeSequence(np.inf, histogram=True),
    }
    stated = {name: m.fit().sensitivity_ for name, m in exact.items()}
    worst = dict.fromkeys(exact, 0.0)
    # Every neighbour is one of the graphs: each graph is released once (a tenth of the
    # transform calls at n = 5) and each pair compared from the stored values.
    values = {A.tobytes(): {name: np.asarray(m.transform(A)) for name, m in exact.items()}
              for A in all_graphs(n)}
    for A in all_graphs(n):
        for B in neighbours(A):
            for name in exact:
                change = np.abs(values[B.tobytes()][name] - values[A.tobytes()][name]).sum()
                worst[name] = max(worst[name], change)
    # The calibrated sensitivities are attained: tight, not just safe.
    assert worst == stated == {"edges": 1.0, "sequence": 2.0, "histogram": 4.0}


def test_exact_values_and_storage():
    A = np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]], dtype=np.uint8)
    for X in (A, sp.csr_matrix(A)):
        assert laplace_edge_count(X, np.inf) == 4.0
        assert degree_sequence(X, np.inf).tolist() == [2, 2, 3, 1]
        assert degree_sequence(X, np.inf, histogram=True).tolist() == [0, 1, 2, 1]


@pytest.mark.parametrize("noise", ["laplace", "discrete"])
@pytest.mark.parametrize("random_state", [0, "secure"])
def test_noise_has_the_calibrated_law(noise, random_state):
    A = np.zeros((5, 5), dtype=np.uint8)
    eps = 0.8
    mech = DegreeSequence(eps, noise=noise, random_state=random_state)
    out = np.concatenate(mech.fit_transform([A] * 800))
    scale = 2 / eps
    if noise == "laplace":
        assert stats.kstest(out, stats.laplace(scale=scale).cdf).pvalue > 1e-4
    else:
        assert out.dtype == np.int64
        # Two-sided geometric: P(|Z| = 0) = (1 - r) / (1 + r), r = e^{-1/scale}.
        r = np.exp(-1 / scale)
        p0 = (1 - r) / (1 + r)
        assert stats.binomtest(int((out == 0).sum()), out.size, p0).pvalue > 1e-4
        assert np.mean(np.abs(out)) == pytest.approx(2 * r / (1 - r ** 2), rel=0.1)


def test_reproducible_batches_and_no_input_kept():
    A = np.ones((6, 6), dtype=np.uint8) - np.eye(6, dtype=np.uint8)
    m = LaplaceEdgeCount(1.0, random_state=3).fit()
    a, b = m.transform([A, A, A]), m.transform([A, A, A])
    np.testing.assert_array_equal(a, b)
    assert a.shape == (3,) and len(set(a.tolist())) == 3
    par = LaplaceEdgeCount(1.0, random_state=3, n_jobs=2).fit_transform([A, A, A])
    np.testing.assert_array_equal(a, par)
    assert m.transform(A) == a[0]
    for value in vars(m.fit(A)).values():
        assert not isinstance(value, np.ndarray)
    seqs = DegreeSequence(1.0, random_state=0).fit_transform([A, A])
    assert isinstance(seqs, list) and seqs[0].shape == (6,)


@pytest.mark.parametrize("bad, match", [
    (dict(epsilon=0.0), "'epsilon'.*got 0.0"), (dict(epsilon=-1.0), "'epsilon'.*got -1.0"),
    (dict(noise="gauss"), "'noise'.*got 'gauss'"),
    (dict(random_state="os"), "'random_state'.*got 'os'")])
def test_bad_parameters(bad, match):
    A = np.zeros((3, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match=match):
        LaplaceEdgeCount(**bad).fit_transform(A)
    with pytest.raises(ValueError, match="'histogram'.*got 'yes'"):
        DegreeSequence(1.0, histogram="yes").fit()
    with pytest.raises(ValueError, match="symmetric"):
        laplace_edge_count(np.triu(np.ones((3, 3), dtype=np.uint8), 1), 1.0)
