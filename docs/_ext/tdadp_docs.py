"""Build-time helpers of the tdadp site (a local Sphinx extension).

- The API reference follows the code: one page per folder, listing the names of that folder's
  ``__all__`` (autosummary then writes one page per name), regenerated on every build, so a
  name added to a folder appears without editing the docs.
- Cross-references by short or root name (``EdgeFlip``, ``tdadp.EdgeFlip``, a private module's
  path) resolve to the one page of that object, the folder page that documents it.
- The executed notebooks of ``figures/notebooks/`` are copied under ``docs/notebooks/`` (Sphinx
  reads sources only below its source folder); they are rendered, never re-executed.
- The experiment pages' tables are computed from the committed ``figures/*/results.csv``, so
  the numbers on the site are those of the data beside the figure.
"""

from __future__ import annotations

import importlib
import inspect
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

DOCS = Path(__file__).resolve().parents[1]
REPO = DOCS.parent

# Bottom first, as in the developers' guide: a folder imports only folders above it here.
FOLDERS = [
    "utils", "dp", "latent", "graphs", "io", "datasets", "release", "ergm", "pufferfish",
    "privacy", "embed", "topology", "cluster", "recipes", "experiments",
]


def public_names():
    """``{name: "tdadp.<folder>"}`` for every name of every folder's ``__all__``."""
    owner = {}
    for folder in FOLDERS:
        module = importlib.import_module(f"tdadp.{folder}")
        for name in module.__all__:
            owner.setdefault(name, f"tdadp.{folder}")
    return owner


def xref_aliases():
    """numpydoc aliases: a tdadp name in a type field links to its page."""
    return {name: f"{module}.{name}" for name, module in public_names().items()}


def _kind(obj):
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "data"


def write_api_pages(app, config):
    """One rst page per folder under ``api/folders/`` (git-ignored, rewritten every build)."""
    out = DOCS / "api" / "folders"
    out.mkdir(parents=True, exist_ok=True)
    written = set()
    for folder in FOLDERS:
        module = importlib.import_module(f"tdadp.{folder}")
        title = f"tdadp.{folder}"
        groups = {"class": [], "function": [], "data": []}
        for name in module.__all__:
            groups[_kind(getattr(module, name))].append(name)
        lines = [title, "=" * len(title), "", f".. automodule:: tdadp.{folder}",
                 "   :no-members:", "", f".. currentmodule:: tdadp.{folder}", ""]
        headings = {"class": "Classes", "function": "Functions", "data": "Constants"}
        for kind, names in groups.items():
            if not names:
                continue
            # The stubs use _templates/autosummary/<kind>.rst, autosummary's default lookup.
            lines += [headings[kind], "-" * len(headings[kind]), "",
                      ".. autosummary::", "   :toctree: ../generated", ""]
            lines += [f"   {name}" for name in names]
            lines.append("")
        text = "\n".join(lines)
        path = out / f"{folder}.rst"
        # Rewrite only on change, so that an incremental build does not reread every page.
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        written.add(path.name)
    for stale in out.glob("*.rst"):
        if stale.name not in written:
            stale.unlink()


def write_cli_help(app, config):
    """``tdadp COMMAND --help`` for every command, as the parser prints it."""
    import argparse
    import os

    from tdadp.cli import build_parser

    os.environ["COLUMNS"] = "90"  # argparse wraps to the terminal width: fix it
    parser = build_parser()
    out = DOCS / "api" / "folders"
    out.mkdir(parents=True, exist_ok=True)
    blocks = [("tdadp", parser.format_help())]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                blocks.append((f"tdadp {name}", sub.format_help()))
    lines = []
    for title, text in blocks:
        lines += [f"``{title} --help``", "-" * (len(title) + 12), "", ".. code-block:: text",
                  ""]
        lines += [("   " + line).rstrip() for line in text.splitlines()]
        lines.append("")
    text = "\n".join(lines)
    path = out / "cli_help.rst.inc"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def copy_notebooks(app, config):
    """The executed copies of the notebooks, under the source folder."""
    src = REPO / "figures" / "notebooks"
    dst = DOCS / "notebooks"
    dst.mkdir(exist_ok=True)
    for nb in sorted(src.glob("*.ipynb")):
        target = dst / nb.name
        if not target.exists() or target.read_bytes() != nb.read_bytes():
            shutil.copyfile(nb, target)


def _fmt(x, digits=3):
    if isinstance(x, str):
        return x
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "–"
    if isinstance(x, (int, np.integer)):
        return f"{x:,}"
    if isinstance(x, float) and x.is_integer() and abs(x) >= 1:
        return f"{int(x):,}"
    return f"{x:.{digits}g}"


def _write_table(name, frame, digits=3):
    out = DOCS / "experiments" / "_tables"
    out.mkdir(parents=True, exist_ok=True)
    frame = frame.copy()
    for col in frame.columns:
        frame[col] = [_fmt(v, digits) for v in frame[col]]
    text = frame.to_csv(index=False)
    path = out / f"{name}.csv"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _median_table(results, by, columns, rename=None):
    table = results.groupby(by, sort=True)[columns].median().reset_index()
    counts = results.groupby(by, sort=True).size().reset_index(name="replicates")
    table = table.merge(counts, on=by)
    return table.rename(columns=rename or {})


