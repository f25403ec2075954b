"""The shipped real networks: sizes, labels, simplicity, the input contract, offline loading."""

import csv
import gzip
import io
import socket
import sys
from collections import Counter
from importlib import resources

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

import tdadp  # noqa: E402
from tdadp import datasets  # noqa: E402
from tdadp.graphs import graph_nodes  # noqa: E402
from tdadp.io import graph_batch, read_edgelist  # noqa: E402

# loader, keyword arguments, nodes, edges, {attribute: counts of its values}
SPECS = [
    ("load_polblogs", {}, 1490, 16715, {"label": {0: 758, 1: 732}}),
    ("load_polblogs", {"largest_component": True}, 1222, 16714,
     {"label": {0: 586, 1: 636}}),
    ("load_polbooks", {}, 105, 441, {"label": {"l": 43, "n": 13, "c": 49}}),
    ("load_faux_mesa_high", {}, 205, 203, {
        "Grade": {7: 62, 8: 40, 9: 42, 10: 25, 11: 24, 12: 12},
        "Race": {"Hisp": 109, "NatAm": 68, "White": 18, "Black": 6, "Other": 4},
        "Sex": {"F": 99, "M": 106}}),
    ("load_karate", {}, 34, 78, {"club": {"Mr. Hi": 17, "Officer": 17},
                                 "label": {"Mr. Hi": 17, "Officer": 17}}),
    ("load_davis", {}, 32, 89, {"bipartite": {0: 18, 1: 14}}),
]
IDS = [name + ("-lcc" if kwargs else "") for name, kwargs, *_ in SPECS]


def _load(name, kwargs):
    return getattr(datasets, name)(**kwargs)


def test_exports():
    assert sorted(datasets.__all__) == sorted(
        ["load_polblogs", "load_polbooks", "load_faux_mesa_high", "load_karate", "load_davis",
         "load_high_school_2013", "load_high_school_2012", "load_primary_school",
         "load_hospital_ward", "load_workplace_2013", "load_aucs", "load_pubmed",
         "load_flare"])
    assert tdadp.datasets is datasets


@pytest.mark.parametrize("name,kwargs,n,m,attributes", SPECS, ids=IDS)
def test_size_and_attributes(name, kwargs, n, m, attributes):
    G = _load(name, kwargs)
    assert (G.number_of_nodes(), G.number_of_edges()) == (n, m)
    for key, counts in attributes.items():
        values = dict(G.nodes(data=key))
        assert None not in values.values(), f"{name}: a node has no {key!r}"
        assert Counter(values.values()) == counts
    # exactly the documented attributes, on every node
    assert all(set(data) == set(attributes) for _, data in G.nodes(data=True))
    assert G.graph.get("name")


@pytest.mark.parametrize("name,kwargs,n,m,attributes", SPECS, ids=IDS)
def test_simple_unweighted_undirected(name, kwargs, n, m, attributes):
    G = _load(name, kwargs)
    assert type(G) is nx.Graph
    assert nx.number_of_selfloops(G) == 0
    assert all(not data for _, _, data in G.edges(data=True)), "edges carry attributes"


@pytest.mark.parametrize("name,kwargs,n,m,attributes", SPECS, ids=IDS)
def test_passes_the_input_contract(name, kwargs, n, m, attributes):
    G = _load(name, kwargs)
    items, single = graph_batch(G)
    (A,) = items
    assert single and A.shape == (n, n)
    assert A.nnz == 2 * m and A.diagonal().sum() == 0
    assert graph_nodes(A) == list(G.nodes)


