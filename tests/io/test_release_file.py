"""save_release / load_release: the open release format (edge-list CSV or packed file, and a
JSON sidecar): exact round trips, readable by other tools, every tampering refused."""

import csv
import hashlib
import json

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import tdadp
from tdadp import (
    AdjacencySpectralEmbedding,
    EdgeFlip,
    PackedAdjacency,
    load_release,
    read_edgelist,
    save_release,
)
from tdadp.dp import compose
from tdadp.graphs import graph_guarantee, graph_nodes
from tdadp.io import RELEASE_FORMAT, sidecar_path

N = 40
ISOLATED = (5, 17, 39)  # nodes without any edge, in the input and (eps = 40) the release


def _graph(n=N, seed=0):
    rng = np.random.default_rng(seed)
    U = np.triu(rng.random((n, n)) < 0.2, 1).astype(np.uint8)
    A = U + U.T
    A[list(ISOLATED), :] = 0
    A[:, list(ISOLATED)] = 0
    return A


NAMES = {
    "strings": [f"person {i}" for i in range(N - 4)] + ['Smith, J.', 'say "hi"', "#7", "Zoë"],
    "integers": [10 * i + 3 for i in range(N)],
    "mixed": [f"n{i}" if i % 2 else i for i in range(N)],
    "default": None,
}


def _release(kind, names, eps=40.0, seed=1):
    """An EdgeFlip release of the test graph, of the given kind, tagged with ``names``."""
    A = _graph()
    if kind == "packed":
        G = PackedAdjacency.from_dense(A, nodes=names)
    elif kind == "sparse":
        G = tdadp.graphs.tag_graph(sp.csr_matrix(A), nodes=names) if names else sp.csr_matrix(A)
    else:
        G = tdadp.graphs.tag_graph(A, nodes=names) if names else A
    return EdgeFlip(eps, random_state=seed, output=kind).fit_transform(G)


def _same_graph(B, C):
    if isinstance(B, PackedAdjacency):
        return isinstance(C, PackedAdjacency) and C == B
    Bd = B.toarray() if sp.issparse(B) else np.asarray(B)
    Cd = C.toarray() if sp.issparse(C) else np.asarray(C)
    return Bd.dtype == Cd.dtype and np.array_equal(Bd, Cd)


