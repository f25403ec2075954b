"""Loaders of the real networks shipped with tdadp (offline: the data are package files).

Each network is two gzipped CSV files in ``tdadp/datasets/data``: ``<name>_edges.csv.gz``
(header ``source,target``) and ``<name>_nodes.csv.gz`` (header ``node,...``, one row per node,
isolated nodes included). Zachary's karate club and Davis's Southern women come with networkx
and are read from it. Every loader returns a fresh, unweighted, undirected, simple
``networkx.Graph`` (networkx is the optional extra ``tdadp[networkx]``).
"""

from __future__ import annotations

import csv
import gzip
import io
from importlib import resources

from ..utils._params import check_param

__all__ = ["load_polblogs", "load_polbooks", "load_faux_mesa_high", "load_karate",
           "load_davis"]


def _networkx(loader):
    try:
        import networkx as nx
    except ImportError as exc:
        raise ImportError(
            f"{loader} needs networkx: pip install tdadp[networkx] (or pip install networkx)."
        ) from exc
    return nx


def _read_csv(filename):
    """Header and rows of a gzipped CSV file of the package's data folder."""
    path = resources.files(__package__).joinpath("data", filename)
    with path.open("rb") as raw, gzip.open(raw) as unzipped:
        reader = csv.reader(io.TextIOWrapper(unzipped, encoding="utf-8", newline=""))
        header = next(reader)
        return header, list(reader)


def load_network_files(name, loader, title, *, node=str, columns=None):
    """The undirected simple graph of a shipped network, with its node attributes.

    ``node`` converts a node name; ``columns`` maps a node column to the converter of its
    values (str when not listed). Edges listed in both directions or more than once are one
    edge; self-loops are dropped.
    """
    nx = _networkx(loader)
    columns = columns or {}
    header, rows = _read_csv(f"{name}_nodes.csv.gz")
    G = nx.Graph(name=title)
    G.add_nodes_from(
        (node(row[0]), {key: columns.get(key, str)(value)
                        for key, value in zip(header[1:], row[1:])})
        for row in rows)
    _, rows = _read_csv(f"{name}_edges.csv.gz")
    edges = [(node(u), node(v)) for u, v in rows if u != v]
    unknown = {x for edge in edges for x in edge if x not in G}
    if unknown:  # pragma: no cover - the shipped files are consistent
        raise ValueError(f"{name}: edges name nodes missing from the node list: "
                         f"{sorted(unknown)[:5]}")
    G.add_edges_from(edges)
    return G


def load_polblogs(largest_component=False):
    """The political blogosphere of the 2004 US election (Adamic and Glance).

    Hyperlinks between US political blogs, crawled in 2005, each blog labelled liberal or
    conservative. The crawl is directed (19,090 listed links); here it is **symmetrised**: two
    blogs are adjacent when either links to the other. The 65 repeated listings and the 2,307
    reciprocated pairs become single edges and the 3 self-links are dropped, so the graph is
    simple and unweighted.

    Size: 1,490 nodes (blogs, named by URL), 16,715 edges; 266 blogs are isolated and two
    form a separate pair. The largest connected component, which papers analyse (e.g. SCORE,
    J. Jin, Ann. Statist. 43(1), 2015: 58 of 1,222 blogs misclassified), has 1,222 nodes and
    16,714 edges: ``largest_component=True``.

    Labels: node attribute ``label`` (int), 0 liberal (758 blogs; 586 in the largest
    component), 1 conservative (732; 636 in the largest component).

    Parameters
    ----------
    largest_component : bool, default=False
        Return only the largest connected component (1,222 nodes, 16,714 edges). A bool
        (numpy's too): ``"yes"``, ``"False"``, 1 or None are refused, since a string or a
        number would be read by its truthiness (``"False"`` as True).

    Returns
    -------
    G : networkx.Graph
        Nodes in the order of the source's node list, with attribute ``label``.

    References
    ----------
    L. A. Adamic and N. Glance, "The political blogosphere and the 2004 US election: divided
    they blog", WWW-2005 Workshop on the Weblogging Ecosystem, 2005.

    Examples
    --------
    >>> from tdadp.datasets import load_polblogs
    >>> G = load_polblogs()
    >>> G.number_of_nodes(), G.number_of_edges()
    (1490, 16715)
    >>> H = load_polblogs(largest_component=True)
    >>> H.number_of_nodes(), H.number_of_edges()
    (1222, 16714)
    >>> sorted(set(dict(H.nodes(data="label")).values()))
    [0, 1]
    """
    check_param(largest_component, ["boolean"], "largest_component", "load_polblogs")
    G = load_network_files("polblogs", "load_polblogs", "Political blogs (Adamic and Glance, 2005)",
              columns={"label": int})
    if largest_component:
        nx = _networkx("load_polblogs")
        giant = max(nx.connected_components(G), key=len)
        G = G.subgraph(giant).copy()
    return G


def load_polbooks():
    """Books about US politics co-purchased on Amazon (Krebs), as distributed by Newman.

    Two books are adjacent when Amazon listed them as frequently bought together, around the
    2004 US election. The graph is undirected, simple, unweighted and connected.

    Size: 105 nodes (books, named by title), 441 edges.

    Labels: node attribute ``label`` (str), the book's political leaning: ``"l"`` liberal
    (43 books), ``"n"`` neutral (13), ``"c"`` conservative (49).

    Returns
    -------
    G : networkx.Graph
        Nodes in the order of the source's node list, with attribute ``label``.

    References
    ----------
    V. Krebs, books about US politics (Amazon co-purchases), unpublished; as distributed by
    M. E. J. Newman (http://www-personal.umich.edu/~mejn/netdata/).

    Examples
    --------
    >>> from tdadp.datasets import load_polbooks
    >>> G = load_polbooks()
    >>> G.number_of_nodes(), G.number_of_edges()
    (105, 441)
    >>> G.nodes["1000 Years for Revenge"]
    {'label': 'n'}
    """
    return load_network_files("polbooks", "load_polbooks",
                 "Books about US politics (Krebs; Newman)")


