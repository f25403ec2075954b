"""Random streams: reproducible experiment streams and release-grade secure streams.

Every random stage accepts ``random_state`` as None, an int, a :class:`numpy.random.Generator`
or a :class:`numpy.random.SeedSequence`; mechanisms also accept ``"secure"``.

Each item of a batch gets its own stream, derived from ``SeedSequence`` spawn keys
``(stage_tag, item_key)``. The stream of an item therefore depends only on the seed, the stage
and the item's position (or replicate id), never on the order, thread, process or machine it is
computed on. The stage tag keeps two stages given the same integer seed from sharing a stream.

``"secure"`` gives each item a :class:`ChaCha20Random`: the ChaCha20 keystream under a fresh
256-bit key read from ``os.urandom``, one key per release. Its streams have the shape of the
seeded ones (a stream per item, spawned streams per row block) but are never reproducible.
"""

from __future__ import annotations

import numbers
import os
import threading
import zlib

import numpy as np
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

__all__ = [
    "SECURE",
    "OSRandom",
    "ChaCha20Random",
    "item_streams",
    "stage_tag",
    "check_random_state",
    "validate_random_state",
    "block_streams",
]

#: Value of ``random_state`` asking for release-grade randomness (:class:`ChaCha20Random`).
SECURE = "secure"

# 2^-53: a 53-bit integer times this is a double on the grid k 2^-53 in [0, 1), exactly.
_UNIT = 1.0 / 9007199254740992.0
# Words drawn and converted at a time by ``random``: 512 KiB, which stays in cache.
_CHUNK_WORDS = 1 << 16


