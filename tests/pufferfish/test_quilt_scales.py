"""The Markov Quilt Mechanism: the paper's numbers, the exact search against enumeration, the
MQMApprox bound, the interval family's cover, and the Pufferfish guarantee checked exactly."""

from itertools import product

import numpy as np
import pytest

from tdadp.pufferfish import (
    BinaryIntervalFamily,
    GK16Histogram,
    GroupDPHistogram,
    MarkovQuiltMechanism,
    MQMApprox,
    MQMExact,
    chain_histogram_privacy_exact,
    chain_mixing,
    gk16_scale,
    group_dp_scale,
    is_markov_quilt,
    mqm_approx_scale,
    mqm_exact_scale,
    quilt_max_influence,
    stationary_distribution,
)

# The paper's running example (Section 4.4): T = 100, two states, eps = 1.
THETA_1 = ([1.0, 0.0], [[0.9, 0.1], [0.4, 0.6]])
THETA_2 = ([0.9, 0.1], [[0.8, 0.2], [0.3, 0.7]])


def random_chain(rng, k, reversible=False, start="pmf"):
    if reversible:
        W = rng.random((k, k)) + 0.05
        W = W + W.T                        # symmetric weights: a reversible random walk
        P = W / W.sum(axis=1, keepdims=True)
    else:
        P = rng.dirichlet(np.ones(k), size=k) * 0.95 + 0.05 / k
    q = {"pmf": rng.dirichlet(np.ones(k)), "stationary": "stationary", "any": "any"}[start]
    return (q, P)


def test_paper_running_example_scores_nodes_and_quilts():
    res = mqm_exact_scale([THETA_1, THETA_2], 100, 1.0)
    c1, c2 = res.per_theta
    assert c1.score == pytest.approx(13.0219, abs=5e-5)
    assert (c1.node, c1.quilt, c1.nearby) == (8, (3, 13), 9)       # X_8, quilt {X_3, X_13}
    assert c2.score == pytest.approx(10.6402, abs=5e-5)
    assert (c2.node, c2.quilt, c2.nearby) == (6, (10,), 9)         # X_6, quilt {X_10}
    # the class's scale is the largest; float() gives it, times the Lipschitz constant
    assert float(res) == res.scale == pytest.approx(13.0219, abs=5e-5)
    assert mqm_exact_scale([THETA_1, THETA_2], 100, 1.0, lipschitz=0.02).scale == \
        pytest.approx(0.02 * res.score)
    # each influence reproduces its score
    for c in res.per_theta:
        assert c.score == pytest.approx(c.nearby / (1.0 - c.influence))


def test_exact_search_matches_enumeration_of_every_quilt():
    """The score of every node from influences computed by enumerating all k^T chains
    (Definition 4.1) over the quilt set of Lemma 4.6 equals mqm_exact_scale's."""
    rng = np.random.default_rng(3)
    T, k, eps = 6, 2, 1.5
    for _ in range(3):
        q, P = random_chain(rng, k)
        D = np.array(list(product(range(k), repeat=T)))
        w = q[D[:, 0]] * np.prod(P[D[:, :-1], D[:, 1:]], axis=1)
        quilts = {}
        for i in range(T):
            cands = [(0.0, T, ())]
            for a in range(i + 1):
                for b in range(T - i):
                    Q = ([i - a] if a else []) + ([i + b] if b else [])
                    if not Q:
                        continue
                    lo = i - a + 1 if a else 0
                    hi = i + b - 1 if b else T - 1
                    N = list(range(lo, hi + 1))
                    assert is_markov_quilt(D, w, i, Q, N)
                    cands.append((quilt_max_influence(D, w, i, Q), len(N), tuple(Q)))
            quilts[i] = cands
        general = MarkovQuiltMechanism(epsilon=eps).fit(quilts)
        chain = mqm_exact_scale((q, P), T, eps)
        assert general.score_ == pytest.approx(chain.score, rel=1e-10)
        assert general.node_ + 1 == chain.per_theta[0].node


def test_stationary_fast_search_matches_the_node_by_node_search():
    rng = np.random.default_rng(5)
    for k in (2, 3):
        _, P = random_chain(rng, k)
        pi = stationary_distribution(P)
        fast = mqm_exact_scale(("stationary", P), 40, 1.0)
        slow = mqm_exact_scale((pi, P), 40, 1.0)
        assert fast.score == pytest.approx(slow.score, rel=1e-9)


