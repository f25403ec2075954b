"""The packed file format: exact round trips, and no damaged byte read as a release."""

import hashlib
import json

import numpy as np
import pytest

import tdadp.io._packed_file as packed_file
from tdadp import EdgeFlip, load_packed, save_packed
from tdadp.dp import PrivacyGuarantee
from tdadp.graphs import PackedAdjacency
from tdadp.graphs._packed import n_words


def _random_graph(n, seed=0, **kw):
    rng = np.random.default_rng(seed)
    U = np.triu(rng.integers(0, 2, (n, n)), 1).astype(np.uint8)
    return PackedAdjacency.from_dense(U + U.T, **kw)


def _lines(data):
    magic_end = data.index(b"\n") + 1
    header_end = data.index(b"\n", magic_end) + 1
    check_end = data.index(b"\n", header_end) + 1
    return magic_end, header_end, check_end


@pytest.mark.parametrize("n", [0, 1, 2, 63, 64, 65, 130])
def test_round_trip_is_exact(tmp_path, n):
    names = [f"v{i}" if i % 3 else i for i in range(n)]
    P = _random_graph(n, nodes=names)
    P.guarantee = EdgeFlip(0.7).fit().guarantee_
    save_packed(tmp_path / "g", P)
    Q = load_packed(tmp_path / "g")
    np.testing.assert_array_equal(Q.words, P.words)
    assert Q.n == n and Q.nodes == names and Q.guarantee == P.guarantee
    assert Q.words.dtype == np.uint64


def test_the_file_is_what_the_format_says(tmp_path):
    P = _random_graph(100, nodes=[str(i) for i in range(100)])
    P.guarantee = EdgeFlip(1.0).fit().guarantee_
    save_packed(tmp_path / "g", P)
    data = (tmp_path / "g").read_bytes()
    magic_end, header_end, check_end = _lines(data)
    assert data[:magic_end] == b"TDADP-PACKED-GRAPH\n"
    line = data[magic_end:header_end - 1]
    header = json.loads(line)
    assert data[header_end:check_end - 1].decode() == hashlib.sha256(line).hexdigest()
    payload = data[check_end:]
    assert payload == P.words.astype("<u8").tobytes()
    assert header["sha256"] == hashlib.sha256(payload).hexdigest()
    assert header["format"] == 2 and header["byteorder"] == "little"
    assert header["n"] == 100 and header["n_words"] == P.words.size
    assert header["guarantee"]["epsilon"] == 1.0
    assert header["guarantee"]["flip_probability"] == P.guarantee.flip_probability
    assert PrivacyGuarantee(**{**header["guarantee"], "components": ()}) == P.guarantee


def test_checksums_in_small_steps_give_the_same_file(tmp_path, monkeypatch):
    P = _random_graph(130)
    save_packed(tmp_path / "a", P)
    monkeypatch.setattr(packed_file, "_CHUNK_BYTES", 64)
    save_packed(tmp_path / "b", P)
    assert (tmp_path / "a").read_bytes() == (tmp_path / "b").read_bytes()
    assert load_packed(tmp_path / "a") == P


@pytest.fixture
def saved(tmp_path):
    P = _random_graph(70, nodes=[f"n{i}" for i in range(70)])
    P.guarantee = EdgeFlip(1.5).fit().guarantee_
    path = tmp_path / "release.tdadp"
    save_packed(path, P)
    return P, path


def test_every_damaged_byte_is_refused(saved):
    _, path = saved
    data = path.read_bytes()
    for k in range(len(data)):
        damaged = bytearray(data)
        damaged[k] ^= 0x01
        path.write_bytes(bytes(damaged))
        with pytest.raises(ValueError):
            load_packed(path)


def test_every_truncation_is_refused(saved):
    _, path = saved
    data = path.read_bytes()
    for k in range(len(data)):
        path.write_bytes(data[:k])
        with pytest.raises(ValueError):
            load_packed(path)


def _resign(data, edit):
    # A header edited by someone who recomputed its checksum.
    magic_end, header_end, check_end = _lines(data)
    header = json.loads(data[magic_end:header_end])
    edit(header)
    line = json.dumps(header).encode()
    return (data[:magic_end] + line + b"\n" + hashlib.sha256(line).hexdigest().encode()
            + b"\n" + data[check_end:])


