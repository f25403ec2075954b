"""Findings of a fuzz round on the Pufferfish systems: zero-noise releases, memory and time
before any check, GK16's quadratic eigenvalue, the stationary law of nearly decomposable
chains, strings released as numbers and compositions with an eps = inf member."""

import math
import time
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.linalg import eigvals_banded
from scipy.sparse import diags

import tdadp.utils._memory as memory
from tdadp.pufferfish import (
    BinaryIntervalFamily,
    GK16Histogram,
    GroupDPHistogram,
    MarkovQuiltMechanism,
    MQMApprox,
    MQMExact,
    WassersteinMechanism,
    _baselines,
    _exact_scale,
    chain_mixing,
    compose_markov_quilt,
    gk16_scale,
    infinity_wasserstein,
    mqm_approx_scale,
    mqm_exact_scale,
    stationary_distribution,
)
from tdadp.pufferfish._theta import parse_thetas

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
CHAIN_CLASSES = [MQMExact, MQMApprox, GK16Histogram]
THETA = ("stationary", [[0.9, 0.1], [0.4, 0.6]])
WEAK = ("stationary", [[0.6, 0.4], [0.4, 0.6]])


# --- 1. no release without noise at a finite epsilon ------------------------------------------

DEGENERATE = {
    "fixed start, identity": ([1.0, 0.0], np.eye(2)),
    "absorbing stationary": ("stationary", [[0.5, 0.5], [0.0, 1.0]]),
    "one state": ("stationary", [[1.0]]),
    "one state, any start": ("any", [[1.0]]),
    "deterministic cycle": ([0.0, 1.0], [[0.0, 1.0], [1.0, 0.0]]),
}


@pytest.mark.parametrize("cls", CHAIN_CLASSES)
@pytest.mark.parametrize("name", sorted(DEGENERATE))
def test_a_class_without_secret_pairs_is_refused(cls, name):
    theta = DEGENERATE[name]
    with pytest.raises(ValueError, match="no secret pair|irreducible"):
        cls(theta, epsilon=1.0, length=20).fit()


def test_the_reported_zero_noise_release_is_refused():
    with pytest.raises(ValueError, match="no secret pair") as info:
        MQMExact(([1.0, 0.0], np.eye(2)), epsilon=1.0, length=20).fit()
    assert "theta 0" in str(info.value) and "one state" in str(info.value)
    with pytest.raises(ValueError, match="no secret pair") as info:
        MQMExact(("stationary", [[0.5, 0.5], [0, 1]]), epsilon=1.0, length=20).fit()
    assert "stationary distribution puts all the mass on one state" in str(info.value)
    # without privacy (eps = inf) nothing is promised, and nothing is refused
    assert MQMExact(([1.0, 0.0], np.eye(2)), epsilon=np.inf, length=20).fit().noise_scale_ == 0


@pytest.mark.parametrize("scale", [mqm_exact_scale, mqm_approx_scale, gk16_scale])
def test_scale_functions_refuse_a_class_without_secret_pairs(scale):
    with pytest.raises(ValueError, match="no secret pair|irreducible"):
        scale(([1.0, 0.0], np.eye(2)), 20, 1.0)
    with pytest.raises(ValueError, match="no secret pair"):
        scale(("stationary", [[1.0]]), 20, 1.0)


def test_a_deterministic_start_that_later_branches_has_secret_pairs():
    # X_1 = 0, X_2 = 1, X_3 = 2 for sure; X_4 is random
    theta = ([1.0, 0.0, 0.0], [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.5, 0.5, 0.0]])
    with pytest.raises(ValueError, match="no secret pair"):
        mqm_exact_scale(theta, 3, 1.0)
    assert mqm_exact_scale(theta, 4, 1.0).score > 0
    # a degenerate theta next to a random one: the random one sets the noise
    mixed = [([1.0, 0.0], np.eye(2)), THETA]
    assert MQMExact(mixed, 1.0, length=20).fit().noise_scale_ > 0