@pytest.mark.parametrize("names", sorted(NAMES))
@pytest.mark.parametrize("kind", ["dense", "sparse", "packed"])
def test_round_trip(tmp_path, kind, names):
    B = _release(kind, NAMES[names])
    path = tmp_path / ("release.tdadp" if kind == "packed" else "release.csv")
    side = save_release(path, B)
    assert side == sidecar_path(path) and side.name == path.name + ".json"
    expected_nodes = NAMES[names] if NAMES[names] is not None else list(range(N))
    loaded = [load_release(path)] + ([] if kind == "packed" else
                                     [load_release(path, sparse=False)])
    for C in loaded:
        assert _same_graph(B, C)
        assert graph_nodes(C) == expected_nodes
        assert [type(v) for v in graph_nodes(C)] == [type(v) for v in expected_nodes]
        assert graph_guarantee(C) == graph_guarantee(B)
    if kind != "packed":
        assert sp.isspmatrix_csr(loaded[0]) and loaded[0].dtype == np.uint8
        assert isinstance(loaded[1], np.ndarray) and loaded[1].dtype == np.uint8
    meta = json.loads(side.read_text())
    assert meta["format"] == RELEASE_FORMAT and meta["version"] == 1
    assert meta["kind"] == ("packed" if kind == "packed" else "edgelist-csv")
    assert meta["n"] == N and meta["nodes"] == expected_nodes
    assert meta["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert meta["tdadp_version"] and meta["guarantee"]["mechanism"] == "EdgeFlip"
    edges = int(B.count_edges() if kind == "packed" else B.sum() // 2)
    assert meta["n_edges"] == edges


def test_isolated_nodes_survive(tmp_path):
    B = _release("sparse", NAMES["strings"])
    degrees = np.asarray(B.sum(axis=1)).ravel()
    assert (degrees[list(ISOLATED)] == 0).all()  # eps = 40: the release keeps them isolated
    save_release(tmp_path / "r.csv", B)
    C = load_release(tmp_path / "r.csv")
    assert C.shape == (N, N) and (np.asarray(C.sum(axis=1)).ravel() == degrees).all()
    text = (tmp_path / "r.csv").read_text()
    for k in ISOLATED:
        assert f"person {k}," not in text and not text.rstrip().endswith(f"person {k}")


def test_csv_is_read_by_other_tools(tmp_path):
    B = _release("sparse", NAMES["strings"])
    path = tmp_path / "release.csv"
    save_release(path, B)
    names = NAMES["strings"]
    U = sp.triu(B, 1).tocoo()
    want = {frozenset((names[i], names[j])) for i, j in zip(U.row, U.col)}
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["source", "target"]
    assert {frozenset(r) for r in rows[1:]} == want and len(rows) - 1 == len(want)
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert list(df.columns) == ["source", "target"]
    assert {frozenset(r) for r in zip(df.source, df.target)} == want and len(df) == len(want)
    A, nodes = read_edgelist(path, header=True, return_nodes=True)
    V = sp.triu(A, 1).tocoo()
    assert {frozenset((nodes[i], nodes[j])) for i, j in zip(V.row, V.col)} == want
    # Default header inference too (the names are not "source"/"target").
    A2 = read_edgelist(path)
    assert (A2 != A).nnz == 0


def test_integer_names_read_back_as_integers_elsewhere(tmp_path):
    B = _release("dense", NAMES["integers"])
    save_release(tmp_path / "r.csv", B)
    df = pd.read_csv(tmp_path / "r.csv")
    assert df.dtypes.tolist() == [np.int64, np.int64]
    _, nodes = read_edgelist(tmp_path / "r.csv", return_nodes=True)
    assert all(isinstance(v, int) for v in nodes) and set(nodes) <= set(NAMES["integers"])


@pytest.mark.parametrize("kind", ["dense", "sparse", "packed"])
def test_adjusted_embedding_of_the_loaded_release(tmp_path, kind):
    B = _release(kind, NAMES["strings"], eps=1.0)
    path = tmp_path / "r.bin"
    save_release(path, B)
    C = load_release(path, sparse=(kind != "dense"))
    ase = AdjacencySpectralEmbedding(n_components=2, adjust=True)
    X_mem = ase.fit_transform(B)
    X_file = AdjacencySpectralEmbedding(n_components=2, adjust=True).fit_transform(C)
    np.testing.assert_array_equal(X_file, X_mem)
    # The adjustment did read the flip rate: it differs from the plain embedding.
    X_plain = AdjacencySpectralEmbedding(n_components=2, adjust=False).fit_transform(C)
    assert not np.allclose(np.abs(X_plain), np.abs(X_file))


def test_guarantees_with_infinity_and_components(tmp_path):
    A = _graph()
    B = EdgeFlip(np.inf).fit_transform(A)
    save_release(tmp_path / "inf.csv", B)
    text = sidecar_path(tmp_path / "inf.csv").read_text()
    assert "Infinity" in text
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-strict JSON {c}"))
    assert load_release(tmp_path / "inf.csv").guarantee == B.guarantee
    C = EdgeFlip(2.0, random_state=0).fit_transform(A)
    C.guarantee = compose([EdgeFlip(1.0).fit().guarantee_, EdgeFlip(np.inf).fit().guarantee_])
    save_release(tmp_path / "comp.csv", C)
    assert load_release(tmp_path / "comp.csv").guarantee == C.guarantee


# ---------------------------------------------------------------------------- saving
def test_refuses_an_unreleased_graph_unless_allowed(tmp_path):
    A = _graph()
    with pytest.raises(ValueError, match="no guarantee.*allow_unreleased=True"):
        save_release(tmp_path / "raw.csv", A)
    B = _release("dense", None)
    with pytest.raises(ValueError, match="no guarantee"):
        save_release(tmp_path / "slice.csv", B[:10, :10])
    assert not list(tmp_path.iterdir())
    save_release(tmp_path / "raw.csv", A, allow_unreleased=True)
    C = load_release(tmp_path / "raw.csv", sparse=False)
    assert np.array_equal(C, A) and graph_guarantee(C) is None
    assert json.loads(sidecar_path(tmp_path / "raw.csv").read_text())["guarantee"] is None


def test_refuses_to_overwrite_and_leaves_no_temporary_files(tmp_path):
    B = _release("sparse", None)
    path = tmp_path / "r.csv"
    save_release(path, B)
    before = (path.read_bytes(), sidecar_path(path).read_bytes())
    B2 = _release("sparse", None, seed=2)
    with pytest.raises(ValueError, match="exists; pass overwrite=True"):
        save_release(path, B2)
    assert (path.read_bytes(), sidecar_path(path).read_bytes()) == before
    sidecar_path(path).unlink()  # a data file alone is still not overwritten
    with pytest.raises(ValueError, match="exists"):
        save_release(path, B2)
    save_release(path, B2, overwrite=True)
    assert _same_graph(load_release(path), B2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.csv.json"]


def test_a_failed_save_leaves_nothing(tmp_path, monkeypatch):
    import tdadp.io._release_file as rf

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(rf, "_sync", boom)
    with pytest.raises(OSError, match="disk full"):
        save_release(tmp_path / "r.csv", _release("sparse", None))
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("names, message", [
    (["a"] * 2 + [f"x{i}" for i in range(N - 2)], "node names 0 and 1 .* are the same name"),
    ([1, "1"] + [f"x{i}" for i in range(N - 2)], "an integer and a string"),
    ([None] + [f"x{i}" for i in range(N - 1)], "NoneType"),
    ([float("nan")] + [f"x{i}" for i in range(N - 1)], "NaN"),
    ([1.5] + [f"x{i}" for i in range(N - 1)], "float"),
    ([True] + [f"x{i}" for i in range(N - 1)], "bool"),
    ([("a", 1)] + [f"x{i}" for i in range(N - 1)], "tuple"),
    ([""] + [f"x{i}" for i in range(N - 1)], "empty"),
    ([" a"] + [f"x{i}" for i in range(N - 1)], "whitespace"),
    (["a\nb"] + [f"x{i}" for i in range(N - 1)], "control character"),
    ([2 ** 70] + [f"x{i}" for i in range(N - 1)], "int64"),
    (["y" * 5000] + [f"x{i}" for i in range(N - 1)], "longer than"),
])
def test_refuses_names_that_would_not_round_trip(tmp_path, names, message):
    B = _release("sparse", None)
    B.nodes = names
    with pytest.raises(ValueError, match=message) as info:
        save_release(tmp_path / "r.csv", B)
    assert len(str(info.value)) < 500  # a long name is clipped
    assert not list(tmp_path.iterdir())


def test_numpy_names_are_written_as_python_values(tmp_path):
    B = _release("dense", None)
    B.nodes = list(np.arange(N, dtype=np.int32))
    save_release(tmp_path / "r.csv", B)
    nodes = load_release(tmp_path / "r.csv").nodes
    assert nodes == list(range(N)) and all(type(v) is int for v in nodes)


def test_refuses_a_graph_that_is_not_simple(tmp_path):
    A = _graph()
    A[0, 0] = 1
    with pytest.raises(ValueError, match="self-loop"):
        save_release(tmp_path / "r.csv", A, allow_unreleased=True)


# ---------------------------------------------------------------------------- loading
@pytest.fixture
def saved(tmp_path):
    B = _release("sparse", NAMES["strings"])
    path = tmp_path / "release.csv"
    save_release(path, B)
    return B, path


def _edit_csv(path, edit, fix_checksum=True):
    """Rewrite the CSV's lines with ``edit`` and, like a careful forger, its checksum."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(edit(lines)), encoding="utf-8")
    if fix_checksum:
        _edit_sidecar(path, sha256=hashlib.sha256(path.read_bytes()).hexdigest())


def _edit_sidecar(path, **changes):
    side = sidecar_path(path)
    meta = json.loads(side.read_text())
    for key, value in changes.items():
        if value is _DROP:
            del meta[key]
        else:
            meta[key] = value
    side.write_text(json.dumps(meta))


_DROP = object()
_LONG = "Q" * 500


@pytest.mark.parametrize("edit, message", [
    (lambda ls: ls[:-1], "lists 1 ... edges|lists \\d+ edges, its sidecar records"),
    (lambda ls: ls + [ls[-1]], "more than the \\d+ edges"),
    (lambda ls: ls[:-1] + [ls[1]], "twice \\(the first repeat on line"),
    (lambda ls: ls[:-1] + [f'"{_LONG}",person 0\n'], "names a node the sidecar does not"),
    (lambda ls: ls[:-1] + ["person 0,person 0\n"], "line \\d+ is a self-loop"),
    (lambda ls: ["from,to\n"] + ls[1:], "header source,target"),
    (lambda ls: ls[:-1] + ["a,b,c\n"], "3 field\\(s\\), not 2"),
])
def test_refuses_an_altered_edge_list(saved, edit, message):
    _, path = saved
    _edit_csv(path, edit)
    with pytest.raises(ValueError, match=message) as info:
        load_release(path)
    assert _LONG[:100] not in str(info.value)  # names are clipped in messages


def test_refuses_a_csv_whose_checksum_differs(saved):
    _, path = saved
    _edit_csv(path, lambda ls: ls[:-1], fix_checksum=False)
    with pytest.raises(ValueError, match="SHA-256 differs.*altered"):
        load_release(path)


def test_refuses_a_missing_or_swapped_sidecar(saved, tmp_path):
    B, path = saved
    other = tmp_path / "other.csv"
    save_release(other, _release("sparse", NAMES["strings"], eps=1.0, seed=5))
    sidecar_path(path).write_bytes(sidecar_path(other).read_bytes())
    with pytest.raises(ValueError, match="SHA-256 differs.*another release"):
        load_release(path)
    sidecar_path(path).unlink()
    with pytest.raises(ValueError, match="sidecar release.csv.json is missing"):
        load_release(path)


def test_refuses_a_missing_data_file(saved):
    _, path = saved
    path.unlink()
    with pytest.raises(ValueError, match="data file .* is missing"):
        load_release(path)


@pytest.mark.parametrize("changes, message", [
    ({"format": "something-else"}, "is not a tdadp-release sidecar"),
    ({"version": 2}, "version 2 is not one this tdadp reads"),
    ({"version": "1"}, "version '1' is not one"),
    ({"n_edges": 10 ** 12}, "n_edges is not an edge count"),
    ({"n_edges": -1}, "n_edges is not an edge count"),
    ({"n": "40"}, "n is not a node count"),
    ({"kind": "parquet"}, "kind is not one of"),
    ({"sha256": "abc"}, "sha256 is not 64"),
    ({"extra": 1}, "adds 1 field"),
    ({"guarantee": _DROP}, "lacks 1"),
    ({"nodes": ["a"] * N}, "both written 'a'"),
    ({"nodes": [None] * N}, "node name 0 is of type NoneType"),
    ({"nodes": ["a", "b"]}, "nodes are not a list of 40"),
    ({"guarantee": {"mechanism": "EdgeFlip", "epsilon": -1.0}}, "guarantee does not parse"),
    ({"guarantee": {"mechanism": "EdgeFlip", "epsilon": 1.0, "bogus": 1}},
     "guarantee does not parse"),
    ({"guarantee": [1, 2]}, "guarantee does not parse"),
])
def test_refuses_a_bad_sidecar(saved, changes, message):
    _, path = saved
    _edit_sidecar(path, **changes)
    with pytest.raises(ValueError, match=message):
        load_release(path)


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "not a JSON object"),
    ('{"format": "tdadp-release", "format": "x"}', "names a field twice"),
    ("[" * 100000 + "]" * 100000, "not valid JSON|not a JSON object"),
])
def test_refuses_a_sidecar_that_is_not_one(saved, text, message):
    _, path = saved
    sidecar_path(path).write_text(text)
    with pytest.raises(ValueError, match=message):
        load_release(path)


def test_an_edge_count_the_file_cannot_hold_is_refused_before_reading(saved):
    _, path = saved
    _edit_sidecar(path, n_edges=N * (N - 1) // 2)
    with pytest.raises(ValueError, match="more than its .* bytes can hold"):
        load_release(path)


def test_memory_is_checked_before_reading(saved, monkeypatch):
    import tdadp.io._release_file as rf

    def refuse(nbytes, what, hint="", **kw):
        if "release of" in what:
            raise ValueError(f"{what} would need too much{hint}")

    monkeypatch.setattr(rf, "check_memory", refuse)
    monkeypatch.setattr(rf, "_file_sha256", lambda p: pytest.fail("read before the check"))
    _, path = saved
    with pytest.raises(ValueError, match="would need too much.*sparse=True"):
        load_release(path, sparse=False)


def test_packed_release_checks_its_sidecar(tmp_path):
    B = _release("packed", NAMES["integers"])
    path = tmp_path / "r.tdadp"
    save_release(path, B)
    good = sidecar_path(path).read_bytes()
    for changes, message in [({"nodes": list(range(N))}, "node names differ"),
                             ({"n_edges": 3}, "node or edge count differs"),
                             ({"guarantee": EdgeFlip(3.0).fit().guarantee_.to_dict()},
                              "guarantee differs"),
                             ({"sha256": "0" * 64}, "SHA-256 differs")]:
        sidecar_path(path).write_bytes(good)
        _edit_sidecar(path, **changes)
        with pytest.raises(ValueError, match=message):
            load_release(path)
    sidecar_path(path).write_bytes(good)
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="SHA-256 differs"):
        load_release(path)


def test_packed_without_names_loads_with_default_names(tmp_path):
    B = _release("packed", None)
    save_release(tmp_path / "r.tdadp", B)
    C = load_release(tmp_path / "r.tdadp")
    assert C == B and C.nodes == list(range(N)) and C.guarantee == B.guarantee


def test_bad_arguments(tmp_path):
    B = _release("dense", None)
    with pytest.raises(TypeError, match="path must be"):
        save_release(3, B)
    with pytest.raises(TypeError, match="overwrite must be a bool"):
        save_release(tmp_path / "r.csv", B, overwrite="yes")
    save_release(tmp_path / "r.csv", B)
    with pytest.raises(TypeError, match="sparse must be a bool"):
        load_release(tmp_path / "r.csv", sparse="no")
