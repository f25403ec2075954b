"""``set_output`` for stages that return one item per sample: tables, graphs, diagrams.

scikit-learn's own ``set_output`` wraps ``transform`` to return one DataFrame for the whole
output; a tdadp stage returns one item *per sample* (a list for a batch): a table whose rows
are a graph's nodes, a graph, a persistence diagram. So these stages opt out of
scikit-learn's automatic wrapping (``auto_wrap_output_keys=None`` in the class statement) and
use :class:`ItemOutputMixin` instead: ``set_output(transform="pandas")`` makes every item a
``pandas.DataFrame``, in the form its stage documents (a table with columns
``get_feature_names_out()`` and the node names as index, :class:`TableOutputMixin`; a graph's
adjacency indexed by its node names, :func:`tdadp.io.graph_frame`; a diagram's points,
:meth:`tdadp.topology.PersistenceDiagram.to_frame`), and what the item carries besides goes
in ``DataFrame.attrs``. ``Pipeline.set_output`` and
``sklearn.set_config(transform_output="pandas")`` reach it the same way as scikit-learn's own
transformers. pandas is needed only when asked for.
"""

from __future__ import annotations

import sys

import numpy as np
from sklearn import get_config

__all__ = ["ItemOutputMixin", "TableOutputMixin", "ContainerOutputMixin", "OUTPUT_KINDS",
           "is_dataframe", "pandas_module", "name_index"]

OUTPUT_KINDS = ("default", "pandas")


def is_dataframe(X):
    """Whether ``X`` is a pandas DataFrame, without importing pandas.

    A DataFrame exists only once pandas is imported, so a missing module answers no.
    """
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(X, pd.DataFrame)


def pandas_module():
    """The pandas module, or an ImportError saying how to get it (an optional dependency)."""
    try:
        import pandas as pd  # optional: imported only when pandas output is asked for
    except ImportError as exc:  # pragma: no cover - pandas is installed in the tests
        raise ImportError("set_output(transform='pandas') needs pandas: pip install "
                          "pandas.") from exc
    return pd


def name_index(names):
    """Node names as a pandas Index of exactly those objects, one label a name.

    pandas makes a list of tuples a MultiIndex, one level a position in the tuples: names of
    different lengths came back padded with NaN (``('a',)`` as ``('a', nan, nan)``), and
    names of one length as a MultiIndex where an Index of names was documented. A tuple is
    one node's name here.
    """
    return pandas_module().Index(list(names), tupleize_cols=False)


class ItemOutputMixin:
    """``set_output`` and the configured output kind of a stage returning one item per sample.

    Subclasses call ``self._output_kind()`` ("default" or "pandas") and convert each item
    themselves, into the DataFrame form they document.
    """

    def set_output(self, *, transform=None):
        """Set the container of ``transform`` and ``fit_transform`` outputs.

        Parameters
        ----------
        transform : {"default", "pandas"} or None
            "pandas": each item as a DataFrame (the form the stage documents); "default": the
            stage's own containers; None: leave the setting unchanged.

        Returns
        -------
        self
        """
        if transform is None:
            return self
        if transform not in OUTPUT_KINDS:
            raise ValueError(f"transform must be one of {OUTPUT_KINDS} or None, got "
                             f"{transform!r}.")
        # The attribute scikit-learn's clone copies, so clones keep the setting.
        self._sklearn_output_config = {"transform": transform}
        return self

    def _output_kind(self):
        """"default" or "pandas": the stage's setting, else scikit-learn's global one.

        "pandas" is returned only once pandas imports, so a stage can ask before any work.
        """
        kind = getattr(self, "_sklearn_output_config", {}).get("transform")
        if kind is None:  # as scikit-learn: an explicit setting, "default" too, wins
            kind = get_config().get("transform_output", "default")
        if kind not in OUTPUT_KINDS:
            raise ValueError(f"transform_output={kind!r} is not supported by "
                             f"{type(self).__name__}; use one of {OUTPUT_KINDS}.")
        if kind == "pandas":
            pandas_module()
        return kind


class TableOutputMixin(ItemOutputMixin):
    """Per-item table output: ``set_output`` and ``_wrap_table``.

    Subclasses define ``get_feature_names_out`` and call ``self._wrap_table(table, index,
    attrs)`` on each item's output.
    """

    def _names(self, count):
        """scikit-learn's naming of generated columns: the class name, lower case, numbered."""
        prefix = type(self).__name__.lower()
        return np.asarray([f"{prefix}{i}" for i in range(count)], dtype=object)

    def _wrap_table(self, table, index=None, attrs=None, columns=None):
        """``table`` as the configured container (unchanged for "default").

        ``columns`` defaults to ``get_feature_names_out()``; pass them for an item whose width
        differs from the fitted one (a batch embedded with automatic dimensions).
        """
        if self._output_kind() == "default":
            return table
        pd = pandas_module()
        if columns is None:
            columns = self.get_feature_names_out()
        frame = pd.DataFrame(np.asarray(table), columns=columns,
                             index=None if index is None else name_index(index))
        if attrs:
            frame.attrs.update(attrs)
        return frame


class ContainerOutputMixin:
    """``set_output`` of :class:`~tdadp.graphs.GRDPG`, whose graphs have no pandas form yet.

    The graph stages of :mod:`tdadp.release` and :class:`~tdadp.topology.PersistentHomology`
    give their items a DataFrame form (the private ``ItemOutputMixin``). ``GRDPG`` still returns
    its graphs in their own containers under every setting: its ``set_output`` only checks
    the setting, so that ``Pipeline.set_output`` (which calls every step's) reaches the
    stages after it.
    """

    def set_output(self, *, transform=None):
        """Check the output setting of a Pipeline; the graphs keep their containers.

        Parameters
        ----------
        transform : {"default", "pandas"} or None
            Checked; the output is a graph in its own container under either.

        Returns
        -------
        self
        """
        if transform is not None and transform not in OUTPUT_KINDS:
            raise ValueError(f"transform must be one of {OUTPUT_KINDS} or None, got "
                             f"{transform!r}.")
        return self
