"""The audit cannot be fooled (issue 15).

Each cheating mechanism below subclasses a real one through the release hook
``_release_graph(A, rng)`` (or ``transform``), so it states the real mechanism's guarantee
while doing something else. The regressions marked "issue 15" passed the audit before the
change (they were reported consistent with their claim, or a correct mechanism was reported
violated).

False positives: a correct mechanism must be reported violated with probability at most
1 - confidence = 5%. Each test runs 100 seeded audits (30 at epsilon = 1, see there) and
allows at most 10 violations: if
the audit were exactly at the nominal 5% rate, more than 10 of 100 would happen with
probability P(Bin(100, 0.05) > 10) = 1.1%, while an audit at three times the nominal rate
(15%) would stay at or below 10 with probability only 10%. The seeds are fixed, so the test
is deterministic. At epsilon = 0 (pure noise; for the edge count, a scale of 1e9) any bound
above 0 is a violation, so those runs check the nominal rate where it is attainable; at
epsilon = 1 the bound of a few hundred releases stays well below the claim and the check is
the weaker one the issue asks for (the sharper default-size version is marked slow).
"""

import numpy as np
import pytest
from sklearn.pipeline import Pipeline

from tdadp import EdgeFlip, LaplaceFlip, edge_flip
from tdadp.graphs import tag_graph
from tdadp.privacy import audit
from tdadp.release import LaplaceEdgeCount


@pytest.fixture(scope="module")
def pair():
    G0 = np.zeros((5, 5), dtype=np.uint8)
    G0[2, 3] = G0[3, 2] = G0[1, 4] = G0[4, 1] = 1
    G1 = G0.copy()
    G1[0, 1] = G1[1, 0] = 1
    return G0, G1


class MirrorLeak(EdgeFlip):
    """Randomizes the upper triangle correctly and copies the private lower triangle."""

    def _release_graph(self, A, rng):
        released = np.array(super()._release_graph(A, rng))
        lower = np.tril_indices(A.shape[0], -1)
        released[lower] = np.asarray(A)[lower]
        return released


class CopyElsewhere(EdgeFlip):
    """A correct edgeFlip release, plus the input's first row written into its diagonal."""

    def _release_graph(self, A, rng):
        released = np.array(super()._release_graph(A, rng))
        np.fill_diagonal(released, np.asarray(A)[0])
        return released


class ThreeEps(EdgeFlip):
    """Randomized response at the rate of 3 * epsilon, claiming epsilon."""

    def _release_graph(self, A, rng):
        return edge_flip(A, 3 * self.epsilon, random_state=rng)


class BatchSharedCoins(EdgeFlip):
    """eps-DP per release, but every graph of a batch is flipped with the first one's coins."""

    def transform(self, X):
        self._first_coins = None
        return super().transform(X)

    def _release_graph(self, A, rng):
        if self._first_coins is None:
            self._first_coins = rng.bit_generator.state
        rng = np.random.default_rng()
        rng.bit_generator.state = self._first_coins
        return super()._release_graph(A, rng)


class LeaksAlone(EdgeFlip):
    """Correct on a batch of graphs, an exact copy when it releases a single graph."""

    def transform(self, X):
        released = super().transform(X)
        return released if isinstance(released, list) else np.array(X, dtype=np.uint8)


CALLS = []


class CountingFlip(EdgeFlip):
    """edgeFlip that records how many graphs each transform call releases."""

    def transform(self, X):
        released = super().transform(X)
        CALLS.append(len(released) if isinstance(released, list) else 1)
        return released


# ------------------------------------------------------------------- cheats are caught

def test_mirror_leak_is_caught(pair):
    # Issue 15: the default statistic read release[i, j] only, and this passed.
    G0, G1 = pair
    r = audit(MirrorLeak(1.0), G0, G1, n_trials=400, random_state=0)
    assert r.violation and r.epsilon_lower > 2.0
    assert "release[1, 0]" in r.statistic
    assert r.deterministic == ("release[1, 0]",)
    assert "Never varied: release[1, 0]" in r.describe() and "violated" in r.describe()


def test_mirror_leak_is_caught_by_the_trusted_fast_path_too(pair):
    # The fast path reads both mirror entries of each copy of the dyad.
    G0, G1 = pair
    r = audit(MirrorLeak(1.0), G0, G1, n_trials=400, random_state=0, dyad_independent=True)
    assert r.method == "dyad copies (trusted)"
    assert r.violation


def test_copy_anywhere_in_the_release_is_caught(pair):
    # The secret dyad A[0, 1] is copied to the diagonal entry (1, 1): the screening of every
    # entry finds it.
    G0, G1 = pair
    r = audit(CopyElsewhere(1.0), G0, G1, n_trials=400, random_state=1)
    assert r.violation
    assert r.deterministic == ("release[1, 1]",)


@pytest.mark.parametrize("seed", [0, np.random.default_rng(0), np.random.SeedSequence(0)],
                         ids=["int", "Generator", "SeedSequence"])
