"""The analyst's command line: tdadp release / embed / cluster on your own network."""

import csv
import gzip
import io
import json
import os
import re
import shlex
from importlib import resources
from pathlib import Path

import pytest

import tdadp
from tdadp.cli import main
from tdadp.datasets import load_polblogs, load_polbooks
from tdadp.io import load_release

README = Path(__file__).resolve().parents[2] / "README.md"
SEED_WARNING = "NOT private against whoever knows the seed"


def _run(argv):
    """main(argv)'s exit code, whether it returns or raises SystemExit."""
    try:
        return main([str(a) for a in argv])
    except SystemExit as exc:
        return exc.code


@pytest.fixture(scope="module")
def polbooks():
    return load_polbooks()


def _write_edges(G, path):
    """polbooks as a CSV edge list with string node names (some holding a comma)."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["source", "target"])
        writer.writerows([f"book {u}", f"book {v}"] for u, v in G.edges())
    return sorted(f"book {v}" for v in G.nodes())


def _write_nodes(names, path):
    """The public node list of a network, one quoted name a line."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows([v] for v in names)


def _rows(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def test_version(capsys):
    assert _run(["--version"]) == 0
    assert capsys.readouterr().out == f"tdadp {tdadp.__version__}\n"


def test_every_command_has_help(capsys):
    for command in ("release", "embed", "cluster"):
        assert _run([command, "--help"]) == 0
        assert "--out" in capsys.readouterr().out


def test_release_embed_cluster_on_polbooks(polbooks, tmp_path, capsys):
    names = _write_edges(polbooks, tmp_path / "edges.csv")
    # The public node list: every book, and one that no edge names.
    (tmp_path / "nodes.csv").write_text('node\n"book nobody, alone"\n' + "\n".join(
        '"' + v.replace('"', '""') + '"' for v in names) + "\n", encoding="utf-8")
    release, embedding, labels = (tmp_path / f for f in ("release.csv", "embedding.csv",
                                                          "labels.csv"))

    assert _run(["release", tmp_path / "edges.csv", "--epsilon", "2.5", "--out", release,
                 "--nodes", tmp_path / "nodes.csv"]) == 0
    err = capsys.readouterr().err
    assert SEED_WARNING not in err  # secure coins: no seed
    summary = [line for line in err.splitlines() if line.startswith("tdadp: released")]
    assert len(summary) == 1 and "106 nodes" in summary[0] and "eps=2.5" in summary[0]
    side = json.loads((tmp_path / "release.csv.json").read_text(encoding="utf-8"))
    assert side["guarantee"]["epsilon"] == 2.5
    assert side["guarantee"]["mechanism"] == "EdgeFlip"
    assert sorted(side["nodes"]) == sorted(names + ["book nobody, alone"])

    assert _run(["embed", release, "--out", embedding]) == 0
    rows = _rows(embedding)
    d = len(rows[0]) - 1
    assert rows[0] == ["node"] + [f"x{k}" for k in range(1, d + 1)] and d >= 1
    assert [r[0] for r in rows[1:]] == side["nodes"]
    assert all(len(r) == d + 1 for r in rows[1:])
    float(rows[1][1])
    capsys.readouterr()

    assert _run(["cluster", release, "--out", labels]) == 0
    err = capsys.readouterr().err
    rows = _rows(labels)
    assert rows[0] == ["node", "cluster"]
    assert [r[0] for r in rows[1:]] == side["nodes"]  # one row per node, by name
    cluster = {r[0]: int(r[1]) for r in rows[1:]}
    linked = {v for edge in _rows(release)[1:] for v in edge}
    isolated = [v for v in side["nodes"] if v not in linked]
    # -1: degree 0 in the release, and any node the kept partition could not place, counted
    noise = [v for v, c in cluster.items() if c == -1]
    unplaced = re.search(r"(\d+) node\(s\) with an edge but no direction", err)
    assert set(isolated) <= set(noise)
    assert len(noise) - len(isolated) == (int(unplaced.group(1)) if unplaced else 0)
    found = re.search(r"(\d+) node\(s\) isolated in the release", err)
    assert (int(found.group(1)) if found else 0) == len(isolated)
    assert "cluster(s), sizes" in err
    assert "eigenvalues of the release stand above its noise" in err or (
        "no community stands out" in err and "--n-clusters" in err)

    assert _run(["cluster", release, "--out", labels, "--overwrite", "--n-clusters", "2",
                 "--n-components", "3"]) == 0
    err = capsys.readouterr().err
    kept = [c for c in (int(r[1]) for r in _rows(labels)[1:]) if c >= 0]
    assert sorted(set(kept)) == [0, 1] and "not tested" in err

    # At a large eps (flip rate 2^-53) the added node stays isolated: cluster -1.
    assert _run(["release", tmp_path / "edges.csv", "--epsilon", "40", "--out", release,
                 "--nodes", tmp_path / "nodes.csv", "--overwrite", "--seed", "5"]) == 0
    assert _run(["cluster", release, "--out", labels, "--overwrite"]) == 0
    cluster = {r[0]: int(r[1]) for r in _rows(labels)[1:]}
    assert cluster["book nobody, alone"] == -1
    assert sorted(v for v, c in cluster.items() if c >= 0) == names
    assert "1 node(s) isolated in the release" in capsys.readouterr().err

    # One clusterer by name, the same release: spherical k-means with the count given.
    assert _run(["cluster", release, "--out", labels, "--overwrite", "--clusterer",
                 "spherical", "--n-clusters", "3"]) == 0
    err = capsys.readouterr().err
    assert "with spherical (3 clusters)" in err and "3 cluster(s), sizes" in err
    assert {int(r[1]) for r in _rows(labels)[1:]} == {-1, 0, 1, 2}


def test_seed_gives_a_reproducible_release_and_warns(polbooks, tmp_path, capsys):
    _write_edges(polbooks, tmp_path / "edges.csv")
    out = []
    for k in range(2):
        path = tmp_path / f"release{k}.csv"
        assert _run(["release", tmp_path / "edges.csv", "--epsilon", "1", "--out", path,
                     "--seed", "7", "--mechanism", "laplaceflip", "--nodes-from-edges"]) == 0
        assert SEED_WARNING in capsys.readouterr().err
        out.append(path.read_bytes())
    assert out[0] == out[1]
    side = json.loads((tmp_path / "release0.csv.json").read_text(encoding="utf-8"))
    assert side["guarantee"]["mechanism"] == "LaplaceFlip"


def test_packed_release_round_trip(polbooks, tmp_path, capsys):
    _write_edges(polbooks, tmp_path / "edges.csv")
    packed = tmp_path / "release.tdadp"
    assert _run(["release", tmp_path / "edges.csv", "--epsilon", "3", "--out", packed,
                 "--seed", "1", "--nodes-from-edges"]) == 0
    assert packed.read_bytes().startswith(b"TDADP-PACKED-GRAPH\n")
    # A packed file is recognised as input by its magic bytes, whatever its name.
    renamed = tmp_path / "graph.bin"
    renamed.write_bytes(packed.read_bytes())
    assert _run(["release", renamed, "--epsilon", "3", "--out", tmp_path / "again.csv"]) == 0
    assert _run(["embed", packed, "--out", tmp_path / "emb.csv", "--n-components", "2"]) == 0
    assert len(_rows(tmp_path / "emb.csv")) == polbooks.number_of_nodes() + 1


def test_the_nodes_file_is_read_by_the_edge_lists_comment_rule(tmp_path, capsys):
    # Found on polblogs: a blog whose URL holds '#' was cut at it in the edge list (a comment)
    # and kept whole in the nodes file, so one node became two.
    edges = tmp_path / "edges.csv"
    edges.write_text("source,target\na,b\nb,page#2\n")
    nodes = tmp_path / "nodes.csv"
    nodes.write_text("node\na\nb\npage#2\nlonely\n")
    for extra, names in [([], ["a", "b", "page", "lonely"]),
                         (["--comments", "none"], ["a", "b", "page#2", "lonely"])]:
        out = tmp_path / f"release{len(extra)}.csv"
        assert _run(["release", edges, "--nodes", nodes, "--epsilon", 40, "--seed", 0,
                     "--out", out, *extra]) in (0, None)
        sidecar = json.loads(Path(f"{out}.json").read_text())
        assert sorted(sidecar["nodes"]) == sorted(names)
    capsys.readouterr()


def _bad_cases(tmp):
    edges, release = tmp / "edges.csv", tmp / "release.csv"
    return {
        "missing graph": ["release", tmp / "nope.csv", "--epsilon", "1", "--out", tmp / "r.csv"],
        "epsilon 0": ["release", edges, "--epsilon", "0", "--out", tmp / "r.csv"],
        "epsilon -1": ["release", edges, "--epsilon", "-1", "--out", tmp / "r.csv"],
        "epsilon nan": ["release", edges, "--epsilon", "nan", "--out", tmp / "r.csv"],
        "epsilon abc": ["release", edges, "--epsilon", "abc", "--out", tmp / "r.csv"],
        "epsilon inf": ["release", edges, "--epsilon", "inf", "--out", tmp / "r.csv"],
        "no epsilon": ["release", edges, "--out", tmp / "r.csv"],
        "existing out": ["release", edges, "--epsilon", "1", "--out", release],
        "out over input": ["release", edges, "--epsilon", "1", "--out", edges, "--overwrite"],
        "missing out folder": ["release", edges, "--epsilon", "1", "--out",
                               tmp / "no" / "r.csv"],
        "missing nodes": ["release", edges, "--epsilon", "1", "--out", tmp / "r.csv",
                          "--nodes", tmp / "nope.csv"],
        "bad seed": ["release", edges, "--epsilon", "1", "--out", tmp / "r.csv", "--seed",
                     "x"],
        "bad edge list": ["release", tmp / "bad.csv", "--epsilon", "1", "--out",
                          tmp / "r.csv", "--nodes-from-edges"],
        "no node set": ["release", edges, "--epsilon", "1", "--out", tmp / "r.csv"],
        "nodes and nodes from edges": ["release", edges, "--epsilon", "1", "--out",
                                       tmp / "r.csv", "--nodes", edges, "--nodes-from-edges"],
        "nodes file missing a node": ["release", edges, "--epsilon", "1", "--out",
                                      tmp / "r.csv", "--nodes", tmp / "few.csv"],
        "--nodes-from-edges for a packed file": ["release", tmp / "graph.tdadp", "--epsilon",
                                                 "1", "--out", tmp / "r.csv",
                                                 "--nodes-from-edges"],
        "bad nodes file": ["release", edges, "--epsilon", "1", "--out", tmp / "r.csv",
                           "--nodes", tmp / "bad.csv"],
        "directed edge list": ["release", tmp / "arcs.csv", "--epsilon", "1", "--out",
                               tmp / "r.csv", "--nodes-from-edges"],
        "bad --directed": ["release", tmp / "arcs.csv", "--epsilon", "1", "--out",
                           tmp / "r.csv", "--directed", "yes"],
        "--directed for a packed file": ["release", tmp / "graph.tdadp", "--epsilon", "1",
                                         "--out", tmp / "r.csv", "--directed", "mutual"],
        "missing release": ["cluster", tmp / "nope.csv", "--out", tmp / "l.csv"],
        "no sidecar": ["embed", edges, "--out", tmp / "e.csv"],
        "existing labels": ["cluster", release, "--out", tmp / "labels.csv"],
        "k-means without a count": ["cluster", release, "--out", tmp / "l.csv",
                                    "--clusterer", "kmeans"],
        "unknown clusterer": ["cluster", release, "--out", tmp / "l.csv", "--clusterer",
                              "dbscan"],
        "n-clusters 0": ["cluster", release, "--out", tmp / "l.csv", "--n-clusters", "0"],
        "n-clusters abc": ["cluster", release, "--out", tmp / "l.csv", "--n-clusters",
                           "abc"],
        "n-components -2": ["embed", release, "--out", tmp / "e.csv", "--n-components",
                            "-2"],
        "n-components too big": ["embed", release, "--out", tmp / "e.csv", "--n-components",
                                 "500"],
        "damaged release": ["cluster", tmp / "damaged.csv", "--out", tmp / "l.csv"],
    }


def test_bad_input_exits_2_with_one_line(polbooks, tmp_path, capsys):
    _write_edges(polbooks, tmp_path / "edges.csv")
    assert _run(["release", tmp_path / "edges.csv", "--epsilon", "1", "--out",
                 tmp_path / "release.csv", "--seed", "0", "--nodes-from-edges"]) == 0
    (tmp_path / "labels.csv").write_text("keep me\n")
    (tmp_path / "bad.csv").write_text("a,b,c,d\ne,f,g\n")
    (tmp_path / "arcs.csv").write_text("a,b\nb,a\nb,c\n")
    (tmp_path / "few.csv").write_text("book 0\n")
    assert _run(["release", tmp_path / "edges.csv", "--epsilon", "1", "--out",
                 tmp_path / "graph.tdadp", "--seed", "0", "--nodes-from-edges"]) == 0
    damaged = (tmp_path / "release.csv").read_text().splitlines()
    (tmp_path / "damaged.csv").write_text("\n".join(damaged[:-1]) + "\n")
    (tmp_path / "damaged.csv.json").write_text((tmp_path / "release.csv.json").read_text())
    capsys.readouterr()
    before = sorted(os.listdir(tmp_path))
    for case, argv in _bad_cases(tmp_path).items():
        assert _run(argv) == 2, case
        captured = capsys.readouterr()
        errors = [line for line in captured.err.splitlines() if "error" in line]
        assert len(errors) == 1 and errors[0].startswith("tdadp: error: "), (case, captured)
        assert captured.err.splitlines()[-1] == errors[0], case
        assert "Traceback" not in captured.err and not captured.out, case
        assert sorted(os.listdir(tmp_path)) == before, case  # nothing written
    assert (tmp_path / "labels.csv").read_text() == "keep me\n"


def _polblogs_arcs():
    """The hyperlinks of the shipped polblogs crawl (directed), self-links left out."""
    folder = resources.files("tdadp.datasets").joinpath("data")
    with folder.joinpath("polblogs_edges.csv.gz").open("rb") as raw, gzip.open(raw) as f:
        rows = list(csv.reader(io.TextIOWrapper(f, encoding="utf-8")))
    return rows[0], [r for r in rows[1:] if r[0] != r[1]]


def _write_rows(path, header, rows):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def test_directed_edge_list_needs_directed(tmp_path, capsys):
    # polblogs is a crawl of hyperlinks: 2,307 pairs of blogs link each other, 14,408 one way
    header, arcs = _polblogs_arcs()
    _write_rows(tmp_path / "arcs.csv", header, arcs)
    release = tmp_path / "release.csv"
    capsys.readouterr()
    argv = ["release", tmp_path / "arcs.csv", "--epsilon", "2", "--out", release,
            "--comments", "none", "--seed", "3", "--nodes-from-edges"]
    assert _run(argv) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("tdadp: error: ")]
    assert len(errors) == 1 and err.splitlines()[-1] == errors[0]
    assert "2307 pair(s) of nodes are linked both ways, 14408 one way only" in errors[0]
    assert "--directed symmetrize" in errors[0] and "--directed mutual" in errors[0]
    assert not release.exists()

    # symmetrised, it is the undirected graph of the shipped loader (its blogs with a link)
    assert _run(argv + ["--directed", "symmetrize"]) == 0
    assert "tdadp: released 1224 nodes" in capsys.readouterr().err
    G = load_polblogs()
    _write_rows(tmp_path / "edges.csv", ["source", "target"], G.edges())
    again = tmp_path / "again.csv"
    assert _run(["release", tmp_path / "edges.csv", "--epsilon", "2", "--out", again,
                 "--comments", "none", "--seed", "3", "--nodes-from-edges"]) == 0
    assert release.read_bytes() == again.read_bytes()

    # mutual: only the reciprocated pairs (at eps = 36.7 and up, about no flip at all)
    mutual = tmp_path / "mutual.csv"
    assert _run(argv[:3] + ["60", "--out", mutual, "--comments", "none", "--seed", "3",
                            "--directed", "mutual", "--nodes-from-edges"]) == 0
    R = load_release(mutual)
    assert R.nnz // 2 == 2307


