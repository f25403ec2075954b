"""ERGM formulas as statnet users write them, and the node attributes their terms read.

A formula is a sum of terms, as in R's ergm package::

    "edges + nodematch('Sex', diff=TRUE) + nodematch('Race') + gwesp(0.5, fixed=TRUE)"

(an optional left-hand side ``net ~`` is ignored). The text is read with Python's tokenizer
and parser (:mod:`ast`), never evaluated: a term is a name or a call whose arguments are
numbers, quoted strings, ``TRUE``/``FALSE``/``T``/``F``/``NULL`` and ``c(...)`` vectors of
them. As in R, a formula may run over several lines and ``#`` starts a comment; an
argument named twice is refused. A formula longer than :data:`MAX_FORMULA_LENGTH`
characters, or nesting brackets and signs deeper than :data:`MAX_FORMULA_NESTING`, is
refused with a ValueError.

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
import io
import math
import numbers
import tokenize
from dataclasses import dataclass, field

from ..io._networkx import is_networkx_graph
from ..utils._output import is_dataframe
from ..utils._params import short_repr

__all__ = ["TermSpec", "parse_formula", "graph_attributes", "attribute_table",
           "select_levels", "ATTRIBUTE_TERMS", "FORMULA_TERMS", "MAX_FORMULA_LENGTH",
           "MAX_FORMULA_NESTING"]

# Limits far beyond real formulas, so that only a pathological one is refused. statnet's
# tutorial models of the Add Health schools are about ten terms in 300 characters, and a
# term nests at most c(...) in its call with a sign (depth 3). 100,000 characters still
# read a generated sum of thousands of terms (more statistics than any model one fits);
# the nesting cap keeps the recursive reading of arguments shallow.
MAX_FORMULA_LENGTH = 100_000
MAX_FORMULA_NESTING = 32
_NAME_SHOWN = 40  # characters of a term's name quoted in a message

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
    """The terms of a formula's right-hand side as (name, args, kwargs, where) syntax."""
    if not isinstance(text, str):
        raise ValueError(f"an ERGM formula is a string, got {type(text).__name__}.")
    if len(text) > MAX_FORMULA_LENGTH:
        raise ValueError(f"the ERGM formula has {len(text):,} characters; at most "
                         f"{MAX_FORMULA_LENGTH:,} are read (a real model is a few hundred).")
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
    out = []
    for k, tokens in enumerate(_term_tokens(body), 1):
        # Tokens joined by spaces read as the term did: each string is one token, and
        # newlines and comments are gone.
        try:
            node = ast.parse(" ".join(t.string for t in tokens), mode="eval").body
        except SyntaxError:
            raise _syntax_error(tokens[0], f"term {k} is not a name or a call") from None
        out.append(_term_syntax(node, k))
    return out


def _syntax_error(token, why):
    row, col = token.start
    col -= row == 1  # the '(' put in front of the formula
    return ValueError(f"the ERGM formula is not valid syntax near line {row}, column {col + 1}"
                      f": {why}; terms are joined by '+', e.g. \"edges + nodematch('Sex')\".")