def test_fixed_seed_is_refused(pair, seed):
    # Issue 15: the audit re-seeded EdgeFlip(1.0, random_state=0) and passed it.
    G0, G1 = pair
    with pytest.raises(ValueError, match="fixed seed .*random_state=None"):
        audit(EdgeFlip(1.0, random_state=seed), G0, G1, n_trials=100)
    with pytest.raises(ValueError, match="fixed seed"):
        audit(LaplaceEdgeCount(1.0, random_state=seed), G0, G1, n_trials=100)


def test_fixed_seed_couples_the_releases_of_both_networks(pair):
    # Why it is refused: with the same seed the releases of G0 and G1 use the same coins and
    # differ exactly at the secret dyad, every time.
    G0, G1 = pair
    for seed in range(5):
        mech = EdgeFlip(1.0, random_state=seed)
        differ = np.argwhere(mech.fit_transform(G0) != mech.fit_transform(G1))
        assert differ.tolist() == [[0, 1], [1, 0]]


def test_fixed_seed_inside_a_pipeline_is_refused(pair):
    G0, G1 = pair
    with pytest.raises(ValueError, match="flip__random_state=3"):
        audit(Pipeline([("flip", EdgeFlip(1.0, random_state=3))]), G0, G1, n_trials=100)


def test_three_epsilon_mechanism_is_caught(pair):
    G0, G1 = pair
    for seed in range(3):
        r = audit(ThreeEps(1.0), G0, G1, n_trials=600, random_state=seed)
        assert r.epsilon_claimed == 1.0
        assert r.violation and r.epsilon_lower > 1.5


def test_batch_shared_coins_are_not_a_violation(pair):
    # Issue 15: trials were batches of 256 graphs per transform call, so this mechanism's
    # 256 trials of a batch were one release repeated: with 256 trials, the one release of G0
    # and the one of G1 differed at the dyad more than half of the time, and the audit read
    # that as 256 independent agreements ("violated, eps >= 5.5").
    G0, G1 = pair
    noise = BatchSharedCoins(0.0, random_state=0)
    batch = noise.fit_transform([G0] * 4)
    assert all((b == batch[0]).all() for b in batch)  # 10 pure-noise dyads, shared
    results = [audit(BatchSharedCoins(1.0), G0, G1, n_trials=256, random_state=seed,
                     dyad_independent=False) for seed in range(20)]
    # At most the nominal 5%: more than 3 of 20 has probability 1.6% at that rate.
    assert sum(r.violation for r in results) <= 3
    assert all(r.deterministic == () for r in results)


def test_leak_outside_batches_cannot_hide(pair):
    # Issue 15: batched trials hid a mechanism that leaks only when it releases one graph.
    G0, G1 = pair
    r = audit(LeaksAlone(1.0), G0, G1, n_trials=200, random_state=0, dyad_independent=False)
    assert r.violation


def test_every_trial_is_one_release_of_one_graph(pair):
    G0, G1 = pair
    CALLS.clear()
    audit(CountingFlip(1.0), G0, G1, n_trials=50, random_state=0)
    assert CALLS == [1] * 100


def test_fast_path_only_when_asked_and_declared(pair):
    G0, G1 = pair
    assert audit(EdgeFlip(1.0), G0, G1, n_trials=50, random_state=0).method == \
        "full mechanism"
    with pytest.raises(ValueError, match="does not declare dyad_independent"):
        audit(LaplaceEdgeCount(1.0), G0, G1, n_trials=50, dyad_independent=True)
    with pytest.raises(ValueError, match="no statistic"):
        audit(EdgeFlip(1.0), G0, G1, n_trials=50, dyad_independent=True,
              statistic=lambda B: B.sum())
    with pytest.raises(ValueError, match="dyad_independent"):
        audit(EdgeFlip(1.0), G0, G1, n_trials=50, dyad_independent="auto")


# --------------------------------------------------------- correct mechanisms pass

def _violations(make, pair, n_trials, n_audits=100):
    G0, G1 = pair
    results = [audit(make(), G0, G1, n_trials=n_trials, random_state=seed)
               for seed in range(n_audits)]
    return sum(r.violation for r in results), results


@pytest.mark.parametrize("make", [lambda: EdgeFlip(1.0), lambda: LaplaceFlip(1.0),
                                  lambda: LaplaceEdgeCount(1.0)],
                         ids=["EdgeFlip", "LaplaceFlip", "LaplaceEdgeCount"])
def test_correct_mechanisms_pass_30_audits(pair, make):
    # At epsilon = 1 a few hundred releases bound far below the claim, so this is the weak
    # check (the nominal rate is checked at epsilon = 0 below, the bound near the claim by
    # the slow default-size test): 30 audits, at most 4 violations (at the nominal 5%, more
    # has probability P(Bin(30, 0.05) > 4) = 1.6%; an audit at 15% shows it with probability
    # 48%).
    violations, results = _violations(make, pair, n_trials=80, n_audits=30)
    assert violations <= 4
    assert all(r.epsilon_claimed == 1.0 for r in results)


