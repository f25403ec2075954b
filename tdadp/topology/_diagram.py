"""The persistence diagram type shared by every topology stage, its converters and log scale.

A diagram is a multiset of (birth, death) pairs per homology dimension. tdadp stores it as an
immutable mapping ``homology dimension -> (k, 2) float64 array``. Infinite deaths (essential
classes) are kept as ``inf``; log-scale diagrams may have births equal to ``-inf``. Points on
the diagonal (birth == death) are allowed: they never change a distance.

Its pandas form (:meth:`PersistenceDiagram.to_frame`, what
:class:`~tdadp.topology.PersistentHomology` returns with pandas output) is giotto-tda's
layout, one row per point, with columns ``dimension, birth, death``; the diagram's
dimensions, empty ones included, go in ``attrs["homology_dimensions"]``. Every consumer of
diagrams reads such a DataFrame back as the diagram (:func:`as_diagram`).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

import numpy as np
import scipy.sparse as sp

from ..utils._batch import split_batch
from ..utils._output import is_dataframe, pandas_module
from ..utils._validation import as_real_array

__all__ = ["PersistenceDiagram", "log_diagram", "as_diagram", "stack_giotto", "diagram_batch",
           "FRAME_COLUMNS"]

# The columns of a diagram's DataFrame form, in order.
FRAME_COLUMNS = ("dimension", "birth", "death")


def _check_dimension(dim):
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral) or dim < 0:
        raise ValueError(f"homology dimensions must be non-negative integers, got {dim!r}.")
    return int(dim)


def _check_points(points, dim):
    what = f"the points of dimension {dim}"
    try:
        arr = np.array(as_real_array(points, what, finite=False))
    except ValueError as exc:  # a ragged list (or complex numbers)
        if str(exc).startswith("Complex"):
            raise
        raise ValueError(f"{what} are not numeric: {exc}") from exc
    if arr.size == 0:
        return np.zeros((0, 2))
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            f"the points of dimension {dim} must be a (k, 2) array of (birth, death) pairs, "
            f"got shape {arr.shape}."
        )
    if np.isnan(arr).any():
        i = int(np.flatnonzero(np.isnan(arr).any(axis=1))[0])
        raise ValueError(f"point {i} of dimension {dim} contains NaN: {arr[i].tolist()}.")
    bad = arr[:, 1] < arr[:, 0]
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"point {i} of dimension {dim} dies before it is born: (birth, death) = "
            f"{tuple(arr[i])}."
        )
    if np.isposinf(arr[:, 0]).any():
        i = int(np.flatnonzero(np.isposinf(arr[:, 0]))[0])
        raise ValueError(f"point {i} of dimension {dim} is born at +inf; births must be finite "
                         "or -inf.")
    return arr


def _sorted_rows(arr):
    order = np.lexsort((arr[:, 1], arr[:, 0]))
    return arr[order]


class PersistenceDiagram(Mapping):
    """A persistence diagram: homology dimension -> (k, 2) array of (birth, death) pairs.

    The one diagram type of tdadp. ``D[1]`` is the (k, 2) float64 array of the H1 points
    (read-only); ``D.homology_dimensions`` lists the stored dimensions, including dimensions
    with no point. Essential classes have death ``inf``; in log scale (:func:`log_diagram`),
    births equal to 0 become ``-inf``. Equality compares the diagrams as multisets.

    Parameters
    ----------
    points : mapping or PersistenceDiagram or DataFrame or (k, 2) array_like
        ``{dimension: (k, 2) array_like}``, or the DataFrame form (:meth:`from_frame`). A
        bare (k, 2) array is a diagram with the single dimension given by
        ``homology_dimension``.
    homology_dimension : int, default=0
        Dimension of a bare array.

    Raises
    ------
    ValueError
        On NaN, a death before its birth, a birth at ``+inf``, a malformed array or a negative
        or non-integer dimension.

    Notes
    -----
    Converters to and from the formats of the field's libraries:

    * gudhi: a list of ``(dim, (birth, death))`` pairs, as returned by
      ``SimplexTree.persistence()`` (:meth:`from_gudhi`, :meth:`to_gudhi`);
    * ripser / persim: a list of (k, 2) arrays indexed by dimension (:meth:`from_ripser`,
      :meth:`to_ripser`);
    * giotto-tda: an (n, 3) array of ``(birth, death, dim)`` triples, padded with points
      ``(0, 0, dim)`` on the diagonal (:meth:`from_giotto`, :meth:`to_giotto`,
      :func:`stack_giotto` for a batch);
    * pandas: a DataFrame with a row per point and columns ``dimension, birth, death``
      (:meth:`from_frame`, :meth:`to_frame`).

    Examples
    --------
    >>> D = PersistenceDiagram({0: [[0.0, 1.0], [0.0, float("inf")]], 1: [[0.5, 0.7]]})
    >>> D.homology_dimensions
    (0, 1)
    >>> D[1]
    array([[0.5, 0.7]])
    >>> D.shift(1.0)[1]
    array([[1.5, 1.7]])
    """

    __slots__ = ("_data",)

    def __init__(self, points=None, homology_dimension=0):
        if isinstance(points, PersistenceDiagram):
            self._data = dict(points._data)
            return
        if is_dataframe(points):
            points = _frame_points(points)
        if points is None:
            points = {}
        if not isinstance(points, Mapping) or sp.issparse(points):  # a dok matrix is a dict
            points = {homology_dimension: points}
        data = {}
        for dim, pts in points.items():
            dim = _check_dimension(dim)
            arr = _check_points(pts, dim)
            arr.setflags(write=False)
            data[dim] = arr
        self._data = dict(sorted(data.items()))

    # -- mapping protocol ------------------------------------------------------------------
    def __getitem__(self, dim):
        try:
            return self._data[dim]
        except KeyError:
            raise KeyError(
                f"homology dimension {dim!r} is not in this diagram; it has "
                f"{self.homology_dimensions}."
            ) from None

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    @property
    def homology_dimensions(self):
        """Tuple of the stored homology dimensions, sorted."""
        return tuple(self._data)

    def get(self, dim, default=None):
        """``D[dim]``, or ``default`` (an empty (0, 2) array when None) if it is absent."""
        if dim in self._data:
            return self._data[dim]
        return np.zeros((0, 2)) if default is None else default

    @property
    def n_points(self):
        """Dict ``dimension -> number of points``."""
        return {k: v.shape[0] for k, v in self._data.items()}

    # -- equality and display --------------------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, PersistenceDiagram):
            return NotImplemented
        if self.homology_dimensions != other.homology_dimensions:
            return False
        return all(
            self[k].shape == other[k].shape
            and np.array_equal(_sorted_rows(self[k]), _sorted_rows(other[k]))
            for k in self._data
        )

    __hash__ = None

    def __repr__(self):
        parts = []
        for k, v in self._data.items():
            n_inf = int(np.isinf(v).any(axis=1).sum())
            extra = f" ({n_inf} infinite)" if n_inf else ""
            parts.append(f"H{k}: {v.shape[0]} points{extra}")
        return "PersistenceDiagram(" + ", ".join(parts) + ")"

    # -- operations ------------------------------------------------------------------------
    def shift(self, s):
        """The diagram shifted along the diagonal: every (b, d) becomes (b + s, d + s).

        Infinite coordinates stay infinite, and the distance of every point to the diagonal
        is unchanged.
        """
        s = float(s)
        if not np.isfinite(s):
            raise ValueError(f"the shift must be a finite number, got {s}.")
        return PersistenceDiagram({k: v + s for k, v in self._data.items()})

    def scale(self, c):
        """The diagram with every coordinate multiplied by ``c > 0``."""
        c = float(c)
        if not (np.isfinite(c) and c > 0):
            raise ValueError(f"the scale must be a finite positive number, got {c}.")
        return PersistenceDiagram({k: v * c for k, v in self._data.items()})

    def select(self, homology_dimensions):
        """The sub-diagram of the given dimensions (absent ones become empty)."""
        if isinstance(homology_dimensions, numbers.Integral):
            homology_dimensions = (homology_dimensions,)
        return PersistenceDiagram(
            {_check_dimension(k): self.get(k) for k in homology_dimensions}
        )

    def drop_infinite(self):
        """The diagram without its points having an infinite coordinate."""
        return PersistenceDiagram(
            {k: v[np.isfinite(v).all(axis=1)] for k, v in self._data.items()}
        )

    def drop_diagonal(self):
        """The diagram without its points on the diagonal (birth == death)."""
        return PersistenceDiagram({k: v[v[:, 0] != v[:, 1]] for k, v in self._data.items()})

    def persistence(self, dim):
        """Lifetimes ``death - birth`` of the points of dimension ``dim``."""
        v = self.get(dim)
        with np.errstate(invalid="ignore"):
            out = v[:, 1] - v[:, 0]
        # (-inf, -inf) lies on the diagonal.
        out[v[:, 0] == v[:, 1]] = 0.0
        return out

    # -- converters ------------------------------------------------------------------------
    @classmethod
    def from_gudhi(cls, persistence, homology_dimensions=None):
        """From gudhi's ``[(dim, (birth, death)), ...]`` list, or a dict of per-dim arrays.

        ``homology_dimensions`` keeps only these dimensions and adds empty ones for those
        without points.
        """
        if isinstance(persistence, Mapping):
            data = {int(k): np.asarray(v, dtype=float) for k, v in persistence.items()}
        else:
            data = {}
            for item in persistence:
                try:
                    dim, (b, d) = item
                except (TypeError, ValueError) as exc:
                    raise ValueError(
                        f"expected gudhi pairs (dim, (birth, death)), got {item!r}."
                    ) from exc
                data.setdefault(_check_dimension(dim), []).append((b, d))
        if homology_dimensions is not None:
            dims = (homology_dimensions,) if isinstance(homology_dimensions,
                                                        numbers.Integral) else homology_dimensions
            data = {k: data.get(k, np.zeros((0, 2))) for k in dims}
        return cls(data)

    def to_gudhi(self):
        """gudhi's list of ``(dim, (birth, death))``, by dimension then decreasing persistence."""
        out = []
        for k, v in self._data.items():
            order = np.argsort(-self.persistence(k), kind="stable")
            out.extend((k, (float(b), float(d))) for b, d in v[order])
        return out

    @classmethod
    def from_ripser(cls, dgms, homology_dimensions=None):
        """From ripser's / persim's list of (k, 2) arrays indexed by dimension.

        A ``ripser.ripser`` result dict is accepted too (its ``"dgms"`` entry is used).
        """
        if isinstance(dgms, Mapping) and "dgms" in dgms:
            dgms = dgms["dgms"]
        data = dict(enumerate(dgms))
        if homology_dimensions is not None:
            dims = (homology_dimensions,) if isinstance(homology_dimensions,
                                                        numbers.Integral) else homology_dimensions
            data = {k: data.get(k, np.zeros((0, 2))) for k in dims}
        return cls(data)

    def to_ripser(self):
        """ripser's / persim's list of (k, 2) arrays for dimensions 0..max (absent: empty)."""
        top = max(self._data, default=-1)
        return [np.array(self.get(k)) for k in range(top + 1)]

    @classmethod
    def from_giotto(cls, X, homology_dimensions=None):
        """From giotto-tda's (n, 3) array of ``(birth, death, dim)`` triples.

        giotto-tda pads every diagram with points ``(0, 0, dim)``; these and every other point
        on the diagonal are dropped. Dimensions that only had padding stay, empty.
        """
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != 3:
            raise ValueError(f"a giotto-tda diagram is an (n, 3) array, got shape {X.shape}; "
                             "use stack_giotto / diagrams_from_giotto for a batch.")
        if np.isnan(X).any():
            raise ValueError("the giotto-tda diagram contains NaN.")
        dims = np.unique(X[:, 2]) if homology_dimensions is None else np.asarray(
            [homology_dimensions] if isinstance(homology_dimensions, numbers.Integral)
            else homology_dimensions)
        keep = X[:, 0] != X[:, 1]
        data = {}
        for q in dims:
            if q != int(q):
                raise ValueError(f"giotto-tda dimensions must be integers, got {q}.")
            data[int(q)] = X[keep & (X[:, 2] == q), :2]
        return cls(data)

    def to_giotto(self, n_points=None):
        """giotto-tda's (n, 3) array; each dimension padded with (0, 0, dim) to ``n_points``.

        ``n_points`` is a dict ``dim -> count`` (used by :func:`stack_giotto` to align a
        batch); by default every dimension without points gets one padding point, as giotto
        does.
        """
        blocks = []
        for k, v in self._data.items():
            target = max(1, v.shape[0]) if n_points is None else n_points[k]
            pad = target - v.shape[0]
            block = np.zeros((target, 3))
            block[: v.shape[0], :2] = v
            block[:, 2] = k
            if pad < 0:
                raise ValueError(f"dimension {k} has {v.shape[0]} points > n_points {target}.")
            blocks.append(block)
        return np.concatenate(blocks) if blocks else np.zeros((0, 3))

    @classmethod
    def from_frame(cls, frame):
        """From the DataFrame form: a row per point, columns ``dimension, birth, death``.

        The dimensions are those in ``frame.attrs["homology_dimensions"]`` (kept even when
        they have no row, as :meth:`to_frame` writes them) and those of the rows.

        Raises
        ------
        ValueError
            When the columns are not exactly ``dimension, birth, death`` (in any order), a
            dimension is not a non-negative integer, or a point is invalid.
        """
        if not is_dataframe(frame):
            raise ValueError(f"expected a pandas DataFrame, got {type(frame).__name__}.")
        return cls(_frame_points(frame))

    def to_frame(self):
        """The DataFrame form: a row per point, by dimension, columns ``dimension, birth,
        death``.

        ``dimension`` is int64, ``birth`` and ``death`` float64; ``attrs["homology_dimensions"]``
        is :attr:`homology_dimensions` (so that dimensions without points survive).
        :meth:`from_frame` and every diagram consumer read it back as this diagram.

        Returns
        -------
        pandas.DataFrame of shape (n_points, 3)

        Examples
        --------
        >>> D = PersistenceDiagram({0: [[0.0, float("inf")]], 1: [[0.5, 0.75]], 2: []})
        >>> frame = D.to_frame()
        >>> frame
           dimension  birth  death
        0          0    0.0    inf
        1          1    0.5   0.75
        >>> frame.attrs["homology_dimensions"]
        (0, 1, 2)
        >>> as_diagram(frame) == D
        True
        """
        pd = pandas_module()
        points = np.concatenate([np.zeros((0, 2)), *self._data.values()])
        dims = np.repeat(np.array(self.homology_dimensions, dtype=np.int64),
                         [v.shape[0] for v in self._data.values()])
        frame = pd.DataFrame({"dimension": dims, "birth": points[:, 0],
                              "death": points[:, 1]})
        frame.attrs["homology_dimensions"] = self.homology_dimensions
        return frame


