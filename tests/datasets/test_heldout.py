"""The held-out labelled networks: sizes, groups, simplicity, offline loading."""

import socket
from collections import Counter

import pytest

nx = pytest.importorskip("networkx")

from tdadp.datasets import _heldout  # noqa: E402

# loader, nodes, edges, node type, group sizes of "label", the other node attributes
SPECS = [
    ("load_high_school_2013", 327, 5818, int, {
        "2BIO1": 37, "2BIO2": 33, "2BIO3": 40, "MP": 33, "MP*1": 29, "MP*2": 38, "PC": 44,
        "PC*": 39, "PSI*": 34}, set()),
    ("load_high_school_2012", 180, 2220, int, {
        "MP*1": 31, "MP*2": 35, "PC": 38, "PC*": 35, "PSI*": 41}, set()),
    ("load_primary_school", 242, 8317, int, {
        "1A": 23, "1B": 25, "2A": 23, "2B": 26, "3A": 23, "3B": 22, "4A": 21, "4B": 23,
        "5A": 22, "5B": 24, "Teachers": 10}, set()),
    ("load_hospital_ward", 75, 1139, int, {"PAT": 29, "NUR": 27, "MED": 11, "ADM": 8}, set()),
    ("load_workplace_2013", 92, 755, int, {
        "DSE": 34, "DMCT": 26, "DISQ": 15, "SRH": 13, "SFLE": 4}, set()),
    ("load_aucs", 61, 353, str, {
        "G1": 6, "G2": 12, "G3": 8, "G4": 7, "G5": 4, "G6": 7, "G7": 8, "G8": 1, "other": 8},
     {"group", "role"}),
    ("load_pubmed", 19717, 44324, str, {"1": 4103, "2": 7875, "3": 7739}, set()),
    ("load_flare", 220, 708, str, {
        "analytics": 10, "animate": 20, "data": 11, "display": 4, "flex": 1, "physics": 8,
        "query": 60, "scale": 10, "util": 25, "vis": 71}, {"package"}),
]
IDS = [spec[0] for spec in SPECS]


@pytest.fixture(scope="module")
def graphs():
    return {name: getattr(_heldout, name)() for name, *_ in SPECS}


def test_every_loader_is_listed():
    assert sorted(_heldout.__all__) == sorted(IDS)


@pytest.mark.parametrize("name,n,m,node,groups,others", SPECS, ids=IDS)
def test_size_and_groups(graphs, name, n, m, node, groups, others):
    G = graphs[name]
    assert (G.number_of_nodes(), G.number_of_edges()) == (n, m)
    labels = dict(G.nodes(data="label"))
    assert all(isinstance(label, str) for label in labels.values())
    assert Counter(labels.values()) == groups
    assert 2 <= len(groups) <= 20
    assert all(set(data) == {"label"} | others for _, data in G.nodes(data=True))
    assert all(type(v) is node for v in G)
    assert G.graph.get("name")


@pytest.mark.parametrize("name,n,m,node,groups,others", SPECS, ids=IDS)
def test_undirected_simple_unweighted_connected(graphs, name, n, m, node, groups, others):
    G = graphs[name]
    assert type(G) is nx.Graph
    assert nx.number_of_selfloops(G) == 0
    assert all(not data for *_, data in G.edges(data=True))
    assert nx.is_connected(G)


def test_aucs_keeps_the_source_groups():
    G = _heldout.load_aucs()
    assert G.nodes["U4"] == {"label": "other", "group": "G2/G3", "role": "Admin"}
    for _, data in G.nodes(data=True):
        single = data["group"].startswith("G") and "/" not in data["group"]
        assert data["label"] == (data["group"] if single else "other")


def test_flare_label_is_the_top_level_package():
    G = _heldout.load_flare()
    for v, data in G.nodes(data=True):
        assert v.startswith(data["package"] + ".")
        assert data["package"].split(".")[:2] == ["flare", data["label"]]


def test_each_call_returns_a_fresh_graph():
    G = _heldout.load_hospital_ward()
    G.remove_node(next(iter(G)))
    assert _heldout.load_hospital_ward().number_of_nodes() == 75


def test_loaders_are_offline(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a loader tried to open a network connection")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for name in ("load_workplace_2013", "load_flare"):
        assert getattr(_heldout, name)().number_of_nodes() > 0


def test_clear_error_without_networkx(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_networkx(name, *args, **kwargs):
        if name == "networkx" or name.startswith("networkx."):
            raise ImportError("no networkx")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_networkx)
    with pytest.raises(ImportError, match=r"load_aucs needs networkx"):
        _heldout.load_aucs()
