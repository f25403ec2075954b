import gudhi
import numpy as np
import pytest

from tdadp.topology import PersistenceDiagram, log_diagram, stack_giotto


def test_basic_mapping_and_repr():
    D = PersistenceDiagram({1: [[0.5, 0.7]], 0: [[0, 1], [0, np.inf]]})
    assert D.homology_dimensions == (0, 1)
    assert D[0].dtype == np.float64 and D[0].shape == (2, 2)
    assert np.isposinf(D[0][1, 1])
    assert "H0: 2 points (1 infinite)" in repr(D)
    with pytest.raises(KeyError):
        D[2]
    assert D.get(2).shape == (0, 2)
    with pytest.raises(ValueError):
        D[0][0, 0] = 3.0  # read-only


@pytest.mark.parametrize("bad, msg", [
    ({0: [[0.0, np.nan]]}, "NaN"),
    ({0: [[1.0, 0.5]]}, "dies before"),
    ({0: [[np.inf, np.inf]]}, r"\+inf"),
    ({0: [[1.0, 2.0, 3.0]]}, r"\(k, 2\)"),
    ({-1: [[0.0, 1.0]]}, "non-negative"),
    ({0: [["a", "b"]]}, "numeric"),
])
def test_validation(bad, msg):
    with pytest.raises(ValueError, match=msg):
        PersistenceDiagram(bad)


def test_equality_is_multiset():
    A = PersistenceDiagram({0: [[0, 1], [0, 2]]})
    B = PersistenceDiagram({0: [[0, 2], [0, 1]]})
    C = PersistenceDiagram({0: [[0, 2], [0, 1.5]]})
    assert A == B and A != C
    assert PersistenceDiagram({0: [[0, 1], [0, 2]], 1: []}) != A


def test_shift_scale_select_drop():
    D = PersistenceDiagram({0: [[0, 1], [0, np.inf]], 1: [[1, 3], [2, 2]]})
    S = D.shift(0.5)
    np.testing.assert_array_equal(S[1], [[1.5, 3.5], [2.5, 2.5]])
    assert np.isposinf(S[0][1, 1])
    np.testing.assert_array_equal(D.scale(2)[1], [[2, 6], [4, 4]])
    assert D.drop_infinite()[0].shape == (1, 2)
    assert D.drop_diagonal()[1].shape == (1, 2)
    assert D.select([1, 2]).homology_dimensions == (1, 2)
    with pytest.raises(ValueError):
        D.shift(np.inf)
    with pytest.raises(ValueError):
        D.scale(-1)


def test_gudhi_round_trip_with_real_output():
    X = np.random.default_rng(0).random((60, 2))
    st = gudhi.RipsComplex(points=X, max_edge_length=0.5).create_simplex_tree(max_dimension=2)
    pers = st.persistence()
    D = PersistenceDiagram.from_gudhi(pers)
    for k in D.homology_dimensions:
        np.testing.assert_array_equal(
            np.sort(D[k], axis=0),
            np.sort(np.asarray(st.persistence_intervals_in_dimension(k)).reshape(-1, 2), axis=0))
    assert PersistenceDiagram.from_gudhi(D.to_gudhi()) == D
    assert PersistenceDiagram.from_gudhi(pers, homology_dimensions=(0, 1, 2))[2].shape[1] == 2
    with pytest.raises(ValueError):
        PersistenceDiagram.from_gudhi([(0, 1.0)])


def test_ripser_round_trip():
    import ripser

    X = np.random.default_rng(1).random((40, 2))
    res = ripser.ripser(X, maxdim=1)
    D = PersistenceDiagram.from_ripser(res)
    assert D.homology_dimensions == (0, 1)
    np.testing.assert_array_equal(D[1], res["dgms"][1])
    back = D.to_ripser()
    assert len(back) == 2 and np.array_equal(back[0], res["dgms"][0])
    assert len(PersistenceDiagram({2: [[0, 1]]}).to_ripser()) == 3


def test_giotto_padding_and_batch():
    X = np.array([[0, 1, 0], [0, 0, 0], [0.2, 0.5, 1], [0, 0, 1], [0, 0, 2]], dtype=float)
    D = PersistenceDiagram.from_giotto(X)
    assert D.homology_dimensions == (0, 1, 2)
    assert D[0].shape == (1, 2) and D[1].shape == (1, 2) and D[2].shape == (0, 2)
    G = D.to_giotto()
    assert G.shape == (3, 3) and (G[2] == [0, 0, 2]).all()
    assert PersistenceDiagram.from_giotto(G) == D
    B = stack_giotto([D, PersistenceDiagram({0: [[0, 1], [0, 2]], 1: []})])
    assert B.shape == (2, 4, 3)
    assert PersistenceDiagram.from_giotto(B[1]).n_points == {0: 2, 1: 0, 2: 0}
    with pytest.raises(ValueError):
        PersistenceDiagram.from_giotto(B)


def test_log_diagram():
    D = PersistenceDiagram({0: [[0, 1], [0, np.inf], [0, 0]], 1: [[1, np.e]]})
    L = log_diagram(D)
    assert L[0].shape == (2, 2)  # (0, 0) lies on the diagonal: dropped
    assert np.isneginf(L[0][:, 0]).all()
    assert L[0][0, 1] == 0.0 and np.isposinf(L[0][1, 1])
    np.testing.assert_allclose(L[1], [[0, 1]])
    np.testing.assert_allclose(log_diagram(D, base=10)[1], [[0, np.log10(np.e)]])
    with pytest.raises(ValueError, match="non-negative"):
        log_diagram({0: [[-1.0, 1.0]]})
    # a change of units is a shift in log scale
    C = PersistenceDiagram({1: [[0.3, 0.9], [0.1, 2.0]]})
    np.testing.assert_allclose(log_diagram(C.scale(5.0))[1], log_diagram(C).shift(np.log(5))[1])
