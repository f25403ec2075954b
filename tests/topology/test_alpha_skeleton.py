"""Alpha diagrams from the skeleton the asked dimensions need (H_k from simplices up to k + 1)
equal gudhi's on the whole complex."""

import gudhi
import numpy as np
import pytest

from tdadp.topology import persistence_diagram


def _gudhi_full(X, k):
    st = gudhi.AlphaComplex(points=X).create_simplex_tree()
    st.compute_persistence(homology_coeff_field=2, persistence_dim_max=True)
    iv = np.asarray(st.persistence_intervals_in_dimension(k), dtype=float).reshape(-1, 2)
    return np.sqrt(np.maximum(iv, 0.0))


def _sorted(D):
    return D[np.lexsort((D[:, 1], D[:, 0]))]


def _clouds():
    rng = np.random.default_rng(7)
    t = rng.uniform(0, 2 * np.pi, 400)
    circle3 = np.c_[np.cos(t), np.sin(t), 0.1 * rng.normal(size=400)]
    sphere = rng.normal(size=(300, 3))
    sphere /= np.linalg.norm(sphere, axis=1, keepdims=True)
    return {"circle in R^3": circle3, "sphere in R^3": sphere + 0.02 * rng.normal(size=(300, 3)),
            "blob in R^2": rng.normal(size=(300, 2)), "line in R^1": rng.normal(size=(50, 1))}


@pytest.mark.parametrize("name", list(_clouds()))
@pytest.mark.parametrize("dims", [(0,), (1,), (0, 1), (2,), (0, 1, 2)])
def test_each_asked_dimension_equals_the_whole_complex(name, dims):
    X = _clouds()[name]
    D = persistence_diagram(X, complex="alpha", homology_dimensions=dims)
    for k in dims:
        np.testing.assert_array_equal(_sorted(D[k]), _sorted(_gudhi_full(X, k)))


def test_the_sphere_keeps_its_cavity():
    # H2 needs the tetrahedra: nothing is pruned when it is asked for.
    X = _clouds()["sphere in R^3"]
    D = persistence_diagram(X, complex="alpha", homology_dimensions=(1, 2))
    assert np.max(D[2][:, 1] - D[2][:, 0]) > 0.5
