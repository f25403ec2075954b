"""Nothing about the private graph escapes except the release.

Every release entry point is run on neighbouring graphs (one dyad apart, including an edge
to a node that is isolated in the other graph) with the same randomness, and everything it
shows besides the released edges must be identical: the node order and node set, the kind
of the output, warnings and messages, refusals, the accountant's state, and a saved
release's sidecar (but for its edge count and checksum) and file mode. The memory limit is
simulated across every threshold at which a release changes its kind or refuses.
"""

import contextlib
import io
import json
import os
import re
import stat
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tdadp.release._plan as plan_module
import tdadp.utils._memory as memory_module
from tdadp import cli
from tdadp.dp import BudgetAccountant
from tdadp.graphs import PackedAdjacency, graph_nodes
from tdadp.io import read_edgelist, save_release
from tdadp.recipes import PrivateClustering
from tdadp.release import DegreeSequence, EdgeFlip, LaplaceEdgeCount, LaplaceFlip

NEIGHBOURS = settings(max_examples=8, deadline=None, derandomize=True,
                      suppress_health_check=[HealthCheck.too_slow,
                                             HealthCheck.function_scoped_fixture])


@st.composite
def neighbours(draw, min_nodes=4, max_nodes=9):
    """(A, B): symmetric 0/1 graphs one dyad apart, B with the extra edge; in about half of
    the draws that edge goes to a node that has no edge in A."""
    n = draw(st.integers(min_nodes, max_nodes))
    upper = draw(st.lists(st.booleans(), min_size=n * (n - 1) // 2,
                          max_size=n * (n - 1) // 2))
    A = np.zeros((n, n), dtype=np.uint8)
    A[np.triu_indices(n, 1)] = upper
    A = A | A.T
    lonely = draw(st.booleans())
    if lonely:  # cut node v off in A; B joins it to u
        v = draw(st.integers(0, n - 1))
        A[v, :] = A[:, v] = 0
        u = draw(st.integers(0, n - 1).filter(lambda x: x != v))
    else:
        u, v = draw(st.sampled_from([(i, j) for i in range(n) for j in range(i + 1, n)
                                     if not A[i, j]] or [(0, 1)]))
        A[u, v] = A[v, u] = 0
    B = A.copy()
    B[u, v] = B[v, u] = 1
    return A, B


def _outcome(call, *args):
    """Everything ``call(*args)`` shows but its result: warnings, and the refusal if it
    refused."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = call(*args), None
        except (ValueError, MemoryError) as exc:
            result, error = None, f"{type(exc).__name__}: {exc}"
    shown = [(w.category.__name__, str(w.message)) for w in caught]
    return result, error, shown


def _describe(out):
    """A release's form: its container, shape, dtype, node names and guarantee."""
    if out is None:
        return None
    if isinstance(out, list):
        return [_describe(o) for o in out]
    if isinstance(out, PackedAdjacency):
        return ("packed", out.shape, list(out.nodes or []), out.guarantee)
    return (type(out).__name__, out.shape, str(out.dtype), graph_nodes(out),
            getattr(out, "guarantee", None))


def _container(A, kind):
    return sp.csr_matrix(A) if kind == "sparse" else A


@NEIGHBOURS
@given(pair=neighbours(), mechanism=st.sampled_from([EdgeFlip, LaplaceFlip]),
       output=st.sampled_from(["auto", "dense", "sparse", "packed"]),
       kind=st.sampled_from(["dense", "sparse"]), secure=st.booleans(),
       eps=st.sampled_from([0.5, 2.0, 8.0]))
def test_graph_releases_show_nothing_but_their_edges(pair, mechanism, output, kind, secure,
                                                     eps):
    shown = []
    for G in pair:
        accountant = BudgetAccountant(epsilon=100.0)
        mech = mechanism(eps, random_state="secure" if secure else 7, output=output,
                         accountant=accountant)
        out, error, caught = _outcome(mech.fit_transform, _container(G, kind))
        shown.append((_describe(out), error, caught, accountant.spent,
                      len(accountant.spent_budget)))
    assert shown[0] == shown[1]


def _limits(total):
    return lambda *args, **kwargs: {"a simulated limit": int(total)}


def _decisions(G, mechanism, output, kind, limit, monkeypatch):
    monkeypatch.setattr(memory_module, "memory_limits", _limits(limit))
    monkeypatch.setattr(plan_module, "memory_limits", _limits(limit), raising=False)
    accountant = BudgetAccountant(epsilon=100.0)
    mech = mechanism(2.0, random_state=3, output=output, accountant=accountant)
    out, error, caught = _outcome(mech.fit_transform, _container(G, kind))
    form = None if out is None else type(out).__name__
    return form, error, caught, accountant.spent


def _thresholds(G, mechanism, output, kind, monkeypatch, lo=1, hi=10**12):
    """Every limit at which the release of ``G`` changes what it shows, found by
    bisection between the points of a geometric grid."""
    grid = np.unique(np.geomspace(lo, hi, 24).astype(np.int64))
    seen = [_decisions(G, mechanism, output, kind, L, monkeypatch) for L in grid]
    found = []
    for k in range(len(grid) - 1):
        if seen[k] == seen[k + 1]:
            continue
        a, b = int(grid[k]), int(grid[k + 1])
        left = seen[k]
        while b - a > 1:
            mid = (a + b) // 2
            if _decisions(G, mechanism, output, kind, mid, monkeypatch) == left:
                a = mid
            else:
                b = mid
        found.append(b)
    return found


@pytest.mark.parametrize("output", ["auto", "sparse", "dense", "packed"])
@pytest.mark.parametrize("kind", ["dense", "sparse"])
def test_memory_decisions_depend_on_public_quantities_only(output, kind, monkeypatch):
    rng = np.random.default_rng(5)
    n = 40
    A = np.triu(rng.random((n, n)) < 0.3, 1).astype(np.uint8)
    A = A | A.T
    A[0, :] = A[:, 0] = 0
    B = A.copy()
    B[0, 1] = B[1, 0] = 1
    cuts = set()
    for G in (A, B):
        cuts.update(_thresholds(G, EdgeFlip, output, kind, monkeypatch))
    assert cuts, "the simulated limit never changed the release: the sweep tests nothing"
    for L in sorted(cuts):
        for limit in (L - 1, L):
            a = _decisions(A, EdgeFlip, output, kind, limit, monkeypatch)
            b = _decisions(B, EdgeFlip, output, kind, limit, monkeypatch)
            assert a == b, f"at a limit of {limit} bytes"
            if a[1] is not None:  # a refusal costs nothing
                assert a[3] == (0.0, 0.0)


@NEIGHBOURS
@given(pair=neighbours(), secure=st.booleans())
def test_count_releases_show_nothing_but_their_value(pair, secure):
    for mechanism in (LaplaceEdgeCount(1.0), DegreeSequence(1.0),
                      DegreeSequence(1.0, histogram=True)):
        shown = []
        for G in pair:
            accountant = BudgetAccountant(epsilon=100.0)
            mechanism.set_params(accountant=accountant,
                                 random_state="secure" if secure else 11)
            out, error, caught = _outcome(mechanism.fit_transform, G)
            shape = None if out is None else np.shape(out)
            shown.append((shape, error, caught, accountant.spent))
        assert shown[0] == shown[1]


@NEIGHBOURS
@given(pair=neighbours(min_nodes=6, max_nodes=10),
       n_clusters=st.sampled_from([None, 2, 50]))
def test_private_clustering_decides_before_the_release(pair, n_clusters):
    shown = []
    for G in pair:
        accountant = BudgetAccountant(epsilon=100.0)
        model = PrivateClustering(epsilon=2.0, n_clusters=n_clusters, clusterer="kmeans"
                                  if n_clusters else "auto", random_state=3,
                                  accountant=accountant)
        _, error, _ = _outcome(model.fit, G)
        fitted = getattr(model, "release_", None)
        shown.append((error if n_clusters == 50 else None, accountant.spent,
                      None if fitted is None else graph_nodes(fitted),
                      getattr(model, "guarantee_", None)))
    assert shown[0] == shown[1]
    if n_clusters == 50:  # more clusters than nodes: known before the release, free
        assert shown[0][0] is not None and shown[0][1] == (0.0, 0.0)


def _edge_file(G, names, path):
    i, j = np.nonzero(np.triu(G, 1))
    with open(path, "w") as fh:
        fh.write("source,target\n")
        fh.writelines(f"{names[a]},{names[b]}\n" for a, b in zip(i, j))


def _run_cli(argv):
    """(exit code, stderr with the Python warnings the command let out appended)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rc = cli.main(argv)
        except SystemExit as exc:  # the command line's own errors
            rc = exc.code
    return rc, err.getvalue() + "".join(f"\n{w.category.__name__}: {w.message}"
                                        for w in caught)


def _sidecar(path):
    side = json.loads(Path(f"{path}.json").read_text())
    for key in ("n_edges", "sha256"):
        side.pop(key)
    return side, stat.S_IMODE(os.stat(path).st_mode)


@NEIGHBOURS
@given(pair=neighbours(), numeric=st.booleans(), seed=st.booleans())
def test_cli_release_shows_nothing_but_the_edges(pair, numeric, seed):
    n = pair[0].shape[0]
    names = [str(k * 7 % 11 + 1) for k in range(n)] if numeric else \
        [f"node-{chr(97 + (k * 5) % 26)}{k}" for k in range(n)]
    shown = []
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "nodes.txt"), "w") as fh:
            fh.writelines(f"{v}\n" for v in reversed(names))
        for k, G in enumerate(pair):
            edges, out = os.path.join(tmp, f"edges{k}.csv"), os.path.join(tmp, f"rel{k}.csv")
            _edge_file(G, names, edges)
            argv = ["release", edges, "--epsilon", "2", "--out", out, "--nodes",
                    os.path.join(tmp, "nodes.txt")] + (["--seed", "4"] if seed else [])
            rc, err = _run_cli(argv)
            # The count of released edges is the release's; the file names differ by k.
            err = err.replace(f"edges{k}", "edges").replace(f"rel{k}", "rel")
            err = re.sub(r"released (\d+) nodes, \d+ edges", r"released \1 nodes, M edges",
                         err)
            side = _sidecar(out) if rc == 0 else None
            if side is not None:
                side[0]["data_file"] = side[0]["data_file"].replace(f"rel{k}", "rel")
            labels = None
            if rc == 0:
                rc2, _ = _run_cli(["cluster", out, "--out", out + ".labels.csv",
                                   "--n-clusters", "2", "--clusterer", "kmeans"])
                if rc2 == 0:
                    labels = [row.split(",")[0] for row in
                              Path(out + ".labels.csv").read_text().splitlines()]
            shown.append((rc, err, side, labels))
    # `tdadp cluster` reads the release only (public): whether it clusters may differ with
    # the release, but the rows it writes are the release's nodes, in its order.
    (*first, labels0), (*second, labels1) = shown
    assert first == second
    assert first[0] == 0
    if labels0 is not None and labels1 is not None:
        assert labels0 == labels1


@NEIGHBOURS
@given(pair=neighbours())
def test_save_release_shows_nothing_but_the_edges(pair):
    shown = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, G in enumerate(pair):
            for kind in ("dense", "sparse"):
                out = os.path.join(tmp, f"rel{k}-{kind}.csv")
                R = EdgeFlip(1.0, random_state=2).fit_transform(_container(G, kind))
                save_release(out, R)
                side, mode = _sidecar(out)
                side["data_file"] = side["data_file"].replace(f"rel{k}", "rel")
                shown.append((kind, side, mode))
    assert shown[:2] == shown[2:]


def test_node_order_comes_from_the_node_list_alone(tmp_path):
    # The example: adding the edge a-b used to move a from the end to the front.
    nodes = ["a", "b", "c", "d"]
    orders = []
    for text in ("b,c\nc,d\n", "b,c\nc,d\na,b\n"):
        A = read_edgelist(io.StringIO(text), nodes=nodes)
        orders.append(graph_nodes(EdgeFlip(1.0, random_state=0).fit_transform(A)))
    assert orders == [nodes, nodes]
    numeric = [graph_nodes(read_edgelist(io.StringIO(text), nodes=["1", "2", "9", "10"]))
               for text in ("1,2\n2,10\n", "1,2\n2,10\n9,10\n")]
    assert numeric == [[1, 2, 9, 10]] * 2


def test_a_node_set_read_from_the_edges_is_warned_about():
    A = read_edgelist(io.StringIO("1 2\n2 3\n"))
    with pytest.warns(UserWarning, match="node set of this graph was read from its edges"):
        EdgeFlip(1.0, random_state=0).fit_transform(A)
    B = read_edgelist(io.StringIO("1 2\n2 3\n"), nodes=[1, 2, 3, 4])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        EdgeFlip(1.0, random_state=0).fit_transform(B)


def test_cli_release_needs_a_public_node_set(tmp_path):
    edges = tmp_path / "e.csv"
    edges.write_text("b,c\nc,d\n")
    rc, err = _run_cli(["release", str(edges), "--epsilon", "1", "--out",
                        str(tmp_path / "r.csv")])
    assert rc == 2 and "--nodes" in err and "--nodes-from-edges" in err
    assert not (tmp_path / "r.csv").exists()
    rc, err = _run_cli(["release", str(edges), "--epsilon", "1", "--out",
                        str(tmp_path / "r.csv"), "--nodes-from-edges", "--seed", "1"])
    assert rc == 0
    assert json.loads((tmp_path / "r.csv.json").read_text())["nodes"] == ["b", "c", "d"]


def test_an_edge_to_an_unlisted_node_is_refused_by_count(tmp_path):
    with pytest.raises(ValueError, match=r"^1 label\(s\) of the edge list are not in the node"):
        read_edgelist(io.StringIO("secret-name,b\n"), nodes=["a", "b"])
    try:
        read_edgelist(io.StringIO("secret-name,b\n"), nodes=["a", "b"])
    except ValueError as exc:
        assert "secret" not in str(exc)


def test_nodes_file_keeps_01_apart_from_1(tmp_path):
    edges, nodes = tmp_path / "e.csv", tmp_path / "n.txt"
    edges.write_text("1,2\n2,3\n")
    nodes.write_text("1\n01\n2\n3\n")
    rc, err = _run_cli(["release", str(edges), "--epsilon", "1", "--out",
                        str(tmp_path / "r.csv"), "--nodes", str(nodes), "--seed", "1"])
    assert rc == 0, err
    # As read_edgelist reads such names: "01" and "1" are two names, so all stay text.
    assert json.loads((tmp_path / "r.csv.json").read_text())["nodes"] == ["01", "1", "2",
                                                                         "3"]


def test_integer_names_beyond_int64_are_kept_as_text(tmp_path):
    edges = tmp_path / "e.csv"
    edges.write_text("1,99999999999999999999\n2,1\n")
    rc, err = _run_cli(["release", str(edges), "--epsilon", "1", "--out",
                        str(tmp_path / "r.csv"), "--nodes-from-edges", "--seed", "1"])
    assert rc == 0, err
    assert json.loads((tmp_path / "r.csv.json").read_text())["nodes"] == [
        "1", "2", "99999999999999999999"]


@pytest.mark.parametrize("value", ["-inf", "-1e3", "-2"])
def test_a_negative_epsilon_is_named_as_such(tmp_path, value):
    edges = tmp_path / "e.csv"
    edges.write_text("1,2\n")
    rc, err = _run_cli(["release", str(edges), "--epsilon", value, "--out",
                        str(tmp_path / "r.csv"), "--nodes-from-edges"])
    assert rc == 2 and "must be positive and finite" in err and "expected one" not in err


def test_max_edges_refuses_a_larger_graph_before_the_charge():
    A = np.ones((6, 6), dtype=np.uint8) - np.eye(6, dtype=np.uint8)
    accountant = BudgetAccountant(epsilon=10.0)
    with pytest.raises(ValueError, match="more edges than max_edges=10"):
        EdgeFlip(1.0, max_edges=10, accountant=accountant).fit_transform(A)
    assert accountant.spent == (0.0, 0.0)
    EdgeFlip(1.0, max_edges=15, accountant=accountant).fit_transform(A)
    assert accountant.spent == (1.0, 0.0)


def test_cli_release_losing_a_race_for_out_says_so(tmp_path, monkeypatch):
    edges, out = tmp_path / "e.csv", tmp_path / "r.csv"
    edges.write_text("1,2\n2,3\n")
    real_save = cli.save_release

    def late(path, G, **kwargs):  # another command publishes --out during the release
        real_save(path, G, **kwargs)
        return real_save(path, G, **kwargs)

    monkeypatch.setattr(cli, "save_release", late)
    rc, err = _run_cli(["release", str(edges), "--epsilon", "1", "--out", str(out),
                        "--nodes-from-edges", "--seed", "1"])
    assert rc == 2
    assert "was written by another process while this release was made" in err
