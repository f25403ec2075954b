"""Random streams: reproducible experiment streams and release-grade OS randomness.

Every random stage accepts ``random_state`` as None, an int, a :class:`numpy.random.Generator`
or a :class:`numpy.random.SeedSequence`; mechanisms also accept ``"secure"``.

Each item of a batch gets its own stream, derived from ``SeedSequence`` spawn keys
``(stage_tag, item_key)``. The stream of an item therefore depends only on the seed, the stage
and the item's position (or replicate id), never on the order, thread, process or machine it is
computed on. The stage tag keeps two stages given the same integer seed from sharing a stream.
"""

from __future__ import annotations

import numbers
import os
import zlib

import numpy as np

__all__ = [
    "SECURE",
    "OSRandom",
    "item_streams",
    "stage_tag",
    "check_random_state",
    "validate_random_state",
    "block_streams",
]

#: Value of ``random_state`` asking for the operating system's CSPRNG.
SECURE = "secure"


class OSRandom:
    """Release-grade randomness drawn from the operating system's CSPRNG (``os.urandom``).

    numpy's bit generators (PCG64 and friends) are statistically excellent but not
    cryptographic: whoever learns the seed, or enough output, can replay every coin flip and so
    undo a privacy mechanism. Experiments want them for reproducibility; a real release must
    not. This class offers the few draws the mechanisms need, from ``os.urandom``, and cannot
    be seeded.
    """

    def random(self, size=None):
        """Uniform floats on [0, 1) with 53 random bits each."""
        shape = () if size is None else size
        count = int(np.prod(shape, dtype=np.int64))
        words = np.frombuffer(os.urandom(8 * count), dtype=np.uint64)
        out = (words >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
        return out.reshape(shape) if size is not None else float(out[0])

    def bytes(self, length):
        """``length`` random bytes."""
        return os.urandom(int(length))

    def integers(self, low, high=None, size=None):
        """Uniform integers on ``[low, high)`` (``[0, low)`` when ``high`` is None), exactly.

        Bounds may be arrays (broadcast against ``size``) of values up to 2^63. Each draw is a
        64-bit CSPRNG word kept only below the largest multiple of the range, so every value is
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
        span = np.broadcast_to(span, shape).astype(np.uint64).ravel()
        limit = (np.uint64(2**64 - 1) // span) * span  # accept words below this multiple
        out = np.empty(span.size, dtype=np.uint64)
        todo = np.arange(span.size)
        while todo.size:
            words = np.frombuffer(os.urandom(8 * todo.size), dtype=np.uint64)
            ok = words < limit[todo]
            out[todo[ok]] = words[ok] % span[todo[ok]]
            todo = todo[~ok]
        out = out.astype(np.int64).reshape(shape) + low
        return out if shape else int(out)

    def __repr__(self):
        return "OSRandom()"


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
        Whether ``"secure"`` (OS CSPRNG) is accepted.

    Returns
    -------
    list of numpy.random.Generator or OSRandom
    """
    validate_random_state(random_state, allow_secure)
    if isinstance(random_state, str):
        return [OSRandom() for _ in keys]
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

    A Generator (or OSRandom) is used as it is; anything else gives the stream of item key 0
    of :func:`item_streams`, so a function called with ``random_state=seed`` reproduces item
    0 of the matching estimator's batch.
    """
    if isinstance(random_state, (np.random.Generator, OSRandom)):
        return random_state
    return item_streams(random_state, [0], tag, allow_secure=allow_secure)[0]


def block_streams(rng, n_blocks):
    """Independent streams for the row blocks of one graph, from that graph's stream ``rng``.

    A graph worked on block by block (packed releases, Dask workers) draws each block's coins
    from its own stream, spawned from entropy drawn once from ``rng``: block ``b`` gets the
    same coins whichever process, thread or worker computes it, and in whatever order.
    ``OSRandom`` gives OS randomness to every block.

    Parameters
    ----------
    rng : numpy.random.Generator or OSRandom
    n_blocks : int

    Returns
    -------
    list of numpy.random.Generator or OSRandom
    """
    if isinstance(rng, OSRandom):
        return [OSRandom() for _ in range(n_blocks)]
    entropy = [int(w) for w in rng.integers(0, 2**63, size=4, dtype=np.int64)]
    return [np.random.default_rng(s) for s in np.random.SeedSequence(entropy).spawn(n_blocks)]