def _readme_section():
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Your own network\n")
    end = text.index("\n## ", start + 1)
    section = text[start:end]
    python = re.findall(r"```python\n(.*?)```", section, re.S)
    shell = re.findall(r"```(?:sh|bash|console)\n(.*?)```", section, re.S)
    assert len(python) == 1 and len(shell) == 1
    commands = [shlex.split(line)[1:] for line in shell[0].splitlines()
                if line.startswith("tdadp ")]
    return python[0], commands


def test_readme_your_own_network_runs(polbooks, tmp_path, monkeypatch, capsys):
    code, commands = _readme_section()
    assert commands and [c[0] for c in commands[:1]] == ["release"]
    assert any(c[0] == "cluster" for c in commands)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    cli_dir, python_dir = tmp_path / "cli", tmp_path / "python"
    for folder in (cli_dir, python_dir):
        folder.mkdir()
        _write_nodes(_write_edges(polbooks, folder / "edges.csv"), folder / "nodes.csv")

    monkeypatch.chdir(cli_dir)
    for argv in commands:
        assert _run(argv) == 0, argv
    assert len(_rows(cli_dir / "labels.csv")) == polbooks.number_of_nodes() + 1

    monkeypatch.chdir(python_dir)
    import matplotlib
    import matplotlib.pyplot as plt

    matplotlib.use("Agg")
    try:
        exec(compile(code, str(README) + ":Your own network", "exec"), {"__name__": "readme"})
    finally:
        plt.close("all")
    assert (python_dir / "release.csv.json").is_file()
    assert (python_dir / "clusters.png").stat().st_size > 0
    assert "clusters; significant:" in capsys.readouterr().out


def test_readme_real_network_example_prints_what_it_says(capsys):
    # The front page's first example: it must run as written and print the ARI its comment
    # states for its seed.
    pytest.importorskip("networkx")
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## A real network, released and clustered\n")
    section = text[start:text.index("\n## ", start + 1)]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    claimed = re.search(r"'ari': (\d\.\d+)\.\.\.", code)
    assert claimed, "the example's comment states the ARI it prints"
    exec(compile(code, str(README) + ":A real network", "exec"), {"__name__": "readme"})
    printed = re.search(r"'ari': (?:np\.float64\()?([0-9.]+)", capsys.readouterr().out)
    assert printed and printed.group(1).startswith(claimed.group(1)), (printed, claimed)
