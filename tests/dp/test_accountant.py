"""BudgetAccountant: every release charges it, before any random number is drawn."""

import copy
import math
import pickle
import threading
from unittest import mock

import numpy as np
import pytest
from sklearn.base import clone

import tdadp
import tdadp.release._base as release_base
from tdadp import EdgeFlip, make_private_clustering, sample_grdpg, sbm
from tdadp.dp import BudgetAccountant, BudgetError, PrivacyGuarantee, compose
from tdadp.ergm import PrivateERGM, sample_ergm
from tdadp.pufferfish import GroupDPHistogram, MQMExact, WassersteinMechanism
from tdadp.release import DegreeSequence, LaplaceEdgeCount, ProjectedCount
from tdadp.utils import InvalidParameterError


@pytest.fixture(scope="module")
def graph():
    return sample_grdpg(tdadp.circle(30, random_state=0), random_state=1)


def _no_draw():
    """Patch the release's stream creation so that any draw fails the test."""
    return mock.patch.object(release_base, "item_streams",
                             side_effect=AssertionError("a random stream was created"))


# --- the accountant alone -------------------------------------------------------------------

def test_exported_and_a_value_error():
    assert tdadp.BudgetAccountant is BudgetAccountant and tdadp.BudgetError is BudgetError
    assert issubclass(BudgetError, ValueError)


def test_defaults_spend_and_remaining():
    acc = BudgetAccountant()
    assert (acc.epsilon, acc.delta) == (math.inf, 0.0)
    assert acc.spent == (0.0, 0.0) and acc.spent_budget == [] and acc.n_releases == 0
    acc.spend(1e6)
    assert acc.remaining() == (math.inf, 0.0)
    acc = BudgetAccountant(2.0, 1e-5)
    assert acc.spend(0.5, 1e-6) is acc
    assert acc.spent == (0.5, 1e-6) and acc.spent_budget == [(0.5, 1e-6)]
    eps, delta = acc.remaining(3)
    assert eps == pytest.approx(0.5) and delta == pytest.approx(3e-6)
    assert acc.check(1.5, 9e-6) is True
    assert acc.n_releases == 1  # check spends nothing


def test_a_charge_past_the_total_is_refused_and_spends_nothing():
    acc = BudgetAccountant(1.0, 1e-6)
    acc.spend(0.6)
    for eps, delta in [(0.5, 0.0), (0.1, 1e-5), (math.inf, 0.0)]:
        with pytest.raises(BudgetError, match="budget exceeded"):
            acc.check(eps, delta)
        with pytest.raises(BudgetError):
            acc.spend(eps, delta)
    with pytest.raises(BudgetError):
        acc.charge([(0.2, 0.0)] * 3)  # all or nothing
    assert acc.spent_budget == [(0.6, 0.0)]
    acc.spend(0.4, 1e-6)  # exactly the total
    assert acc.remaining() == (0.0, 0.0)


def test_rounding_alone_never_refuses():
    acc = BudgetAccountant(0.3)
    acc.spend(0.1).spend(0.1).spend(0.1)  # 0.1 + 0.1 + 0.1 > 0.3 in floats
    with pytest.raises(BudgetError):
        acc.spend(1e-9)


@pytest.mark.parametrize("kwargs", [dict(epsilon=-1.0), dict(epsilon=math.nan),
                                    dict(epsilon="1"), dict(delta=1.5), dict(delta=-0.1)])
def test_bad_totals_are_refused(kwargs):
    with pytest.raises(InvalidParameterError, match=next(iter(kwargs))):
        BudgetAccountant(**kwargs)


def test_bad_charges_are_refused():
    acc = BudgetAccountant(5.0)
    with pytest.raises(InvalidParameterError, match="epsilon"):
        acc.spend(-1.0)
    with pytest.raises(InvalidParameterError, match="delta"):
        acc.spend(1.0, 2.0)
    with pytest.raises(TypeError):
        acc.charge(PrivacyGuarantee("M", 1.0))
    with pytest.raises(TypeError):
        acc.charge(["1.0"])
    with pytest.raises(ValueError, match="delta"):
        acc.spend(PrivacyGuarantee("M", 1.0), 0.5)
    assert acc.n_releases == 0


def test_guarantee_charges_match_compose_and_refuse_mixed_units():
    gs = [EdgeFlip(1.0).fit().guarantee_, LaplaceEdgeCount(0.5).fit().guarantee_,
          PrivacyGuarantee("approx", 0.25, delta=1e-7)]
    with pytest.raises(BudgetError):  # the default total delta is 0: pure DP only
        BudgetAccountant().spend(gs[2])
    acc = BudgetAccountant(delta=1e-6)
    for g in gs:
        acc.spend(g)
    total = compose(gs)
    assert acc.spent == (total.epsilon, total.delta)
    assert acc.guarantees == tuple(gs)
    puff = PrivacyGuarantee("P", 1.0, unit="secret pair", definition="Pufferfish privacy")
    with pytest.raises(ValueError, match="different units") as info:
        acc.spend(puff)
    assert not isinstance(info.value, BudgetError)
    with pytest.raises(ValueError):
        compose([*gs, puff])  # the same refusal as compose's
    assert acc.n_releases == 3


