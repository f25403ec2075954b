"""save_packed / load_packed: exact round trips, and every corruption refused clearly."""

import json

import numpy as np
import pytest

from tdadp import EdgeFlip, PackedAdjacency, load_packed, save_packed
from tdadp.dp import compose


@pytest.fixture
def release(tmp_path):
    rng = np.random.default_rng(0)
    U = np.triu(rng.integers(0, 2, (130, 130)), 1).astype(np.uint8)
    names = [f"person {i}" for i in range(130)]
    P = PackedAdjacency.from_dense(U + U.T, nodes=names)
    B = EdgeFlip(1.5, random_state=1, output="packed").fit_transform(P)
    path = tmp_path / "release.tdadp"
    save_packed(path, B)
    return B, path


def test_round_trip_is_exact(release, tmp_path):
    B, path = release
    C = load_packed(path)
    assert C == B and C.nodes == B.nodes and C.guarantee == B.guarantee
    assert C.guarantee.flip_probability == EdgeFlip(1.5).fit().flip_probability_
    # A composed guarantee and no node names survive too; an infinite epsilon as well.
    P = PackedAdjacency(70)
    P.guarantee = compose([EdgeFlip(1.0), EdgeFlip(np.inf)])
    save_packed(tmp_path / "g.tdadp", P)
    Q = load_packed(tmp_path / "g.tdadp")
    assert Q == P and Q.guarantee == P.guarantee and Q.nodes is None


def _rewrite(path, mutate):
    data = bytearray(path.read_bytes())
    path.write_bytes(bytes(mutate(data)))


def _header_edit(key, value):
    def mutate(data):
        magic_end = data.index(b"\n") + 1
        line_end = data.index(b"\n", magic_end) + 1
        header = json.loads(data[magic_end:line_end])
        header[key] = value
        return data[:magic_end] + json.dumps(header).encode() + b"\n" + data[line_end:]
    return mutate


def _flip_last_byte(data):
    data[-1] ^= 0x01
    return data


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d[:-9], "truncated"),
    (lambda d: d + b"x", "bytes follow the payload"),
    (_flip_last_byte, "checksum does not match"),
    (lambda d: b"NOT-A-GRAPH" + d[18:], "not a tdadp packed graph"),
    (_header_edit("format", 99), "format 99 is not one this tdadp reads"),
    (_header_edit("n", 131), "word count does not match 131 nodes"),
    (_header_edit("guarantee", {"wrong": 1}), "not a tdadp PrivacyGuarantee"),
    (lambda d: d[:30] + b"{" + d[31:], "header is not valid JSON"),
])
def test_corrupted_files_are_refused_with_a_clear_error(release, mutate, message):
    _, path = release
    _rewrite(path, mutate)
    with pytest.raises(ValueError, match=message):
        load_packed(path)


def test_what_cannot_be_saved_is_refused(tmp_path):
    P = PackedAdjacency(3, nodes=[object(), 1, 2])
    with pytest.raises(ValueError, match="JSON values"):
        save_packed(tmp_path / "x", P)
    with pytest.raises(ValueError, match="writes a PackedAdjacency"):
        save_packed(tmp_path / "x", np.zeros((3, 3), np.uint8))
