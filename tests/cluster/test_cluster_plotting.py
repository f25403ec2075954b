import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from tdadp import LatentPositions, adjacency_spectral_embedding, sample_grdpg, sbm
from tdadp.cluster import ToMATo, plot_embedding, plot_prominence


def _fitted():
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(0, 1, (300, 2)), rng.normal(4, 1, (300, 2))])
    return ToMATo().fit(X)


def test_plot_estimator_marks_kept_modes_and_threshold():
    est = _fitted()
    ax = plot_prominence(est)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"kept ({est.n_clusters_})" in labels
    assert any(t.startswith("threshold") for t in labels)
    assert ax.get_yticklabels()[0].get_text() == "-inf"
    plt.close(ax.figure)


def test_plot_diagram_with_n_clusters_on_given_axes():
    est = _fitted()
    fig, ax = plt.subplots()
    out = plot_prominence(est.diagram_, ax=ax, n_clusters=3)
    assert out is ax
    assert "kept (3)" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)


@pytest.mark.parametrize(
    "arg,match",
    [(np.zeros((3, 3)), "shape"), (np.array([[1.0, 2.0]]), "above its birth"),
     (np.empty((0, 2)), "empty"), (ToMATo(), "not fitted")],
)
def test_plot_bad_input(arg, match):
    with pytest.raises(ValueError, match=match):
        plot_prominence(arg)


def test_plot_shades_the_bootstrap_band():
    est = _fitted()
    assert est.confidence_band_ > 0
    ax = plot_prominence(est)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"not significant (prominence < {2 * est.confidence_band_:.3g})" in labels
    plt.close(ax.figure)
    ax = plot_prominence(est.diagram_, band=0.5)
    assert any(t.get_text().startswith("not significant") for t in ax.get_legend().get_texts())
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="band must be a finite number"):
        plot_prominence(est.diagram_, band=np.nan)


# --- the kept modes at a tie, and the method ----------------------------------------------

def _mirrored_cloud(seed=3):
    """Three groups symmetric under x -> -x plus a mirrored pair of smaller groups: the pair's
    modes have exactly the same prominence (every distance has its mirror image)."""
    rng = np.random.default_rng(seed)
    centre = rng.normal([0.0, 0.0], 0.35, (120, 2))
    top = rng.normal([0.0, 2.2], 0.3, (80, 2))
    side = rng.normal([1.6, 0.0], 0.25, (40, 2))
    centre[:, 0] = np.abs(centre[:, 0])
    top[:, 0] = np.abs(top[:, 0])
    right = np.concatenate([centre, top, side])
    return np.concatenate([right, right * [-1.0, 1.0]])


def _texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_a_tie_at_the_threshold_keeps_n_clusters_modes():
    est = ToMATo(n_clusters=3, metric="euclidean", k=8, density_k=16).fit(_mirrored_cloud())
    p = est.prominences_
    c = est.n_clusters_
    assert c == 3 and est.n_connected_components_ == 1
    # The reproduction: the last kept and the first merged mode tie, and the fit's threshold
    # is their prominence, so "prominence >= threshold" counts 4 modes.
    assert p[c - 1] == p[c] == est.merge_threshold_
    assert np.count_nonzero(p >= est.merge_threshold_) == 4
    assert np.unique(est.labels_).size == 3
    for ax in (plot_prominence(est), est.plot_prominence()):
        assert "kept (3)" in _texts(ax) and "merged (" in " ".join(_texts(ax))
        kept = ax.collections[0].get_offsets()
        np.testing.assert_array_equal(kept[:, 0], est.diagram_[:3, 0])  # the fit's modes
        plt.close(ax.figure)
    # The bare diagram cut into 3 breaks the tie as the fit did.
    ax = plot_prominence(est.diagram_, n_clusters=3)
    assert "kept (3)" in _texts(ax)
    np.testing.assert_array_equal(ax.collections[0].get_offsets()[:, 0], est.diagram_[:3, 0])
    plt.close(ax.figure)


def test_bare_diagram_cut_keeps_every_immortal_mode():
    diagram = np.array([[3.0, -np.inf], [2.0, -np.inf], [2.5, 1.0], [2.2, 1.9]])
    ax = plot_prominence(diagram, n_clusters=1)
    assert "kept (2)" in _texts(ax)  # as a fit would: both components stay
    plt.close(ax.figure)


