"""The base of every privacy release: one contract for graph, statistic and query releases.

``fit`` validates the parameters against the declared table (and the input, when given) and
states the guarantee (``guarantee_`` plus the calibration it rests on: ``flip_probability_``,
``sensitivity_``, ``noise_scale_``, ...); ``transform`` releases with that fitted calibration
only, so a parameter changed after ``fit`` can never pair one calibration with another
release. Nothing of the private input is kept: ``fit`` looks at it only to validate it, and
``transform`` returns the release without storing anything.

Budget: every mechanism takes ``accountant`` (None or a :class:`~tdadp.dp.BudgetAccountant`).
Each item of each ``transform`` batch is one release, charged the fitted ``guarantee_`` (a
batch of k items: k charges, checked together) after the input is validated and before any
random number is drawn; a batch past the budget raises :class:`~tdadp.dp.BudgetError` and
releases nothing. ``fit`` releases nothing and charges nothing; ``fit_transform`` charges once
per item. ``accountant=None`` tracks nothing.

Randomness: each item of a batch gets its own stream (``item_streams``: the seed, the
mechanism's stage tag and the item's position), so results do not depend on ``n_jobs``.
``random_state="secure"`` draws every coin from a cryptographically secure generator,
:class:`~tdadp.utils.ChaCha20Random`: the ChaCha20 keystream under a 256-bit key read from the
operating system's CSPRNG (``os.urandom``), a fresh key for every release (each item of each
``transform``), a distinct nonce for every stream under it (the row blocks of a packed
release), and no (key, nonce) pair used twice. Predicting or replaying the coins then means
breaking ChaCha20 as a stream cipher (telling its keystream from random bytes without the
key), for which nothing better than trying the 2^256 keys is known.

Output: a mechanism whose release is a graph offers ``set_output``; with pandas output each
released graph is a DataFrame adjacency (:func:`~tdadp.io.graph_frame`: node names as index
and columns, the guarantee in ``attrs``), which every graph stage reads back. A release of a
statistic or a value has no pandas form here, and its mechanism offers no ``set_output``
(``Pipeline.set_output`` then says so rather than leave the setting unused).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ..dp._accountant import BudgetAccountant
from ..io._input import graph_batch, graph_frame
from ..utils._batch import join_batch, map_items
from ..utils._output import ItemOutputMixin
from ..utils._params import ParamsMixin, check_param
from ..utils._random import item_streams, stage_tag

__all__ = ["ReleaseMechanism", "GraphRelease", "ACCOUNTANT_RULE"]

# The declared rule of every ``accountant`` parameter.
ACCOUNTANT_RULE = [None, BudgetAccountant]


class ReleaseMechanism(ParamsMixin, TransformerMixin, BaseEstimator, auto_wrap_output_keys=None):
    """Base of every mechanism: ``fit`` states the guarantee, ``transform`` releases.

    Subclasses declare ``_parameter_constraints`` for all their parameters and define:

    - ``_calibrate(X)``: validate the fit input ``X`` (None when not given), set the fitted
      calibration attributes and return the :class:`PrivacyGuarantee`;
    - ``_split(X)``: ``(items, single)`` of the input to release;
    - ``_release(item, rng)``: one item's release, from the fitted state only;
    - ``_join(outputs, single)`` (optional): the outputs as returned to the caller;
    - ``_pandas_output()`` and ``_frame(output)`` (optional, with a ``set_output``): whether
      the outputs are asked for as DataFrames, and one output's DataFrame form. By default
      there is none: scikit-learn's ``set_output`` is off (``auto_wrap_output_keys=None``), as
      a release of a statistic has no table form of its own.

    Every subclass takes ``accountant=None`` (a :class:`~tdadp.dp.BudgetAccountant` charged
    each release; None: nothing tracked) and stores it.
    """

    _parameter_constraints = {
        "epsilon": ["epsilon"],
        "random_state": ["secure_random_state"],
        "accountant": ACCOUNTANT_RULE,
    }

    def _charge(self, n_items):
        """Charge ``n_items`` releases of ``guarantee_`` to the accountant, all or none."""
        accountant = check_param(self.accountant, ACCOUNTANT_RULE, "accountant",
                                 type(self).__name__)
        if accountant is not None:
            accountant.charge([self.guarantee_] * n_items)

    def _calibrate(self, X):
        raise NotImplementedError

    def _split(self, X):
        raise NotImplementedError

    def _release(self, item, rng):
        raise NotImplementedError

    def _join(self, outputs, single):
        return join_batch(outputs, single)

    def _plan(self, items, pandas):
        """The items as released, after every decision that precedes the charge.

        A subclass whose release can be refused, or whose output's form is chosen, decides
        it here from public quantities (sizes, parameters, the machine), so that a refusal
        costs no budget and neighbouring inputs get the same decisions.
        """
        return items

    def _pandas_output(self):
        return False

    def _frame(self, output):
        raise NotImplementedError

    def fit(self, X=None, y=None):
        """Validate the parameters (and ``X``, if given) and state the guarantee.

        Nothing of ``X`` is kept.

        Parameters
        ----------
        X : input of the mechanism, optional
            Only validated (a guarantee depends on the parameters, not on the data).
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        self.guarantee_ = self._calibrate(X)
        return self

    def transform(self, X):
        """Release each item of ``X`` with the fitted calibration.

        Each item is one release, charged to ``accountant`` (when set) before any random
        number is drawn.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``: the guarantee (and the noise it calibrates) is stated by ``fit``.
        tdadp.dp.BudgetError
            When the batch's releases would exceed the accountant's budget: nothing is
            released or drawn, nothing is spent.
        """
        check_is_fitted(self, "guarantee_")
        items, single = self._split(X)
        # Read before the charge: a bad output setting (or pandas missing) spends nothing.
        pandas = self._pandas_output()
        items = self._plan(items, pandas)
        self._charge(len(items))
        streams = item_streams(self.random_state, range(len(items)),
                               stage_tag(type(self).__name__), allow_secure=True)
        # Mechanisms without an n_jobs parameter release a single item.
        outputs = map_items(self._release, items, streams, getattr(self, "n_jobs", None))
        if pandas:
            outputs = [self._frame(out) for out in outputs]
        return self._join(outputs, single)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Reproducible only with a fixed seed: None and "secure" draw fresh coins, a Generator
        # advances with every call.
        tags.non_deterministic = not isinstance(
            self.random_state, (numbers.Integral, np.random.SeedSequence))
        # The release is never the input's dtype kept for its own sake (uint8 graphs,
        # integer or float statistics).
        tags.transformer_tags.preserves_dtype = []
        return tags