@pytest.mark.parametrize("reversible", [True, False])
def test_approx_scale_is_never_below_exact(reversible):
    rng = np.random.default_rng(11 if reversible else 12)
    for trial in range(25):
        k = int(rng.integers(2, 5))
        start = ("pmf", "stationary", "any")[trial % 3]
        thetas = [random_chain(rng, k, reversible, start) for _ in range(int(rng.integers(1, 3)))]
        T = int(rng.integers(5, 120))
        eps = float(rng.choice([0.2, 1.0, 5.0]))
        ell = None if trial % 2 else int(rng.integers(1, 30))
        exact = mqm_exact_scale(thetas, T, eps, max_quilt=ell)
        approx = mqm_approx_scale(thetas, T, eps, max_quilt=ell)
        assert approx.score >= exact.score * (1 - 1e-12)
        assert exact.score <= T / eps * (1 + 1e-12)            # never worse than GroupDP


def test_reversible_gap_is_the_absolute_spectral_gap():
    P = np.array([[0.9, 0.1], [0.4, 0.6]])                      # eigenvalues 1 and 0.5
    assert chain_mixing(P) == pytest.approx((0.2, 0.5))
    rng = np.random.default_rng(2)
    _, P = random_chain(rng, 4, reversible=True)
    lam = np.sort(np.abs(np.linalg.eigvals(P)))[::-1]
    assert chain_mixing(P)[1] == pytest.approx(1 - lam[1])


def test_quilt_length_and_empty_quilt():
    full = mqm_exact_scale(THETA_1, 100, 1.0)
    short = mqm_exact_scale(THETA_1, 100, 1.0, max_quilt=5)
    assert short.score >= full.score
    assert mqm_exact_scale(THETA_1, 100, 1.0, max_quilt=0).score == pytest.approx(100.0)
    # X_1 is certain: no secret pair, and a finite epsilon is refused rather than given no noise
    with pytest.raises(ValueError, match="no secret pair"):
        mqm_exact_scale(THETA_1, 1, 1.0)
    assert mqm_exact_scale(THETA_1, 1, np.inf).score == 0.0
    assert mqm_exact_scale(THETA_2, 1, 2.0).score == pytest.approx(0.5)
    assert mqm_exact_scale(THETA_2, 100, np.inf).scale == 0.0


def test_interval_family_cover_bounds_every_chain_of_the_family():
    fam = BinaryIntervalFamily(0.25, cells=12)
    T, eps = 40, 1.0
    res = mqm_exact_scale(fam, T, eps)
    assert res.lower_score <= res.score <= 1.05 * res.lower_score
    rng = np.random.default_rng(0)
    for p, q in rng.uniform(0.25, 0.75, size=(20, 2)):
        chain = ("stationary", [[p, 1 - p], [1 - q, q]])
        assert mqm_exact_scale(chain, T, eps).score <= res.score
    # MQMApprox: the paper's closed forms pi_min = alpha, g = 2 alpha
    grid = np.linspace(0.25, 0.75, 9)
    mixes = [chain_mixing([[p, 1 - p], [1 - q, q]]) for p in grid for q in grid]
    assert min(m[0] for m in mixes) == pytest.approx(fam.pi_min)
    assert min(m[1] for m in mixes) == pytest.approx(fam.gap)
    assert mqm_approx_scale(fam, T, eps).score >= res.score
    # a finer cover is tighter
    assert mqm_exact_scale(BinaryIntervalFamily(0.25, cells=24), T, eps).score <= res.score


def _check_release(cls, thetas, T, eps, **kw):
    mech = cls(thetas, eps, length=T, **kw).fit()
    level = chain_histogram_privacy_exact(thetas, T, mech.noise_scale_)
    assert level <= eps * (1 + 1e-9), (cls.__name__, level, eps)
    return level


@pytest.mark.parametrize("k,T", [(2, 8), (2, 6), (3, 5)])
def test_pufferfish_guarantee_holds_exactly_on_short_chains(k, T):
    """Every pair of secrets X_i = a / X_i = b, every theta: the exact output densities of the
    released histogram are within e^eps (evaluated where their ratio peaks, see
    chain_histogram_privacy_exact)."""
    rng = np.random.default_rng(100 + 10 * k + T)
    for trial in range(4):
        thetas = [random_chain(rng, k, reversible=bool(trial % 2),
                               start=("pmf", "stationary")[trial % 2]) for _ in range(2)]
        for eps in (0.5, 2.0):
            _check_release(MQMExact, thetas, T, eps)
            _check_release(MQMExact, thetas, T, eps, max_quilt=2)
            _check_release(MQMApprox, thetas, T, eps)
            _check_release(GroupDPHistogram, thetas, T, eps)
            if gk16_scale(thetas, T, eps).applicable:
                _check_release(GK16Histogram, thetas, T, eps)
    _check_release(MQMExact, [THETA_1, THETA_2], 8, 1.0)


def test_the_exact_check_can_fail():
    """A sticky chain needs all the noise: 80% of MQMExact's scale breaks the guarantee."""
    theta = ("stationary", [[0.95, 0.05], [0.05, 0.95]])
    mech = MQMExact(theta, 1.0, length=6).fit()
    assert chain_histogram_privacy_exact(theta, 6, mech.noise_scale_) <= 1.0
    assert chain_histogram_privacy_exact(theta, 6, 0.8 * mech.noise_scale_) > 1.0


