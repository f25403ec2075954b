"""Persistence diagrams as DataFrames: PersistentHomology's pandas output, read back.

With pandas output each diagram is a DataFrame with a row per point and columns
``dimension, birth, death`` (giotto-tda's layout), the computed dimensions in
``attrs["homology_dimensions"]``; every diagram consumer reads it back as the diagram. The
default output stays the PersistenceDiagram it was.
"""

import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn import config_context
from sklearn.base import clone
from sklearn.pipeline import make_pipeline

from tdadp.topology import (
    PairwiseDistance,
    PersistenceDiagram,
    PersistentHomology,
    as_diagram,
    bottleneck_distance,
    dilation_invariant_bottleneck,
    pairwise_distance,
    persistence_diagram,
    plot_diagram,
    plot_matching,
    shift_invariant_bottleneck,
    wasserstein_distance,
)

matplotlib.use("Agg")


def _clouds(n=4, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        t = rng.uniform(0, 2 * np.pi, 40)
        ring = np.c_[np.cos(t), np.sin(t)] * (1 + i / 4) + rng.normal(0, 0.05, (40, 2))
        out.append(ring if i % 2 else rng.normal(0, 0.7, (40, 2)))
    return out


def test_pandas_output_is_one_row_per_point_and_the_default_is_unchanged():
    clouds = _clouds()
    est = PersistentHomology(complex="rips", homology_dimensions=(0, 1, 2))
    default = est.fit_transform(clouds)
    expected = persistence_diagram(clouds, complex="rips", homology_dimensions=(0, 1, 2))
    for D, E in zip(default, expected):  # bit for bit, in the stored order
        assert type(D) is PersistenceDiagram and D.homology_dimensions == (0, 1, 2)
        for k in (0, 1, 2):
            np.testing.assert_array_equal(D[k], E[k])
    frames = clone(est).set_output(transform="pandas").fit_transform(clouds)
    assert isinstance(frames, list) and len(frames) == len(clouds)
    for frame, D in zip(frames, default):
        assert isinstance(frame, pd.DataFrame)
        assert list(frame.columns) == ["dimension", "birth", "death"]
        assert [str(t) for t in frame.dtypes] == ["int64", "float64", "float64"]
        assert frame.attrs == {"homology_dimensions": (0, 1, 2)}
        assert len(frame) == sum(D.n_points.values())
        for k in (0, 1, 2):
            np.testing.assert_array_equal(
                frame.loc[frame["dimension"] == k, ["birth", "death"]].to_numpy(), D[k])
        assert as_diagram(frame) == D and PersistenceDiagram.from_frame(frame) == D
    # one cloud gives one DataFrame; the global configuration does the same
    one = clone(est).set_output(transform="pandas").transform(clouds[1])
    assert isinstance(one, pd.DataFrame) and as_diagram(one) == default[1]
    with config_context(transform_output="pandas"):
        assert isinstance(clone(est).transform(clouds[1]), pd.DataFrame)
    with pytest.raises(ValueError, match="transform must be one of"):
        clone(est).set_output(transform="polars")


def test_empty_dimensions_survive_the_round_trip():
    D = PersistenceDiagram({0: [[0.0, np.inf], [0.0, 1.0]], 1: [], 3: [[0.5, 0.75]]})
    frame = D.to_frame()
    assert frame["dimension"].tolist() == [0, 0, 3]
    assert as_diagram(frame) == D and as_diagram(frame).homology_dimensions == (0, 1, 3)
    # without the attrs, the dimensions are those with points
    bare = pd.DataFrame(frame.to_dict("list"))
    assert as_diagram(bare).homology_dimensions == (0, 3)
    # the empty diagram
    empty = PersistenceDiagram({1: []}).to_frame()
    assert len(empty) == 0 and as_diagram(empty) == PersistenceDiagram({1: []})


def test_every_consumer_reads_the_dataframe_as_the_diagram():
    D1, D2 = persistence_diagram(_clouds(2, seed=1), complex="alpha")
    F1, F2 = D1.to_frame(), D2.to_frame()
    assert bottleneck_distance(F1, F2) == bottleneck_distance(D1, D2) > 0
    assert bottleneck_distance(F1, D2, homology_dimension=1) == bottleneck_distance(
        D1, D2, homology_dimension=1)
    assert wasserstein_distance(F1, F2, homology_dimension=1) == wasserstein_distance(
        D1, D2, homology_dimension=1)
    L1, L2 = (D.select(1).to_frame() for D in (D1, D2))
    assert shift_invariant_bottleneck(L1, L2, homology_dimension=1) == \
        shift_invariant_bottleneck(D1, D2, homology_dimension=1)
    assert dilation_invariant_bottleneck(L1, L2, homology_dimension=1).distance == \
        dilation_invariant_bottleneck(D1, D2, homology_dimension=1).distance
    for a, b in zip(pairwise_distance([F1, F2])[1].ravel(),
                    pairwise_distance([D1, D2])[1].ravel()):
        assert a == b
    est = PairwiseDistance().fit([F1, D2])
    np.testing.assert_array_equal(est.transform(F1), PairwiseDistance().fit([D1, D2])
                                  .transform(D1))
    ax = plot_diagram(F1)
    assert len(ax.collections) == 2
    plot_matching(F1, F2, homology_dimension=1)


def test_a_pipeline_under_pandas_output_gives_the_default_values():
    clouds = _clouds(6, seed=2)

    def pipe():
        return make_pipeline(PersistentHomology(complex="alpha"), PairwiseDistance())

    expected = pipe().fit_transform(clouds)
    framed = pipe().set_output(transform="pandas")
    out = framed.fit_transform(clouds)
    assert isinstance(out, pd.DataFrame) and out.shape == (6, 6)
    assert list(out.columns) == list(framed[-1].get_feature_names_out())
    np.testing.assert_array_equal(out.to_numpy(), expected)
    np.testing.assert_array_equal(framed.transform(clouds[:2]).to_numpy(),
                                  pipe().fit(clouds).transform(clouds[:2]))
    with config_context(transform_output="pandas"):
        glob = pipe().fit_transform(clouds)
    np.testing.assert_array_equal(glob.to_numpy(), expected)


@pytest.mark.parametrize("frame, match", [
    (pd.DataFrame({"dimension": [0], "birth": [0.0]}), "has the columns"),
    (pd.DataFrame({"dim": [0], "birth": [0.0], "death": [1.0]}), "has the columns"),
    (pd.DataFrame({"dimension": [0], "birth": [0.0], "death": [1.0], "x": [1]}),
     "has the columns"),
    (pd.DataFrame({"dimension": [0.5], "birth": [0.0], "death": [1.0]}),
     "non-negative integers"),
    (pd.DataFrame({"dimension": [-1], "birth": [0.0], "death": [1.0]}),
     "non-negative integers"),
    (pd.DataFrame({"dimension": ["H1"], "birth": [0.0], "death": [1.0]}),
     "non-negative integers"),
    (pd.DataFrame({"dimension": [1], "birth": [2.0], "death": [1.0]}), "dies before"),
    (pd.DataFrame({"dimension": [1], "birth": [np.nan], "death": [1.0]}), "NaN"),
    (pd.DataFrame({"dimension": [1], "birth": ["a"], "death": [1.0]}), "not numeric|numeric"),
], ids=["missing column", "misnamed column", "extra column", "fractional dimension",
        "negative dimension", "string dimension", "death before birth", "NaN", "strings"])
def test_a_dataframe_that_is_no_diagram_is_refused_clearly(frame, match):
    for call in (as_diagram, PersistenceDiagram.from_frame,
                 lambda F: bottleneck_distance(F, F),
                 lambda F: PairwiseDistance().fit(F), lambda F: PairwiseDistance().fit([F])):
        with pytest.raises(ValueError, match=match):
            call(frame)


def test_bad_homology_dimensions_attribute_is_refused():
    frame = PersistenceDiagram({1: [[0.0, 1.0]]}).to_frame()
    frame.attrs["homology_dimensions"] = ("one",)
    with pytest.raises(ValueError, match=r"attrs\['homology_dimensions'\].*non-negative"):
        as_diagram(frame)
    with pytest.raises(ValueError, match="expected a pandas DataFrame"):
        PersistenceDiagram.from_frame({1: [[0.0, 1.0]]})
