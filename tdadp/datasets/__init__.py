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

Each loader's docstring gives the source and the citation to use with the data.
"""

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
]
