"""Extract tests/data/mouse_connectomes.npz from the mouse connectomes that graspologic ships.

Run it once, in a throwaway virtualenv that has graspologic (it pins an older numpy, so it
cannot live in tdadp's environment)::

    python3 -m venv /tmp/gvenv && /tmp/gvenv/bin/pip install graspologic==3.4.4
    /tmp/gvenv/bin/python tests/data/make_mouse_connectomes.py

graspologic is imported inside ``main()`` only: pytest runs ``--doctest-modules`` over
``tests/``, which imports this module, and must not need graspologic to do so.

What it writes (see README.md beside this file): for each of the 32 connectomes of
``graspologic.datasets.load_mice()``, the binarised upper triangle packed into bits, plus the
genotype, sex and subject id of each mouse and the hemisphere of each vertex.

The rule: the weighted graphs are 49-73% dense, so each graph keeps its ``KEEP`` (10%)
strongest vertex pairs, exactly ``round(KEEP * 332 * 331 / 2) = 5495`` edges; pairs tied on
weight at the cut-off are taken in row-major upper-triangle order (a stable sort), so the rule
is deterministic. The graphs are undirected (symmetric weights) with an empty diagonal
already; only the strict upper triangle is read.

The archive is written with fixed zip timestamps, so that a rerun reproduces it byte for byte
(given the same numpy ``.npy`` header format and zlib).
"""

import io
import zipfile
from pathlib import Path

import numpy as np

KEEP = 0.10  # fraction of the vertex pairs kept as edges, per graph
OUT = Path(__file__).parent / "mouse_connectomes.npz"


def top_fraction_upper(weights, keep):
    """Binary upper-triangle vector: the ``round(keep * len)`` largest weights, ties by index."""
    k = round(keep * weights.size)
    order = np.argsort(-weights, kind="stable")[:k]
    if weights[order[-1]] <= 0:
        raise ValueError("fewer positive weights than edges to keep")
    edges = np.zeros(weights.size, dtype=bool)
    edges[order] = True
    return edges


def write_npz(path, arrays):
    """``np.savez_compressed`` with fixed zip timestamps, so reruns give identical bytes."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, value in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(value), version=(1, 0),
                                      allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buf.getvalue(), compresslevel=9)


def main():
    import graspologic
    from graspologic.datasets import load_mice

    mice = load_mice()
    n = mice.meta["n_vertices"]
    iu = np.triu_indices(n, 1)
    bits = []
    for A in mice.graphs:
        if not (np.array_equal(A, A.T) and not A.diagonal().any() and (A >= 0).all()):
            raise ValueError("expected symmetric, non-negative weights with an empty diagonal")
        bits.append(np.packbits(top_fraction_upper(A[iu], KEEP)))
    participants = mice.participants
    # The hemisphere of each vertex, from the vertex ranges [i, j) of blocks.csv.
    hemisphere = np.full(n, "", dtype="<U1")
    for row in mice.blocks.itertuples():
        hemisphere[row.i:row.j] = row.hemisphere
    if (hemisphere == "").any():
        raise ValueError("blocks.csv leaves vertices without a hemisphere")
    # load_mice reads the edge lists in sorted file order and the labels in participants.csv
    # order; check that the two agree before pairing graphs with labels.
    if list(participants["participant_id"]) != sorted(participants["participant_id"]):
        raise ValueError("participants.csv is not in edge-list file order")
    write_npz(OUT, {
        "upper_bits": np.stack(bits),
        "n_nodes": np.array(n, dtype=np.int64),
        "keep_fraction": np.array(KEEP),
        "genotype": np.asarray(mice.labels, dtype=str),
        "sex": participants["sex"].to_numpy(dtype=str),
        "participant_id": participants["participant_id"].to_numpy(dtype=str),
        "hemisphere": hemisphere,
    })
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes) from graspologic {graspologic.__version__}")


if __name__ == "__main__":
    main()
