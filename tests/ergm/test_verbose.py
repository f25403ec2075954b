"""verbose= on the ERGM runs: progress bars on stderr that never change a draw."""

import numpy as np
import pytest

from tdadp.ergm import (
    ERGM,
    ERGMChain,
    Observation,
    PrivateERGM,
    bayes_ergm,
    population_exchange,
    sample_ergm,
)
from tdadp.ergm._progress import Progress

TERMS = ["edges", ("altktriangles", 2.0)]


def _graph(n=12, seed=0):
    rng = np.random.default_rng(seed)
    A = np.triu(rng.random((n, n)) < 0.3, 1).astype(np.uint8)
    return A + A.T


def test_a_run_cut_into_chunks_is_the_run_in_one_call():
    # 200,000 steps: four chunks, the last one short; the trace spans the cuts
    whole, cut = (ERGMChain(_graph(30), TERMS) for _ in range(2))
    theta = [-1.0, 0.3]
    done = []
    a1, t1 = whole.run(theta, 200_000, np.random.default_rng(3), trace_every=7)
    a2, t2 = cut.run(theta, 200_000, np.random.default_rng(3), trace_every=7,
                     progress=done.append)
    assert len(done) == 4 and sum(done) == 200_000
    assert a1 == a2 and np.array_equal(t1, t2) and t1.shape == (200_000 // 7, 2)
    assert np.array_equal(whole.A, cut.A)
    assert np.array_equal(whole.statistics, cut.statistics)
    # the next call reseeds from its Generator: the two chains stay together
    assert whole.run(theta, 1000, np.random.default_rng(4)) == \
        cut.run(theta, 1000, np.random.default_rng(4))
    assert np.array_equal(whole.A, cut.A)


def test_sample_ergm_verbose_same_draw(capfd):
    kw = dict(n_nodes=40, n_steps=150_000, random_state=5)
    quiet = sample_ergm(TERMS, [-2.0, 0.5], **kw)
    assert capfd.readouterr().err == ""
    loud = sample_ergm(TERMS, [-2.0, 0.5], verbose=True, **kw)
    err = capfd.readouterr().err
    assert np.array_equal(quiet, loud)
    assert "sample_ergm" in err and "150k/150k" in err


def test_ergm_estimator_verbose_one_bar_for_the_batch_on_threads(capfd):
    quiet = ERGM(TERMS, theta=[-2.0, 0.5], random_state=1, n_jobs=2).fit_transform(
        [40, _graph(30), 35])
    loud = ERGM(TERMS, theta=[-2.0, 0.5], random_state=1, n_jobs=2,
                verbose=True).fit_transform([40, _graph(30), 35])
    assert all(np.array_equal(a, b) for a, b in zip(quiet, loud))
    err = capfd.readouterr().err
    total = sum(max(10_000, 10 * n * (n - 1)) for n in (40, 30, 35))
    assert err.count("ERGM") >= 1 and f"{total / 1000:.1f}k/{total / 1000:.1f}k" in err


def _same_posterior(a, b):
    assert np.array_equal(a.chains, b.chains)
    assert np.array_equal(a.acceptance, b.acceptance)
    if a.latent_statistics is None:
        assert b.latent_statistics is None
    else:
        assert np.array_equal(a.latent_statistics, b.latent_statistics)


def test_bayes_ergm_private_verbose_same_posterior(capfd):
    kw = dict(observation=Observation.laplace([20.0], [2.0]), n_nodes=15, n_iter=200,
              burn_in=100, aux_steps=300, n_chains=2, random_state=7, n_jobs=2)
    quiet = bayes_ergm(["edges"], **kw)
    assert capfd.readouterr().err == ""
    loud = bayes_ergm(["edges"], verbose=True, **kw)
    _same_posterior(quiet, loud)
    err = capfd.readouterr().err
    assert "bayes_ergm latent burn-in" in err and "bayes_ergm exchange" in err
    assert "600/600" in err  # 2 chains x (100 + 200) iterations


def test_population_verbose_same_posterior(capfd):
    kw = dict(graph=_graph(), n_iter=100, burn_in=50, aux_steps=200, random_state=2)
    quiet = population_exchange(TERMS, **kw)
    loud = population_exchange(TERMS, verbose=True, **kw)
    _same_posterior(quiet, loud)
    assert "bayes_ergm population" in capfd.readouterr().err


@pytest.mark.parametrize("mechanism,extra", [("flip", {}), ("restricted", {"max_degree": 6})])
def test_private_ergm_verbose_same_fit(mechanism, extra, capfd):
    kw = dict(epsilon=2.0, mechanism=mechanism, n_iter=100, burn_in=50, aux_steps=200,
              latent_steps=50, random_state=4, **extra)
    quiet = PrivateERGM(["edges"], **kw).fit(_graph(14))
    loud = PrivateERGM(["edges"], verbose=True, **kw).fit(_graph(14))
    _same_posterior(quiet.posterior_result_, loud.posterior_result_)
    assert "bayes_ergm exchange" in capfd.readouterr().err


def test_verbose_is_a_declared_parameter():
    with pytest.raises(ValueError, match="verbose"):
        bayes_ergm(["edges"], graph=_graph(), verbose="yes")
    with pytest.raises(ValueError, match="verbose"):
        ERGM(verbose=1).fit()
    with pytest.raises(ValueError, match="verbose"):
        PrivateERGM(verbose=None).fit(_graph())
    with pytest.raises(ValueError, match="verbose"):
        sample_ergm(["edges"], [0.0], n_nodes=5, verbose="no")
    assert PrivateERGM(verbose=True).get_params()["verbose"] is True


def test_progress_counts_in_chunks(capfd):
    with Progress(True, 10_000, "test bar", "it") as progress:
        for _ in range(10_000):
            progress(1)
        # told tqdm at most once a thousandth of the total
        assert progress._bar.n == 10_000
    assert "test bar" in capfd.readouterr().err
    with Progress(False, 10, "hidden", "it") as progress:
        progress(10)
    assert capfd.readouterr().err == ""
