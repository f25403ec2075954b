"""Sphinx configuration of the tdadp documentation site.

Built by ``make docs`` with warnings as errors (``-W --keep-going``) and nitpicky
cross-references. There is no network at build time (none here, none in CI), so there is no
intersphinx: references to numpy, scipy, scikit-learn, pandas, networkx, Dask and matplotlib
types are plain text, and the ``nitpick_ignore_regex`` below says which names those are.
"""

import os
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import tdadp  # noqa: E402

project = "tdadp"
author = "tdadp developers"
copyright = "tdadp developers, BSD-3-Clause"
version = release = tdadp.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "myst_nb",
    "tdadp_docs",  # _ext/tdadp_docs.py: experiment tables, notebook copies, name resolution
]

source_suffix = {".rst": "restructuredtext", ".ipynb": "myst-nb", ".md": "myst-nb"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "examples",  # the gallery's sources: sphinx-gallery writes their pages to auto_examples/
    "**.ipynb_checkpoints",
    # sphinx-gallery's notebook downloads, not pages (myst-nb would read any .ipynb)
    "auto_examples/*.ipynb",
    "experiments/_tables",
    "experiments/prose",  # Markdown results prose, included by the experiment pages
    "sg_execution_times.rst",
]

# Every cross-reference must resolve.
nitpicky = True
# External libraries' names stay plain text (no intersphinx without a network). The patterns
# name the libraries and the builtin / typing vocabulary numpydoc finds in type fields.
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|scipy|sp|sklearn|pandas|pd|networkx|nx|dask|distributed"
               r"|matplotlib|plt|joblib|gudhi|ripser|persim|numba|cryptography)(\..*)?"),
    (r"py:.*", r"(int|float|str|bool|bytes|dict|list|tuple|set|frozenset|object|callable"
               r"|Callable|Iterable|Sequence|Mapping|None|type|slice|range|complex"
               r"|os\.PathLike|pathlib\.Path|Path|Generator|SeedSequence|array_like"
               r"|array-like|ndarray|sparse matrix|DataFrame|Series|Figure|Axes|Client"
               r"|LinearOperator|Fraction|Enum|NamedTuple|Exception|ValueError|TypeError"
               r"|RuntimeWarning|UserWarning|Warning|BaseEstimator|TransformerMixin"
               r"|ClusterMixin|MetaEstimatorMixin|Pipeline|KDTree|cKDTree|True|False|boolean|string"
               r"|iterable|sequence|generator|contextmanager|namedtuple|scalar)"),
]

# autodoc / autosummary: one page per public name (api/index.rst lists them by folder).
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False, "inherited-members": False}
autodoc_typehints = "none"  # the numpydoc Parameters sections carry the types
autodoc_member_order = "bysource"
autoclass_content = "class"

# numpydoc: types in Parameters / Returns link when they name a tdadp object (the aliases,
# built from every folder's __all__ by _ext/tdadp_docs.py); every other word of a type field
# ("array-like of shape (n, d)", "numpy Generator") stays plain text.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = True
numpydoc_xref_ignore = "all"
numpydoc_attributes_as_param_list = True
numpydoc_validation_checks = set()
from tdadp_docs import xref_aliases  # noqa: E402

# numpydoc's default aliases point builtins and numpy terms into the Python and numpy
# inventories (python:int, numpy:array_like), which need intersphinx: keep those words plain
# (the nitpick_ignore_regex above lists them).
numpydoc_xref_aliases = {
    word: word
    for word in ("None", "bool", "boolean", "True", "False", "list", "tuple", "str", "string",
                 "dict", "float", "int", "callable", "iterable", "sequence", "contextmanager",
                 "namedtuple", "generator", "array-like", "array_like", "scalar")
}
numpydoc_xref_aliases.update(xref_aliases())

# The gallery: each example runs during the build and its figures go on its page.
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "reference_url": {"tdadp": None},
    "capture_repr": ("_repr_html_", "__repr__"),
    "show_memory": False,
    "min_reported_time": 1,
    "write_computation_times": False,
    # "Examples using X" on each API page.
    "doc_module": ("tdadp",),
    "backreferences_dir": "api/backrefs",
    "prefer_full_module": set(),
}

# Notebooks: the executed copies in figures/notebooks/ (copied to notebooks/ at build time),
# rendered with their stored outputs; never re-executed here (make test runs them).
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["dollarmath"]
suppress_warnings = ["mystnb.unknown_mime_type"]

html_theme = "pydata_sphinx_theme"
html_title = f"tdadp {version}"
html_static_path = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 7,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_sidebars = {"index": [], "getting_started": []}
html_show_sourcelink = False
html_copy_source = False

# The repository root, for literalinclude / csv-table of committed figures and tables.
REPO = HERE.parent
os.environ.setdefault("MPLBACKEND", "Agg")
