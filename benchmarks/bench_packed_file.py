"""save_packed / load_packed: an honest file at n = 20,000 and 100,000, and a lying header.

The lying file is a small honest one (70 nodes) whose header, re-signed, claims n = 10^9
nodes (with the word count that goes with it): load_packed must refuse it from the header
and the file's size alone, in milliseconds, allocating nothing for the claimed graph (it used
to build the layout of 10^9 nodes first: 7.45 GiB, then a MemoryError). The honest files hold
a random simple graph (about half the dyads); each measurement runs in a fresh process, so
that its peak memory (VmHWM) is its own: the save's includes the graph it saves, the load's
is what loading takes.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile

from benchmarks._common import machine, measure_in_child

SIZES = (20_000, 100_000)
LIE_N = 10**9


def _random_packed(n, seed=0):
    """A random simple graph at one bit per dyad: random words, unused bits cleared."""
    import numpy as np

    from tdadp.graphs import PackedAdjacency

    P = PackedAdjacency(n)
    rng = np.random.default_rng(seed)
    step = 1 << 24
    for a in range(0, P.words.size, step):
        part = P.words[a:a + step]
        part[:] = rng.integers(0, 2**64, size=part.size, dtype=np.uint64)
    # clear each row's bits on and below the diagonal, and the padding past column n
    W = P.n_words_per_row
    first = P.offsets[:-1][P.first_word < W]
    rows = np.arange(n)[P.first_word < W]
    low = (rows - 64 * P.first_word[P.first_word < W] + 1).astype(np.uint64)
    P.words[first] &= ~((np.uint64(1) << low) - np.uint64(1))
    if n % 64:
        last = P.offsets[1:][P.first_word < W] - 1
        P.words[last] &= np.uint64((1 << (n % 64)) - 1)
    return P


def _lying_file(folder):
    import hashlib

    from tdadp.graphs import PackedAdjacency
    from tdadp.io import save_packed
    from tdadp.io._packed_file import n_words

    path = os.path.join(folder, "lie.tdadp")
    save_packed(path, PackedAdjacency.from_edges(70, [0, 1], [1, 2]))
    with open(path, "rb") as fh:
        magic, line, _ = fh.readline(), fh.readline(), fh.readline()
        payload = fh.read()
    header = json.loads(line)
    header.update(n=LIE_N, n_words=n_words(LIE_N))
    line = json.dumps(header).encode()
    with open(path, "wb") as fh:
        fh.write(magic + line + b"\n" + hashlib.sha256(line).hexdigest().encode() + b"\n"
                 + payload)
    return path


def _child(case, n, path):
    import time
    import tracemalloc

    from benchmarks._common import best_of, peak_rss_gib
    from tdadp.io import load_packed, save_packed

    n = int(n)
    out = {}
    if case == "lie":
        path = _lying_file(path)
        tracemalloc.start()
        best = float("inf")
        for _ in range(20):
            start = time.perf_counter()
            try:
                load_packed(path)
            except ValueError as exc:
                out["message"] = str(exc).split(": ", 1)[1]
            best = min(best, time.perf_counter() - start)
        out["load_s"] = best
        out["traced_mib"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    elif case == "save":
        P = _random_packed(n)
        out["edges"] = P.count_edges()
        _, out["save_s"] = best_of(save_packed, path, P, repeat=1)
        out["file_mib"] = os.path.getsize(path) / 2**20
    else:
        Q, out["load_s"] = best_of(load_packed, path, repeat=1)
        out["edges"] = Q.count_edges()
    out["peak_gib"] = peak_rss_gib()
    print(json.dumps(out))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 20,000 only")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(*args.child)
        return
    print(f"# packed files: save and load (one run each, fresh process each); machine: "
          f"{machine()}")
    with tempfile.TemporaryDirectory() as folder:
        r = measure_in_child("benchmarks.bench_packed_file", "lie", LIE_N, folder)
        if "error" in r:
            print(f"lying header (n = 1e9): failed: {r['error']}")
        else:
            print(f"lying header (n = 1e9, 70-node file): refused in "
                  f"{1e3 * r['load_s']:.2f} ms (best of 20), {r['traced_mib']:.3f} MiB "
                  f"allocated at most (tracemalloc), process peak {r['peak_gib']:.3f} GiB\n"
                  f"  {r['message']}")
        print(f"{'n':>8} {'edges':>14} {'file MiB':>9} {'save s':>7} {'save peak GiB':>14} "
              f"{'load s':>7} {'load peak GiB':>14}")
        for n in SIZES[:1] if args.quick else SIZES:
            path = os.path.join(folder, f"g{n}.tdadp")
            s = measure_in_child("benchmarks.bench_packed_file", "save", n, path)
            if "error" in s:
                print(f"{n:>8}   save failed: {s['error']}")
                continue
            ld = measure_in_child("benchmarks.bench_packed_file", "load", n, path)
            if "error" in ld:
                print(f"{n:>8}   load failed: {ld['error']}")
                continue
            assert ld["edges"] == s["edges"]
            print(f"{n:>8} {s['edges']:>14,} {s['file_mib']:>9.1f} {s['save_s']:>7.2f} "
                  f"{s['peak_gib']:>14.2f} {ld['load_s']:>7.2f} {ld['peak_gib']:>14.2f}",
                  flush=True)
            os.unlink(path)


if __name__ == "__main__":
    main()