def test_group_dp_and_gk16():
    assert group_dp_scale(100, 0.5, lipschitz=2 / 100).scale == pytest.approx(4.0)
    weak = ("stationary", [[0.6, 0.4], [0.4, 0.6]])
    res = gk16_scale(weak, 100, 1.0)
    assert res.applicable and res.score < 100.0
    strong = ("stationary", [[0.9, 0.1], [0.1, 0.9]])
    res = gk16_scale(strong, 100, 1.0)
    assert not res.applicable and res.scale == np.inf
    assert "does not apply" in res.reason and "spectral norm" in res.reason
    with pytest.raises(ValueError, match="GK16 does not apply.*spectral norm"):
        GK16Histogram(strong, 1.0, length=100).fit()
    # the paper's synthetic class: not applicable for strongly correlated chains
    assert not gk16_scale(BinaryIntervalFamily(0.1, cells=8), 100, 1.0).applicable
    assert gk16_scale(BinaryIntervalFamily(0.4, cells=8), 100, 1.0).applicable


def test_influence_and_quilt_by_enumeration():
    D = np.array(list(product([0, 1], repeat=3)))
    P = np.array([[0.9, 0.1], [0.1, 0.9]])
    w = 0.5 * P[D[:, 0], D[:, 1]] * P[D[:, 1], D[:, 2]]
    assert quilt_max_influence(D, w, 0, []) == 0.0
    assert quilt_max_influence(D, w, 0, [1]) == pytest.approx(np.log(9))
    assert quilt_max_influence(D, [w, w], 0, [2]) == pytest.approx(np.log(0.82 / 0.18))
    # a deterministic copy: a value possible under one secret only
    w2 = np.where(D[:, 0] == D[:, 1], 1.0, 0.0)
    assert quilt_max_influence(D, w2, 0, [1]) == np.inf
    assert is_markov_quilt(D, w, 1, [0, 2], [1])
    assert not is_markov_quilt(D, w, 0, [], [0])
    assert not is_markov_quilt(D, w, 0, [1], [1])     # the node must be nearby
    with pytest.raises(ValueError, match="not contain the node"):
        quilt_max_influence(D, w, 0, [0])
    with pytest.raises(ValueError, match="not a column"):
        quilt_max_influence(D, w, 5, [1])


@pytest.mark.parametrize("thetas,match", [
    (([0.5, 0.6], [[0.9, 0.1], [0.4, 0.6]]), "sum to 1"),
    (([0.5, 0.5], [[0.9, 0.2], [0.4, 0.6]]), "stochastic"),
    (([0.5, 0.5], [[0.9, np.nan], [0.4, 0.6]]), "NaN"),
    (([0.5, np.nan], [[0.9, 0.1], [0.4, 0.6]]), "NaN"),
    (([1.0], [[0.9, 0.1], [0.4, 0.6]]), "one probability per state"),
    (([0.5, 0.5], [[0.9, 0.1, 0.0], [0.4, 0.6, 0.0]]), "square"),
    (([0.5, 0.5], [[1.1, -0.1], [0.4, 0.6]]), "non-negative"),
    (("uniform", [[0.9, 0.1], [0.4, 0.6]]), "'stationary' or 'any'"),
    ([([0.5, 0.5], [[0.9, 0.1], [0.4, 0.6]]), ([1, 0, 0], np.eye(3))], "same number of states"),
    ([], "at least one"),
    ((("stationary", np.eye(2))), "more than one stationary"),
])
def test_bad_thetas(thetas, match):
    with pytest.raises(ValueError, match=match):
        mqm_exact_scale(thetas, 10, 1.0)


def test_bad_numbers():
    for T in (0, -1, 2.5, None):
        with pytest.raises(ValueError):
            mqm_exact_scale(THETA_1, T, 1.0)
    for eps in (0, -1.0, np.nan, "1"):
        with pytest.raises(ValueError):
            mqm_exact_scale(THETA_1, 10, eps)
    with pytest.raises(ValueError):
        mqm_exact_scale(THETA_1, 10, 1.0, lipschitz=0.0)
    with pytest.raises(ValueError):
        mqm_exact_scale(THETA_1, 10, 1.0, max_quilt=-1)
    with pytest.raises(ValueError, match="irreducible"):
        mqm_approx_scale(([1, 0], [[1.0, 0.0], [0.5, 0.5]]), 10, 1.0)
    for alpha in (0.0, 0.6, -0.1):
        with pytest.raises(ValueError):
            BinaryIntervalFamily(alpha)
    with pytest.raises(ValueError, match="finite class"):
        chain_histogram_privacy_exact(BinaryIntervalFamily(0.2), 4, 1.0)
    with pytest.raises(ValueError, match="sequences is more"):
        chain_histogram_privacy_exact(THETA_1, 40, 1.0)