def _frame_dimensions(values, what):
    """Integer homology dimensions from a column or an attrs entry, or a clear ValueError."""
    arr = np.ravel(values)
    # Integers, or floats with integer values (a column that once held a NaN is float).
    numeric = arr.dtype.kind in "iu" or (arr.dtype.kind == "f" and np.isfinite(arr).all()
                                         and np.array_equal(arr, np.round(arr)))
    if not numeric or (arr < 0).any():
        raise ValueError(f"{what} of a diagram's DataFrame must be non-negative integers.")
    return arr.astype(np.int64)


def _frame_points(frame):
    """``{dimension: (k, 2) array}`` of a diagram's DataFrame form."""
    if len(frame.columns) != 3 or set(frame.columns) != set(FRAME_COLUMNS):
        raise ValueError(f"a diagram given as a DataFrame has the columns {FRAME_COLUMNS} (a "
                         f"row per point), got {[str(c) for c in frame.columns]}.")
    dims = _frame_dimensions(frame["dimension"].to_numpy(), "the column 'dimension'")
    listed = frame.attrs.get("homology_dimensions")
    listed = set() if listed is None else set(
        _frame_dimensions(listed, "attrs['homology_dimensions']").tolist())
    points = frame[["birth", "death"]].to_numpy()
    return {k: points[dims == k] for k in sorted(set(dims.tolist()) | listed)}


