import gudhi
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from tdadp.topology import (
    PersistenceDiagram,
    PersistentHomology,
    bottleneck_distance,
    estimate_rips_memory,
    persistence_diagram,
)


def noisy_circle(n, seed=0, r=1.0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, 2 * np.pi, n)
    return np.c_[r * np.cos(t), r * np.sin(t)] + rng.normal(0, 0.02, (n, 2))


@pytest.mark.parametrize("complex", ["alpha", "rips"])
def test_circle_has_one_long_h1_bar_and_one_infinite_h0(complex):
    D = persistence_diagram(noisy_circle(200), complex=complex)
    assert isinstance(D, PersistenceDiagram) and D.homology_dimensions == (0, 1)
    assert np.isposinf(D[0][:, 1]).sum() == 1
    assert (D[0][:, 0] == 0).all()
    pers = np.sort(D[1][:, 1] - D[1][:, 0])
    assert pers[-1] > 0.5 and pers[-2] < 0.2
    death = D[1][np.argmax(D[1][:, 1] - D[1][:, 0]), 1]
    # alpha: radius ~ 1 (circle radius); Rips: edge length ~ sqrt(3) (inscribed triangle)
    assert death == pytest.approx(1.0 if complex == "alpha" else np.sqrt(3), rel=0.1)


@pytest.mark.parametrize("complex", ["alpha", "rips"])
def test_diagram_scales_with_the_cloud(complex):
    X = np.random.default_rng(2).normal(size=(120, 3))
    D = persistence_diagram(X, complex=complex, homology_dimensions=(0, 1, 2))
    Dc = persistence_diagram(2.5 * X, complex=complex, homology_dimensions=(0, 1, 2))
    rel = 1e-12 if complex == "alpha" else 1e-6  # ripser computes in float32
    for k in (0, 1, 2):
        assert Dc[k].shape == D[k].shape
        assert bottleneck_distance(Dc[k], D.scale(2.5)[k]) <= rel * 10


def test_alpha_values_are_radii_and_diameter_option():
    X = np.array([[0.0, 0.0], [2.0, 0.0]])
    D = persistence_diagram(X, complex="alpha", homology_dimensions=0)
    np.testing.assert_allclose(np.sort(D[0][:, 1]), [1.0, np.inf])  # radius = half distance
    D2 = persistence_diagram(X, complex="alpha", homology_dimensions=0, alpha_scale="diameter")
    np.testing.assert_allclose(np.sort(D2[0][:, 1]), [2.0, np.inf])
    R = persistence_diagram(X, complex="rips", homology_dimensions=0)
    np.testing.assert_allclose(np.sort(R[0][:, 1]), [2.0, np.inf])


def test_rips_matches_gudhi_rips():
    X = np.random.default_rng(3).random((60, 2))
    D = persistence_diagram(X, complex="rips")
    st = gudhi.RipsComplex(points=X).create_simplex_tree(max_dimension=2)
    st.compute_persistence()
    for k in (0, 1):
        G = np.asarray(st.persistence_intervals_in_dimension(k))
        assert bottleneck_distance(D[k], G) < 1e-6


def test_max_edge_length_caps_filtration():
    X = noisy_circle(100)
    D = persistence_diagram(X, complex="rips", max_edge_length=0.5)
    assert np.isposinf(D[1][:, 1]).sum() == 1  # the circle is not filled below 0.5
    assert np.nanmax(np.where(np.isfinite(D[0]), D[0], np.nan)) <= 0.5


def test_auto_batch_and_n_jobs():
    clouds = [noisy_circle(50, seed=s) for s in range(3)]
    est = PersistentHomology()
    out = est.fit_transform(clouds)
    assert isinstance(out, list) and len(out) == 3
    assert est.complex_ == "alpha"
    assert PersistentHomology(n_jobs=2).fit_transform(clouds) == out
    X5 = np.random.default_rng(0).normal(size=(40, 5))
    est = PersistentHomology().fit(X5)
    assert est.complex_ == "rips"
    assert clone(est).get_params() == est.get_params()
    assert PersistentHomology().fit_transform(np.stack(clouds))[1] == out[1]


def test_memory_refusal_is_upfront_and_clear():
    X = np.random.default_rng(0).normal(size=(3000, 5))
    with pytest.raises(ValueError, match="would need about"):
        persistence_diagram(X, complex="rips", max_memory=1e8)
    with pytest.raises(ValueError, match="would need about"):
        persistence_diagram(X, homology_dimensions=(0, 1, 2))  # C(3000, 3) triangles
    assert estimate_rips_memory(1000, 1) < estimate_rips_memory(2000, 1)
    assert estimate_rips_memory(1000, 1, edge_fraction=0.1) < estimate_rips_memory(1000, 1)