class OSRandom:
    """Release-grade randomness read straight from the operating system's CSPRNG.

    numpy's bit generators (PCG64 and friends) are statistically excellent but not
    cryptographic: whoever learns the seed, or enough output, can replay every coin flip and so
    undo a privacy mechanism. Experiments want them for reproducibility; a real release must
    not. This class offers the few draws the mechanisms need, from ``os.urandom``, and cannot
    be seeded. Every draw is a system call, which makes large releases slow:
    ``random_state="secure"`` uses its subclass :class:`ChaCha20Random`, which expands one
    256-bit key from ``os.urandom`` into a keystream.

    It is also the type of every release-grade source: ``isinstance(rng, OSRandom)`` asks
    whether ``rng`` is unseeded and rooted in the OS's randomness, which both classes are.
    Both compute the draws from 64-bit words the same way, exactly; they differ only in where
    the bytes come from (``_fill``) and in how they spawn streams.
    """

    def _fill(self, buf):
        """Write random bytes over the writable byte buffer ``buf``."""
        buf[:] = os.urandom(len(buf))

    def _words(self, count):
        """``count`` random uint64 words (a fresh, writable array)."""
        out = np.empty(count, dtype=np.uint64)
        if count:
            self._fill(memoryview(out).cast("B"))
        return out

    def random(self, size=None):
        """Uniform floats on [0, 1) with 53 random bits each.

        Each is ``k 2^-53`` for the top 53 bits ``k`` of a word: exactly uniform on that grid,
        as numpy's ``Generator.random`` is.
        """
        shape = () if size is None else size
        count = int(np.prod(shape, dtype=np.int64))
        out = np.empty(count, dtype=np.float64)
        # A chunk of words at a time, converted while it is still in cache. The shifted words
        # are below 2^53: as int64 they convert to doubles exactly (and faster than uint64).
        for a in range(0, count, _CHUNK_WORDS):
            words = self._words(min(_CHUNK_WORDS, count - a))
            words >>= np.uint64(11)
            np.multiply(words.view(np.int64), _UNIT, out=out[a:a + words.size])
        return out.reshape(shape) if size is not None else float(out[0])

    def bytes(self, length):
        """``length`` random bytes."""
        buf = bytearray(int(length))
        if buf:
            self._fill(memoryview(buf))
        return bytes(buf)

    def integers(self, low, high=None, size=None):
        """Uniform integers on ``[low, high)`` (``[0, low)`` when ``high`` is None), exactly.

        Bounds may be arrays (broadcast against ``size``) of values up to 2^63. Each draw is a
        64-bit word kept only below the largest multiple of the range, so every value is
        exactly equally likely (no modulo bias), as numpy's bounded integers are.
        """
        if high is None:
            low, high = 0, low
        low = np.asarray(low, dtype=np.int64)
        span = np.asarray(high, dtype=np.int64) - low
        if np.any(span <= 0):
            raise ValueError("integers: high must be greater than low.")
        size = () if size is None else tuple(int(k) for k in np.atleast_1d(size))
        shape = np.broadcast_shapes(low.shape, span.shape, size)
        if span.ndim == 0:
            out = self._below(int(span), int(np.prod(shape, dtype=np.int64)))
        else:
            span = np.broadcast_to(span, shape).astype(np.uint64).ravel()
            limit = (np.uint64(2**64 - 1) // span) * span  # accept words below this multiple
            out = np.empty(span.size, dtype=np.uint64)
            todo = np.arange(span.size)
            while todo.size:
                words = self._words(todo.size)
                ok = words < limit[todo]
                out[todo[ok]] = words[ok] % span[todo[ok]]
                todo = todo[~ok]
        out = out.astype(np.int64).reshape(shape) + low
        return out if shape else int(out)

    def _below(self, span, count):
        """``count`` uniform uint64 on ``[0, span)``: one range for all, the common case
        (the exact samplers draw with scalar bounds), in scalar arithmetic."""
        limit = np.uint64((2**64 - 1) // span * span)  # accept words below this multiple
        out = self._words(count)
        # A word is rejected with probability below span / 2^64: almost never.
        redo = np.flatnonzero(out >= limit)
        while redo.size:
            words = self._words(redo.size)
            out[redo] = words
            redo = redo[words >= limit]
        out %= np.uint64(span)
        return out

    def spawn(self, n_children):
        """``n_children`` independent sources (one per row block, say): here fresh ones."""
        return [OSRandom() for _ in range(int(n_children))]

    def __repr__(self):
        return "OSRandom()"


# Keystream bytes under one (key, nonce) pair: ChaCha20's block counter has 32 bits, 2^32
# blocks of 64 bytes. A stream moves to its next nonce before the counter could wrap, whatever
# the library does at the wrap (OpenSSL carries into the nonce's first word, which here is the
# segment number: the next segment's keystream would be drawn twice).
_SEGMENT_BYTES = 64 << 32
# Zeros encrypted into keystream, a chunk at a time (no allocation per draw).
_ZEROS = memoryview(bytes(1 << 20))

# Forks of this process so far, as this process counts them. A stream inherited through
# fork() sees a key made in another generation and re-keys before its next draw, so parent
# and child never draw the same coins.
_fork_generation = 0


def _after_fork_in_child():
    global _fork_generation
    _fork_generation += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class _Key:
    """A fresh 256-bit key from ``os.urandom``, shared by a stream and the streams spawned
    from it, and the next free stream id under it (stream ids are never handed out twice)."""

    def __init__(self):
        self.secret = os.urandom(32)
        self.generation = _fork_generation
        self._next = 1  # stream 0 is the generator the key was made for
        self._lock = threading.Lock()

    def take(self, count):
        """The first of ``count`` stream ids no other stream under this key has."""
        with self._lock:
            first = self._next
            self._next += count
        return first


class ChaCha20Random(OSRandom):
    """The release-grade generator: ChaCha20 keystream under a fresh key from ``os.urandom``.

    What ``random_state="secure"`` draws every coin from. It offers :class:`OSRandom`'s draws
    (53-bit uniforms, exact bounded integers by rejection, bytes), computed the same way from
    64-bit words of keystream instead of system calls, so a large release costs about what a
    seeded one does. It cannot be seeded.

    Construction (why it is safe):

    - **Key**: 256 bits read from ``os.urandom`` when the generator is made; there is one
      generator, hence one key, per release (:func:`item_streams` makes one per item of each
      call). The key stays in this object: it is never printed, pickled or reused.
    - **Keystream**: the ChaCha20 encryption (RFC 8439, through the ``cryptography``
      library's OpenSSL) of zero bytes. The 16-byte ChaCha20 input is a 32-bit block counter
      starting at 0, then a 32-bit segment number and a 64-bit stream id. The stream id is
      unique under the key: the generator is stream 0 and :meth:`spawn` hands its children
      (one per row block of a packed release) ids nobody under that key had, so blocks draw
      independently, on any thread and in any order. A stream moves to its next segment
      after 2^32 blocks (256 GiB) instead of letting the counter wrap. No (key, nonce,
      counter) triple is ever used twice.
    - **Copies**: a copy, a pickle (sent to a worker process, say) or a forked child
      re-keys from ``os.urandom`` before it draws, so the key never leaves the process and
      no two consumers share coins.
    - **What an attacker must break**: with the key secret and no (key, nonce) reused, the
      keystream cannot be told from uniform random bytes unless ChaCha20 is broken as a
      pseudorandom function (of its key, nonce and counter; 20 rounds), for which no attack
      better than trying the 2^256 keys is known. So knowing some coins (the flips of dyads
      an attacker already knows, read off the published graph) tells nothing about the
      others, and the release has the law the guarantee assumes up to that distinguishing
      advantage. Not covered, as with any generator: an attacker who can read this process's
      memory (the key) during the release, or a broken ``os.urandom``.

    Examples
    --------
    >>> from tdadp.utils import ChaCha20Random
    >>> rng = ChaCha20Random()
    >>> x = rng.random(4)
    >>> bool(((0 <= x) & (x < 1)).all()), bool((x * 2**53 == (x * 2**53).round()).all())
    (True, True)
    >>> 0 <= rng.integers(10) < 10
    True
    """

    def __init__(self, *seed):
        if seed:
            raise TypeError("ChaCha20Random cannot be seeded: its key comes from os.urandom "
                            "(for reproducible experiments pass an int random_state).")
        self._lock = threading.Lock()
        self._attach(_Key(), 0)

    @classmethod
    def _stream_of(cls, key, stream):
        out = object.__new__(cls)
        out._lock = threading.Lock()
        out._attach(key, stream)
        return out

    def _attach(self, key, stream):
        """Draw from stream ``stream`` under ``key``, from its start."""
        self._key = key
        self._stream = stream
        self._segment = 0
        self._cipher = None
        self._left = 0  # keystream bytes the current segment still has

    def _next_segment(self):
        nonce = (bytes(4) + self._segment.to_bytes(4, "little")
                 + self._stream.to_bytes(8, "little"))
        self._cipher = Cipher(algorithms.ChaCha20(self._key.secret, nonce),
                              mode=None).encryptor()
        self._segment += 1
        self._left = _SEGMENT_BYTES

    def _fill(self, buf):
        # The lock keeps a stream's position consistent if threads share it; blocks of a
        # packed release each have their own stream, so it is never contended there.
        with self._lock:
            if self._key.generation != _fork_generation:
                self._attach(_Key(), 0)  # inherited through fork(): a fresh key
            done, n = 0, len(buf)
            while done < n:
                if not self._left:
                    self._next_segment()
                k = min(n - done, self._left, len(_ZEROS))
                self._cipher.update_into(_ZEROS[:k], buf[done:done + k])
                done += k
                self._left -= k

    def spawn(self, n_children):
        """``n_children`` independent streams under this generator's key.

        Each has its own stream id (nonce), never handed out before under this key, so each
        child's keystream is independent of every other stream's. For the row blocks of one
        release.

        Returns
        -------
        list of ChaCha20Random
        """
        n_children = int(n_children)
        if n_children < 0:
            raise ValueError(f"spawn: n_children must be non-negative, got {n_children}.")
        first = self._key.take(n_children)
        return [ChaCha20Random._stream_of(self._key, first + k) for k in range(n_children)]

    def __reduce__(self):
        # A copy or pickle is a new generator with a new key: the key never travels, and two
        # copies never draw the same coins.
        return (ChaCha20Random, ())

    def __repr__(self):
        return "ChaCha20Random()"


def stage_tag(name: str) -> int:
    """A stable integer identifying a stage in spawn keys."""
    return zlib.crc32(name.encode("utf-8"))


def validate_random_state(random_state, allow_secure=False):
    """Raise a ValueError unless ``random_state`` is an accepted value."""
    if random_state is None or isinstance(
        random_state, (np.random.Generator, np.random.SeedSequence)
    ):
        return
    if isinstance(random_state, str):
        if random_state == SECURE and allow_secure:
            return
        allowed = "None, an int, a numpy Generator or SeedSequence"
        if allow_secure:
            allowed += ", or 'secure'"
        raise ValueError(f"random_state={random_state!r} is not valid: use {allowed}.")
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be a non-negative int, got {random_state}.")
        return
    if isinstance(random_state, np.random.RandomState):
        raise ValueError(
            "random_state is a legacy numpy RandomState: pass an int seed or a "
            "numpy.random.Generator (np.random.default_rng(seed))."
        )
    raise ValueError(
        f"random_state of type {type(random_state).__name__} is not valid: use None, an int, "
        "a numpy Generator or SeedSequence" + (", or 'secure'." if allow_secure else ".")
    )


def _root(random_state):
    """(entropy, spawn_key) of the root SeedSequence for ``random_state``."""
    if random_state is None:
        return np.random.SeedSequence().entropy, ()
    if isinstance(random_state, np.random.SeedSequence):
        return random_state.entropy, tuple(random_state.spawn_key)
    if isinstance(random_state, np.random.Generator):
        # Drawing the entropy advances the generator, as sklearn does with RandomState inputs:
        # two calls with the same Generator give different (but reproducible) results.
        words = random_state.integers(0, 2**63, size=4, dtype=np.int64)
        return [int(w) for w in words], ()
    return int(random_state), ()


def item_streams(random_state, keys, tag, *, allow_secure=False):
    """One independent random source per item key.

    Parameters
    ----------
    random_state : None, int, numpy.random.Generator, numpy.random.SeedSequence or "secure"
        The stage's ``random_state``.
    keys : sequence of int
        One non-negative integer per item (its batch position or replicate id).
    tag : int
        The stage tag (see :func:`stage_tag`).
    allow_secure : bool
        Whether ``"secure"`` is accepted.

    Returns
    -------
    list of numpy.random.Generator or ChaCha20Random
        With "secure", one :class:`ChaCha20Random` per item, each with its own fresh key:
        each item is one release.
    """
    validate_random_state(random_state, allow_secure)
    if isinstance(random_state, str):
        return [ChaCha20Random() for _ in keys]
    entropy, base_key = _root(random_state)
    out = []
    for key in keys:
        if not isinstance(key, numbers.Integral) or key < 0:
            raise ValueError(f"replicate ids must be non-negative integers, got {key!r}.")
        seq = np.random.SeedSequence(entropy, spawn_key=base_key + (tag, int(key)))
        out.append(np.random.default_rng(seq))
    return out


def check_random_state(random_state, tag=0, *, allow_secure=False):
    """A single random source for ``random_state``.

    A Generator (or an OSRandom, such as a ChaCha20Random) is used as it is; anything else
    gives the stream of item key 0 of :func:`item_streams`, so a function called with
    ``random_state=seed`` reproduces item 0 of the matching estimator's batch.
    """
    if isinstance(random_state, (np.random.Generator, OSRandom)):
        return random_state
    return item_streams(random_state, [0], tag, allow_secure=allow_secure)[0]


def block_streams(rng, n_blocks):
    """Independent streams for the row blocks of one graph, from that graph's stream ``rng``.

    A graph worked on block by block (packed releases, Dask workers) draws each block's coins
    from its own stream, spawned from entropy drawn once from ``rng``: block ``b`` gets the
    same coins whichever process, thread or worker computes it, and in whatever order.
    A :class:`ChaCha20Random` gives each block its own stream (nonce) under the release's key
    (:meth:`ChaCha20Random.spawn`): blocks draw independently, in parallel, never
    reproducibly; a plain ``OSRandom`` gives OS randomness to every block.

    Parameters
    ----------
    rng : numpy.random.Generator or OSRandom
    n_blocks : int

    Returns
    -------
    list of numpy.random.Generator or OSRandom
    """
    if isinstance(rng, OSRandom):
        return rng.spawn(n_blocks)
    entropy = [int(w) for w in rng.integers(0, 2**63, size=4, dtype=np.int64)]
    return [np.random.default_rng(s) for s in np.random.SeedSequence(entropy).spawn(n_blocks)]
