"""The Markov-chain histogram releases and the general Markov Quilt Mechanism as estimators."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from tdadp.pufferfish import (
    BinaryIntervalFamily,
    GK16Histogram,
    GroupDPHistogram,
    MarkovQuiltMechanism,
    MQMApprox,
    MQMExact,
    chain_histogram_release,
    compose_markov_quilt,
    markov_quilt_mechanism,
)

THETA = ("stationary", [[0.9, 0.1], [0.4, 0.6]])
CLASSES = [MQMExact, MQMApprox, GroupDPHistogram, GK16Histogram]
WEAK = ("stationary", [[0.6, 0.4], [0.4, 0.6]])     # GK16 applies


def sample_chain(P, T, rng, start=0):
    P = np.asarray(P)
    x = np.empty(T, dtype=np.int64)
    x[0] = start
    for t in range(1, T):
        x[t] = rng.choice(P.shape[0], p=P[x[t - 1]])
    return x


@pytest.mark.parametrize("cls", CLASSES)
def test_fit_transform_clone_params(cls):
    rng = np.random.default_rng(0)
    x = sample_chain(WEAK[1], 50, rng)
    mech = cls(WEAK, epsilon=1.0, random_state=3)
    assert set(mech.get_params()) >= {"thetas", "epsilon", "length", "random_state"}
    twin = clone(mech)
    assert twin.get_params()["epsilon"] == 1.0 and twin is not mech
    out = mech.fit(x).transform(x)             # length read from x
    assert mech.length_ == 50 and mech.n_states_ == 2 and out.shape == (2,)
    again = clone(mech).fit(x).transform(x)
    np.testing.assert_array_equal(out, again)  # a fixed seed reproduces the release
    batch = mech.transform(np.stack([x, x[::-1]]))
    assert batch.shape == (2, 2)
    # nothing of the data is kept: only public facts and the calibration
    for value in vars(mech).values():
        assert not (isinstance(value, np.ndarray) and value.shape == x.shape)
    g = mech.guarantee_
    text = g.describe()
    assert "epsilon" in text or "privacy" in text
    assert g.noise_scale == pytest.approx(mech.noise_scale_)
    assert mech.fit_transform(x).shape == (2,)
    secure = cls(WEAK, 1.0, random_state="secure").fit(x)
    assert np.isfinite(secure.transform(x)).all()


def test_noise_scale_and_error():
    mech = MQMExact(THETA, 1.0, length=100, random_state=0).fit()
    sigma = mech.score_
    assert mech.noise_scale_ == pytest.approx(2 * sigma / 100, rel=1e-8)
    assert mech.noise_scale_ >= 2 * sigma / 100
    assert mech.guarantee_.definition == "Pufferfish privacy"
    assert mech.guarantee_.unit == "secret pair"
    x = sample_chain(THETA[1], 100, np.random.default_rng(1))
    truth = np.bincount(x, minlength=2) / 100
    out = np.array([MQMExact(THETA, 1.0, length=100, random_state=s).fit().transform(x)
                    for s in range(400)])
    # E|Laplace(b)| = b per bin: the mean L1 error is 2 b for two bins
    err = np.abs(out - truth).sum(axis=1).mean()
    assert err == pytest.approx(2 * mech.noise_scale_, rel=0.15)
    group = GroupDPHistogram(THETA, 1.0, length=100).fit()
    assert group.noise_scale_ == pytest.approx(2.0)
    assert group.guarantee_.definition == "differential privacy"
    assert "all 100 records" in group.guarantee_.unit
    assert MQMApprox(THETA, 1.0, length=100).fit().noise_scale_ >= mech.noise_scale_
    inf = MQMExact(THETA, np.inf, length=100).fit()
    np.testing.assert_array_equal(inf.transform(x), truth)


def test_interval_family_release():
    fam = BinaryIntervalFamily(0.3, cells=10)
    mech = MQMExact(fam, 1.0, length=60, random_state=0).fit()
    assert mech.scale_result_.lower_score <= mech.score_
    assert mech.transform(np.zeros(60, dtype=int)).shape == (2,)


def test_bad_sequences_and_lengths():
    mech = MQMExact(THETA, 1.0, length=10).fit()
    with pytest.raises(ValueError, match="fitted length"):
        mech.transform(np.zeros(11, dtype=int))
    with pytest.raises(ValueError, match="0..1"):
        mech.transform(np.full(10, 2))
    with pytest.raises(ValueError, match="integers"):
        mech.transform(np.full(10, 0.5))
    with pytest.raises(ValueError, match="integers"):
        mech.transform(np.array([0.0] * 9 + [np.nan]))
    with pytest.raises(ValueError):
        mech.transform([[0, 1], [0]])
    with pytest.raises(ValueError, match="1-D"):
        mech.transform(np.zeros((2, 2, 10), dtype=int))
    with pytest.raises(ValueError, match="length"):
        MQMExact(THETA, 1.0).fit()
    with pytest.raises(ValueError, match="fitted length"):
        MQMExact(THETA, 1.0, length=5).fit(np.zeros(6, dtype=int))
    with pytest.raises(NotFittedError):
        MQMExact(THETA, 1.0, length=5).transform(np.zeros(5, dtype=int))
    for eps in (0.0, -1.0, np.nan):
        with pytest.raises(ValueError):
            MQMExact(THETA, eps, length=5).fit()
    with pytest.raises(ValueError):
        MQMExact(THETA, 1.0, length=0).fit()
    with pytest.raises(ValueError, match="sum to 1"):
        MQMExact(([0.3, 0.3], THETA[1]), 1.0, length=5).fit()
    with pytest.raises(ValueError):
        MQMExact(THETA, 1.0, length=5, random_state="urandom").fit()


def test_composition():
    mechs = [MQMExact(THETA, 1.0, length=100).fit() for _ in range(3)]
    single = compose_markov_quilt(mechs[:1])
    assert single.epsilon <= 1.0 + 1e-9
    three = compose_markov_quilt(mechs)
    assert 1.0 < three.epsilon <= 3.0 and len(three.components) == 3
    mixed = compose_markov_quilt([mechs[0], MQMApprox(THETA, 0.5, length=100).fit()])
    assert mixed.epsilon <= 1.5 + 1e-9
    with pytest.raises(ValueError, match="share"):
        compose_markov_quilt([mechs[0], MQMExact(THETA, 1.0, length=50).fit()])
    with pytest.raises(ValueError, match="fitted"):
        compose_markov_quilt([GroupDPHistogram(THETA, 1.0, length=100).fit()])
    fam = BinaryIntervalFamily(0.3, cells=6)
    fm = [MQMExact(fam, 1.0, length=30).fit() for _ in range(2)]
    assert compose_markov_quilt(fm).epsilon <= 2.0 + 1e-9


def test_function_twins():
    x = [0, 1, 1, 0]
    out = chain_histogram_release(x, THETA, 1.0, method="MQMApprox", random_state=0)
    assert out.shape == (2,)
    with pytest.raises(ValueError, match="method"):
        chain_histogram_release(x, THETA, 1.0, method="exact")
    assert markov_quilt_mechanism(2.0, {0: [(0.0, 1)]}, np.inf) == 2.0


def test_general_mechanism():
    quilts = {"a": [(0.2, 2, "Q1"), (0.0, 5, "empty")], "b": [(0.0, 5)]}
    mech = MarkovQuiltMechanism(epsilon=1.0, lipschitz=0.5, random_state=0).fit(quilts)
    assert mech.score_ == pytest.approx(5.0) and mech.node_ == "b"
    assert mech.node_scores_["a"] == pytest.approx(2.5)
    assert mech.noise_scale_ == pytest.approx(2.5, rel=1e-8)
    assert np.shape(mech.transform([1.0, 2.0])) == (2,)
    assert clone(mech).get_params()["lipschitz"] == 0.5
    with pytest.raises(TypeError, match="fit"):
        mech.fit_transform(quilts)
    with pytest.raises(ValueError, match="no candidate quilt with max-influence below"):
        MarkovQuiltMechanism(epsilon=1.0).fit({0: [(1.5, 1)]})
    for bad in (None, {}, {0: []}, {0: [(0.1,)]}, {0: [(-1.0, 2)]}, {0: [(0.1, 0)]},
                {0: [(np.nan, 2)]}):
        with pytest.raises(ValueError):
            MarkovQuiltMechanism().fit(bad)
    with pytest.raises(ValueError):
        MarkovQuiltMechanism(lipschitz=0).fit({0: [(0.0, 1)]})