def write_experiment_tables(app, config):
    """Median tables of the committed results, one per experiment page."""
    fig = REPO / "figures"

    def read(name):
        return pd.read_csv(fig / name / "results.csv")

    r = read("shrinkage")
    _write_table("shrinkage", _median_table(
        r, ["model", "epsilon"], ["theory_ratio", "ratio", "theory_diameter",
                                  "embedded_diameter"]))
    r = read("mechanisms")
    _write_table("mechanisms", _median_table(
        r, ["model", "n_nodes"], ["epsilon", "flip_edgeflip", "flip_laplaceflip", "w_edgeflip",
                                  "w_laplaceflip_authors", "w_laplaceflip"]))
    r = read("convergence")
    _write_table("convergence", _median_table(
        r, ["epsilon", "n_nodes"], ["w_raw", "w_bias", "w_si_log", "si_floor", "w_di",
                                    "di_scale", "di_theory_scale", "w_adjusted"]))
    r = read("clustering")
    _write_table("clustering", r.groupby(["model", "epsilon"])[
        ["ari_tomato", "ari_tomato_auto", "ari_kmeans", "ari_spectral"]].mean().reset_index())
    r = read("rates")
    _write_table("rates", _median_table(
        r, ["epsilon", "n_nodes"], ["two_inf", "two_inf_nonprivate", "inflation_two_inf",
                                    "theory_inflation"]))
    # realnets writes its own summaries (every method, peers with multi-word names too).
    # Tables the experiments write themselves, shown as they are (numbers formatted).
    for name, path in (("pufferfish_summary", "pufferfish/pufferfish_summary.csv"),
                       ("mesa_table", "mesa/mesa_table.csv"),
                       ("mesa_decay_scan", "mesa/decay_scan.csv"),
                       ("ergm_node_claim", "ergm_node/claim.csv"),
                       ("realnets_summary", "realnets/realnets_summary.csv"),
                       ("realnets_methods", "realnets/realnets_methods.csv"),
                       ("realnets_seconds", "realnets/realnets_seconds.csv")):
        _write_table(name, pd.read_csv(fig / path))
    slopes = fig / "convergence" / "convergence_slopes.csv"
    if slopes.exists():
        _write_table("convergence_slopes", pd.read_csv(slopes))


def _canonical(target, owner):
    """The documented path of ``target`` (short, root or private-module spelling), or None."""
    parts = target.split(".")
    if parts[0] != "tdadp" and len(parts) > 2:
        return None
    # The object itself, or an object's member (``EdgeFlip.fit``).
    for i in range(len(parts) - 1, -1, -1):
        head = parts[i]
        if head in owner and (i == 0 or parts[0] == "tdadp"):
            return ".".join([owner[head], head, *parts[i + 1:]])
    if target.startswith("tdadp.") and len(parts) >= 2 and parts[1] in FOLDERS:
        # A private module's path (``tdadp.release._flip``): its folder's page.
        return f"tdadp.{parts[1]}"
    return None


def _member_target(target, context_class, owner, objects):
    """A member reference (``fit``, ``labels_``, ``EdgeFlip.transform``) as a documented path.

    The member's own entry if its class, or a public tdadp base class of it, documents it;
    otherwise the class's page, whose Attributes section describes fitted attributes (numpydoc
    renders them as a list, without a target of their own).
    """
    parts = target.split(".")
    if len(parts) >= 2 and parts[-2] in owner:
        cls_name, member = parts[-2], parts[-1]
    elif context_class and context_class.split(".")[-1] in owner:
        cls_name, member = context_class.split(".")[-1], parts[-1]
    else:
        return None
    cls = getattr(importlib.import_module(owner[cls_name]), cls_name, None)
    if not inspect.isclass(cls):
        return None
    for base in cls.__mro__:
        name = base.__name__
        if name in owner and getattr(importlib.import_module(owner[name]), name, None) is base:
            path = f"{owner[name]}.{name}.{member}"
            if path in objects:
                return path
    return f"{owner[cls_name]}.{cls_name}"


def resolve_short_names(app, env, node, contnode):
    """Resolve ``EdgeFlip``, ``tdadp.EdgeFlip``, ``tdadp.release._flip.EdgeFlip``, members."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    domain = env.get_domain("py")
    owner = app.env.tdadp_owner
    candidates = []
    canonical = _canonical(target, owner)
    if canonical is not None and canonical != target:
        candidates.append(canonical)
    if node.get("reftype") in ("meth", "attr", "obj", "func"):
        context = node.get("py:class")
        member = _member_target(target, context, owner, domain.objects)
        if member is not None:
            candidates.append(member)
    if not candidates and "." not in target:
        # A name documented once, anywhere (a theory page documents the private functions
        # that carry proofs): the one object whose path ends with it.
        matches = [path for path in domain.objects if path.endswith("." + target)]
        if len(matches) == 1:
            candidates.append(matches[0])
    for path in candidates:
        for role in ("obj", "mod"):
            found = domain.resolve_xref(env, node["refdoc"], app.builder, role, path, node,
                                        contnode)
            if found is not None:
                return found
    return None


def _store_owner(app):
    app.env.tdadp_owner = public_names()


def setup(app):
    app.connect("config-inited", write_api_pages, priority=100)
    app.connect("config-inited", write_cli_help, priority=100)
    app.connect("config-inited", copy_notebooks, priority=100)
    app.connect("config-inited", write_experiment_tables, priority=100)
    app.connect("builder-inited", _store_owner)
    app.connect("missing-reference", resolve_short_names)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
