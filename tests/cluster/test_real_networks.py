"""Clustering the real labelled networks of tdadp.datasets with the defaults, against the
tools analysts run instead on the same releases."""

import functools
import warnings

import numpy as np
import pytest

from tdadp import EdgeFlip, make_private_clustering
from tdadp.cluster import BlockModelClustering, clustering_scores
from tdadp.pipelines._peers import PEERS, restrict
from tdadp.pipelines.realnets import NETWORKS


def _network(name):
    """The graph and labels ``tdadp run realnets`` uses."""
    with warnings.catch_warnings():  # karate's weights count shared activities: binarized
        warnings.simplefilter("ignore", UserWarning)
        return NETWORKS[name]()


# Issue 39's rule on the networks tdadp ships, against the tools analysts run instead (the
# realnets experiment's peers) on the same releases: at eps 2, 4, 8 and inf, 10 releases.
# polblogs too in the experiment: its peers take minutes a release (Leiden tuned to K, 12
# leidenalg runs on 0.2 million edges at eps 2), too long for a test.
SHIPPED = ("polbooks", "faux_mesa_high", "karate", "davis")
EPSILONS = (2.0, 4.0, 8.0, np.inf)


@functools.cache
def _shipped_table():
    """Mean ARI of the default and of every peer per (network, eps), on the nodes with an
    edge in each release."""
    rows = {}
    for name in SHIPPED:
        A, y = _network(name)
        k = int(np.unique(y).size)
        for eps in EPSILONS:
            scores = {m: [] for m in ("default", *PEERS)}
            for r in range(10):
                release = EdgeFlip(eps, random_state=r).fit_transform(A)
                with warnings.catch_warnings():  # isolated nodes in faux_mesa_high, reported
                    warnings.simplefilter("ignore", UserWarning)
                    model = BlockModelClustering(n_clusters=k, random_state=r).fit(release)
                kept = np.flatnonzero(~model.isolated_)
                scores["default"].append(
                    clustering_scores(y[kept], model.labels_[kept])["ari"])
                sub = restrict(release, kept)
                for m, peer in PEERS.items():
                    scores[m].append(clustering_scores(y[kept], peer(sub, k, r))["ari"])
            rows[name, eps] = {m: float(np.mean(v)) for m, v in scores.items()}
    return rows


@pytest.mark.slow
def test_the_default_has_the_highest_mean_ari_over_the_shipped_networks():
    table = _shipped_table()
    means = {m: np.mean([row[m] for row in table.values()]) for m in ("default", *PEERS)}
    assert means["default"] == max(means.values()), means


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=(
    "issue 39 is open: in the realnets run the default is more than 0.05 ARI below the best "
    "peer on 4 of the 16 pairs of the four smaller shipped networks (Davis, karate and "
    "polbooks at eps 2, Faux Mesa High without privacy); 90% of 16 allows 1"))
def test_the_default_is_within_005_of_the_best_peer_on_90_percent_of_pairs():
    table = _shipped_table()
    behind = {pair: row for pair, row in table.items()
              if row["default"] < max(row[m] for m in PEERS) - 0.05}
    assert len(behind) <= 0.1 * len(table), behind


def _mean_ari(A, y, clusterer, eps, releases=10):
    scores = []
    for r in range(releases):
        pipe = make_private_clustering(clusterer, epsilon=eps, n_clusters=2, random_state=r)
        scores.append(clustering_scores(y, pipe.fit_predict(A))["ari"])
    return float(np.mean(scores))


@pytest.mark.parametrize("network,eps", [
    ("karate", 4.0), ("karate", np.inf), ("davis", 4.0), ("davis", np.inf),
])
def test_tomato_with_its_defaults_is_within_005_of_the_best_baseline(network, eps):
    A, y = _network(network)
    tomato = _mean_ari(A, y, "tomato", eps)
    best = max(_mean_ari(A, y, "kmeans", eps), _mean_ari(A, y, "gmm", eps))
    assert tomato >= best - 0.05, (tomato, best)
    # before the data-driven defaults ToMATo returned one cluster here (ARI 0)
    assert tomato > 0.6


def test_the_automatic_count_on_davis_without_privacy_is_within_one_of_two():
    A, y = _network("davis")
    for r in range(10):
        pipe = make_private_clustering("tomato", epsilon=np.inf, random_state=r)
        labels = pipe.fit_predict(A)
        est = pipe[-1]
        assert abs(est.n_clusters_ - 2) <= 1 and est.significant_
        assert clustering_scores(y, labels)["ari"] > 0.9


def test_the_karate_club_has_no_significant_density_structure():
    # 34 nodes: the factions' mode stands 1 to 2 log-density units above its saddle, inside
    # the bootstrap band (measured 2c = 4 to 10). ToMATo says so rather than guess.
    A, _ = _network("karate")
    est = make_private_clustering("tomato", epsilon=np.inf, random_state=0).fit(A)[-1]
    assert est.n_clusters_ == 1 and not est.significant_