def diagram_batch(X):
    """``(diagrams, single)``: one diagram or a sequence of them as PersistenceDiagrams.

    A PersistenceDiagram, a DataFrame (the pandas form) or a bare (k, 2) array is one
    diagram; a list or tuple of them, or a 3-D array of equal-size bare arrays, a batch.
    """
    # A DataFrame is array-like: split_batch would read it as a bare (k, 3) array.
    if isinstance(X, PersistenceDiagram) or is_dataframe(X):
        return [as_diagram(X)], True
    if isinstance(X, (list, tuple)) and any(is_dataframe(x) for x in X):
        return [as_diagram(x) for x in X], False
    items, single = split_batch(X, what="persistence diagram",
                                single_types=(PersistenceDiagram,))
    return [as_diagram(D) for D in items], single


def stack_giotto(diagrams):
    """A batch of diagrams as giotto-tda's padded (n_samples, n_points, 3) array."""
    diagrams = [as_diagram(D) for D in diagrams]
    dims = sorted(set().union(*(D.homology_dimensions for D in diagrams)))
    counts = {k: max(1, max(D.get(k).shape[0] for D in diagrams)) for k in dims}
    return np.stack([D.select(dims).to_giotto(counts) for D in diagrams])


def as_diagram(D, homology_dimension=0):
    """``D`` as a :class:`PersistenceDiagram`: the input contract of every diagram consumer.

    A diagram, a mapping dimension -> points, the DataFrame form (:meth:`~PersistenceDiagram.
    to_frame`) or a bare (k, 2) array, which gets ``homology_dimension``.
    """
    if isinstance(D, PersistenceDiagram):
        return D
    if D is None:  # PersistenceDiagram() is the empty diagram; None as data is a mistake
        raise TypeError("expected a persistence diagram, a mapping dimension -> points, its "
                        "DataFrame form or a (k, 2) array of (birth, death) pairs, got None.")
    return PersistenceDiagram(D, homology_dimension=homology_dimension)