def test_chains_the_class_rules_out_are_refused_without_quoting_them():
    theta = ([1.0, 0.0], [[0.9, 0.1], [0.4, 0.6]])      # X_1 = 0 for sure
    bad = [1] + [0] * 19
    good = [0] * 7 + [1] * 13
    for cls in CHAIN_CLASSES:
        if cls is MQMApprox:
            mech = cls(theta, 1.0, length=20, random_state=0).fit()
        else:
            mech = cls(([1.0, 0.0], [[0.6, 0.4], [0.4, 0.6]]), 1.0, length=20,
                       random_state=0).fit()
        assert mech.transform(good).shape == (2,)
        with pytest.raises(ValueError, match="probability zero under every theta") as info:
            mech.transform(bad)
        text = str(info.value)
        assert "0" not in text and "1" not in text          # no position, no state
        with pytest.raises(ValueError, match="1 of the 2 chains"):
            mech.transform([good, bad])
    # a transition the class never makes
    sticky = ("stationary", [[1.0, 0.0], [0.5, 0.5]])   # state 0 absorbing: pi = [1, 0]
    mech = MQMExact([sticky, THETA], 1.0, length=4).fit()
    mech.transform([1, 1, 0, 0])                         # possible under THETA
    only = MQMExact(([0.5, 0.5], [[1.0, 0.0], [0.5, 0.5]]), 1.0, length=4).fit()
    with pytest.raises(ValueError, match="probability zero"):
        only.transform([0, 0, 1, 1])                    # 0 -> 1 never happens
    # GroupDP is differential privacy: every chain is covered
    assert GroupDPHistogram(theta, 1.0, length=20).fit().transform(bad).shape == (2,)
    # without privacy nothing is promised
    assert np.array_equal(MQMExact(theta, np.inf, length=20).fit().transform(bad), [0.95, 0.05])


def _random_class(draw_seed, k, n, zeros):
    rng = np.random.default_rng(draw_seed)
    thetas = []
    for j in range(n):
        P = rng.dirichlet(np.ones(k), size=k)
        if zeros:
            P = np.where(rng.random((k, k)) < 0.3, 0.0, P)
            P[np.arange(k), rng.integers(0, k, k)] += 0.1      # every row keeps some mass
            P = P / P.sum(axis=1, keepdims=True)
        start = ("pmf", "stationary", "any", "point")[(draw_seed + j) % 4]
        if start == "pmf":
            q = rng.dirichlet(np.ones(k))
        elif start == "point":
            q = np.eye(k)[rng.integers(0, k)]
        else:
            q = start
        thetas.append((q, P))
    return thetas


@PROPERTY
@given(seed=st.integers(0, 2**31 - 1), k=st.integers(1, 4), n=st.integers(1, 2),
       zeros=st.booleans(), T=st.integers(1, 40),
       eps=st.floats(1e-3, 1e3), cls=st.sampled_from(CHAIN_CLASSES + [GroupDPHistogram]))
def test_a_finite_epsilon_always_gets_noise(seed, k, n, zeros, T, eps, cls):
    thetas = _random_class(seed, k, n, zeros)
    try:
        mech = cls(thetas, eps, length=T).fit()
    except ValueError:
        return                                            # refused: never silent
    assert mech.noise_scale_ > 0 and mech.guarantee_.noise_scale > 0


@PROPERTY
@given(seed=st.integers(0, 2**31 - 1), alpha=st.floats(0.01, 0.5), T=st.integers(1, 60),
       eps=st.floats(1e-3, 1e3))
def test_the_interval_family_always_gets_noise(seed, alpha, T, eps):
    fam = BinaryIntervalFamily(alpha, cells=3)
    for scale in (mqm_exact_scale, mqm_approx_scale):
        assert scale(fam, T, eps).scale > 0


@PROPERTY
@given(influences=st.lists(st.floats(0, 10), min_size=1, max_size=4),
       eps=st.floats(1e-6, 1e6), lip=st.floats(1e-6, 1e6))
def test_the_general_quilt_mechanism_always_gets_noise(influences, eps, lip):
    quilts = {0: [(e, j + 1) for j, e in enumerate(influences)] + [(0.0, 5)]}
    mech = MarkovQuiltMechanism(eps, lip).fit(quilts)
    assert mech.noise_scale_ > 0


def test_underflowing_noise_of_the_general_mechanism_is_refused():
    # lipschitz * score * eps underflowed to 0: the value came back exactly
    with pytest.raises(ValueError, match="lipschitz"):
        MarkovQuiltMechanism(epsilon=1e300, lipschitz=1e-300).fit({0: [(0.0, 1)]})
    with pytest.raises(ValueError, match="lipschitz"):
        MarkovQuiltMechanism(epsilon=1.0, lipschitz=1e308).fit({0: [(0.0, 10)]})
    with pytest.raises(ValueError, match="epsilon"):      # 10 / 1e-308 overflows
        MarkovQuiltMechanism(epsilon=1e-308).fit({0: [(0.0, 10)]})
    # a grid too fine for the value: refused instead of an OverflowError
    mech = MarkovQuiltMechanism(epsilon=1.0, lipschitz=1e-300).fit({0: [(0.0, 1)]})
    with pytest.raises(ValueError, match="too large"):
        mech.transform(3.0)