def test_describe_and_repr():
    acc = BudgetAccountant(10.0)
    assert "total epsilon = 10" in acc.describe() and "0 releases" in acc.describe()
    g = EdgeFlip(2.0).fit().guarantee_
    acc.charge([g, g])
    text = acc.describe()
    for words in ("total epsilon = 10", "spent epsilon = 4 by 2 releases",
                  "remaining epsilon = 6", "EdgeFlip x2", "basic sequential composition"):
        assert words in text, text
    assert str(acc) == text
    assert repr(acc) == ("BudgetAccountant(epsilon=10.0, delta=0.0, spent=(4.0, 0.0), "
                         "n_releases=2)")
    assert "delta = 1e-06" in BudgetAccountant(1.0, 1e-6).describe()


def test_shared_by_copy_snapshot_by_pickle():
    acc = BudgetAccountant(3.0).spend(1.0)
    assert copy.copy(acc) is acc and copy.deepcopy(acc) is acc
    snap = pickle.loads(pickle.dumps(acc))
    assert snap is not acc and snap.spent == (1.0, 0.0) and snap.epsilon == 3.0
    snap.spend(2.0)
    assert acc.spent == (1.0, 0.0)


def test_concurrent_charges_never_exceed_the_total():
    acc = BudgetAccountant(50.0)
    refused = []

    def work():
        for _ in range(20):
            try:
                acc.spend(1.0)
            except BudgetError:
                refused.append(1)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert acc.spent == (50.0, 0.0) and len(refused) == 30


# --- mechanisms ------------------------------------------------------------------------------

def test_five_releases_of_edgeflip_spend_ten(graph):
    acc = BudgetAccountant(10.0)
    mech = EdgeFlip(2.0, random_state=0, accountant=acc).fit()
    assert acc.n_releases == 0  # fit releases nothing
    for _ in range(5):
        mech.transform(graph)
    assert acc.spent == (10.0, 0.0) and acc.n_releases == 5
    assert acc.spent == (compose([mech] * 5).epsilon, 0.0)
    with _no_draw(), pytest.raises(BudgetError):
        mech.transform(graph)
    assert acc.n_releases == 5


def test_a_batch_charges_each_item_or_nothing(graph):
    acc = BudgetAccountant(5.0)
    mech = EdgeFlip(1.0, random_state=0, accountant=acc)
    out = mech.fit_transform([graph, graph, graph])
    assert len(out) == 3 and acc.spent == (3.0, 0.0) and acc.n_releases == 3
    with _no_draw(), pytest.raises(BudgetError, match="these 3 releases"):
        mech.transform([graph, graph, graph])  # 2 left: the whole batch is refused
    assert acc.n_releases == 3
    mech.transform([graph, graph])
    assert acc.remaining() == (0.0, 0.0)


def test_refused_release_draws_nothing_from_a_generator(graph):
    acc = BudgetAccountant(1.0)
    rng = np.random.default_rng(7)
    mech = EdgeFlip(1.0, random_state=rng, accountant=acc).fit()
    mech.transform(graph)
    state = copy.deepcopy(rng.bit_generator.state)
    with pytest.raises(BudgetError):
        mech.transform(graph)
    assert rng.bit_generator.state == state


def test_invalid_input_is_not_charged(graph):
    acc = BudgetAccountant(10.0)
    mech = EdgeFlip(1.0, accountant=acc).fit()
    with pytest.raises(ValueError):
        mech.transform(np.ones((3, 4)))
    assert acc.n_releases == 0


@pytest.mark.parametrize("mech", [LaplaceEdgeCount(1.0), DegreeSequence(1.0),
                                  ProjectedCount("edges", max_degree=5),
                                  tdadp.LaplaceFlip(1.0), tdadp.ERGMStatisticsRelease(
                                      ("edges",), epsilon=1.0, max_degree=5)],
                         ids=lambda m: type(m).__name__)
def test_every_graph_release_charges(graph, mech):
    acc = BudgetAccountant()
    mech = clone(mech).set_params(accountant=acc, random_state=0)
    mech.fit_transform([graph, graph])
    assert acc.guarantees == (mech.guarantee_,) * 2