def test_loaders_are_offline(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a dataset loader used the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    for name, kwargs, n, m, _ in SPECS:
        G = _load(name, kwargs)
        assert (G.number_of_nodes(), G.number_of_edges()) == (n, m)


def test_data_files_are_package_resources():
    folder = resources.files("tdadp.datasets").joinpath("data")
    names = {p.name for p in folder.iterdir()}
    for dataset in ("polblogs", "polbooks", "faux_mesa_high"):
        assert {f"{dataset}_edges.csv.gz", f"{dataset}_nodes.csv.gz"} <= names


def test_each_call_returns_a_fresh_graph():
    G = datasets.load_polbooks()
    G.remove_node("1000 Years for Revenge")
    G.nodes["Bush vs. the Beltway"]["label"] = "x"
    H = datasets.load_polbooks()
    assert H.number_of_nodes() == 105 and H.nodes["Bush vs. the Beltway"]["label"] == "c"
    K = datasets.load_karate()
    K.add_edge(0, 9)
    assert datasets.load_karate().number_of_edges() == 78


def test_polblogs_largest_component_is_the_connected_part():
    G = datasets.load_polblogs()
    H = datasets.load_polblogs(largest_component=True)
    assert nx.is_connected(H) and not nx.is_connected(G)
    assert nx.number_of_isolates(G) == 266
    assert sorted(map(len, nx.connected_components(G)))[-2:] == [2, 1222]
    assert set(H.edges) <= set(G.edges)
    assert all(H.nodes[v] == G.nodes[v] for v in H)
    # the node order is the source's
    assert list(H) == [v for v in G if v in H]


def test_polblogs_is_the_symmetrised_crawl():
    # each undirected edge is a hyperlink in at least one direction of the raw file
    folder = resources.files("tdadp.datasets").joinpath("data")
    with folder.joinpath("polblogs_edges.csv.gz").open("rb") as raw, gzip.open(raw) as f:
        rows = list(csv.reader(io.TextIOWrapper(f, encoding="utf-8")))[1:]
    assert len(rows) == 19090 and sum(u == v for u, v in rows) == 3
    expected = {frozenset(r) for r in rows if r[0] != r[1]}
    G = datasets.load_polblogs()
    assert {frozenset(e) for e in G.edges} == expected


def test_polblogs_raw_crawl_is_a_directed_edge_list():
    # read_edgelist tells the crawl is directed and, asked to symmetrise, gives the loader's
    # graph on its blogs with a link (the loader adds the isolated blogs from its node file)
    folder = resources.files("tdadp.datasets").joinpath("data")
    path = folder.joinpath("polblogs_edges.csv.gz")
    with path.open("rb") as raw, gzip.open(raw) as f:
        text = f.read().decode("utf-8")
    with pytest.raises(ValueError, match="2,307 pair.* both directions, 14,408 in one"):
        read_edgelist(io.StringIO(text), comments=None, self_loops="drop")
    with pytest.warns(UserWarning, match="3 self-loops"):
        A, nodes = read_edgelist(io.StringIO(text), comments=None, self_loops="drop",
                                 directed="symmetrize", return_nodes=True)
    G = datasets.load_polblogs()
    # read_edgelist strips the spaces around a field (a few blog URLs end with one)
    G = nx.relabel_nodes(G, {v: v.strip() for v in G})
    assert G.number_of_nodes() == 1490
    linked = [v for v in G if G.degree(v)]
    assert sorted(nodes) == sorted(linked)
    np.testing.assert_array_equal(
        A.toarray(), nx.to_numpy_array(G, nodelist=nodes, dtype=np.uint8))


def test_karate_is_networkx_binarised():
    G = datasets.load_karate()
    source = nx.karate_club_graph()
    assert any(w != 1 for _, _, w in source.edges(data="weight"))  # why we binarise
    assert list(G) == list(source) == list(range(34))
    assert {frozenset(e) for e in G.edges} == {frozenset(e) for e in source.edges}
    assert all(G.nodes[v]["label"] == G.nodes[v]["club"] == source.nodes[v]["club"]
               for v in G)


def test_davis_is_bipartite_women_and_events():
    G = datasets.load_davis()
    side = dict(G.nodes(data="bipartite"))
    assert all(side[u] != side[v] for u, v in G.edges)
    assert G.graph["top"] == [v for v in G if side[v] == 0]
    assert G.graph["bottom"] == [f"E{i}" for i in range(1, 15)]
    assert nx.is_connected(G)


def test_faux_mesa_high_nodes_are_ints():
    G = datasets.load_faux_mesa_high()
    assert list(G) == list(range(1, 206))
    assert max(d for _, d in G.degree) == 13
    assert nx.number_of_isolates(G) == 57


def test_faux_mesa_high_attributes_feed_an_ergm_formula_by_name():
    from tdadp.ergm import ergm_statistics

    G = datasets.load_faux_mesa_high()
    got = ergm_statistics(G, "edges + nodematch('Sex', diff=TRUE) + nodematch('Race')")
    sex, race = nx.get_node_attributes(G, "Sex"), nx.get_node_attributes(G, "Race")
    expected = [G.number_of_edges(),
                sum(sex[u] == sex[v] == "F" for u, v in G.edges),
                sum(sex[u] == sex[v] == "M" for u, v in G.edges),
                sum(race[u] == race[v] for u, v in G.edges)]
    np.testing.assert_array_equal(got, expected)


def test_polbooks_is_connected():
    assert nx.is_connected(datasets.load_polbooks())


def test_clear_error_without_networkx(monkeypatch):
    monkeypatch.setitem(sys.modules, "networkx", None)  # import networkx now fails
    for name in datasets.__all__:
        with pytest.raises(ImportError, match=rf"{name} needs networkx: .*tdadp\[networkx\]"):
            getattr(datasets, name)()
