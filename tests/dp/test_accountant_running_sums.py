"""BudgetAccountant keeps running sums (fuzz finding: each spend summed the whole ledger, so
10,000 spends took a quadratic time)."""

import math
import pickle
import random
import threading
from unittest import mock

import pytest

from tdadp import EdgeFlip
from tdadp.dp import BudgetAccountant, BudgetError, PrivacyGuarantee, _accountant


def test_a_charge_never_walks_the_ledger():
    # The old charge read the kind of every guarantee in the ledger (and summed all of them)
    # at every spend: 300 spends made 45,150 reads. Now each charge reads its own items.
    g = EdgeFlip(1.0).fit().guarantee_
    acc = BudgetAccountant()
    with mock.patch.object(_accountant, "_key", wraps=_accountant._key) as key:
        for _ in range(300):
            acc.spend(g)
    assert key.call_count == 300
    assert acc.n_releases == 300 and acc.spent == (300.0, 0.0)


def test_the_sums_are_those_of_the_whole_ledger():
    # Exactly math.fsum of the ledger, after every charge (correctly rounded, not the drift
    # of a running float sum: ten 0.1 make 1.0, where a float sum gives 0.9999999999999999).
    rng = random.Random(0)
    acc = BudgetAccountant(delta=1.0)
    for _ in range(200):
        eps = rng.choice([0.1, 1e-300, 5e-324, rng.random(), rng.random() * 1e-9])
        delta = rng.choice([0.0, 1e-7, rng.random() * 1e-6])
        acc.spend(eps, delta)
        pairs = acc.spent_budget
        assert acc.spent == (math.fsum(e for e, _ in pairs), math.fsum(d for _, d in pairs))
    tenths = BudgetAccountant(1.0)
    for _ in range(10):
        tenths.spend(0.1)
    assert tenths.spent == (1.0, 0.0) and tenths.remaining() == (0.0, 0.0)


def test_a_sum_beyond_the_float_range_is_inf():
    # math.fsum raised OverflowError here, from inside spend.
    acc = BudgetAccountant().spend(1e308).spend(1e308)
    assert acc.spent == (math.inf, 0.0) and acc.n_releases == 2
    assert BudgetAccountant().spend(math.inf).spend(1.0).spent == (math.inf, 0.0)


def test_batches_kinds_and_refusals_keep_the_running_sums_right():
    g = EdgeFlip(1.0).fit().guarantee_
    acc = BudgetAccountant(3.0).charge([g, g])
    with pytest.raises(BudgetError, match=r"would spend \(epsilon, delta\) = \(2, 0\)"):
        acc.charge([g, g])
    puff = PrivacyGuarantee("P", 0.1, unit="secret pair", definition="Pufferfish privacy")
    with pytest.raises(ValueError, match="different units"):
        acc.spend(puff)
    assert acc.spent == (2.0, 0.0) and acc.spend(g).remaining() == (0.0, 0.0)


def test_an_accountant_pickled_without_the_sums_rebuilds_them():
    g = EdgeFlip(0.5).fit().guarantee_
    acc = BudgetAccountant(2.0).spend(g).spend(0.25)
    state = acc.__getstate__()
    for name in ("_sum_epsilon", "_sum_delta", "_kind"):
        state.pop(name)
    old = BudgetAccountant.__new__(BudgetAccountant)
    old.__setstate__(state)
    assert old.spent == (0.75, 0.0)
    with pytest.raises(ValueError, match="different units"):
        old.spend(PrivacyGuarantee("P", 0.1, unit="secret pair",
                                   definition="Pufferfish privacy"))
    assert pickle.loads(pickle.dumps(old.spend(1.25))).spent == (2.0, 0.0)


def test_concurrent_spends_sum_exactly():
    acc = BudgetAccountant(1.0)

    def work():
        for _ in range(250):
            acc.spend(1e-3)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert acc.n_releases == 1000 and acc.spent == (math.fsum([1e-3] * 1000), 0.0)