def _term_tokens(body):
    """The tokens of each term: the formula cut at its top-level '+'.

    Cutting the tokens, rather than walking the '+' chain of one syntax tree, reads a sum
    of any length without recursion; the grammar allowed (names, numbers, strings, calls,
    '=' and ',' inside them, signs) leaves brackets and signs as the only nesting, which is
    counted and capped, so no parse below can recurse deeply. Inside the '(' put around
    the formula, a newline is whitespace, as in R.
    """
    skip = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT,
            tokenize.DEDENT, tokenize.ENDMARKER}
    reader = io.StringIO("(" + body + "\n)").readline
    tokens = (t for t in tokenize.generate_tokens(reader) if t.type not in skip)
    terms, current = [], []
    depth = signs = 0
    previous = "("  # the last token's class: "value", "(", ")", "," or "sign" (also '=')
    closed = None   # the ')' that closed the '(' put around the formula
    try:
        next(tokens)  # that '('
        for token in tokens:
            if closed is not None:
                raise _syntax_error(closed, "a ')' that closes no '('")
            if token.type == tokenize.ERRORTOKEN:
                if token.string.isspace():  # tokenize's note before a bad character
                    continue
                raise _syntax_error(token, "a string with no closing quote" if token.string
                                    in "'\"" else f"{token.string[:10]!r} is not allowed")
            kind = token.string if token.type == tokenize.OP else "value"
            if kind == ")" and depth == 0:
                closed = token
                continue
            if kind == "value" and previous in ("value", ")"):
                raise _syntax_error(token, "two values with nothing between them")
            if kind in ("+", "-") and previous in ("value", ")"):
                if kind == "+" and depth == 0:
                    terms.append(current)
                    current, previous = [], "("
                    continue
                raise _syntax_error(token, f"a '{kind}' between values (only terms are "
                                    "added)")
            if kind == "(" and previous == ")":
                raise _syntax_error(token, "a call of a call")
            if kind not in ("value", "(", ")", ",", "=", "+", "-"):
                raise ValueError(f"term {len(terms) + 1} of the formula is not a term: a "
                                 "formula is terms joined by '+', each a name or a call such "
                                 f"as nodematch('Sex', diff=TRUE) (found {kind[:10]!r} at "
                                 f"line {token.start[0]}).")
            depth += (kind == "(") - (kind == ")")
            signs = signs + 1 if kind in ("+", "-") else 0
            if depth + signs > MAX_FORMULA_NESTING:
                raise ValueError(f"the ERGM formula nests brackets and signs more than "
                                 f"{MAX_FORMULA_NESTING} deep (at line {token.start[0]}): a "
                                 "term nests at most c(...) inside its call, with a sign.")
            previous = "sign" if kind in ("+", "-", "=") else kind
            current.append(token)
    except (tokenize.TokenError, SyntaxError) as exc:  # an unclosed bracket or string
        raise ValueError("the ERGM formula is not valid syntax: an unclosed bracket or "
                         "string; terms are joined by '+', e.g. \"edges + "
                         "nodematch('Sex')\".") from exc
    terms.append(current)
    for k, term in enumerate(terms, 1):
        if not term:
            raise ValueError(f"the ERGM formula is not valid syntax: term {k} is empty (a "
                             "'+' with no term after it); terms are joined by '+', e.g. "
                             "\"edges + nodematch('Sex')\".")
    return terms


def _term_syntax(node, k):
    """(name, args, kwargs, where) of one term's syntax tree."""
    where = f"term {k} of the formula"
    if isinstance(node, ast.Name):
        return node.id, (), {}, where
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        raise ValueError(f"{where} is not a term: a formula is terms joined by '+', each "
                         "a name or a call such as nodematch('Sex', diff=TRUE).")
    where = f"term {k} ({_short_name(node.func.id)})"
    if any(kw.arg is None for kw in node.keywords):
        raise ValueError(f"{where}: arguments are name=value pairs.")
    kwargs = {}
    for kw in node.keywords:
        # R refuses a formal argument matched twice, as Python does: never keep the last.
        if kw.arg in kwargs:
            raise ValueError(f"{where}: argument {short_repr(kw.arg)} given twice.")
        kwargs[kw.arg] = _literal(kw.value, where)
    return node.func.id, tuple(_literal(a, where) for a in node.args), kwargs, where


def _short_name(name):
    return name if len(name) <= _NAME_SHOWN else short_repr(name, _NAME_SHOWN)


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
            raise ValueError(f"{where}: unknown argument {short_repr(key)} (it takes: "
                             f"{known}).")
        if key in bound:
            raise ValueError(f"{where}: argument {short_repr(key)} given twice.")
        bound[key] = value
    return bound


def _real(value, where, what):
    if not isinstance(value, numbers.Real) or isinstance(value, bool) \
            or not math.isfinite(value):
        raise ValueError(f"{where}: {what} must be a finite number.")
    return float(value)


def _term(name, args, kwargs, where):
    if name not in _SIGNATURES:
        raise ValueError(f"{where}: unknown ERGM term {short_repr(name)}; known: "
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