@pytest.mark.parametrize("make", [lambda: EdgeFlip(0.0), lambda: LaplaceFlip(0.0),
                                  lambda: LaplaceEdgeCount(1e-9)],
                         ids=["EdgeFlip", "LaplaceFlip", "LaplaceEdgeCount"])
def test_correct_mechanisms_at_no_privacy_loss_pass_100_audits(pair, make):
    # Here any positive bound is a violation: the rate checked is the nominal one.
    violations, _ = _violations(make, pair, n_trials=80)
    assert violations <= 10


@pytest.mark.slow
@pytest.mark.parametrize("make", [lambda: EdgeFlip(1.0), lambda: LaplaceFlip(1.0),
                                  lambda: LaplaceEdgeCount(1.0)],
                         ids=["EdgeFlip", "LaplaceFlip", "LaplaceEdgeCount"])
def test_correct_mechanisms_pass_100_audits_of_default_size(pair, make):
    # With the default 2000 releases the bound comes close to the claim (EdgeFlip: about
    # 0.8 of 1), where a miscalibrated audit would show.
    violations, results = _violations(make, pair, n_trials=2000)
    assert violations <= 10
    assert np.median([r.epsilon_lower for r in results]) > 0.5


# ------------------------------------------------ cheap leaks the default screen must catch

class SometimesCopies(EdgeFlip):
    """A correct edgeFlip release, except that with probability ``p`` it is the input."""

    p = 1e-2

    def _release_graph(self, A, rng):
        if rng.random() < self.p:
            return np.array(A.toarray() if hasattr(A, "toarray") else A, dtype=np.uint8)
        return super()._release_graph(A, rng)


class RarelyCopies(SometimesCopies):
    p = 1e-3


class OftenCopies(SometimesCopies):
    p = 0.1


class NodeOrderLeak(EdgeFlip):
    """Flips correctly, then lists nodes 0 and 1 in swapped order when they are linked.

    On a background symmetric under that swap the released matrix has the same law either
    way: only the order of the node names tells the secret.
    """

    def _release(self, item, rng):
        A = item[0]
        released = np.asarray(super()._release(item, rng))
        order = list(range(A.shape[0]))
        if A[0, 1]:
            order[0], order[1] = 1, 0
        return tag_graph(np.ascontiguousarray(released[np.ix_(order, order)]),
                         nodes=[f"v{k}" for k in order])


@pytest.fixture(scope="module")
def larger_pair():
    # 66 dyads: an honest release equals its input with probability 0.73^66 ~ 1e-9.
    G0 = np.zeros((12, 12), dtype=np.uint8)
    G0[2, 3] = G0[3, 2] = G0[1, 4] = G0[4, 1] = 1
    G1 = G0.copy()
    G1[0, 1] = G1[1, 0] = 1
    return G0, G1


def test_frequent_copies_of_the_input_are_caught_by_the_equality_test(larger_pair):
    # The cheap twin of the two tests below (the same statistic, ten times the copies): of
    # the 375 evaluated releases of G0 about 37 are G0 and none of G1's (an honest release
    # equals its input with probability ~1e-9); even 25 give a bound near log(0.044 /
    # 0.0098) = 1.5 > 1. Seeds 0-7 all chose "release == G0/G1", with bounds 2.0-2.3.
    G0, G1 = larger_pair
    r = audit(OftenCopies(1.0), G0, G1, n_trials=1000, random_state=0)
    assert r.violation and r.statistic in ("release == G0", "release == G1")


@pytest.mark.slow
def test_occasional_copies_of_the_input_are_caught(larger_pair):
    # Issue 26: a 1-in-100 copy passed the default screen (no entry's law moves much).
    G0, G1 = larger_pair
    r = audit(SometimesCopies(1.0), G0, G1, n_trials=10_000, random_state=0)
    assert r.violation and r.statistic in ("release == G0", "release == G1")


@pytest.mark.slow
def test_rare_copies_of_the_input_are_caught_with_the_stated_trials(larger_pair):
    # The docstring's figure: 1-in-1000 copies need about 100,000 releases of each network.
    G0, G1 = larger_pair
    r = audit(RarelyCopies(1.0), G0, G1, n_trials=100_000, random_state=0)
    assert r.violation and r.statistic in ("release == G0", "release == G1")


def test_a_leak_through_the_node_order_is_caught():
    # Issue 26: the release's matrix has the same law for G0 and G1 (the background is
    # symmetric under swapping nodes 0 and 1); the audit read the matrix only.
    G0 = np.zeros((5, 5), dtype=np.uint8)
    G0[2, 3] = G0[3, 2] = 1
    G1 = G0.copy()
    G1[0, 1] = G1[1, 0] = 1
    r = audit(NodeOrderLeak(1.0), G0, G1, n_trials=400, random_state=0)
    assert r.violation and "node order" in r.statistic
    honest = audit(EdgeFlip(1.0), G0, G1, n_trials=400, random_state=0)
    assert not honest.violation and "node order" not in honest.statistic
