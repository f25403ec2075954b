"""MQMExact refuses, before any table is built, work estimated past MAX_OPERATIONS."""

import numpy as np
import pytest

import tdadp.pufferfish._exact_scale as exact_scale
import tdadp.pufferfish._quilt_search as quilt_search
import tdadp.pufferfish._scale as scale_module
from tdadp.pufferfish import MQMApprox, MQMExact, mqm_exact_scale
from tdadp.pufferfish._exact_scale import exact_operations
from tdadp.pufferfish._quilt_search import node_operations, node_search_operations

MIXING_51 = 0.5 * np.eye(51) + 0.5 / 51
SLOW = [[0.97, 0.03], [0.05, 0.95]]      # mixes slowly: nodes widen their quilt windows


@pytest.fixture
def no_tables(monkeypatch):
    """Fail at once if the exact tables are started (the code before ran them for minutes)."""
    def refuse(*args):
        raise AssertionError("the influence tables were started")
    monkeypatch.setattr(exact_scale, "_powers", refuse)


@pytest.mark.parametrize("start", ["any", "pmf"])
def test_long_chain_of_many_states_is_refused_before_any_table(start, no_tables):
    """T = 10^4, 51 states: about 7e10 operations. The code before built the tables and
    searched node by node for more than 400 s; ``no_tables`` makes it fail at once instead."""
    q = "any" if start == "any" else np.full(51, 1 / 51)
    with pytest.raises(ValueError, match="elementary operations") as info:
        MQMExact((q, MIXING_51), 1.0, length=10_000).fit()
    message = str(info.value)
    assert "MQMApprox" in message and "max_quilt" in message
    assert f"T = 10000, quilt length 9999, {start} start" in message


def test_mqmapprox_is_what_the_refusal_offers():
    mech = MQMApprox(("any", MIXING_51), 1.0, length=10_000).fit()
    assert np.isfinite(mech.score_)


@pytest.mark.parametrize("start", ["any", "pmf", "stationary"])
def test_operations_grow_with_length_and_states(start):
    ops = [exact_operations(k, T, T - 1, start) for k, T in ((51, 100), (51, 1000), (51, 10_000))]
    assert ops[0] < ops[1] < ops[2]
    assert exact_operations(3, 1000, 999, start) < ops[1]
    assert exact_operations(51, 1000, 10, start) < ops[1]      # a shorter max_quilt
    assert ops[2] > scale_module.MAX_OPERATIONS
    assert exact_operations(51, 300, 299, start) < scale_module.MAX_OPERATIONS


def test_node_search_operations_in_closed_form():
    rng = np.random.default_rng(0)
    for _ in range(50):
        T = int(rng.integers(1, 200))
        L = int(rng.integers(0, 80))
        pairs, per_node = int(rng.integers(1, 10)), float(rng.integers(0, 100))
        want = node_operations(np.arange(1, T + 1), T, min(L, 32), pairs, per_node)
        assert node_search_operations(T, L, pairs, per_node) == pytest.approx(want, rel=1e-12)


def test_the_bound_is_the_estimate(monkeypatch):
    """Just at the estimate the scale is computed; just below, refused."""
    T, k = 40, 6
    P = 0.5 * np.eye(k) + 0.5 / k
    ops = exact_operations(k, T, T - 1, "any")
    monkeypatch.setattr(scale_module, "MAX_OPERATIONS", ops)
    assert mqm_exact_scale(("any", P), T, 1.0).score > 0
    monkeypatch.setattr(scale_module, "MAX_OPERATIONS", ops * (1 - 1e-9))
    with pytest.raises(ValueError, match="elementary operations"):
        mqm_exact_scale(("any", P), T, 1.0)


def test_many_states_within_the_bound_still_run():
    res = mqm_exact_scale(("any", MIXING_51), 16, 1.0)
    assert np.isfinite(res.score) and res.score > 0


def test_widening_the_windows_is_checked(monkeypatch):
    """A slowly mixing chain at a small epsilon: the first windows fit the bound, widening
    every node's window does not."""
    T = 120
    base = exact_operations(2, T, T - 1, "pmf")
    monkeypatch.setattr(scale_module, "MAX_OPERATIONS", 1.01 * base)
    with pytest.raises(ValueError, match=f"quilt search of [0-9]+ of the {T} nodes"):
        mqm_exact_scale(([0.5, 0.5], SLOW), T, 0.2)


@pytest.mark.parametrize("q", ["any", [0.5, 0.5]])
def test_widened_nodes_give_the_search_without_windows(q, monkeypatch):
    """The nodes a longer quilt could improve are searched after the others: the same worst
    node, quilt and score as searching every quilt of every node."""
    got = mqm_exact_scale((q, SLOW), 100, 1.0).per_theta
    worst = got[0]
    assert max(abs(v - worst.node) for v in worst.quilt) > 32    # beyond the first window
    monkeypatch.setattr(quilt_search, "_WINDOW", 10**9)
    assert got == mqm_exact_scale((q, SLOW), 100, 1.0).per_theta
