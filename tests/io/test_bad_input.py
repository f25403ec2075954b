"""Bad input to the file readers, property-based: lying or corrupted packed files (every
header field times a pool of bad values, damaged bodies) and malformed edge lists with every
option. A valid file reads back exactly; a bad one is refused with a clear ValueError or
TypeError (OSError for a path that is no file); never another exception, a hang, a huge
message or a silently accepted lie."""

import hashlib
import io
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tdadp.io._packed_file as packed_file
from tdadp import EdgeFlip, load_packed, read_edgelist, save_packed
from tdadp.graphs import PackedAdjacency
from tdadp.graphs._packed import unused_bits

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])

BAD_VALUES = [
    -1, 0, 1, 2, 3, 70, 71, 0.5, 70.0, -1.0, 1e300, 10**30, 2**63, math.inf, -math.inf,
    math.nan, "", "a", "70", "little", "big", True, False, None, [], [1], ["a"] * 70,
    [None] * 70, [{}] * 70, [[1]] * 70, list(range(70)), [math.nan] * 70, {}, {"a": 1},
    {"mechanism": "m", "epsilon": 1.0}, {"mechanism": "m", "epsilon": -1.0},
    {"mechanism": "m", "epsilon": 1.0, "components": [None]}, "0" * 64, "g" * 64, "x" * 5000,
]

N = 70


def _lines(data):
    magic_end = data.index(b"\n") + 1
    header_end = data.index(b"\n", magic_end) + 1
    check_end = data.index(b"\n", header_end) + 1
    return magic_end, header_end, check_end


def _signed(data, header=None, payload=None):
    """The file with a new header and/or payload, both checksums recomputed (a liar's)."""
    magic_end, header_end, check_end = _lines(data)
    payload = data[check_end:] if payload is None else payload
    if header is None:
        header = json.loads(data[magic_end:header_end])
        header["sha256"] = hashlib.sha256(payload).hexdigest()
    line = json.dumps(header).encode()
    return (data[:magic_end] + line + b"\n" + hashlib.sha256(line).hexdigest().encode()
            + b"\n" + payload)


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    rng = np.random.default_rng(0)
    U = np.triu(rng.integers(0, 2, (N, N)), 1).astype(np.uint8)
    P = PackedAdjacency.from_dense(U + U.T, nodes=[f"n{i}" for i in range(N)])
    P.guarantee = EdgeFlip(1.0).fit().guarantee_
    path = tmp_path_factory.mktemp("packed") / "g.tdadp"
    save_packed(path, P)
    return P, path.read_bytes()


def _load(tmp_path, data):
    path = tmp_path / "g.tdadp"
    path.write_bytes(data)
    try:
        return load_packed(path)
    except ValueError as exc:
        message = str(exc)
        assert len(message) < 600 and "\n" not in message, message
        return None


def _check_valid(Q):
    """A loaded graph is a simple graph whatever its file said."""
    assert unused_bits(Q.words, Q.n) == 0
    assert int(Q.degrees().sum()) == 2 * Q.count_edges()
    assert Q.nodes is None or len(Q.nodes) == Q.n


@FUZZ
@given(field=st.sampled_from(packed_file._FIELDS), value=st.sampled_from(BAD_VALUES))
def test_every_header_field_with_bad_values(original, tmp_path, field, value):
    P, data = original
    magic_end, header_end, _ = _lines(data)
    header = json.loads(data[magic_end:header_end])
    same = type(header[field]) is type(value) and header[field] == value
    header[field] = value
    Q = _load(tmp_path, _signed(data, header))
    if Q is None:
        assert not same, f"the honest {field}={value!r} refused"
        return
    _check_valid(Q)
    # accepted: the lie must have been no lie
    assert Q == P
    assert same or field in ("tdadp_version", "nodes", "guarantee"), f"{field}={value!r} accepted"
    if field == "nodes":
        assert value is None or Q.nodes == value
    if field == "guarantee":
        assert (Q.guarantee is None) == (value is None)


