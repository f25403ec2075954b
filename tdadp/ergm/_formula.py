"""ERGM formulas as statnet users write them, and the node attributes their terms read.

A formula is a sum of terms, as in R's ergm package::

    "edges + nodematch('Sex', diff=TRUE) + nodematch('Race') + gwesp(0.5, fixed=TRUE)"

(an optional left-hand side ``net ~`` is ignored). The text is read with Python's parser
(:mod:`ast`) and walked, never evaluated: a term is a name or a call whose arguments are
numbers, quoted strings, ``TRUE``/``FALSE``/``T``/``F``/``NULL`` and ``c(...)`` vectors of
them.

The terms and their arguments (ergm's names, with tdadp's as aliases):

- ``edges``.
- ``gwesp(decay, fixed=TRUE)``: tdadp's ``altktriangles(e^decay)``; ``gwdsp(decay,
  fixed=TRUE)``: ``altktwopaths(e^decay)``; ``gwdegree(decay, fixed=TRUE)``: ergm's
  geometrically weighted degree ``e^decay sum_i (1 - (1 - e^-decay)^(d_i))``. ergm's
  default ``fixed=FALSE`` is a curved model (the decay estimated too), which tdadp does not
  fit, so ``fixed=TRUE`` must be written.
- ``altkstars(lambda)``, ``altktriangles(lambda)``, ``altktwopaths(lambda)`` (default 2).
- ``nodematch(attr, diff=FALSE, keep=NULL, levels=NULL)``, ``nodefactor(attr, levels=-1)``,
  ``nodemix(attr, levels=NULL, levels2=-1)``: ergm's level specifications: ``NULL`` or
  ``TRUE`` all levels (sorted), numbers 1-based indices into the sorted levels (negative:
  all but those), strings the level values themselves; ``keep`` is ergm's older spelling of
  positive indices. Without ``attr`` (``nodematch``) a term reads the single label vector
  given as ``labels=``.

Attributes come by name from a networkx graph's node attributes, a pandas DataFrame (one
column an attribute) or a dict of arrays, in node order.
"""

from __future__ import annotations

import ast
import math
import numbers
from dataclasses import dataclass, field

from ..io._networkx import is_networkx_graph
from ..utils._output import is_dataframe

__all__ = ["TermSpec", "parse_formula", "graph_attributes", "attribute_table",
           "select_levels", "ATTRIBUTE_TERMS", "FORMULA_TERMS"]

# Terms that read a node attribute, and every name a formula may use.
ATTRIBUTE_TERMS = ("nodematch", "nodefactor", "nodemix")
_ERGM_CURVED = {"gwesp": "altktriangles", "gwdsp": "altktwopaths", "gwdegree": "gwdegree"}
_TDADP_ALTERNATING = ("altkstars", "altktriangles", "altktwopaths")
FORMULA_TERMS = ("edges", *_ERGM_CURVED, *_TDADP_ALTERNATING, *ATTRIBUTE_TERMS)
# The arguments each term takes, by position then by keyword.
_SIGNATURES = {
    "edges": (),
    "gwesp": ("decay", "fixed"),
    "gwdsp": ("decay", "fixed"),
    "gwdegree": ("decay", "fixed"),
    "altkstars": ("decay",),
    "altktriangles": ("decay",),
    "altktwopaths": ("decay",),
    "nodematch": ("attr", "diff", "keep", "levels"),
    "nodefactor": ("attr", "levels"),
    "nodemix": ("attr", "levels", "levels2"),
}
_R_CONSTANTS = {"TRUE": True, "T": True, "FALSE": False, "F": False, "NULL": None}
_ABSENT = object()


@dataclass(frozen=True)
class TermSpec:
    """One term as written: which statistic it is and the options that shape it.

    Attributes
    ----------
    call : str
        The name as written (``"gwesp"``, ``"altktriangles"``, ``"nodematch"``...).
    kind : str
        tdadp's term (``"altktriangles"`` for ``gwesp``...), the sampler's code.
    decay : float
        tdadp's decay lambda >= 1 (``nan`` for terms without one); ``gwesp(a)`` has
        ``lambda = e^a``.
    written_decay : float or None
        The decay argument as written (ergm's ``a`` or tdadp's lambda).
    attr : str or None
        The node attribute read (None: the single ``labels`` vector).
    diff : bool
        ``nodematch``: one statistic a level.
    levels, levels2 : tuple, bool or None
        ergm level specifications (see the module notes); ``_ABSENT`` entries are defaults.
    """

    call: str
    kind: str
    decay: float = float("nan")
    written_decay: float | None = None
    attr: str | None = None
    diff: bool = False
    levels: object = field(default=_ABSENT, compare=True)
    levels2: object = field(default=_ABSENT, compare=True)

    @property
    def labelled(self):
        return self.kind in ATTRIBUTE_TERMS

    def __str__(self):
        args = []
        if self.attr is not None:
            args.append(repr(self.attr))
        if self.written_decay is not None:
            args.append(f"{self.written_decay:g}")
        if self.diff:
            args.append("diff=TRUE")
        for name in ("levels", "levels2"):
            value = getattr(self, name)
            if value is not _ABSENT:
                args.append(f"{name}={_r_value(value)}")
        if self.call in _ERGM_CURVED:
            args.append("fixed=TRUE")
        return f"{self.call}({', '.join(args)})" if args else self.call