def test_wasserstein_never_releases_without_noise():
    # a mass of 1e-13 moved by 1 makes W = 1 (it was dropped as "rounding": W = 0, no noise)
    assert infinity_wasserstein([0, 1], [1 - 1e-13, 1e-13], [1, 0]) == 1.0
    assert infinity_wasserstein([0, 1, 100], [0.5, 0.5 - 1e-13, 1e-13], [0.5, 0.5, 0]) == 99.0
    with pytest.raises(ValueError, match="W = 0"):
        WassersteinMechanism(1.0).fit([([0, 1], [1.0, 0.0], [1.0, 0.0])])
    assert WassersteinMechanism(np.inf).fit([([0, 1], [1.0, 0.0], [1.0, 0.0])]) \
        .noise_scale_ == 0
    with pytest.raises(ValueError, match="epsilon"):
        WassersteinMechanism(1e300).fit([([0, 1e-300], [1.0, 0.0], [0.0, 1.0])])


# --- 10. memory and time are checked before the work ------------------------------------------

@pytest.fixture
def small_machine(monkeypatch):
    """A process that can still use 4 GB, whatever this machine has."""
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"test limit": 4e9})


def test_exact_tables_of_many_states_are_refused_up_front(small_machine):
    P = 0.5 * np.eye(51) + 0.5 / 51
    start = time.perf_counter()
    for q in ("any", np.full(51, 1 / 51)):
        with pytest.raises(ValueError, match="GB") as info:
            MQMExact((q, P), 1.0, length=20_000).fit()
        assert "max_quilt" in str(info.value)
    assert time.perf_counter() - start < 5