def load_faux_mesa_high():
    """The "Faux Mesa High" friendship network of the statnet project.

    A network simulated from an ERGM fitted to one school of the Add Health study, so that it
    can be shared: students are adjacent when they are friends. Undirected, simple,
    unweighted; maximum degree 13. It is the example network of private ERGM fitting
    (Goldberg's thesis, Harvard, 2018, Section 5.2.3).

    Size: 205 nodes (students, named by their statnet vertex id, an int 1..205), 203 edges;
    57 students are isolated, and the largest component has 120 nodes and 185 edges.

    Labels: node attributes ``Grade`` (int): 7 (62 students), 8 (40), 9 (42), 10 (25),
    11 (24), 12 (12); ``Race`` (str): ``"Hisp"`` (109), ``"NatAm"`` (68), ``"White"`` (18),
    ``"Black"`` (6), ``"Other"`` (4); ``Sex`` (str): ``"F"`` (99), ``"M"`` (106).

    Returns
    -------
    G : networkx.Graph
        Nodes 1..205 in order, with attributes ``Grade``, ``Race`` and ``Sex``.

    References
    ----------
    M. D. Resnick et al., "Protecting adolescents from harm: findings from the National
    Longitudinal Study on Adolescent Health", JAMA 278(10), 1997. D. R. Hunter, M. S.
    Handcock, C. T. Butts, S. M. Goodreau and M. Morris, "ergm: a package to fit, simulate and
    diagnose exponential-family models for networks", J. Stat. Softw. 24(3), 2008.

    Examples
    --------
    >>> from tdadp.datasets import load_faux_mesa_high
    >>> G = load_faux_mesa_high()
    >>> G.number_of_nodes(), G.number_of_edges()
    (205, 203)
    >>> G.nodes[1]
    {'Grade': 7, 'Race': 'Hisp', 'Sex': 'F'}
    """
    return load_network_files("faux_mesa_high", "load_faux_mesa_high", "Faux Mesa High (statnet)",
                 node=int, columns={"Grade": int})


def load_karate():
    """Zachary's karate club, unweighted.

    Friendships among the 34 members of a university karate club that split in two after a
    dispute between the instructor ("Mr. Hi") and the club's officer. Read from networkx
    (:func:`networkx.karate_club_graph`), whose edges carry weights (the number of contexts
    in which two members interacted); here they are **binarised**: an edge is a pair of
    members who interacted at all. Undirected, simple, connected.

    Size: 34 nodes (members, ints 0..33), 78 edges.

    Labels: node attribute ``club`` (str), the faction each member joined after the split:
    ``"Mr. Hi"`` (17 members) or ``"Officer"`` (17); ``label`` is the same value.

    Returns
    -------
    G : networkx.Graph
        Nodes 0..33, with attributes ``club`` and ``label``.

    References
    ----------
    W. W. Zachary, "An information flow model for conflict and fission in small groups",
    J. Anthropol. Res. 33(4), 452-473, 1977.

    Examples
    --------
    >>> from tdadp.datasets import load_karate
    >>> G = load_karate()
    >>> G.number_of_nodes(), G.number_of_edges()
    (34, 78)
    >>> G.nodes[0], G.edges[0, 1]
    ({'club': 'Mr. Hi', 'label': 'Mr. Hi'}, {})
    """
    nx = _networkx("load_karate")
    source = nx.karate_club_graph()
    G = nx.Graph(name="Zachary's karate club")
    G.add_nodes_from((v, {"club": club, "label": club})
                     for v, club in source.nodes(data="club"))
    G.add_edges_from(source.edges())
    return G


def load_davis():
    """Davis's Southern women: who attended which social events (a bipartite network).

    The attendance of 18 women at 14 social events in a town of the US South in the 1930s,
    read from networkx (:func:`networkx.davis_southern_women_graph`). A woman is adjacent to
    each event she attended; there are no woman-woman or event-event edges. Undirected,
    simple, unweighted, connected.

    Size: 32 nodes (18 women named by name, 14 events ``"E1"`` .. ``"E14"``), 89 edges.

    Labels: node attribute ``bipartite`` (int), 0 for the 18 women and 1 for the 14 events;
    the graph attributes ``top`` and ``bottom`` list the women and the events.

    Returns
    -------
    G : networkx.Graph
        Women first, then events, with attribute ``bipartite``.

    References
    ----------
    A. Davis, B. B. Gardner and M. R. Gardner, *Deep South: A Social Anthropological Study of
    Caste and Class*, University of Chicago Press, 1941.

    Examples
    --------
    >>> from tdadp.datasets import load_davis
    >>> G = load_davis()
    >>> G.number_of_nodes(), G.number_of_edges()
    (32, 89)
    >>> sum(b == 0 for _, b in G.nodes(data="bipartite"))
    18
    """
    nx = _networkx("load_davis")
    source = nx.davis_southern_women_graph()
    G = nx.Graph(name="Davis's Southern women", top=list(source.graph.get("top", [])),
                 bottom=list(source.graph.get("bottom", [])))
    G.add_nodes_from((v, {"bipartite": side}) for v, side in source.nodes(data="bipartite"))
    G.add_edges_from(source.edges())
    return G
