import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from tdadp.cluster import ToMATo, plot_prominence


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
