"""ToMATo's verbose progress over the bootstrap replicates changes nothing."""

import numpy as np
import pytest

from tdadp.cluster import ToMATo, tomato


def _blobs():
    rng = np.random.default_rng(0)
    return np.concatenate([rng.normal(0, 0.3, (150, 2)), rng.normal(3, 0.3, (150, 2))])


@pytest.mark.parametrize("n_jobs", [None, 2])
def test_verbose_shows_the_bootstrap_and_changes_nothing(capsys, n_jobs):
    X = _blobs()
    quiet = ToMATo(n_bootstrap=25, random_state=0, n_jobs=n_jobs).fit(X)
    assert capsys.readouterr().err == ""
    loud = ToMATo(n_bootstrap=25, random_state=0, n_jobs=n_jobs, verbose=True).fit(X)
    err = capsys.readouterr().err
    # metric="auto" tests both geometries: one bar each, every replicate counted.
    assert "ToMATo bootstrap (euclidean)" in err and "ToMATo bootstrap (angular)" in err
    assert err.count("25/25") == 2
    np.testing.assert_array_equal(loud.labels_, quiet.labels_)
    np.testing.assert_array_equal(loud.diagram_, quiet.diagram_)
    assert loud.confidence_band_ == quiet.confidence_band_
    assert loud.n_significant_modes_ == quiet.n_significant_modes_


def test_verbose_is_silent_without_a_bootstrap(capsys):
    X = _blobs()
    ToMATo(n_clusters=2, random_state=0, verbose=1).fit(X)  # an int counts as True
    assert capsys.readouterr().err == ""


def test_the_function_twin_passes_verbose(capsys):
    X = _blobs()
    labels = tomato(X, metric="euclidean", n_bootstrap=10, random_state=0, verbose=True)
    assert "10/10" in capsys.readouterr().err
    np.testing.assert_array_equal(labels, tomato(X, metric="euclidean", n_bootstrap=10,
                                                 random_state=0))


@pytest.mark.parametrize("bad", ["yes", -1, 1.5])
def test_verbose_is_a_declared_parameter(bad):
    with pytest.raises(ValueError, match="verbose"):
        ToMATo(verbose=bad).fit(_blobs())
