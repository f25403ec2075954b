"""save_release / load_release under stress: concurrent writers publish whole pairs, nothing
is published that cannot be whole, a sidecar's guarantee is re-derived on load, node names
are checked (and their messages kept private) before a release is spent on them."""

import json
import math
import multiprocessing
import os
import threading

import numpy as np
import pytest
import scipy.sparse as sp

import tdadp.io
from tdadp import EdgeFlip, LaplaceFlip, PackedAdjacency, load_release, save_release
from tdadp.dp import PrivacyGuarantee, compose
from tdadp.io import sidecar_path

N = 30


def _graph(seed=0):
    rng = np.random.default_rng(seed)
    U = np.triu(rng.random((N, N)) < 0.2, 1).astype(np.uint8)
    return U + U.T


def _release(seed, kind="sparse", eps=1.0, mechanism=EdgeFlip):
    """A release that differs with ``seed`` (eps = 1 flips about a quarter of the dyads)."""
    A = _graph()
    G = PackedAdjacency.from_dense(A) if kind == "packed" else (
        sp.csr_matrix(A) if kind == "sparse" else A)
    return mechanism(eps, random_state=seed, output=kind).fit_transform(G)


def _dense(G):
    if isinstance(G, PackedAdjacency):
        return G.toarray()
    return G.toarray() if sp.issparse(G) else np.asarray(G)


def _only_release_files(folder, *names):
    """The folder holds exactly these files: no temporary, backup or lock file left."""
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)


# ----------------------------------------------------------------- concurrent writers
def _interleave(monkeypatch, path, first, other):
    """Make the first writer to publish a data file at ``path`` wait, before it publishes
    its sidecar, for another writer's sidecar (``first``: a lock, ``other``: an event, of
    threads or processes). Unserialised writers then mix their files every time (the last
    sidecar is the first writer's, the data file another's); serialised ones cannot publish
    meanwhile, and the wait ends at its bound."""
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        real(src, dst, *args, **kwargs)
        if os.fspath(dst) == os.fspath(path) and first.acquire(False):
            other.wait(0.3)
        elif os.fspath(dst) == os.fspath(sidecar_path(path)):
            other.set()

    monkeypatch.setattr(os, "replace", replace)


def test_two_writers_never_mix_their_files(tmp_path, monkeypatch):
    path = tmp_path / "r.csv"
    releases = [_release(seed) for seed in (1, 2)]
    _interleave(monkeypatch, path, threading.Lock(), threading.Event())
    errors = []

    def write(B):
        try:
            save_release(path, B, overwrite=True)
        except Exception as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(B,)) for B in releases]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    C = load_release(path)  # the data file matches its sidecar's checksum
    assert any(np.array_equal(_dense(C), _dense(B)) for B in releases)
    _only_release_files(tmp_path, "r.csv", "r.csv.json")


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="needs fork")
def test_two_processes_never_mix_their_files(tmp_path, monkeypatch):
    path = tmp_path / "r.tdadp"
    releases = [_release(seed, "packed") for seed in (1, 2)]
    ctx = multiprocessing.get_context("fork")
    _interleave(monkeypatch, path, ctx.Lock(), ctx.Event())
    procs = [ctx.Process(target=save_release, args=(path, B), kwargs={"overwrite": True})
             for B in releases]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    assert [p.exitcode for p in procs] == [0, 0]
    C = load_release(path)
    assert any(C == B for B in releases)
    _only_release_files(tmp_path, "r.tdadp", "r.tdadp.json")


