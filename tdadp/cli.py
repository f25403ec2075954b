"""The ``tdadp`` command: release, embed and cluster your own network; list and run the
paper's experiments::

    tdadp --version
    tdadp release GRAPH --epsilon E --out RELEASE.csv [--mechanism edgeflip|laplaceflip]
                        [--nodes NODES.csv] [--directed refuse|symmetrize|mutual]
                        [--seed S] [--overwrite]
    tdadp embed RELEASE.csv --out EMBEDDING.csv [--n-components D] [--overwrite]
    tdadp cluster RELEASE.csv --out LABELS.csv [--n-clusters K] [--n-components D]
                  [--overwrite]
    tdadp list
    tdadp run EXPERIMENT [--config FILE] [--out DIR] [--replicates R] [--quick]
                         [--n-jobs N | --local-cluster WORKERS | --scheduler ADDRESS]
                         [--max-hours H] [--pdf] [--no-progress]

Bad configurations and command lines end with a one-line message and exit code 2, before any
work starts: every config key is checked against its declared rule, the largest task's memory
against the memory left, and the run's estimated time against ``--max-hours`` (default 24).
The run folder is written whole or not at all (see :func:`tdadp.experiments.run_experiment`).

The analyst's commands (``release``, ``embed``, ``cluster``) check their files and numbers
first, the same way: a missing or unreadable input, an epsilon that is not a positive finite
number, an ``--out`` that exists (without ``--overwrite``) or a count that is not a positive
integer ends with one line and exit code 2, and so does an input file that does not read (a
bad edge list, a damaged release). A directed edge list (some links given both ways, others
one way) is such a file unless ``--directed`` chooses its undirected graph, as
:func:`tdadp.read_edgelist` refuses it unless ``directed=`` does. Progress goes to stderr;
results go to the ``--out`` files.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

from .cluster import (
    COUNTING_CLUSTERERS,
    EMBEDDING_CLUSTERERS,
    BlockModelClustering,
    make_clusterer,
)
from .embed import AdjacencySpectralEmbedding
from .experiments import (
    DEFAULT_MAX_HOURS,
    ConfigError,
    check_output_dir,
    check_run_cost,
    check_run_memory,
    experiment_config,
    experiment_notes,
    get_experiment,
    list_experiments,
    run_experiment,
)
from .graphs import PackedAdjacency, graph_guarantee, graph_nodes, isolated_nodes, tag_graph
from .io import (
    check_release_nodes,
    check_release_path,
    load_packed,
    load_release,
    read_edgelist,
    read_nodes,
    save_release,
    sidecar_path,
)
from .io._edgelist import DIRECTED_POLICIES, DirectedEdgesError
from .release import EdgeFlip, LaplaceFlip

_MECHANISMS = {"edgeflip": EdgeFlip, "laplaceflip": LaplaceFlip}
# The first bytes of a packed .tdadp file (tdadp.io.save_packed).
_PACKED_MAGIC = b"TDADP-PACKED-GRAPH\n"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # one line, exit 2, no usage dump
        self.exit(2, f"tdadp: error: {message}\n")


def _integer(kind, minimum=1):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind} must be an integer, got {text[:40]!r}") \
                from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{kind} must be at least {minimum}, got {value}")
        return value

    return parse


def _hours(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--max-hours must be a number, got {text[:40]!r}") \
            from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"--max-hours must be positive and finite, got "
                                         f"{text[:40]!r}")
    return value


def _epsilon(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--epsilon must be a number, got {text[:40]!r}") \
            from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"--epsilon must be positive and finite, got "
                                         f"{text[:40]!r}")
    return value


def _seed(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seed must be an integer, got {text[:40]!r}") \
            from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"--seed must be at least 0, got {value}")
    return value


def _version():
    # The root package re-exports every stage, so the command does not import it (the
    # layout rule); it is always loaded before any of its modules.
    return getattr(sys.modules.get(__package__), "__version__", "unknown")


def _add_analyst_commands(sub):
    rel = sub.add_parser(
        "release", help="release an edge-DP copy of a network (edge list or packed file)",
        description="Release an epsilon-edge-DP copy of a network: every dyad is flipped "
        "at the mechanism's rate. Writes the release (an edge-list CSV, or a packed file "
        "for an --out ending in .tdadp) and its JSON sidecar (node names, guarantee).")
    rel.add_argument("graph", metavar="GRAPH",
                     help="edge list (CSV, TSV, whitespace; header guessed; any node names) "
                     "or a packed .tdadp file")
    rel.add_argument("--epsilon", type=_epsilon, required=True, metavar="E",
                     help="privacy budget, a positive finite number")
    rel.add_argument("--out", required=True, metavar="RELEASE.csv",
                     help="the release; its sidecar is RELEASE.csv.json")
    rel.add_argument("--mechanism", choices=sorted(_MECHANISMS), default="edgeflip",
                     help="edgeflip (default; the lower flip rate) or laplaceflip")
    nodeset = rel.add_mutually_exclusive_group()
    nodeset.add_argument("--nodes", metavar="NODES.csv",
                         help="the public node list: every node's name, one a line or in a "
                         "column 'node', isolated nodes included; the release has exactly "
                         "these nodes, in an order that depends on this list alone")
    nodeset.add_argument("--nodes-from-edges", action="store_true",
                         help="take the nodes named by the edges as the node set, declaring "
                         "it public: the release then shows which nodes have an edge")
    rel.add_argument("--directed", choices=DIRECTED_POLICIES, metavar="HOW",
                     help="a directed edge list (some links given both ways, others one way) "
                     "is refused; 'symmetrize': an edge wherever either direction is given, "
                     "'mutual': only where both are (default 'refuse')")
    rel.add_argument("--comments", default="#", metavar="MARKER",
                     help="comment marker of GRAPH and NODES.csv, outside double quotes "
                     "(default '#'; 'none': no comments, for names holding '#')")
    rel.add_argument("--max-edges", type=_integer("--max-edges", 0), metavar="M",
                     help="a public bound on the network's edges, which the release's memory "
                     "is planned for (default: every pair of nodes an edge); a network with "
                     "more edges is refused before anything is released")
    rel.add_argument("--seed", type=_seed, metavar="S",
                     help="reproducible coins, for tests only: the release is NOT private "
                     "against whoever knows the seed (default: the OS's secure randomness)")
    rel.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    emb = sub.add_parser(
        "embed", help="privacy-adjusted spectral embedding of a release",
        description="Embed a release's nodes (adjacency spectral embedding, adjusted for "
        "the flip rate its sidecar states). Writes node,x1,...,xd: one row per node.")
    emb.add_argument("release", metavar="RELEASE.csv", help="a release (with its sidecar)")
    emb.add_argument("--out", required=True, metavar="EMBEDDING.csv")
    emb.add_argument("--n-components", type=_integer("--n-components"), metavar="D",
                     help="embedding dimension (default: chosen from the eigenvalues)")
    emb.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    clu = sub.add_parser(
        "cluster", help="cluster a release's nodes (embedding + clustering)",
        description="Embed a release (adjusted for its flip rate) and cluster its nodes: by "
        "default with k-means and spherical k-means of the embedding, regularised spectral "
        "clustering and Leiden, keeping the partition under which the release is most likely "
        "as a degree-corrected block model; unless --n-clusters is given, the number of "
        "clusters is the number of the release's eigenvalues above its noise. Writes "
        "node,cluster: one row per node, -1 for nodes isolated in the release.")
    clu.add_argument("release", metavar="RELEASE.csv", help="a release (with its sidecar)")
    clu.add_argument("--out", required=True, metavar="LABELS.csv")
    clu.add_argument("--n-clusters", type=_integer("--n-clusters"), metavar="K",
                     help="number of clusters (default: the eigenvalues above the noise)")
    clu.add_argument("--n-components", type=_integer("--n-components"), metavar="D",
                     help="embedding dimension (default: chosen from the eigenvalues)")
    clu.add_argument("--clusterer", choices=("auto",) + EMBEDDING_CLUSTERERS, default="auto",
                     help="auto (default): the most likely of several; or one clusterer "
                     "(all but tomato and gmm need --n-clusters)")
    clu.add_argument("--overwrite", action="store_true", help="replace an existing --out")


def build_parser():
    parser = _Parser(prog="tdadp", description="Topological inference on edge-DP networks: "
                     "release, embed and cluster your own network; reproduce the paper's "
                     "experiments.")
    parser.add_argument("--version", action="version", version=f"tdadp {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_analyst_commands(sub)
    sub.add_parser("list", help="list the experiments")
    run = sub.add_parser("run", help="run an experiment")
    run.add_argument("experiment")
    run.add_argument("--config", help="JSON or TOML file overriding the experiment's config")
    run.add_argument("--out", help="output folder (default: results/EXPERIMENT)")
    run.add_argument("--replicates", type=_integer("--replicates"))
    run.add_argument("--quick", action="store_true", help="small sizes, few replicates")
    place = run.add_mutually_exclusive_group()
    place.add_argument("--n-jobs", type=_integer("--n-jobs"), help="local worker processes")
    place.add_argument("--local-cluster", type=_integer("--local-cluster"),
                       metavar="WORKERS", help="start a Dask LocalCluster with WORKERS")
    place.add_argument("--scheduler", metavar="ADDRESS", help="join a running Dask cluster")
    run.add_argument("--max-hours", type=_hours, default=DEFAULT_MAX_HOURS,
                     help="refuse a run estimated to take longer (default: %(default)g)")
    run.add_argument("--pdf", action="store_true", help="also write PDF figures")
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


# --------------------------------------------------------------------------- analyst commands
class _InputError(Exception):
    """A bad command line or input file: one line, exit code 2."""


def _say(message):
    print(f"tdadp: {message}", file=sys.stderr, flush=True)


def _one_line(exc, limit=400):
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def _check_input(path, what):
    p = Path(path)
    if not p.exists():
        raise _InputError(f"{what} {path} does not exist")
    if not p.is_file():
        raise _InputError(f"{what} {path} is not a file")
    if not os.access(p, os.R_OK):
        raise _InputError(f"{what} {path} is not readable")
    return p


def _check_release(path):
    p = _check_input(path, "the release")
    side = sidecar_path(p)
    if not side.is_file():
        raise _InputError(f"{path} has no sidecar {side.name}: a release is the data file and "
                          "its JSON sidecar together, as `tdadp release` writes them")
    return p


def _check_out(path, overwrite, inputs, with_sidecar=False):
    p = Path(path)
    targets = [p, sidecar_path(p)] if with_sidecar else [p]
    taken = {q.resolve() for q in inputs}
    for target in targets:
        if target.resolve() in taken:
            raise _InputError(f"--out {path} would replace an input file")
        if target.is_dir():
            raise _InputError(f"--out {target} is a folder")
        if target.exists() and not overwrite:
            raise _InputError(f"--out {target} exists; pass --overwrite to replace it")
    if not p.parent.is_dir():
        raise _InputError(f"the folder of --out {path} does not exist")
    return p


def _is_packed(path):
    if path.suffix.lower() == ".tdadp":
        return True
    with open(path, "rb") as fh:
        return fh.read(len(_PACKED_MAGIC)) == _PACKED_MAGIC


def _write_table(path, header, rows):
    """Write a CSV table whole or not at all (a temporary file renamed into place)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _release(args):
    src = _check_input(args.graph, "GRAPH")
    inputs = [src]
    if args.nodes is not None:
        inputs.append(_check_input(args.nodes, "--nodes"))
    out = _check_out(args.out, args.overwrite, inputs, with_sidecar=True)
    packed = _is_packed(src)
    if packed and (args.nodes is not None or args.nodes_from_edges):
        raise _InputError("--nodes and --nodes-from-edges are for an edge list: a packed file "
                          "lists every node")
    if packed and args.directed is not None:
        raise _InputError("--directed is for an edge list: a packed file is undirected")
    if not packed and args.nodes is None and not args.nodes_from_edges:
        raise _InputError("an edge list shows only the nodes that have an edge, and which "
                          "nodes those are is private: pass --nodes NODES.csv (the public "
                          "list of every node), or --nodes-from-edges to declare the nodes "
                          "the edges name public")
    try:
        _say(f"reading {src}")
        if packed:
            A = load_packed(src)
        else:
            comments = None if args.comments.lower() == "none" else args.comments
            # The nodes file is read by the edge list's comment rule: a name cut at '#' in
            # one file and whole in the other would become two nodes.
            names = None if args.nodes is None else read_nodes(inputs[1], comments=comments)
            A = read_edgelist(src, comments=comments, directed=args.directed or "refuse",
                              nodes=names)
            # --nodes-from-edges declared the node set public: a plain list says so.
            A = tag_graph(A, nodes=list(graph_nodes(A)))
    except DirectedEdgesError as exc:
        # read_edgelist words the fix as its keyword; here it is the option
        raise _InputError(f"{src}: the edge list looks directed: {exc.reciprocated} pair(s) "
                          f"of nodes are linked both ways, {exc.one_way} one way only; pass "
                          "--directed symmetrize (an edge wherever either direction is "
                          "given) or --directed mutual (only where both are)") from None
    except (ValueError, OSError) as exc:
        text = _one_line(exc)
        named = any(text.startswith(str(q)) for q in inputs)
        raise _InputError(text if named else f"{src}: {text}") from None
    try:
        # Everything save_release would refuse, refused before the release is made.
        check_release_nodes(graph_nodes(A), A.shape[0])
        check_release_path(out, overwrite=args.overwrite)
    except ValueError as exc:
        raise _InputError(_one_line(exc)) from None
    if args.seed is None:
        random_state = "secure"
    else:
        random_state = args.seed
        _say(f"warning: --seed {args.seed} makes the release reproducible, so it is NOT "
             "private against whoever knows the seed; omit --seed for a real release")
    # A packed release goes block by block: its progress bar, on a terminal only (a log
    # file or a pipe gets the one-line summaries).
    mechanism = _MECHANISMS[args.mechanism](
        args.epsilon, random_state=random_state,
        output="packed" if out.suffix.lower() == ".tdadp" else "sparse",
        verbose=sys.stderr.isatty(), max_edges=args.max_edges)
    _say(f"releasing {A.shape[0]} nodes with {type(mechanism).__name__} at "
         f"eps={args.epsilon:g}")
    B = mechanism.fit_transform(A)
    try:
        side = save_release(out, B, overwrite=args.overwrite)
    except ValueError:
        if args.overwrite or not any(os.path.lexists(p) for p in (out, sidecar_path(out))):
            raise
        # Checked free before the release: another command wrote it in the meantime.
        raise _InputError(f"--out {out} was written by another process while this release "
                          "was made; this release was not written (pass --overwrite to "
                          "replace it)") from None
    m = B.count_edges() if isinstance(B, PackedAdjacency) else B.nnz // 2
    _say(f"released {B.shape[0]} nodes, {m} edges, eps={args.epsilon:g}, flip rate "
         f"{mechanism.flip_probability_:.6g} -> {out} (sidecar {side.name})")
    return 0