def test_an_altered_guarantee_is_refused(saved):
    P, path = saved
    data = path.read_bytes()
    text = data.replace(b'"epsilon": 1.5', b'"epsilon": 9.5')
    assert text != data
    path.write_bytes(text)
    with pytest.raises(ValueError, match="header does not match the header's checksum"):
        load_packed(path)
    # Re-signed, the header is read, but the guarantee must still be a valid one.
    path.write_bytes(_resign(data, lambda h: h["guarantee"].update(epsilon=-1)))
    with pytest.raises(ValueError, match="not a valid PrivacyGuarantee"):
        load_packed(path)
    path.write_bytes(_resign(data, lambda h: h.update(nodes=["a"])))
    with pytest.raises(ValueError, match="node names are not a list of 70"):
        load_packed(path)
    path.write_bytes(_resign(data, lambda h: h.update(n=True)))
    with pytest.raises(ValueError, match="no valid node count"):
        load_packed(path)
    path.write_bytes(_resign(data, lambda h: h.update(sha256="0" * 64)))
    with pytest.raises(ValueError, match="payload's checksum does not match"):
        load_packed(path)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d + b"\0" * 8, "8 bytes follow the payload"),
    (lambda d: d[:-1], "truncated"),
    (lambda d: d[:25], "header line is cut short"),
    (lambda d: b"PK\x03\x04" + d[4:], "not a tdadp packed graph"),
    (lambda d: _resign(d, lambda h: h.update(format=3)),
     "format 3 is not one this tdadp reads .* read it with that version"),
    (lambda d: _resign(d, lambda h: h.update(byteorder="big")), "unknown layout"),
])
def test_each_damage_says_what_it_is(saved, edit, message):
    _, path = saved
    path.write_bytes(edit(path.read_bytes()))
    with pytest.raises(ValueError, match=message):
        load_packed(path)


def test_version_1_files_are_still_read(saved):
    # Version 1 (the first development version) had no header checksum line.
    P, path = saved
    data = path.read_bytes()
    magic_end, header_end, check_end = _lines(data)
    header = json.loads(data[magic_end:header_end])
    header["format"] = 1
    path.write_bytes(data[:magic_end] + json.dumps(header).encode() + b"\n" + data[check_end:])
    Q = load_packed(path)
    assert Q == P and Q.guarantee == P.guarantee and Q.nodes == P.nodes


def test_names_that_would_not_read_back_equal_are_refused(tmp_path):
    P = PackedAdjacency(3, nodes=[(0, 1), "b", "c"])
    with pytest.raises(ValueError, match=r"node name 0 is \(0, 1\) \(tuple\).*str\(v\)"):
        save_packed(tmp_path / "x", P)
    P.nodes = ["a", float("nan"), "c"]
    with pytest.raises(ValueError, match="node name 1 is nan"):
        save_packed(tmp_path / "x", P)
    P.nodes = [np.int64(7), True, 2.5]
    save_packed(tmp_path / "x", P)
    Q = load_packed(tmp_path / "x")
    assert Q.nodes == [7, True, 2.5] and type(Q.nodes[1]) is bool
    P.nodes, P.guarantee = None, "not a guarantee"
    with pytest.raises(ValueError, match="not a PrivacyGuarantee"):
        save_packed(tmp_path / "x", P)


def test_a_graph_too_large_for_memory_is_refused_before_reading(saved, monkeypatch):
    import tdadp.utils._memory as memory

    _, path = saved
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 100})
    with pytest.raises(ValueError, match=r"packed graph of .*\(70 nodes\)"):
        load_packed(path)


# --- lying files: headers re-signed by someone who recomputed the checksums ---------------

def _signed(data, line):
    # The header line replaced by raw bytes, and signed.
    magic_end, _, check_end = _lines(data)
    return (data[:magic_end] + line + b"\n" + hashlib.sha256(line).hexdigest().encode()
            + b"\n" + data[check_end:])


def _resign_payload(data, payload):
    # A payload replaced by someone who also recomputed its checksum and the header's.
    magic_end, header_end, check_end = _lines(data)
    data = data[:check_end] + payload
    return _resign(data, lambda h: h.update(sha256=hashlib.sha256(payload).hexdigest()))


@pytest.mark.parametrize("n, row, column", [
    (70, 5, 5),     # the diagonal
    (70, 5, 2),     # below it, in the row's first word
    (70, 3, 100),   # padding past column n in the last word
    (64, 62, 10),   # n a multiple of 64: the first word of a late row
    (130, 64, 64),  # the diagonal in a row whose first word is its second
])
def test_bits_outside_the_graph_are_refused(tmp_path, n, row, column):
    P = _random_graph(n)
    path = tmp_path / "g"
    save_packed(path, P)
    words = P.words.copy()
    words[P.offsets[row] + column // 64 - P.first_word[row]] |= np.uint64(1) << np.uint64(
        column % 64)
    data = path.read_bytes()
    path.write_bytes(_resign_payload(data, words.astype("<u8").tobytes()))
    with pytest.raises(ValueError, match=r"sets 1 bit\(s\) outside the graph") as info:
        load_packed(path)
    assert str(row) not in str(info.value).split("(")[-1]  # a count, not a position
    # and no packed graph holds such words in the first place
    with pytest.raises(ValueError, match=r"set 1 bit\(s\) outside the graph"):
        PackedAdjacency(n, words)