def test_pufferfish_releases_charge():
    acc = BudgetAccountant(2.5)
    mech = WassersteinMechanism(1.0, random_state=0, accountant=acc)
    mech.fit([([0, 1], [1.0, 0.0], [0.0, 1.0])])
    mech.transform([3.0, 4.0])  # one query value: one release
    assert acc.spent_budget == [(1.0, 0.0)] and acc.guarantees == (mech.guarantee_,)
    mech.transform(3.0)
    with _no_draw(), pytest.raises(BudgetError):
        mech.transform(3.0)
    theta = ("stationary", [[0.6, 0.4], [0.4, 0.6]])
    chains = np.array([[0, 1, 1, 0, 0, 1, 0, 0]] * 3)
    acc = BudgetAccountant(2.0)
    mqm = MQMExact(theta, epsilon=0.5, random_state=0, accountant=acc)
    assert mqm.fit_transform(chains).shape == (3, 2)  # three chains: three releases
    assert acc.spent == (1.5, 0.0) and acc.n_releases == 3
    with _no_draw(), pytest.raises(BudgetError):
        mqm.transform(chains[:2])
    # GroupDP is differential privacy of whole chains: another unit than MQM's.
    with pytest.raises(ValueError, match="different units"):
        GroupDPHistogram(theta, 0.1, accountant=acc).fit(chains).transform(chains[0])
    assert acc.n_releases == 3


def test_private_ergm_charges_its_release_on_fit():
    A = sample_ergm(["edges"], [-1.5], n_nodes=20, random_state=0)
    fast = dict(n_iter=50, burn_in=10, aux_steps=200, latent_steps=200)
    acc = BudgetAccountant(3.0)
    est = PrivateERGM(["edges"], epsilon=2.0, mechanism="flip", random_state=1,
                      accountant=acc, **fast).fit(A)
    assert acc.guarantees == (est.guarantee_,) and acc.spent == (2.0, 0.0)
    rng = np.random.default_rng(3)
    state = copy.deepcopy(rng.bit_generator.state)
    with pytest.raises(BudgetError):
        est.set_params(random_state=rng).fit(A)
    assert rng.bit_generator.state == state and acc.n_releases == 1
    est.set_params(random_state=1).fit_release(est.release_)  # post-processing: free
    assert acc.n_releases == 1
    with pytest.raises(BudgetError):  # the non-private fit uses the graph: epsilon = inf
        PrivateERGM(["edges"], accountant=acc, random_state=1, **fast).fit(A)
    # The seeded release is the same with or without an accountant.
    plain = PrivateERGM(["edges"], epsilon=2.0, mechanism="flip", random_state=1,
                        **fast).fit(A)
    np.testing.assert_array_equal(plain.release_, est.release_)


def test_private_clustering_charges_once_per_fit():
    X = sbm([30, 30], [[0.6, 0.1], [0.1, 0.6]], random_state=0)
    A = sample_grdpg(X, random_state=1)
    acc = BudgetAccountant(5.0)
    pipe = make_private_clustering("kmeans", epsilon=2.0, n_components=2, n_clusters=2,
                                   random_state=0, accountant=acc)
    assert pipe.named_steps["mechanism"].accountant is acc
    assert pipe.fit_predict(A).shape == (60,)
    pipe.fit_predict(A)
    assert acc.spent == (4.0, 0.0) and acc.n_releases == 2
    with pytest.raises(BudgetError):
        pipe.fit_predict(A)
    with pytest.raises(InvalidParameterError, match="accountant"):
        make_private_clustering("kmeans", epsilon=2.0, n_clusters=2, accountant=5.0)


def test_clone_pickle_and_params(graph):
    acc = BudgetAccountant(10.0)
    mech = EdgeFlip(2.0, random_state=0, accountant=acc)
    assert mech.get_params()["accountant"] is acc
    twin = clone(mech)
    assert twin.accountant is acc  # shared, as in diffprivlib: clones spend one budget
    twin.fit_transform(graph)
    mech.fit_transform(graph)
    assert acc.n_releases == 2
    fitted = pickle.loads(pickle.dumps(mech))
    assert fitted.accountant is not acc and fitted.accountant.spent == (4.0, 0.0)
    fitted.transform(graph)
    assert acc.n_releases == 2 and fitted.accountant.n_releases == 3
    assert mech.set_params(accountant=None).accountant is None
    for cls in (EdgeFlip, LaplaceEdgeCount, ProjectedCount, WassersteinMechanism, PrivateERGM):
        assert "accountant" in cls().get_params()
    assert "accountant" in MQMExact(("any", [[0.5, 0.5], [0.5, 0.5]])).get_params()


def test_bad_accountants_are_refused_naming_the_parameter(graph):
    for bad in (5.0, "acc", BudgetAccountant):
        with pytest.raises(InvalidParameterError, match="accountant"):
            EdgeFlip(accountant=bad).fit()
    mech = EdgeFlip(random_state=0).fit()
    mech.accountant = 1.0  # changed after fit: refused before releasing
    with _no_draw(), pytest.raises(InvalidParameterError, match="accountant"):
        mech.transform(graph)
    with pytest.raises(InvalidParameterError, match="accountant"):
        PrivateERGM(["edges"], accountant=1).fit(graph)


def test_no_accountant_tracks_nothing(graph):
    mech = EdgeFlip(2.0, random_state=0)
    assert mech.accountant is None
    a = mech.fit_transform([graph] * 3)
    acc = BudgetAccountant()
    b = clone(mech).set_params(accountant=acc).fit_transform([graph] * 3)
    for x, y in zip(a, b):  # the accountant does not change the release
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
    assert acc.n_releases == 3