@pytest.mark.parametrize("kwargs", [
    {"complex": "cech"}, {"homology_dimensions": (-1,)}, {"homology_dimensions": ()},
    {"homology_dimensions": "01"}, {"max_edge_length": 0}, {"max_edge_length": np.nan},
    {"alpha_scale": "area"}, {"coeff": 4}, {"coeff": 2.0}, {"coeff": True},
    {"max_memory": -1}, {"n_jobs": 0}, {"n_jobs": 1.5},
])
def test_bad_parameters(kwargs):
    (name,) = kwargs
    with pytest.raises(ValueError, match=f"'{name}' parameter of PersistentHomology"):
        PersistentHomology(**kwargs).fit(noisy_circle(10))
    with pytest.raises(ValueError, match=f"'{name}' parameter of persistence_diagram"):
        persistence_diagram(noisy_circle(10), **kwargs)


@pytest.mark.parametrize("complex", ["alpha", "rips"])
@pytest.mark.parametrize("coeff", [131, 251, 65_521, 65_537, 1_000_003, 2**31 - 1])
def test_primes_beyond_ripsers_coefficient_field_are_refused(complex, coeff):
    # Measured on ripser 0.6.15: 131 and 251 abort the interpreter (std::bad_alloc), 65,521
    # aborts (std::length_error), 65,537 returns wrong diagrams, 1,000,003 hangs and so does
    # 2**31 - 1 (or aborts); refused before any computation, on both complexes.
    with pytest.raises(ValueError, match="'coeff' parameter.*prime number at most 127"):
        persistence_diagram(noisy_circle(20), complex=complex, coeff=coeff)


def test_the_largest_supported_prime_gives_the_diagrams_of_gudhi():
    X = np.random.default_rng(3).normal(size=(25, 3))
    D = persistence_diagram(X, complex="rips", homology_dimensions=(0, 1, 2), coeff=127)
    st = gudhi.RipsComplex(points=X.astype(np.float32).astype(float)).create_simplex_tree(
        max_dimension=3)
    st.compute_persistence(homology_coeff_field=127, persistence_dim_max=True)
    for k in (1, 2):
        ref = np.asarray(st.persistence_intervals_in_dimension(k)).reshape(-1, 2)
        ref = ref[ref[:, 0] != ref[:, 1]]
        np.testing.assert_allclose(np.sort(D[k], axis=0), np.sort(ref, axis=0), rtol=1e-6)
    assert persistence_diagram(X, complex="alpha", coeff=127) == persistence_diagram(
        X, complex="alpha", coeff=2)  # no torsion in a random cloud


def test_bad_clouds():
    with pytest.raises(ValueError, match="NaN"):
        persistence_diagram(np.array([[0.0, np.nan], [1.0, 1.0]]))
    with pytest.raises(ValueError):
        persistence_diagram(np.zeros(5))
    with pytest.raises(ValueError, match="empty"):
        persistence_diagram(np.zeros((0, 2)))


@pytest.mark.parametrize("cloud, error, match", [
    (noisy_circle(10) + 1j, ValueError, "Complex data not supported"),
    (noisy_circle(10).astype(complex), ValueError, "Complex data not supported"),
    (np.array([[1 + 2j, 0.0]] * 5, dtype=object), ValueError, "Complex data"),
    (noisy_circle(10).astype(str), ValueError, "strings"),
    (np.array([["1.5", 0.0]] * 5, dtype=object), ValueError, "strings"),
    (sp.csr_matrix(noisy_circle(10)), TypeError, "Sparse data not supported"),
    (np.array([[{"a": 1}, 0.0]] * 5, dtype=object), TypeError, "must be a string or a real"),
    (noisy_circle(10).astype("datetime64[s]"), TypeError, "numeric"),
])
def test_complex_and_string_clouds_are_refused(cloud, error, match):
    with pytest.raises(error, match=match):
        persistence_diagram(cloud)
    with pytest.raises(error, match=match):
        PersistentHomology().fit(cloud)


def test_object_array_of_numbers_is_a_cloud():
    X = noisy_circle(30)
    assert persistence_diagram(X.astype(object)) == persistence_diagram(X)


@pytest.mark.parametrize("complex", ["alpha", "rips"])
@pytest.mark.parametrize("k", [-900, -170, 130, 600])
def test_diagrams_are_exact_at_any_scale(complex, k):
    # ripser's float32 distances overflow beyond about 1e38 and vanish below 1e-45, gudhi's
    # squared radii beyond 1e154: before the power-of-two normalisation the circle's H1 bar
    # silently disappeared. Power-of-two scalings are exact, so the diagrams are equal.
    X = noisy_circle(40)
    c = 2.0 ** k
    assert persistence_diagram(X * c, complex=complex) == persistence_diagram(
        X, complex=complex).scale(c)
    capped = persistence_diagram(X * c, complex=complex, max_edge_length=0.5 * c)
    assert capped == persistence_diagram(X, complex=complex, max_edge_length=0.5).scale(c)


@pytest.mark.parametrize("complex", ["alpha", "rips"])
def test_huge_caps_and_coordinates_are_not_an_overflow(complex):
    X = noisy_circle(40) * 1e200
    D = persistence_diagram(X, complex=complex, max_edge_length=1e300)
    assert persistence_diagram(X, complex=complex) == D
    bar = D[1][np.argmax(D[1][:, 1] - D[1][:, 0])]
    assert bar[1] - bar[0] > 0.5e200  # the circle's H1 bar is there