def _load(path):
    try:
        _say(f"reading {path}")
        return load_release(path)
    except (ValueError, OSError) as exc:
        raise _InputError(_one_line(exc)) from None


def _embedding(G, n_components):
    """The embedding of a release, adjusted for the flip rate its guarantee states."""
    rate = _embedding_plan(G, n_components)
    ase = AdjacencySpectralEmbedding(n_components=n_components, adjust=rate is not None)
    X = np.asarray(ase.fit_transform(G), dtype=float)
    _say(f"embedded in {X.shape[1]} dimension(s)")
    return X


def _embedding_plan(G, n_components):
    """Check the dimension and say how the release will be embedded; its flip rate."""
    n = G.shape[0]
    if n_components is not None and n_components >= n:
        raise _InputError(f"--n-components {n_components} must be below the release's {n} "
                          "nodes")
    guarantee = graph_guarantee(G)
    rate = None if guarantee is None else guarantee.flip_probability
    if rate is None:
        _say("note: the release states no flip rate, so its embedding is not adjusted")
        how = "plain"
    else:
        how = f"adjusted for the flip rate {rate:.6g}"
    _say(f"embedding {n} nodes ({how})")
    return rate


def _names(G):
    nodes = graph_nodes(G)
    return list(range(G.shape[0])) if nodes is None else list(nodes)