@FUZZ
@given(edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 63)), min_size=1,
                      max_size=4))
def test_re_signed_payloads_with_any_bits_flipped(original, tmp_path, edits):
    P, data = original
    words = P.words.copy()
    for index, bit in edits:
        words[index % words.size] ^= np.uint64(1) << np.uint64(bit)
    Q = _load(tmp_path, _signed(data, payload=words.astype("<u8").tobytes()))
    if Q is not None:  # flips inside the triangle: another simple graph, exactly that one
        _check_valid(Q)
        np.testing.assert_array_equal(Q.words, words)


@FUZZ
@given(cut=st.integers(0, 10**6), extra=st.binary(max_size=40), flip=st.integers(0, 10**6))
def test_cut_padded_or_damaged_files(original, tmp_path, cut, extra, flip):
    _, data = original
    damaged = bytearray(data[:cut % (len(data) + 1)] + extra)
    if damaged:
        damaged[flip % len(damaged)] ^= 0x10
    assert _load(tmp_path, bytes(damaged)) is None


@pytest.mark.parametrize("path", [None, 3, 1.5, b"", "", ["g"], object()])
def test_bad_paths(path):
    with pytest.raises((TypeError, ValueError)):
        load_packed(path)


def test_paths_that_are_no_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_packed(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        load_packed(tmp_path)


# --- edge lists -----------------------------------------------------------------------------

_FIELDS = ["1", "2", "3", "10", "01", "-1", "a", "b", "source", "target", "u", "v", "abc",
           "0.5", "2", "0", "nan", "inf", "-inf", "1e400", '"a b"', '"x,y"', '"', "é", "\ufeff",
           "#", "# c", "//", ";", ",", "\t", "z" * 200, "", " "]


@st.composite
def _edge_text(draw):
    lines = draw(st.lists(st.lists(st.sampled_from(_FIELDS), max_size=4), max_size=6))
    sep = draw(st.sampled_from([" ", ",", "\t", ";", "  "]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return end.join(sep.join(fields) for fields in lines) + draw(st.sampled_from(["", end]))


_OPTIONS = {
    "delimiter": ["auto", None, ",", "\t", " ", "::", "", 3, b","],
    "comments": ["#", None, "//", "", 0],
    "header": ["infer", True, False, "yes", None, 1],
    "weight_column": [2, 3, None, "weight", "w", 0, 1, -1, 2.0, True],
    "self_loops": ["error", "drop", "keep", "ignore", None],
    "weights": ["error", "binarize", "keep", True],
    "sparse": [True, False],
    "node_order": ["sorted", "first_seen", "random"],
}


@FUZZ
@given(text=_edge_text(), data=st.data())
def test_malformed_edge_lists_and_options(text, data):
    options = {k: data.draw(st.sampled_from(v), label=k)
               for k, v in _OPTIONS.items() if data.draw(st.booleans(), label=f"use {k}")}
    binary = data.draw(st.booleans(), label="binary")
    handle = io.BytesIO(text.encode()) if binary else io.StringIO(text)
    try:
        A, nodes = read_edgelist(handle, return_nodes=True, **options)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        assert len(message) < 1000, message  # at most ~80 characters of a line quoted
        return
    A = A.toarray() if hasattr(A, "toarray") else np.asarray(A)
    assert A.shape == (len(nodes), len(nodes)) and len(nodes) >= 2
    assert np.all(np.isfinite(A)) and np.array_equal(A, A.T)
    if options.get("self_loops", "error") != "keep":
        assert not A.diagonal().any()
    if options.get("weights", "error") != "keep":
        assert set(np.unique(A)) <= {0, 1}


@pytest.mark.parametrize("path", [None, 3, 1.5, "", b"", ["g"], object()])
def test_edge_list_paths(path):
    with pytest.raises((TypeError, ValueError)):
        read_edgelist(path)
