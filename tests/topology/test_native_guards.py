"""ripser and gudhi never see what makes them abort, hang or answer wrong.

Native failures kill the interpreter, so the reproductions run in a child process: a
regression fails the test instead of aborting pytest.
"""

import subprocess
import sys
import textwrap

import gudhi
import numpy as np
import pytest

import tdadp.topology._persistence as persistence_module
import tdadp.utils._memory as memory
from tdadp.topology import PersistentHomology, estimate_rips_memory, persistence_diagram


def run_child(code, timeout=300):
    # The timeout only stops a hang (a regression) from blocking the suite; nothing is timed.
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout)


def circle_in_3d(n, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, 2 * np.pi, n)
    return np.c_[np.cos(t), np.sin(t), 0.3 * rng.normal(size=n)] + 0.05 * rng.normal(size=(n, 3))


def test_rips_under_an_address_space_limit_is_refused_instead_of_aborting():
    # The reproduction, scaled to a 3 GiB limit: the estimate (10.6 GB) passed the
    # guard, which compared it with half the physical memory, and ripser then aborted the
    # interpreter with std::bad_alloc (exit status -6 / 134).
    proc = run_child("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, resource.RLIM_INFINITY))
        import numpy as np
        from tdadp.topology import persistence_diagram
        rng = np.random.default_rng(0)
        t = rng.uniform(0, 2 * np.pi, 2500)
        X = np.c_[np.cos(t), np.sin(t), 0.3 * rng.normal(size=2500)]
        X += 0.05 * rng.normal(size=X.shape)
        try:
            persistence_diagram(X, complex="rips")
        except ValueError as exc:
            print("refused:", exc)
    """)
    assert proc.returncode == 0, f"status {proc.returncode}: {proc.stderr[-2000:]}"
    out = proc.stdout.strip()
    assert out.startswith("refused: a Rips computation up to H1 on 2500 points "
                          "(conservative estimate) would need about 10.6 GB, more than the")
    assert "bound by the address-space limit RLIMIT_AS = 3.22 GB" in out
    assert len(out.splitlines()) == 1


_COEFF_ENTRY_POINTS = """
    import numpy as np
    from sklearn.pipeline import make_pipeline
    import tdadp
    from tdadp.topology import PairwiseDistance, PersistentHomology, persistence_diagram
    X = np.random.default_rng(0).normal(size=(30, 2))
    X5 = np.random.default_rng(0).normal(size=(30, 5))
    refused = 0
    for coeff in (131, 251, 65_521, 65_537, np.int16(131), np.int64(65_537)):
        calls = [
            lambda: persistence_diagram(X, complex="rips", coeff=coeff),
            lambda: persistence_diagram(X, complex="alpha", coeff=coeff),
            lambda: persistence_diagram(X5, coeff=coeff),  # auto -> rips
            lambda: persistence_diagram([X, X5], coeff=coeff, n_jobs=2),
            lambda: tdadp.persistence_diagram(X, coeff=coeff),
            lambda: PersistentHomology(complex="rips", coeff=coeff).fit(X),
            lambda: PersistentHomology(coeff=coeff).fit_transform(X5),
            lambda: PersistentHomology(complex="rips").fit(X).set_params(
                coeff=coeff).transform(X),
            lambda: make_pipeline(PersistentHomology(complex="rips", coeff=coeff),
                                  PairwiseDistance()).fit_transform([X, X]),
        ]
        for call in calls:
            try:
                call()
            except ValueError as exc:
                assert "'coeff' parameter" in str(exc) and "at most 127" in str(exc), exc
                refused += 1
            else:
                raise SystemExit(f"coeff={coeff!r} reached ripser or gudhi")
    print(refused)
"""


def test_coefficients_beyond_ripsers_field_are_refused_by_every_entry_point():
    # ripser 0.6 keeps coefficients in a narrow integer field: coeff = 131 aborts the
    # interpreter, 65,537 silently returns every H1 class as infinite. Every function,
    # estimator and pipeline path refuses them before ripser or gudhi is called.
    proc = run_child(_COEFF_ENTRY_POINTS)
    assert proc.returncode == 0, f"status {proc.returncode}: {proc.stdout} {proc.stderr[-2000:]}"
    assert proc.stdout.split() == ["54"]


def test_homology_dimensions_beyond_the_cloud_are_empty_and_never_reach_native_code():
    # Before: a dimension such as 2**31 made the memory estimate loop for ever (and would
    # overflow ripser's int), and gudhi raised a TypeError for 2**63.
    proc = run_child("""
        import numpy as np
        from tdadp.topology import persistence_diagram
        X = np.random.default_rng(0).normal(size=(20, 2))
        for complex, top in (("rips", 2**31), ("rips", 10**18), ("alpha", 2**63)):
            D = persistence_diagram(X, complex=complex, homology_dimensions=(0, 1, top))
            assert D.homology_dimensions == (0, 1, top)
            assert D[top].shape == (0, 2)
            assert D[0].shape[0] == 20
        print("ok")
    """, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"


@pytest.mark.parametrize("n", [2, 5, 7])
def test_dimensions_at_and_above_the_number_of_points_lose_nothing(n):
    # ripser is asked for dimensions up to n - 2 only; gudhi's full Rips complex on n points
    # (every simplex up to dimension n - 1) has the same diagrams in every dimension.
    X = np.random.default_rng(n).normal(size=(n, 4))
    dims = tuple(range(n + 2))
    D = persistence_diagram(X, complex="rips", homology_dimensions=dims)
    st = gudhi.RipsComplex(points=X.astype(np.float32).astype(float)).create_simplex_tree(
        max_dimension=n - 1)
    st.compute_persistence(persistence_dim_max=True)
    for k in dims:
        ref = np.asarray(st.persistence_intervals_in_dimension(k)).reshape(-1, 2)
        ref = ref[ref[:, 0] != ref[:, 1]]
        np.testing.assert_allclose(np.sort(D[k], axis=0), np.sort(ref, axis=0), rtol=1e-6)
    assert sum(D[k].shape[0] for k in range(max(n - 1, 1), n + 2)) == 0


def test_absurd_estimates_are_a_memory_refusal_not_an_overflow():
    # Before: C(3000, 1001) does not fit a float: OverflowError instead of a clear refusal.
    assert estimate_rips_memory(3000, 1000) == int(1e300)
    assert estimate_rips_memory(3000, 10**18) == int(1e300)
    assert estimate_rips_memory(30, 10**18) == estimate_rips_memory(30, 30)
    assert estimate_rips_memory(1, 5) == 0
    X = np.random.default_rng(0).normal(size=(3000, 5))
    with pytest.raises(ValueError, match="H1000 on 3000 points .* would need about 1e"):
        persistence_diagram(X, complex="rips", homology_dimensions=(0, 1000))


@pytest.mark.parametrize("kwargs", [{"n_points": -1, "max_dimension": 1},
                                    {"n_points": 10, "max_dimension": 1.5},
                                    {"n_points": 10, "max_dimension": 1, "edge_fraction": 2},
                                    {"n_points": 10, "max_dimension": 1,
                                     "edge_fraction": np.nan}])
def test_estimate_arguments_are_checked(kwargs):
    with pytest.raises(ValueError):
        estimate_rips_memory(**kwargs)


@pytest.fixture
def ripser_calls(monkeypatch):
    """Replace ripser's binding by a recorder returning empty diagrams."""
    calls = []

    def fake(dm, maxdim, thresh, coeff, do_cocycles):
        calls.append(dm.size)
        return {"births_and_deaths_by_dim": [[] for _ in range(maxdim + 1)]}

    monkeypatch.setattr(persistence_module, "doRipsFiltrationDM", fake)
    return calls


def test_a_batch_is_checked_whole_before_any_cloud_is_computed(ripser_calls):
    # Before: the clouds were checked one by one as they were computed, so a batch failed
    # only when it reached its first cloud too large, after the work on the others.
    small, large = circle_in_3d(50), circle_in_3d(2000)
    with pytest.raises(ValueError, match="H1 on 2000 points .* above max_memory = 1 GB"):
        persistence_diagram([small, small, large], complex="rips", max_memory=1e9)
    assert ripser_calls == []
    persistence_diagram([small, small], complex="rips", max_memory=1e9)
    assert len(ripser_calls) == 2


def test_clouds_computed_at_once_share_the_budget(ripser_calls):
    clouds = [circle_in_3d(1500, seed) for seed in range(3)]
    need = estimate_rips_memory(1500, 1)
    budget = 2.5 * need  # two at once fit, three do not
    PersistentHomology(complex="rips", max_memory=budget, n_jobs=1).fit_transform(clouds)
    PersistentHomology(complex="rips", max_memory=budget, n_jobs=2).fit_transform(clouds)
    assert len(ripser_calls) == 6
    with pytest.raises(ValueError, match=r"^3 Rips computations at once \(n_jobs"):
        PersistentHomology(complex="rips", max_memory=budget, n_jobs=3).fit_transform(clouds)
    assert len(ripser_calls) == 6


def test_alpha_on_a_cloud_beyond_memory_is_refused_up_front(monkeypatch):
    X = np.random.default_rng(0).random((2000, 3))
    # 2,000 points at 10 KB each need 20 MB: under a 10 MB budget gudhi is never called.
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 10e6})
    with pytest.raises(ValueError, match="alpha complex on 2000 points in R\\^3"):
        persistence_diagram(X, complex="alpha")