@pytest.mark.parametrize("n_threads", [8, pytest.param(50, marks=pytest.mark.slow)])
def test_many_threads_on_one_path(tmp_path, n_threads):
    path = tmp_path / "r.csv"
    releases = [_release(seed) for seed in range(n_threads)]
    outcomes = [None] * len(releases)

    def write(k, overwrite):
        try:
            save_release(path, releases[k], overwrite=overwrite)
            outcomes[k] = "saved"
        except ValueError as exc:
            outcomes[k] = str(exc)

    for overwrite in (True, False):
        for p in (path, sidecar_path(path)):
            p.unlink(missing_ok=True)
        threads = [threading.Thread(target=write, args=(k, overwrite))
                   for k in range(len(releases))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        C = _dense(load_release(path))
        assert sum(np.array_equal(C, _dense(B)) for B in releases) >= 1
        if overwrite:
            assert outcomes == ["saved"] * len(releases)
        else:  # the first writer wins, every other is refused
            assert outcomes.count("saved") == 1
            assert all("exists; pass overwrite=True" in o for o in outcomes if o != "saved")
            assert np.array_equal(C, _dense(releases[outcomes.index("saved")]))
        _only_release_files(tmp_path, "r.csv", "r.csv.json")


# --------------------------------------------------- nothing published that is not whole
def test_a_dangling_symlink_sidecar_is_refused_before_anything_is_published(tmp_path):
    path = tmp_path / "r.csv"
    os.symlink(tmp_path / "nowhere", sidecar_path(path))
    with pytest.raises(ValueError, match="r.csv.json exists \\(a symbolic link\\)"):
        save_release(path, _release(1))
    with pytest.raises(ValueError, match="exists \\(a symbolic link\\)"):
        tdadp.io.check_release_path(path)
    assert not path.exists() and not os.path.lexists(path)
    _only_release_files(tmp_path, "r.csv.json")
    save_release(path, _release(1), overwrite=True)  # replaces the link itself
    assert not sidecar_path(path).is_symlink() and load_release(path).shape == (N, N)


def test_a_folder_under_the_sidecar_name_is_refused_before_anything_is_published(tmp_path):
    path = tmp_path / "r.csv"
    save_release(path, _release(1))
    before = path.read_bytes()
    sidecar_path(path).unlink()
    sidecar_path(path).mkdir()
    with pytest.raises(ValueError, match="r.csv.json is a folder"):
        save_release(path, _release(2), overwrite=True)
    with pytest.raises(ValueError, match="is a folder"):
        tdadp.io.check_release_path(path, overwrite=True)
    assert path.read_bytes() == before
    _only_release_files(tmp_path, "r.csv", "r.csv.json")


def _failing_sidecar_publish(monkeypatch):
    """Every way of publishing a file under a sidecar's name fails."""
    real_replace, real_link = os.replace, os.link

    def replace(src, dst, *args, **kwargs):
        if os.fspath(dst).endswith(".csv.json"):
            raise PermissionError("sidecar refused")
        return real_replace(src, dst, *args, **kwargs)

    def link(src, dst, *args, **kwargs):
        if os.fspath(dst).endswith(".csv.json"):
            raise PermissionError("sidecar refused")
        return real_link(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "link", link)


def test_a_sidecar_that_cannot_be_published_puts_the_data_file_back(tmp_path, monkeypatch):
    path = tmp_path / "r.csv"
    save_release(path, _release(1))
    before = (path.read_bytes(), sidecar_path(path).read_bytes())
    _failing_sidecar_publish(monkeypatch)
    with pytest.raises(PermissionError, match="sidecar refused"):
        save_release(path, _release(2), overwrite=True)
    assert (path.read_bytes(), sidecar_path(path).read_bytes()) == before
    _only_release_files(tmp_path, "r.csv", "r.csv.json")
    other = tmp_path / "new.csv"  # no previous pair: the new data file is removed
    with pytest.raises(PermissionError, match="sidecar refused"):
        save_release(other, _release(2))
    _only_release_files(tmp_path, "r.csv", "r.csv.json")


# ---------------------------------------------------------------- the guarantee on load
@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "release.csv"
    save_release(path, _release(1, eps=2.0))
    return path


def _edit_guarantee(path, **changes):
    side = sidecar_path(path)
    meta = json.loads(side.read_text())
    meta["guarantee"].update(changes)
    side.write_text(json.dumps(meta))


@pytest.mark.parametrize("changes, message", [
    ({"epsilon": 0.01, "effective_epsilon": 0.01},
     "flip_probability is 0.119.*EdgeFlip at epsilon=0.01 flips at 0.497"),
    ({"flip_probability": 0.3}, "flip_probability is 0.3, EdgeFlip at epsilon=2.0 flips at"),
    ({"effective_epsilon": 1.0}, "effective_epsilon is 1.0, EdgeFlip at epsilon=2.0 states"),
    ({"epsilon": "Infinity", "effective_epsilon": "Infinity"},
     "flip_probability is 0.119.*flips at 0.0"),
    ({"mechanism": "LaplaceFlip"}, "LaplaceFlip at epsilon=2.0 flips at 0.18"),
    ({"mechanism": "MyFlip"}, "mechanism 'MyFlip' is not one whose guarantee can be"),
    ({"mechanism": "composition of 1 releases"}, "has no components"),
    ({"unit": "node"}, "unit is 'node', EdgeFlip at epsilon=2.0 states unit 'edge'"),
    ({"local": False}, "local is False"),
    ({"dyad_independent": False}, "dyad_independent is False"),
    ({"delta": 1e-6}, "delta is 1e-06"),
    ({"restriction": "bounded degree"}, "restriction is 'bounded degree'"),
    ({"definition": "Pufferfish privacy"}, "definition is 'Pufferfish privacy'"),
])
def test_a_guarantee_that_does_not_hold_together_is_refused(saved, changes, message):
    _edit_guarantee(saved, **changes)
    with pytest.raises(ValueError, match="guarantee does not hold together.*" + message):
        load_release(saved)


def test_an_infinite_number_written_as_a_number_is_refused(tmp_path):
    path = tmp_path / "r.csv"
    save_release(path, EdgeFlip(math.inf).fit_transform(_graph()))
    text = sidecar_path(path).read_text()
    assert text.count('"Infinity"') == 2  # epsilon and effective_epsilon
    for number in ("1e999", "Infinity"):  # an overflowing literal; JSON's non-standard one
        sidecar_path(path).write_text(text.replace('"Infinity"', number))
        with pytest.raises(ValueError, match="writes epsilon as a number that is not finite"):
            load_release(path)


def test_a_node_added_to_the_list_of_a_packed_release_is_refused(tmp_path):
    path = tmp_path / "r.tdadp"
    save_release(path, _release(1, "packed"))
    meta = json.loads(sidecar_path(path).read_text())
    meta["n"] += 1
    meta["nodes"].append(N)
    sidecar_path(path).write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="node or edge count differs"):
        load_release(path)


