import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdadp.cluster import clustering_scores, misclassification_rate


def test_known_values():
    assert misclassification_rate([0, 0, 1, 1], [1, 1, 0, 0]) == 0.0
    assert misclassification_rate([0, 0, 1, 1], [0, 0, 0, 1]) == 0.25
    assert misclassification_rate([0, 0, 1, 1], [0, 0, 0, 0]) == 0.5
    # more predicted clusters than classes: the smaller parts count as errors
    assert misclassification_rate([0, 0, 0, 0, 1, 1], [0, 0, 2, 2, 1, 1]) == pytest.approx(2 / 6)
    # string labels; the best matching is not the diagonal (a-2, b-0, c-1)
    assert misclassification_rate(list("aabbbc"), [2, 2, 0, 0, 1, 1]) == pytest.approx(1 / 6)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=40), st.permutations(range(4)),
       st.randoms(use_true_random=False))
def test_permutation_invariance(y_pred, perm, rnd):
    y_pred = np.asarray(y_pred)
    y_true = np.asarray([rnd.randrange(3) for _ in y_pred])
    renamed = np.asarray(perm)[y_pred]
    r = misclassification_rate(y_true, y_pred)
    assert r == misclassification_rate(y_true, renamed)
    assert r == pytest.approx(misclassification_rate(y_pred, y_true))
    assert 0.0 <= r < 1.0
    assert misclassification_rate(y_pred, renamed) == 0.0


def test_brute_force_agreement():
    from itertools import permutations

    rng = np.random.default_rng(0)
    for _ in range(20):
        y, z = rng.integers(0, 3, 30), rng.integers(0, 3, 30)
        best = max(np.mean(np.asarray(p)[z] == y) for p in permutations(range(3)))
        assert misclassification_rate(y, z) == pytest.approx(1 - best)


def test_clustering_scores():
    s = clustering_scores([0, 0, 1, 1], [1, 1, 0, 0])
    assert s == {"ari": 1.0, "nmi": 1.0, "misclassification": 0.0}
    s = clustering_scores([0, 0, 1, 1], [0, 0, 0, 0])
    assert s["ari"] == 0.0 and s["nmi"] == 0.0 and s["misclassification"] == 0.5


@pytest.mark.parametrize(
    "a,b,match",
    [([0, 1], [0], "same length"), ([[0, 1]], [[0, 1]], "1-D"), ([], [], "empty"),
     ([0.0, np.nan], [0, 1], "NaN")],
)
def test_bad_labels(a, b, match):
    with pytest.raises(ValueError, match=match):
        misclassification_rate(a, b)
