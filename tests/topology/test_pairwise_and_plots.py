import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from sklearn.base import clone

from tdadp.topology import (
    PairwiseDistance,
    PersistenceDiagram,
    PersistentHomology,
    bottleneck_distance,
    log_diagram,
    pairwise_distance,
    plot_diagram,
    plot_matching,
    shift_invariant_bottleneck,
    wasserstein_distance,
)


def diagrams(seed, n=4):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b = rng.random(6)
        out.append(PersistenceDiagram({0: np.r_[np.c_[np.zeros(5), rng.random(5) + 0.1],
                                                [[0, np.inf]]],
                                       1: np.c_[b, b + rng.random(6)]}))
    return out


@pytest.mark.parametrize("metric, func", [("bottleneck", bottleneck_distance),
                                          ("wasserstein", wasserstein_distance)])
def test_matrices_match_the_functions(metric, func):
    Ds = diagrams(0)
    est = PairwiseDistance(metric=metric, order=None).fit(Ds)
    out = est.transform(Ds[:2])
    # order=None: (n_samples, n_fitted, n_dims), the last axis in the order of
    # homology_dimensions_
    assert out.shape == (2, 4, 2) and est.homology_dimensions_ == (0, 1)
    for a, k in enumerate(est.homology_dimensions_):
        for i in range(2):
            for j in range(4):
                assert out[i, j, a] == func(Ds[i], Ds[j], homology_dimension=k)
    sym = clone(est).fit_transform(Ds)
    assert sym.shape == (4, 4, 2)
    assert np.allclose(sym[..., 1], sym[..., 1].T) and np.all(np.diag(sym[..., 1]) == 0)
    # hera's auction (Wasserstein) is within a factor 1 + delta, not exactly symmetric
    np.testing.assert_allclose(sym[:2], out, rtol=0 if metric == "bottleneck" else 0.02)
    # the function keeps the dict form, with the same values
    twin = pairwise_distance(Ds[:2], Ds, metric=metric)
    for a, k in enumerate(est.homology_dimensions_):
        np.testing.assert_array_equal(twin[k], out[..., a])


def test_shift_invariant_and_log_scale():
    Ds = diagrams(1, 3)
    scaled = [D.scale(3.0) for D in Ds]
    est = PairwiseDistance(metric="shift_invariant_bottleneck", log_scale=True,
                           homology_dimensions=1, metric_params={"method": "exact"})
    out = est.fit(Ds).transform(scaled)
    assert out.shape == (3, 3)  # one dimension: a plain (n_samples, n_fitted) matrix
    assert np.allclose(np.diag(out), 0.0, atol=1e-12)
    assert out[0, 1] == shift_invariant_bottleneck(
        log_diagram(scaled[0]), log_diagram(Ds[1]), homology_dimension=1)[0]
    # H0 of log diagrams: -inf births, closed form
    out0 = PairwiseDistance("shift_invariant_bottleneck", homology_dimensions=0,
                            log_scale=True).fit(Ds).transform(scaled)
    assert np.allclose(np.diag(out0), 0.0, atol=1e-12)
    assert pairwise_distance(Ds, metric="bottleneck", homology_dimensions=None)[1].shape == (3, 3)


def test_bad_parameters():
    Ds = diagrams(2, 2)
    with pytest.raises(ValueError, match="metric"):
        PairwiseDistance(metric="cosine").fit(Ds)
    with pytest.raises(ValueError, match="metric_params"):
        PairwiseDistance(metric_params={"order": 2}).fit(Ds)
    with pytest.raises(ValueError, match="'homology_dimensions' parameter"):
        PairwiseDistance(homology_dimensions=(-1,)).fit(Ds)
    with pytest.raises(ValueError, match="'log_scale' parameter"):
        PairwiseDistance(log_scale=1).fit(Ds)
    with pytest.raises(ValueError, match="'metric' parameter of pairwise_distance"):
        pairwise_distance(Ds, metric="cosine")


def test_plots():
    import matplotlib.pyplot as plt

    D = diagrams(3, 1)[0]
    ax = plot_diagram(D)
    assert len(ax.collections) == 2
    ax = plot_diagram(log_diagram(D), style="persim")
    ax = plot_diagram(log_diagram(D), title="log")
    assert ax.get_title() == "log"
    E = diagrams(4, 1)[0]
    d, s = shift_invariant_bottleneck(D, E, homology_dimension=1)
    ax = plot_matching(D, E, homology_dimension=1, shift=s)
    assert "bottleneck" in ax.get_title()
    _, m = bottleneck_distance(D[0], E[0], matching=True)
    plot_matching(D[0], E[0], matching=m)
    with pytest.raises(ValueError):
        plot_matching(D, E)
    with pytest.raises(ValueError):
        plot_diagram(D, style="ggplot")
    plt.close("all")


def _core():
    return pytest.importorskip("tdadp.embed._embedding")


def test_pipeline_from_latent_sampler():
    _core()
    from sklearn.pipeline import make_pipeline

    from tdadp import GRDPG, AdjacencySpectralEmbedding, EdgeFlip, LatentSampler

    pipe = make_pipeline(LatentSampler("circle", n_nodes=150, random_state=0),
                         GRDPG(random_state=1), EdgeFlip(1.0, random_state=2),
                         AdjacencySpectralEmbedding(n_components=3),
                         PersistentHomology(),
                         PairwiseDistance(metric="shift_invariant_bottleneck", log_scale=True,
                                          order=None))
    out = pipe.fit_transform(3)[..., 1]  # H1, the second of homology_dimensions_ (0, 1)
    assert out.shape == (3, 3) and np.allclose(out, out.T)
    assert np.all(np.isfinite(out)) and np.all(out[~np.eye(3, dtype=bool)] > 0)


def test_prop2_smoke_shift_invariance_helps_on_flipped_graph():
    _core()
    from tdadp import adjacency_spectral_embedding, circle, edge_flip, sample_grdpg

    X = circle(300, random_state=0)
    A = sample_grdpg(X, random_state=1)
    A_eps = edge_flip(A, 1.0, random_state=2)
    D = log_diagram(PersistentHomology(homology_dimensions=1).fit_transform(
        adjacency_spectral_embedding(A, n_components=3)))
    D_eps = log_diagram(PersistentHomology(homology_dimensions=1).fit_transform(
        adjacency_spectral_embedding(A_eps, n_components=3)))
    w_si, shift = shift_invariant_bottleneck(D_eps, D, homology_dimension=1)
    w_inf = bottleneck_distance(D_eps, D, homology_dimension=1)
    assert w_si < w_inf
    # f is flat at its minimum here (a point of D_eps has no counterpart): the certified
    # method must still close its gap quickly and bracket the exact value
    cert = shift_invariant_bottleneck(D_eps, D, homology_dimension=1, method="certified",
                                      tol=1e-9)
    assert cert.lower - 1e-12 <= w_si <= cert.upper + 1e-12
    assert cert.n_evaluations < 100
    # the flipped embedding is shrunk by about sqrt(1 - 2 pi(1)): a positive log shift back
    assert shift > 0