def log_diagram(D, base=None):
    """The diagram in log scale: every (b, d) becomes (log b, log d).

    A change of units ``c`` of the underlying point cloud multiplies a diagram by ``c`` and so
    shifts its log diagram by ``log c`` along the diagonal: compare log diagrams with
    :func:`~tdadp.topology.shift_invariant_bottleneck` to ignore units.

    Births equal to 0 (all of H0 for Rips and alpha filtrations) become ``-inf``; every
    distance of :mod:`tdadp.topology` handles them (such points only match each other, by
    their log deaths). Points (0, 0) lie on the diagonal and would become ``(-inf, -inf)``:
    they are dropped. Infinite deaths stay infinite.

    Parameters
    ----------
    D : PersistenceDiagram, its DataFrame form or (k, 2) array_like
    base : float, optional
        Logarithm base (natural log by default).

    Returns
    -------
    PersistenceDiagram

    Raises
    ------
    ValueError
        If a coordinate is negative (log undefined).
    """
    D = as_diagram(D)
    if base is not None:
        base = float(base)
        if not (np.isfinite(base) and base > 0 and base != 1):
            raise ValueError(f"base must be a positive number other than 1, got {base}.")
    out = {}
    for k, v in D.items():
        if (v < 0).any():
            raise ValueError(
                f"log_diagram needs non-negative coordinates; dimension {k} has a point "
                f"{tuple(v[np.flatnonzero((v < 0).any(axis=1))[0]])}."
            )
        v = v[v[:, 1] > 0]
        with np.errstate(divide="ignore"):
            lv = np.log(v)
        if base is not None:
            lv = lv / np.log(base)
        out[k] = lv
    return PersistenceDiagram(out)