@pytest.mark.parametrize("mechanism", [EdgeFlip, LaplaceFlip])
@pytest.mark.parametrize("kind", ["dense", "sparse", "packed"])
def test_every_release_tdadp_writes_loads(tmp_path, mechanism, kind):
    # Small, large and extreme budgets: the rate rounded up to the grid (from eps = 36.7),
    # the ideal rate underflowing (EdgeFlip from 745, LaplaceFlip from 1490), no privacy.
    for k, eps in enumerate((0.0, 1e-3, 0.7, 36.7, 1e3, 1500.0, math.inf)):
        B = _release(k, kind, eps, mechanism)
        path = tmp_path / f"r{k}.{'tdadp' if kind == 'packed' else 'csv'}"
        save_release(path, B)
        C = load_release(path, sparse=kind != "dense")
        assert C.guarantee == B.guarantee and np.array_equal(_dense(C), _dense(B))


def test_a_guarantee_that_cannot_be_checked_is_not_saved(tmp_path):
    B = _release(1)
    g = B.guarantee
    for guarantee, message in [
        (PrivacyGuarantee("LaplaceEdgeCount", 1.0, sensitivity=1.0, noise_scale=1.0),
         "mechanism 'LaplaceEdgeCount' is not one whose guarantee can be re-derived"),
        (PrivacyGuarantee.from_dict({**g.to_dict(), "epsilon": 4.0}), "flips at"),
        (compose([g, PrivacyGuarantee("M", 1.0)]), "component 1: mechanism 'M'"),
    ]:
        B.guarantee = guarantee
        with pytest.raises(ValueError, match="cannot be saved in a release file.*" + message):
            save_release(tmp_path / "r.csv", B)
        _only_release_files(tmp_path)
    B.guarantee = compose([g, EdgeFlip(math.inf).fit().guarantee_, g])
    save_release(tmp_path / "r.csv", B)
    assert load_release(tmp_path / "r.csv").guarantee == B.guarantee


# ------------------------------------------------------------- node names, kept private
_SECRET = "alice smith\x00"
_NAMES = ["b", "c", _SECRET] + [f"n{i}" for i in range(N - 3)]


@pytest.mark.parametrize("names, message", [
    (_NAMES, "node name 2 .* is a string with a control character"),
    (["alice smith"] * 2 + [f"n{i}" for i in range(N - 2)],
     "node names 0 and 1 .* are the same name"),
    ([7, "7"] + [f"n{i}" for i in range(N - 2)],
     "node names 0 and 1 .* are an integer and a string written alike"),
    ([None] + [f"n{i}" for i in range(N - 1)], "node name 0 .* is of type NoneType"),
    (["alice smith"] * (N - 1), f"{N - 1} node names for a graph with {N} nodes"),
])
def test_node_names_are_checked_before_the_release(tmp_path, names, message):
    with pytest.raises(ValueError, match=message) as checked:
        tdadp.io.check_release_nodes(names, N)
    assert "alice" not in str(checked.value)  # a private graph's names are not quoted
    _only_release_files(tmp_path)
    if len(names) == N:  # save_release refuses them with the same words
        B = _release(1)
        B.nodes = names
        with pytest.raises(ValueError) as saved:
            save_release(tmp_path / "r.csv", B)
        assert str(saved.value) == str(checked.value)
        _only_release_files(tmp_path)


def test_check_release_nodes_accepts_what_save_release_writes():
    assert tdadp.io.check_release_nodes(None, N) is None
    assert tdadp.io.check_release_nodes(iter([1, "a", 2 ** 62]), 3) is None
    for n in (-1, 2.0, True, "3"):
        with pytest.raises(ValueError, match="n must be a number of nodes"):
            tdadp.io.check_release_nodes(None, n)


# ---------------------------------------------------- quoted input capped in messages
@pytest.mark.parametrize("changes", [
    {"epsilon": "Q" * 1000},    # from_dict's message quotes the value
    {"mechanism": "Q" * 1000},  # the consistency check quotes it
    {"unit": "Q" * 1000},
])
def test_a_long_value_is_quoted_at_most_80_characters(saved, changes):
    _edit_guarantee(saved, **changes)
    with pytest.raises(ValueError) as info:
        load_release(saved)
    assert "Q" * 30 in str(info.value) and "Q" * 81 not in str(info.value)