def _releases_graphs(mechanism):
    return callable(getattr(mechanism, "_release_graph", None))


class GraphRelease(ItemOutputMixin, ReleaseMechanism):
    """Base of the mechanisms whose input is a graph (or a batch of graphs).

    ``X`` is an adjacency matrix (dense binary array or any scipy sparse container), a
    networkx graph, a DataFrame adjacency, or a sequence of them: a sample is a whole graph.

    A subclass whose release is a graph defines ``_release_graph(A, rng)``, the released
    adjacency of one validated graph, and returns it tagged with the input's node names and
    ``guarantee_`` (see :mod:`tdadp.graphs._info`); it then offers ``set_output``: with
    ``transform="pandas"`` (or scikit-learn's global ``transform_output="pandas"``) each
    released graph is returned as :func:`~tdadp.io.graph_frame` makes it, a DataFrame
    adjacency indexed by the node names (``0..n-1`` without names), int8 0/1 values,
    sparse-backed for a sparse release, with the guarantee in ``attrs["guarantee"]``, and a
    batch as a list of them. Every graph stage reads such a DataFrame back as the graph
    (node names and guarantee, so the privacy-adjusted embedding still finds the flip rate).
    A packed release (:class:`~tdadp.graphs.PackedAdjacency`) becomes a dense DataFrame
    when its ``n^2`` bytes fit in the memory left, else ``transform`` refuses with a
    ValueError saying how much it needs, before anything is charged (keep the default
    output for graphs that large). A subclass whose release is a statistic of the
    graph offers no ``set_output``.
    """

    _parameter_constraints = {
        **ReleaseMechanism._parameter_constraints,
        "n_jobs": ["n_jobs"],
    }

    def __init__(self, epsilon=1.0, random_state=None, n_jobs=None, accountant=None):
        self.epsilon = epsilon
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.accountant = accountant

    def _calibrate(self, X):
        if X is not None:
            graph_batch(X)  # validated, then dropped
        return self._guarantee()

    def _guarantee(self):
        raise NotImplementedError

    def _split(self, X):
        return graph_batch(X)

    @available_if(_releases_graphs)
    def set_output(self, *, transform=None):
        """Set the container of the released graphs.

        Parameters
        ----------
        transform : {"default", "pandas"} or None
            "pandas": each released graph as a DataFrame adjacency (see the class docstring);
            "default": the release's own container (array, sparse matrix or packed graph);
            None: leave the setting unchanged.

        Returns
        -------
        self
        """
        return super().set_output(transform=transform)

    def _pandas_output(self):
        return _releases_graphs(self) and self._output_kind() == "pandas"

    def _frame(self, output):
        return graph_frame(output)

    def fit_transform(self, X, y=None):
        """Fit (state the guarantee), then release ``X``; ``X`` is validated once.

        Returns
        -------
        The same as :meth:`transform`.
        """
        return self.fit().transform(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        # A sample is one whole graph (a batch is a list of graphs), not a row of a kernel:
        # with pairwise=True scikit-learn's model selection would slice a list of graphs
        # as a kernel matrix (X[train][:, train]) and refuse it.
        tags.input_tags.pairwise = False
        # Adjacency matrices are binary: negative entries are refused.
        tags.input_tags.positive_only = True
        return tags