def test_a_lying_node_count_is_refused_before_anything_is_allocated(saved, monkeypatch):
    import tracemalloc

    import tdadp.graphs._packed as packed

    def no_layout(n):
        raise AssertionError(f"packed_layout({n}) built from an unchecked header")

    monkeypatch.setattr(packed, "packed_layout", no_layout)
    _, path = saved
    n = 10**9
    path.write_bytes(_resign(path.read_bytes(), lambda h: h.update(
        n=n, n_words=n_words(n), nodes=None)))
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="truncated"):
            load_packed(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20  # a step of the header scan; the claim needs 62 PB


@pytest.mark.parametrize("edit, message", [
    (lambda h: h.update(n_words=float(h["n_words"])), "word count does not match"),
    (lambda h: h.update(n_words=str(h["n_words"])), "word count does not match"),
    (lambda h: h.update(n=70.0), "no valid node count"),
    (lambda h: h.update(n=-1), "no valid node count"),
    (lambda h: h.update(nodes=[{"a": 1}] + h["nodes"][1:]), "1 of its node names are not"),
    (lambda h: h.update(nodes=[None] * 70), "70 of its node names are not"),
    (lambda h: h.update(nodes=[[1]] + h["nodes"][1:]), "node names are not"),
    (lambda h: h.update(nodes={"a": 1}), "node names are not a list"),
    (lambda h: h.update(sha256=5), "sha256 is not 64 lowercase hex"),
    (lambda h: h.update(tdadp_version=None), "tdadp_version is not a string"),
    (lambda h: h.update(extra=1), "adds 1 field"),
    (lambda h: h.pop("nodes"), "lacks 1"),
    (lambda h: h.update(guarantee=[1]), "not a tdadp PrivacyGuarantee"),
    (lambda h: h.update(guarantee={**h["guarantee"], "components": [5]}),
     "not a tdadp PrivacyGuarantee"),
])
def test_every_header_field_is_checked(saved, edit, message):
    _, path = saved
    path.write_bytes(_resign(path.read_bytes(), edit))
    with pytest.raises(ValueError, match=message):
        load_packed(path)


def test_names_follow_one_rule_both_ways(tmp_path):
    # what save_packed refuses, load_packed refuses; what it writes, load_packed reads
    for bad in ({"a": 1}, None, [1], float("inf")):
        P = PackedAdjacency(2, nodes=[bad, "b"])
        with pytest.raises(ValueError, match="node name 0"):
            save_packed(tmp_path / "x", P)


def test_a_deeply_nested_guarantee_is_refused_clearly(saved):
    _, path = saved

    def nest(h, depth):
        g = h["guarantee"]
        for _ in range(depth):
            g = {**h["guarantee"], "components": [g]}
        h["guarantee"] = g

    data = path.read_bytes()
    path.write_bytes(_resign(data, lambda h: nest(h, 17)))
    with pytest.raises(ValueError, match="nested more than 16 levels"):
        load_packed(path)
    # 100,000 levels (json.dumps cannot even write it): refused before the parser recurses
    magic_end, header_end, _ = _lines(data)
    header = json.loads(data[magic_end:header_end])
    g = json.dumps(header["guarantee"]).encode()
    inner = g[:-1] + b', "components": ['
    deep = inner * 100_000 + g + b"]}" * 100_000
    line = json.dumps({**header, "guarantee": None}).encode().replace(b'"guarantee": null',
                                                                     b'"guarantee": ' + deep)
    path.write_bytes(_signed(data, line))
    with pytest.raises(ValueError, match="nests 2000\\d+ levels deep"):
        load_packed(path)
    line = json.dumps({**header, "nodes": None}).encode().replace(
        b'"nodes": null', b'"nodes": ' + b"[" * 100_000 + b"]" * 100_000)
    path.write_bytes(_signed(data, line))
    with pytest.raises(ValueError, match="nests 100001 levels deep"):
        load_packed(path)


def test_a_duplicate_header_field_is_refused(saved):
    _, path = saved
    data = path.read_bytes()
    magic_end, header_end, _ = _lines(data)
    line = data[magic_end:header_end - 1].replace(b'{"format": 2', b'{"format": 2, "n": 3', 1)
    path.write_bytes(_signed(data, line))
    with pytest.raises(ValueError, match="names a field twice"):
        load_packed(path)


def test_a_huge_checksum_line_is_not_read_whole(saved):
    _, path = saved
    data = path.read_bytes()
    _, header_end, check_end = _lines(data)
    path.write_bytes(data[:header_end] + b"0" * 10**7 + data[check_end - 1:])
    with pytest.raises(ValueError, match="checksum"):
        load_packed(path)
