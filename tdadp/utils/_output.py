"""``set_output`` for stages whose output for one item is a 2-D table.

scikit-learn's own ``set_output`` wraps ``transform`` to return one DataFrame for the whole
output; a tdadp stage returns one table *per item* (a list for a batch), and the rows of a
graph's table are its nodes, whose names the graph carries. So these stages opt out of
scikit-learn's automatic wrapping (``auto_wrap_output_keys=None`` in the class statement)
and use this mixin instead: ``set_output(transform="pandas")`` makes every item's table a
``pandas.DataFrame`` with columns ``get_feature_names_out()`` and, when known, the node names
as index. ``Pipeline.set_output`` and ``sklearn.set_config(transform_output="pandas")`` reach
it the same way as scikit-learn's own transformers. pandas is needed only when asked for.
"""

from __future__ import annotations

import numpy as np
from sklearn import get_config

__all__ = ["TableOutputMixin", "ContainerOutputMixin", "OUTPUT_KINDS"]

OUTPUT_KINDS = ("default", "pandas")


class TableOutputMixin:
    """Per-item table output: ``set_output`` and ``_wrap_table``.

    Subclasses define ``get_feature_names_out`` and call ``self._wrap_table(table, index,
    attrs)`` on each item's output.
    """

    def set_output(self, *, transform=None):
        """Set the container of ``transform`` and ``fit_transform`` outputs.

        Parameters
        ----------
        transform : {"default", "pandas"} or None
            "pandas": each item's table as a DataFrame (columns ``get_feature_names_out()``,
            index the node names when the graph carries them); "default": numpy arrays;
            None: leave the setting unchanged.

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
        kind = getattr(self, "_sklearn_output_config", {}).get("transform")
        if kind is None or kind == "default":
            kind = get_config().get("transform_output", "default")
        if kind not in OUTPUT_KINDS:
            raise ValueError(f"transform_output={kind!r} is not supported by "
                             f"{type(self).__name__}; use one of {OUTPUT_KINDS}.")
        return kind

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
        try:
            import pandas as pd  # optional: only needed for pandas output
        except ImportError as exc:  # pragma: no cover - pandas is installed in the tests
            raise ImportError("set_output(transform='pandas') needs pandas: pip install "
                              "pandas.") from exc
        if columns is None:
            columns = self.get_feature_names_out()
        frame = pd.DataFrame(np.asarray(table), columns=columns,
                             index=None if index is None else pd.Index(list(index)))
        if attrs:
            frame.attrs.update(attrs)
        return frame


class ContainerOutputMixin:
    """``set_output`` for stages whose output is not a table (a graph, a diagram).

    ``Pipeline.set_output(transform="pandas")`` asks every step; a graph or a persistence
    diagram has no DataFrame form, so these stages accept the setting and keep their output's
    container (a graph stays the array or sparse matrix it was, with what it carries), and the
    table stages after them honour it.
    """

    def set_output(self, *, transform=None):
        """Accept the output setting of a Pipeline; the output's container is kept.

        Parameters
        ----------
        transform : {"default", "pandas"} or None
            Checked, then without effect: this stage's output is not a table.

        Returns
        -------
        self
        """
        if transform is not None and transform not in OUTPUT_KINDS:
            raise ValueError(f"transform must be one of {OUTPUT_KINDS} or None, got "
                             f"{transform!r}.")
        return self
