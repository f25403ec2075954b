"""The generator of ``random_state="secure"``: ChaCha20 keystream under a key from os.urandom.

What it must be: the keystream ChaCha20 gives for the nonces the docstring states (a known
answer from RFC 8439, so the construction is the one described), never the same coins twice
(two generators, two spawned streams, copies, pickles, forks), never seedable, and exact: 53-bit
uniforms on the grid ``k 2^-53`` and bounded integers without modulo bias.
"""

import copy
import os
import pickle
import threading

import numpy as np
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from scipy import stats

import tdadp.utils._random as random_module
from tdadp.utils import (
    ChaCha20Random,
    OSRandom,
    block_streams,
    check_random_state,
    item_streams,
    stage_tag,
)

P_MIN = 1e-6  # the draws are unseeded: a test fails by chance about once in a million runs

# RFC 8439, appendix A.1, test vectors 1 and 2: the ChaCha20 blocks 0 and 1 of the all-zero
# key and nonce.
RFC8439_ZERO_KEY_BLOCKS_0_1 = bytes.fromhex(
    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
    "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
    "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
    "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f")


def _fixed_key(monkeypatch, key):
    """os.urandom returns ``key`` (32 bytes) for the key a generator reads."""
    monkeypatch.setattr(os, "urandom", lambda n: key[:n])


def _keystream(key, segment, stream, nbytes):
    nonce = bytes(4) + segment.to_bytes(4, "little") + stream.to_bytes(8, "little")
    return Cipher(algorithms.ChaCha20(key, nonce), mode=None).encryptor().update(bytes(nbytes))


def test_the_stream_is_rfc8439_chacha20_of_the_key_from_os_urandom(monkeypatch):
    _fixed_key(monkeypatch, bytes(32))
    assert ChaCha20Random().bytes(128) == RFC8439_ZERO_KEY_BLOCKS_0_1
    # Draws continue the keystream, whatever their sizes and kinds.
    rng = ChaCha20Random()
    parts = rng.bytes(5) + rng._words(3).tobytes() + rng.bytes(99)
    assert parts == RFC8439_ZERO_KEY_BLOCKS_0_1


def test_spawned_streams_and_segments_use_the_documented_nonces(monkeypatch):
    key = bytes(range(32))
    _fixed_key(monkeypatch, key)
    rng = ChaCha20Random()
    children = rng.spawn(3)
    grandchildren = children[0].spawn(2)
    # Stream ids: the generator 0, then its spawned streams in the order they were asked for,
    # whoever asked (one counter per key: ids are never handed out twice).
    for stream, g in enumerate([rng, *children, *grandchildren]):
        assert g.bytes(100) == _keystream(key, 0, stream, 100)
    # A stream moves to its next nonce (segment) instead of letting the block counter wrap.
    monkeypatch.setattr(random_module, "_SEGMENT_BYTES", 128)
    fresh = ChaCha20Random()
    expected = b"".join(_keystream(key, segment, 0, 128) for segment in range(3))
    assert fresh.bytes(300) == expected[:300]


def test_two_secure_draws_differ():
    a, b = ChaCha20Random(), ChaCha20Random()
    assert a.bytes(32) != b.bytes(32)
    assert not np.array_equal(a.random(1000), b.random(1000))
    assert not np.array_equal(a.random(1000), a.random(1000))
    # Every item of a "secure" batch is a release with its own key.
    s = item_streams("secure", range(3), stage_tag("EdgeFlip"), allow_secure=True)
    assert all(type(g) is ChaCha20Random for g in s)
    assert len({g.bytes(32) for g in s}) == 3
    assert len({g.bytes(32) for g in block_streams(s[0], 4)}) == 4


def test_it_cannot_be_seeded():
    with pytest.raises(TypeError, match="cannot be seeded"):
        ChaCha20Random(0)
    with pytest.raises(TypeError, match="cannot be seeded"):
        ChaCha20Random(np.random.SeedSequence(0))
    assert not hasattr(ChaCha20Random, "seed")
    # "secure" is the only way in, and it never takes a seed.
    with pytest.raises(ValueError, match="not valid"):
        check_random_state("secure")
    rng = check_random_state("secure", allow_secure=True)
    assert isinstance(rng, ChaCha20Random) and isinstance(rng, OSRandom)
    assert check_random_state(rng) is rng


@pytest.mark.parametrize("make_copy", [copy.copy, copy.deepcopy,
                                       lambda g: pickle.loads(pickle.dumps(g))])
def test_a_copy_has_a_new_key_and_never_the_same_coins(make_copy):
    rng = ChaCha20Random()
    rng.bytes(10)
    twin = make_copy(rng)
    assert isinstance(twin, ChaCha20Random)
    assert twin.bytes(64) != rng.bytes(64)
    assert rng._key.secret not in pickle.dumps(rng)
    assert repr(rng) == "ChaCha20Random()"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_draws_other_coins_than_its_parent():
    rng = ChaCha20Random()
    rng.bytes(10)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next coins, to the parent
        try:
            os.write(write, rng.bytes(32))
        finally:
            os._exit(0)
    os.close(write)
    child = os.read(read, 32)
    os.close(read)
    os.waitpid(pid, 0)
    assert len(child) == 32 and child != rng.bytes(32)


def test_threads_sharing_a_stream_never_get_the_same_words():
    rng = ChaCha20Random()
    out = [None] * 4

    def draw(k):
        out[k] = np.concatenate([rng._words(1000) for _ in range(50)])

    threads = [threading.Thread(target=draw, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    words = np.concatenate(out)
    assert np.unique(words).size == words.size  # 64-bit words: a repeat means reused keystream


def test_uniforms_have_53_random_bits_on_the_grid():
    rng = ChaCha20Random()
    x = rng.random((400, 500))
    assert x.shape == (400, 500) and x.dtype == np.float64
    assert ((x >= 0) & (x < 1)).all()
    k = x * 2.0 ** 53
    assert (k == np.floor(k)).all()  # on the grid k 2^-53
    assert stats.kstest(x.ravel(), "uniform").pvalue > P_MIN
    # The lowest of the 53 bits is as random as the others (a 52-bit draw would leave it 0).
    low = int((k.astype(np.int64) & 1).sum())
    assert stats.binomtest(low, x.size, 0.5).pvalue > P_MIN
    assert isinstance(rng.random(), float)
    assert rng.random(0).shape == (0,)


def test_bounded_integers_are_exact_without_modulo_bias():
    rng = ChaCha20Random()
    x = rng.integers(0, 7, size=140_000)
    assert x.min() == 0 and x.max() == 6
    assert stats.chisquare(np.bincount(x, minlength=7)).pvalue > P_MIN
    # A range of 3 2^61: a 64-bit word reduced modulo it (no rejection) falls below 2^62 with
    # probability 3/4, not 2/3.
    span = 3 << 61
    y = rng.integers(0, span, size=20_000)
    assert y.min() >= 0 and y.max() < span
    below = int((y < (1 << 62)).sum())
    assert stats.binomtest(below, y.size, 2 / 3).pvalue > P_MIN
    z = rng.integers(np.array([-5, 0, 10]), np.array([-4, 2 ** 62, 2 ** 63 - 1]), size=(2, 3))
    assert z.shape == (2, 3) and (z[:, 0] == -5).all()
    assert isinstance(rng.integers(5), int)
    with pytest.raises(ValueError, match="high must be greater"):
        rng.integers(3, 3)