def _r_value(value):
    """A level specification written back in R syntax."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, tuple):
        return "c(" + ", ".join(_r_value(v) for v in value) + ")" if len(value) != 1 \
            else _r_value(value[0])
    if isinstance(value, str):
        return repr(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def _literal(node, where):
    """The value of one argument's syntax tree (numbers, strings, R constants, c(...))."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)) \
            and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name) and node.id in _R_CONSTANTS:
        return _R_CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _literal(node.operand, where)
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "c" \
            and not node.keywords:
        values = tuple(_literal(a, where) for a in node.args)
        if any(isinstance(v, tuple) for v in values):
            raise ValueError(f"{where}: c(...) holds numbers or strings, not vectors.")
        return values
    raise ValueError(f"{where}: an argument must be a number, a quoted string, TRUE, FALSE, "
                     "NULL or c(...) of them.")


def _split(text):
    """The terms of a formula's right-hand side as (name, args, kwargs) syntax."""
    if not isinstance(text, str):
        raise ValueError(f"an ERGM formula is a string, got {type(text).__name__}.")
    body = text
    if "~" in text:
        lhs, tilde, rhs = text.partition("~")
        if "'" in lhs or '"' in lhs or "~" in rhs:
            raise ValueError("an ERGM formula has at most one '~' (network ~ terms).")
        if lhs.strip() and not lhs.strip().isidentifier():
            raise ValueError("the left-hand side of an ERGM formula must be a name "
                             "(network ~ terms) or nothing.")
        body = rhs
    if not body.strip():
        raise ValueError("an ERGM needs at least one term.")
    try:
        tree = ast.parse(body.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ValueError(f"the ERGM formula is not valid syntax near column {exc.offset}: "
                         "terms are joined by '+', e.g. \"edges + nodematch('Sex')\".") \
            from None
    terms = []

    def walk(node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            walk(node.left)
            walk(node.right)
        else:
            terms.append(node)

    walk(tree)
    out = []
    for k, node in enumerate(terms, 1):
        where = f"term {k} of the formula"
        if isinstance(node, ast.Name):
            out.append((node.id, (), {}, where))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            where = f"term {k} ({node.func.id})"
            if any(kw.arg is None for kw in node.keywords):
                raise ValueError(f"{where}: arguments are name=value pairs.")
            args = tuple(_literal(a, where) for a in node.args)
            kwargs = {kw.arg: _literal(kw.value, where) for kw in node.keywords}
            out.append((node.func.id, args, kwargs, where))
        else:
            raise ValueError(f"{where} is not a term: a formula is terms joined by '+', each "
                             "a name or a call such as nodematch('Sex', diff=TRUE).")
    return out


def _bind(name, args, kwargs, where):
    """Arguments by parameter name (positional first), unknown ones refused."""
    params = _SIGNATURES[name]
    if len(args) > len(params):
        raise ValueError(f"{where} takes at most {len(params)} argument"
                         f"{'s' if len(params) != 1 else ''}, got {len(args)}.")
    bound = dict(zip(params, args))
    for key, value in kwargs.items():
        if key not in params:
            known = ", ".join(params) or "none"
            raise ValueError(f"{where}: unknown argument {key!r} (it takes: {known}).")
        if key in bound:
            raise ValueError(f"{where}: argument {key!r} given twice.")
        bound[key] = value
    return bound


def _real(value, where, what):
    if not isinstance(value, numbers.Real) or isinstance(value, bool) \
            or not math.isfinite(value):
        raise ValueError(f"{where}: {what} must be a finite number.")
    return float(value)


def _term(name, args, kwargs, where):
    if name not in _SIGNATURES:
        raise ValueError(f"{where}: unknown ERGM term {name!r}; known: "
                         f"{', '.join(FORMULA_TERMS)}.")
    b = _bind(name, args, kwargs, where)
    if name == "edges":
        return TermSpec("edges", "edges")
    if name in _ERGM_CURVED:
        if b.get("fixed") is not True:
            raise ValueError(f"{where}: write {name}(decay, fixed=TRUE): ergm's default "
                             "fixed=FALSE is a curved model whose decay is estimated, which "
                             "tdadp does not fit.")
        a = _real(b.get("decay", 0.0) if b.get("decay") is not None else 0.0, where,
                  "the decay")
        if a < 0:
            raise ValueError(f"{where}: the decay must be >= 0 (tdadp's lambda = e^decay >= 1).")
        return TermSpec(name, _ERGM_CURVED[name], math.exp(a), a)
    if name in _TDADP_ALTERNATING:
        lam = _real(b.get("decay", 2.0), where, "the decay")
        if lam < 1:
            raise ValueError(f"{where}: the decay must be >= 1 (its alternating signs need "
                             "0 <= 1 - 1/decay < 1).")
        return TermSpec(name, name, lam, lam if "decay" in b else None)
    attr = b.get("attr")
    if attr is not None and not isinstance(attr, str):
        raise ValueError(f"{where}: the attribute is a quoted name, e.g. {name}('Sex').")
    diff = b.get("diff", False)
    if not isinstance(diff, bool):
        raise ValueError(f"{where}: diff is TRUE or FALSE.")
    levels = b.get("levels", _ABSENT)
    if "keep" in b:
        if levels is not _ABSENT:
            raise ValueError(f"{where}: give keep= or levels=, not both.")
        keep = b["keep"]
        keep = keep if isinstance(keep, tuple) else (keep,)
        if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= 1
                   for v in keep):
            raise ValueError(f"{where}: keep= takes positive 1-based level indices.")
        levels = keep
    return TermSpec(name, name, attr=attr, diff=diff, levels=levels,
                    levels2=b.get("levels2", _ABSENT))


def parse_formula(text):
    """The terms of an ERGM formula, as :class:`TermSpec`, in order.

    Parameters
    ----------
    text : str
        ``"edges + nodematch('Sex', diff=TRUE) + gwesp(0.5, fixed=TRUE)"`` (an optional
        ``net ~`` in front is ignored).

    Returns
    -------
    list of TermSpec

    Examples
    --------
    >>> from tdadp.ergm._formula import parse_formula
    >>> [str(t) for t in parse_formula("net ~ edges + gwesp(0.5, fixed=TRUE)")]
    ['edges', 'gwesp(0.5, fixed=TRUE)']
    """
    return [_term(*item) for item in _split(text)]


def legacy_spec(name, decay):
    """The spec of a term given as a name or (name, decay) pair (the list form)."""
    if name in _TDADP_ALTERNATING:
        return TermSpec(name, name, decay, decay)
    return TermSpec(name, name, decay)


def graph_attributes(G):
    """The node attributes of a networkx graph as a dict of lists in node order, or None.

    A node without an attribute others have holds None there (a term reading it reports how
    many nodes lack it); anything not a networkx graph gives None.
    """
    if not is_networkx_graph(G):
        return None
    nodes = list(G.nodes)
    names = {}
    for v in nodes:
        for key in G.nodes[v]:
            names[key] = names.get(key, 0) + 1
    out = {key: [G.nodes[v].get(key) for v in nodes] for key in names}
    return out or None


def attribute_table(labels, n_nodes=None):
    """Attributes by name (a dict of columns) from a DataFrame or dict, and their length.

    Returns ``(table, n)``: ``table`` None when ``labels`` is a single label vector (or
    None); ``n`` the common length of the columns (``n_nodes`` when given).
    """
    if is_dataframe(labels):
        table = {str(c): labels[c].to_numpy() for c in labels.columns}
    elif isinstance(labels, dict):
        table = dict(labels)
        if not all(isinstance(k, str) for k in table):
            raise ValueError("labels given as a dict are node attributes by name: str keys, each "
                             "with one value per node.")
    else:
        return None, n_nodes
    lengths = {len(v) if hasattr(v, "__len__") and not isinstance(v, (str, bytes)) else -1
               for v in table.values()}
    if -1 in lengths:
        raise ValueError("each node attribute must be a sequence of one value per node.")
    if n_nodes is None:
        if len(lengths) > 1:
            raise ValueError("the node attributes have different lengths: one value per node "
                             "each.")
        n_nodes = lengths.pop() if lengths else None
    return table, n_nodes


def select_levels(spec, n_levels, level_names, where, default=_ABSENT):
    """Indices (into the sorted levels) an ergm level specification keeps, in order.

    ``spec``: ``_ABSENT`` (the term's default ``default``), None or TRUE (all), FALSE (none),
    numbers (1-based indices; negative: all but those), strings (level values, compared with
    each level written as a string).
    """
    if spec is _ABSENT:
        spec = default if default is not _ABSENT else None
    if spec is None or spec is True:
        return list(range(n_levels))
    if spec is False:
        return []
    values = spec if isinstance(spec, tuple) else (spec,)
    if all(isinstance(v, str) for v in values):
        index = {name: k for k, name in enumerate(level_names)}
        missing = sum(v not in index for v in values)
        if missing:
            raise ValueError(f"{where}: {missing} of the levels named are not levels of the "
                             "attribute.")
        return [index[v] for v in values]
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) and v != 0
               for v in values):
        raise ValueError(f"{where}: a level specification is level names, or non-zero 1-based "
                         "indices (negative: all but those).")
    if any(abs(v) > n_levels for v in values):
        raise ValueError(f"{where}: a level index is beyond the {n_levels} levels.")
    if all(v > 0 for v in values):
        return [int(v) - 1 for v in values]
    if all(v < 0 for v in values):
        drop = {-int(v) - 1 for v in values}
        return [k for k in range(n_levels) if k not in drop]
    raise ValueError(f"{where}: level indices are all positive or all negative.")