def test_exact_tables_no_longer_hold_k_cubed_temporaries():
    """51 states: the (distance, state, state, state) log-ratio temporaries are built a few
    distances at a time, O(l k^2) memory instead of O(l k^3) (2 GiB at T = 2,000)."""
    P = 0.5 * np.eye(51) + 0.5 / 51
    chain = parse_thetas(("any", P))[1][0]
    T = 300
    tracemalloc.start()
    try:
        _exact_scale.exact_tables(chain, T, T - 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # before: 300 * 51^3 * 8 bytes = 318 MB per temporary, three of them
    assert peak < 150e6, peak / 1e6


def test_chunked_log_ratio_tables_are_bit_for_bit(monkeypatch):
    rng = np.random.default_rng(0)
    P = rng.dirichlet(np.ones(6), size=6)
    P[P < 0.05] = 0
    P /= P.sum(axis=1, keepdims=True)
    Pw = _exact_scale._powers(P, 30)
    support = rng.random(6) < 0.7
    F, G = _exact_scale._forward_table(Pw), _exact_scale._backward_base(Pw, support)
    monkeypatch.setattr(_exact_scale, "_CHUNK_ELEMS", 1)           # one distance at a time
    assert np.array_equal(F, _exact_scale._forward_table(Pw))
    assert np.array_equal(G, _exact_scale._backward_base(Pw, support))


@pytest.mark.parametrize("cls", CHAIN_CLASSES)
def test_a_billion_records_are_refused_before_any_work(cls, small_machine):
    start = time.perf_counter()
    with pytest.raises(ValueError, match="GB|too long"):
        cls(WEAK, 1.0, length=10**9).fit()
    with pytest.raises(ValueError, match="too long"):
        cls(WEAK, 1.0, length=2**30).fit()
    with pytest.raises(ValueError, match="too long"):
        cls(WEAK, 1.0, length=10**30).fit()
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("scale", [mqm_exact_scale, mqm_approx_scale, gk16_scale])
def test_scale_functions_check_memory_before_allocating(scale, small_machine):
    start = time.perf_counter()
    for T in (10**9, 10**15):
        with pytest.raises(ValueError, match="GB"):
            scale(WEAK, T, 1.0)
    assert time.perf_counter() - start < 5


# --- 11. GK16's spectral norm in linear time, certified ---------------------------------------

def _old_tridiagonal_norm(upper, lower):
    """The code path before: scipy's banded eigenvalue of Phi^T Phi (quadratic in T)."""
    T = upper.size + 1
    if T == 1:
        return 0.0
    Phi = diags([lower, upper], [-1, 1], format="csr")
    M = (Phi.T @ Phi).todia()
    band = np.zeros((3, T))
    for k in range(3):
        band[2 - k, k:] = M.diagonal(k)
    top = eigvals_banded(band, lower=False, select="i", select_range=(T - 1, T - 1))
    return float(np.sqrt(max(0.0, top[-1])))


def _exactly_above_the_spectrum(upper, lower, rho):
    """rho^2 I - Phi^T Phi positive semi-definite, decided in exact rational arithmetic (the
    LDL^T pivots of each tridiagonal block: its inertia)."""
    T = upper.size + 1
    up = [Fraction(0)] + [Fraction(float(v)) for v in upper]
    lo = [Fraction(float(v)) for v in lower] + [Fraction(0)]
    x = Fraction(float(rho)) ** 2
    for parity in (0, 1):
        idx = list(range(parity, T, 2))
        pivot = None
        for n, j in enumerate(idx):
            a = x - (up[j] ** 2 + lo[j] ** 2)
            if n:
                b = lo[j - 2] * up[j]                                # M[j - 2, j]
                if pivot == 0:
                    if b != 0:
                        return False
                else:
                    a -= b * b / pivot
            if a < 0:
                return False
            pivot = a
    return True


def test_gk16_norm_matches_the_old_code_path_and_is_an_upper_bound():
    rng = np.random.default_rng(7)
    for trial in range(60):
        T = int(rng.integers(1, 2001)) if trial else 2000
        scale = rng.choice([0.05, 0.5, 3.0])
        upper, lower = rng.random(T - 1) * scale, rng.random(T - 1) * scale
        if trial % 3 == 0:                                  # a chain: constant interior
            upper[1:], lower[:-1] = upper[1], lower[0]
        if trial % 5 == 0:
            upper[rng.random(T - 1) < 0.3] = 0.0
        new, old = _baselines._tridiagonal_norm(upper, lower), _old_tridiagonal_norm(upper,
                                                                                      lower)
        assert new == pytest.approx(old, rel=1e-12, abs=0)
        if T <= 120:
            assert _exactly_above_the_spectrum(upper, lower, new)
            if new > 0:                              # and the reference can say no
                assert not _exactly_above_the_spectrum(upper, lower, new * (1 - 1e-9))
    assert _baselines._tridiagonal_norm(np.array([np.inf]), np.array([0.1])) == math.inf


def test_gk16_scale_on_random_chains_matches_the_old_norm():
    rng = np.random.default_rng(3)
    for _ in range(10):
        P = rng.dirichlet(np.ones(3), size=3) * 0.6 + 0.4 / 3
        T = int(rng.integers(2, 2001))
        chain = parse_thetas(("stationary", P))[1][0]
        upper, lower = _baselines._gk16_chain_influence(chain, T)
        assert _baselines._tridiagonal_norm(upper, lower) == pytest.approx(
            _old_tridiagonal_norm(upper, lower), rel=1e-12, abs=0)
    res = gk16_scale(WEAK, 100, 1.0)
    assert res.applicable and round(res.score, 3) == 3.887


def test_gk16_scale_is_linear_in_the_length():
    start = time.perf_counter()
    res = gk16_scale(WEAK, 200_000, 1.0)                   # was about 100 s
    assert res.applicable and time.perf_counter() - start < 10


def test_gk16_with_an_infinite_influence_does_not_apply():
    theta = ([0.5, 0.5], [[0.5, 0.5], [0.0, 1.0]])          # a zero transition: inf influence
    res = gk16_scale(theta, 10, 1.0)
    assert not res.applicable and res.scale == math.inf
    with pytest.raises(ValueError, match="does not apply"):
        GK16Histogram(theta, 1.0, length=10).fit()


# --- 14. the stationary law of nearly decomposable chains -------------------------------------

def _exact_stationary(P):
    """pi P = pi, sum pi = 1, in rational arithmetic (Gauss-Jordan), for the chain whose
    transitions between distinct states are the floats of P (the diagonal is what is left:
    a float 1 - 1e-15 could not say it)."""
    k = len(P)
    Q = [[Fraction(float(P[i][j])) for j in range(k)] for i in range(k)]
    for i in range(k):
        Q[i][i] = 1 - sum(Q[i][j] for j in range(k) if j != i)
    A = [[Q[j][i] - (1 if i == j else 0) for j in range(k)] + [Fraction(0)]
         for i in range(k)]
    A[-1] = [Fraction(1)] * k + [Fraction(1)]
    for c in range(k):
        r = next(r for r in range(c, k) if A[r][c] != 0)
        A[c], A[r] = A[r], A[c]
        A[c] = [v / A[c][c] for v in A[c]]
        for r in range(k):
            if r != c and A[r][c] != 0:
                f = A[r][c]
                A[r] = [a - f * b for a, b in zip(A[r], A[c])]
    return [A[i][-1] for i in range(k)]


NEARLY_DECOMPOSABLE = [
    [[1 - 1e-12, 1e-12], [1e-12, 1 - 1e-12]],
    [[1 - 1e-15, 1e-15], [3e-9, 1 - 3e-9]],
    [[0.5, 0.5 - 1e-13, 1e-13], [0.5, 0.5, 0.0], [1e-10, 0.0, 1 - 1e-10]],
    [[0.7, 0.3 - 1e-11, 1e-11, 0.0], [0.4, 0.6, 0.0, 0.0],
     [0.0, 0.0, 0.2, 0.8], [0.0, 1e-14, 0.5, 0.5 - 1e-14]],
]


@pytest.mark.parametrize("P", NEARLY_DECOMPOSABLE)
def test_stationary_law_of_nearly_decomposable_chains(P):
    pi = stationary_distribution(P)
    P_used = np.asarray(P) / np.asarray(P).sum(axis=1, keepdims=True)   # as validated
    exact = _exact_stationary(P_used.tolist())
    for got, want in zip(pi, exact):
        assert abs(Fraction(float(got)) - want) <= Fraction(1, 10**12) * want
    assert chain_mixing(P)[0] == pytest.approx(min(exact), rel=1e-12)


def test_the_reported_chain_is_irreducible():
    P = [[1 - 1e-12, 1e-12], [1e-12, 1 - 1e-12]]
    assert stationary_distribution(P).tolist() == [0.5, 0.5]
    assert mqm_approx_scale(("stationary", P), 50, 1.0).score > 0
    # several closed classes: still refused; one closed class and transient states: fine
    with pytest.raises(ValueError, match="more than one stationary"):
        stationary_distribution(np.eye(2))
    assert stationary_distribution([[0.5, 0.5, 0], [0, 0.2, 0.8], [0, 0.6, 0.4]]).tolist() \
        == pytest.approx([0.0, 6 / 14, 8 / 14])
    with pytest.raises(ValueError, match="irreducible"):
        chain_mixing([[0.5, 0.5], [0.0, 1.0]])


# --- 15. strings, bools, complex values and eps = inf -----------------------------------------

@pytest.mark.parametrize("value", ["3", b"3", ["1", "2"], np.array(["3"]), True,
                                   [1.0, True], np.array([True]), 1 + 2j, [1, 1j], None,
                                   [1.0, None], np.nan, [1.0, np.inf], {}, [[1.0], [1, 2]]])
@pytest.mark.parametrize("mech", ["quilt", "wasserstein"])
def test_only_real_numbers_are_released(value, mech):
    if mech == "quilt":
        fitted = MarkovQuiltMechanism(random_state=0).fit({0: [(0.0, 1)]})
    else:
        fitted = WassersteinMechanism(random_state=0).fit([([0, 1], [1.0, 0.0], [0.0, 1.0])])
    with pytest.raises(ValueError, match="query value"):
        fitted.transform(value)


def test_compose_with_an_infinite_epsilon_member_has_no_privacy():
    mechs = [MQMExact(THETA, 1.0, length=50).fit(), MQMExact(THETA, np.inf, length=50).fit()]
    g = compose_markov_quilt(mechs)
    assert g.epsilon == math.inf and len(g.components) == 2
    assert compose_markov_quilt(mechs[:1]).epsilon <= 1.0 + 1e-9
    fam = BinaryIntervalFamily(0.3, cells=4)
    fm = [MQMExact(fam, 1.0, length=30).fit(), MQMApprox(fam, np.inf, length=30).fit()]
    assert compose_markov_quilt(fm).epsilon == math.inf