def _embed(args):
    src = _check_release(args.release)
    out = _check_out(args.out, args.overwrite, [src, sidecar_path(src)])
    G = _load(src)
    X = _embedding(G, args.n_components)
    header = ["node"] + [f"x{k + 1}" for k in range(X.shape[1])]
    _write_table(out, header, ([v, *row] for v, row in zip(_names(G), X.tolist())))
    _say(f"wrote {X.shape[0]} rows -> {out}")
    return 0


def _cluster(args):
    src = _check_release(args.release)
    out = _check_out(args.out, args.overwrite, [src, sidecar_path(src)])
    G = _load(src)
    n = G.shape[0]
    keep = np.flatnonzero(~isolated_nodes(G))
    if args.n_clusters is not None and args.n_clusters > keep.size:
        raise _InputError(f"--n-clusters {args.n_clusters} is more than the release's "
                          f"{keep.size} nodes with an edge")
    if keep.size < 2:
        raise _InputError(f"the release has {keep.size} node(s) with an edge: nothing to "
                          "cluster")
    if args.n_clusters is None and args.clusterer not in ("auto",) + COUNTING_CLUSTERERS:
        raise _InputError(f"--clusterer {args.clusterer} needs --n-clusters (only auto, "
                          f"{' and '.join(COUNTING_CLUSTERERS)} choose the count)")
    if keep.size < n:
        _say(f"{n - keep.size} node(s) isolated in the release (degree 0): cluster -1, not "
             "clustered")
    count = ("the count read off the spectrum" if args.n_clusters is None
             else f"{args.n_clusters} clusters")
    labels = np.full(n, -1, dtype=np.int64)
    if args.clusterer == "auto":
        _embedding_plan(G, args.n_components)
        _say(f"clustering {keep.size} nodes ({count}): k-means and spherical k-means of the "
             "embedding, regularised spectral clustering and Leiden, keeping the partition "
             "under which the release is most likely (degree-corrected block model)")
        model = BlockModelClustering(n_clusters=args.n_clusters,
                                     n_components=args.n_components, random_state=0)
        with warnings.catch_warnings():  # the isolated nodes were reported above
            warnings.filterwarnings("ignore", message=".*have no edge", category=UserWarning)
            model.fit(G)
        _say(f"embedded in {model.n_components_} dimension(s)")
        labels = model.labels_
        significant = model.significant_
        if model.selected_ is not None:
            _say(f"kept {model.selected_}'s partition (log-likelihood "
                 + ", ".join(f"{c} {v:.1f}" for c, v in model.scores_.items()) + ")")
    else:
        X = _embedding(G, args.n_components)
        _say(f"clustering {keep.size} nodes with {args.clusterer} ({count})")
        model = make_clusterer(args.clusterer, args.n_clusters, 0).fit(X[keep])
        labels[keep] = model.labels_
        significant = getattr(model, "significant_", None)
    _write_table(out, ["node", "cluster"], zip(_names(G), labels.tolist()))
    unplaced = int(np.count_nonzero(labels < 0)) - (n - keep.size)
    if unplaced > 0:
        _say(f"{unplaced} node(s) with an edge but no direction in the embedding (outside the "
             "components its leading eigenvectors describe): cluster -1")
    found = labels[labels >= 0]
    k = int(found.max()) + 1 if found.size else 0
    sizes = np.bincount(found, minlength=k)
    _say(f"{k} cluster(s), sizes "
         + ", ".join(f"{c}: {s}" for c, s in enumerate(sizes.tolist())) + f" -> {out}")
    if args.n_clusters is not None:
        _say("the count was given (--n-clusters), not tested")
    elif args.clusterer == "auto" and significant:
        _say(f"the count: {k} eigenvalues of the release stand above its noise; a community "
             "too weak for the spectrum at this eps is merged into others (if you know the "
             "number of groups, pass --n-clusters)")
    elif args.clusterer == "auto":
        _say("no community stands out: only the leading eigenvalue of the release stands "
             "above its noise, so every node is in cluster 0. Try --n-clusters K if you know "
             "the number of groups (the partition is then the most likely of K blocks, "
             "however weak), or a release at a larger --epsilon")
    elif significant:
        _say("the count is significant: that many modes stand out from the noise "
             "(bootstrap test at level 0.05)")
    elif significant is None:
        _say(f"the count was chosen by {args.clusterer} (BIC), not tested")
    else:
        _say("the count is not significant: no cluster structure stands out from the noise "
             "at this scale (one cluster)")
    return 0