def test_the_method_draws_what_the_function_draws():
    est = _fitted()
    fig, (a, b) = plt.subplots(1, 2)
    assert est.plot_prominence(ax=a) is a
    plot_prominence(est, ax=b)
    assert _texts(a) == _texts(b)
    for ca, cb in zip(a.collections, b.collections):
        np.testing.assert_array_equal(ca.get_offsets(), cb.get_offsets())
    for la, lb in zip(a.get_lines(), b.get_lines()):
        np.testing.assert_array_equal(la.get_xydata(), lb.get_xydata())
    c = est.plot_prominence(n_clusters=3)
    assert "kept (3)" in _texts(c)
    plt.close("all")
    with pytest.raises(Exception, match="not fitted"):
        ToMATo().plot_prominence()


# --- plot_embedding -----------------------------------------------------------------------

def _legend(fig):
    return [t.get_text() for t in fig.legends[0].get_texts()]


def test_plot_embedding_of_latent_positions_with_noise():
    Z = sbm([40, 40, 40], np.full((3, 3), 0.1) + 0.4 * np.eye(3), random_state=0)
    X = adjacency_spectral_embedding(sample_grdpg(Z, random_state=1), 3)
    labels = Z.labels.copy()
    labels[:5] = -1
    fig = plot_embedding(X, labels)
    assert len(fig.axes) == 9  # 3 dimensions: a 3 x 3 grid
    assert _legend(fig) == ["0", "1", "2", "noise / isolated"]
    grid = np.array(fig.axes).reshape(3, 3)
    assert [ax.get_xlabel() for ax in grid[-1]] == ["dimension 1", "dimension 2", "dimension 3"]
    assert [ax.get_ylabel() for ax in grid[:, 0]] == ["dimension 1", "dimension 2",
                                                      "dimension 3"]
    assert grid[0, 1].get_xlabel() == ""
    # Off the diagonal, one scatter a group; the noise in grey.
    assert len(grid[0, 1].collections) == 4
    grey = [c for c in grid[0, 1].collections if np.allclose(c.get_facecolor()[0][:3], 0.6)]
    assert len(grey) == 1 and grey[0].get_offsets().shape == (5, 2)
    # On the diagonal, one histogram a group.
    assert len(grid[1, 1].patches) == 4
    plt.close(fig)


def test_plot_embedding_of_a_dataframe_uses_its_columns_and_kde():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(60, 5)), columns=list("abcde"))
    fig = plt.figure()
    out = plot_embedding(frame, np.repeat(["x", "y"], 30), n_dims=2, figure=fig, diag="kde",
                         label_names={"x": "group x"}, legend_title="group", title="t")
    assert out is fig and len(fig.axes) == 4
    assert _legend(fig) == ["group x", "y"]
    assert fig.legends[0].get_title().get_text() == "group"
    assert fig.axes[2].get_xlabel() == "a" and fig.axes[3].get_xlabel() == "b"
    assert fig.axes[2].get_ylabel() == "b"
    assert len(fig.axes[0].get_lines()) == 2  # a KDE curve a group
    plt.close(fig)


def test_plot_embedding_marks_the_isolated_nodes_of_an_embedding():
    X = LatentPositions(np.random.default_rng(0).normal(size=(30, 2)),
                        isolated=np.arange(30) < 3)
    fig = plot_embedding(X, n_dims=1)
    assert len(fig.axes) == 1 and fig.axes[0].get_xlabel() == "dimension 1"
    assert _legend(fig) == ["0", "noise / isolated"]
    plt.close(fig)
    # A fitted clusterer gives its labels.
    with pytest.warns(UserWarning, match="3 of the 30"):
        est = ToMATo(n_clusters=2, random_state=0).fit(X)
    fig = plot_embedding(X, est)
    assert _legend(fig)[-1] == "noise / isolated" and len(_legend(fig)) == 3
    plt.close(fig)


def test_plot_embedding_of_a_dimension_with_one_value():
    # The ground-truth positions of a block model: one point a block, so a dimension's range
    # is rounding only; its panels get a unit window.
    X = sbm([40, 40, 40], np.full((3, 3), 0.1) + 0.4 * np.eye(3), random_state=0)
    assert np.ptp(X[:, 0]) < 1e-12
    fig = plot_embedding(X)
    assert _legend(fig) == ["0", "1", "2"]  # the ground-truth labels X carries
    lo, hi = fig.axes[0].get_xlim()
    assert hi - lo > 0.1
    plt.close(fig)


@pytest.mark.parametrize("kwargs,match", [
    (dict(n_dims=3), "n_dims"), (dict(n_dims=0), "n_dims"), (dict(diag="violin"), "diag"),
    (dict(labels=[0, 1]), "labels"), (dict(names=["only one"]), "names"),
])
def test_plot_embedding_bad_input(kwargs, match):
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match=match):
        plot_embedding(X, **kwargs)
    fig, _ = plt.subplots()
    with pytest.raises(ValueError, match="empty"):
        plot_embedding(X, figure=fig)
    plt.close("all")