_ANALYST = {"release": _release, "embed": _embed, "cluster": _cluster}


def _run_analyst(args):
    try:
        return _ANALYST[args.command](args)
    except _InputError as exc:
        print(f"tdadp: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, OSError, MemoryError) as exc:
        print(f"tdadp: error: {_one_line(exc)}", file=sys.stderr)
        return 1


# Options whose value may start with "-": argparse takes "-inf" or "-1e3" after them for an
# option and says "expected one argument" instead of what is wrong with the value.
_VALUE_OPTIONS = frozenset({"--epsilon", "--seed", "--max-edges", "--n-clusters",
                            "--n-components", "--max-hours", "--replicates", "--n-jobs",
                            "--local-cluster"})


def _attach_values(argv):
    out, k = [], 0
    while k < len(argv):
        token = argv[k]
        if (token in _VALUE_OPTIONS and k + 1 < len(argv) and argv[k + 1].startswith("-")
                and not argv[k + 1].startswith("--")):
            out.append(f"{token}={argv[k + 1]}")
            k += 2
        else:
            out.append(token)
            k += 1
    return out


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(_attach_values(argv))
    if args.command in _ANALYST:
        return _run_analyst(args)
    try:
        if args.command == "list":
            for name, module in list_experiments().items():
                print(f"{name:<12} {module.SUMMARY}")
            return 0
        # Validate everything before any work starts: the configuration, the memory its
        # largest tasks need on this machine, and the output folder.
        module = get_experiment(args.experiment)
        config = experiment_config(module, args.config, quick=args.quick,
                                   replicates=args.replicates)
        local = 0 if args.scheduler else (args.local_cluster or args.n_jobs or 1)
        check_run_memory(module, config, workers=local)
        check_run_cost(module, config, workers=local, max_hours=args.max_hours)
        check_output_dir(args.out if args.out is not None
                         else Path("results") / args.experiment)
        out, rows, figures = run_experiment(
            args.experiment, config_file=args.config, out=args.out,
            replicates=args.replicates, quick=args.quick, n_jobs=args.n_jobs,
            local_cluster=args.local_cluster, scheduler=args.scheduler,
            formats=("png", "pdf") if args.pdf else ("png",),
            progress=not args.no_progress, argv=["tdadp"] + argv,
            max_hours=args.max_hours)
    except ConfigError as exc:
        print(f"tdadp: error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.experiment}: {len(rows)} rows -> {out / 'results.csv'}")
    for path in figures:
        print(f"  figure: {path}")
    for note in experiment_notes(module, config):
        print(f"  note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
