"""Adjacency spectral embedding, plain or adjusted for edgeFlip."""

from __future__ import annotations

import math
import warnings

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ..graphs._info import graph_guarantee, graph_nodes
from ..graphs._isolated import isolated_nodes
from ..io._input import graph_batch
from ..latent._positions import LatentPositions
from ..release._flip import flip_probability, implemented_rate
from ..utils._batch import join_batch, map_items
from ..utils._output import TableOutputMixin
from ..utils._params import Options, ParamsMixin
from ._dimension import TIE_RTOL, zhu_ghodsi_elbows
from ._eigen import SOLVERS, ShiftedAdjacency, resolve_solver, top_eigenpairs

__all__ = ["adjacency_spectral_embedding", "AdjacencySpectralEmbedding"]

# Two flip rates are the same release's when they agree to rounding (expit is exact to a few
# ulps); anything further apart is a different mechanism or budget.
_RATE_RTOL = 1e-9


def _carried_rate(A):
    """The flip rate of the release ``A`` carries, when it is randomized response on dyads."""
    guarantee = graph_guarantee(A)
    if guarantee is None or not getattr(guarantee, "dyad_independent", False):
        return None, guarantee
    return guarantee.flip_probability, guarantee


def _adjustment(A, adjust, epsilon):
    """(shift, scale, rate) of the privacy adjustment ``scale * (A - shift (11^T - I))``.

    The rate comes from the release ``A`` carries, or from ``epsilon`` (edgeFlip's budget)
    for a graph released elsewhere; both given must agree.
    """
    rate, guarantee = _carried_rate(A)
    if epsilon is not None:
        # The rate EdgeFlip(epsilon) uses: pi(eps) on the 2^-53 grid, never 0 for finite eps.
        eps_rate = implemented_rate(flip_probability(epsilon), epsilon)
        if rate is not None and not np.isclose(rate, eps_rate, rtol=_RATE_RTOL, atol=0.0):
            raise ValueError(
                f"epsilon={epsilon!r} means an edgeFlip flip probability of {eps_rate:.6g}, "
                f"but the input graph was released by {guarantee.mechanism} with flip "
                f"probability {rate:.6g} (epsilon {guarantee.epsilon:g}). Leave epsilon=None: "
                "the embedding reads the rate from the release itself."
            )
    if adjust is None:
        adjust = epsilon is not None
    if not adjust:
        return 0.0, 1.0, None
    if rate is None and epsilon is None:
        raise ValueError(
            "adjust=True needs the flip rate of the release: the input graph carries none "
            "(it was not released by a tdadp mechanism, or lost its release through slicing "
            "or arithmetic). Pass epsilon= (the edgeFlip budget it was released with)."
        )
    if epsilon is not None:
        rate = eps_rate
    # Exact for the rates mechanisms use: they lie on the grid k 2^-53.
    signal = 1.0 - 2.0 * rate
    if signal <= 0.0:
        raise ValueError(
            "the release flips every dyad with probability 1/2 (epsilon = 0): it is pure "
            "noise, with no signal left to recover; the privacy-adjusted embedding is "
            "undefined (it divides by 1 - 2 pi = 0)."
        )
    return rate, 1.0 / signal, rate


def adjusted_adjacency(A, epsilon=None):
    """The privacy-adjusted adjacency of a release, as an operator (never a dense copy).

    ``(A - pi (11^T - I)) / (1 - 2 pi)`` with the flip rate ``pi`` read from the release
    ``A`` carries, else from ``epsilon``; ``A`` itself (``pi = 0``) for a graph whose rate is
    unknown and no ``epsilon`` (a graph that was not released). Its products are those the
    embedding takes: dense, sparse and packed graphs alike.

    Parameters
    ----------
    A : ndarray, scipy sparse matrix or PackedAdjacency of shape (n, n)
        One checked graph (see :func:`tdadp.io.one_graph`).
    epsilon : float in (0, inf] or None, default=None
        The edgeFlip budget of a release that does not carry its guarantee.

    Returns
    -------
    ShiftedAdjacency
        With ``shift`` the flip rate and ``scale`` ``1 / (1 - 2 pi)``.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp import edge_flip
    >>> from tdadp.embed import adjusted_adjacency
    >>> A = edge_flip(np.zeros((4, 4), dtype=np.int8), 1.0, random_state=0)
    >>> op = adjusted_adjacency(A)
    >>> round(op.shift, 4), round(op.scale, 4)
    (0.2689, 2.164)
    """
    rate, _ = _carried_rate(A)
    shift, scale, _ = _adjustment(A, rate is not None or epsilon is not None, epsilon)
    return ShiftedAdjacency(A, shift=shift, scale=scale)


def _embed_one(A, n_components, adjust, epsilon, n_elbows, solver, diagonal_augmentation,
               max_components, verbose):
    shift, scale, rate = _adjustment(A, adjust, epsilon)
    nodes = graph_nodes(A)
    A = np.asarray(A) if isinstance(A, np.ndarray) else A  # the tags were read above
    n = A.shape[0]
    isolated = isolated_nodes(A)
    op = ShiftedAdjacency(A, shift=shift, scale=scale)
    if diagonal_augmentation:
        op.diagonal = op.row_sums() / (n - 1)
    if n_components is None:
        k = max_components or max(2, math.ceil(math.log2(n)))
        k = min(k, n - 1)
        widest = _widest_scan(op, k, solver, max_components)
        while True:
            # The elbow needs magnitudes to a few digits only: scan loosely, then refine the
            # kept eigenpairs from where the scan left them (noise eigenvalues cluster and
            # converge slowly; the refinement need not start again).
            w, V, info = top_eigenpairs(op, k, solver, tol=1e-3, verbose=verbose,
                                        max_products=_SCAN_BUDGET, return_info=True)
            d = min(zhu_ghodsi_elbows(np.abs(w), n_elbows, rtol=_tie_rtol(info))[-1], k)
            # d == k: every scanned magnitude is the same (a repeated top eigenvalue, as in
            # ten disjoint triangles); where that eigenvalue ends is further down.
            if d < k or k >= widest:
                break
            k = min(2 * k, widest)
        if resolve_solver(op, k, solver) != "dense":
            w, V, info = top_eigenpairs(op, d, solver, verbose=verbose,
                                        max_products=_REFINE_BUDGET, start=V[:, :d],
                                        return_info=True)
    else:
        if n_components >= n:
            raise ValueError(f"n_components={n_components} must be smaller than the number "
                             f"of nodes ({n}).")
        d = n_components
        w, V, info = top_eigenpairs(op, d, solver, verbose=verbose, return_info=True)
    w, V, residuals = w[:d], V[:, :d], info.residuals[:d]
    # Positive eigenvalues first (by magnitude), then negative: the I_pq column convention.
    order = np.concatenate([np.flatnonzero(w >= 0), np.flatnonzero(w < 0)])
    w, V, residuals = w[order], V[:, order], residuals[order]
    signature = (int(np.sum(w >= 0)), int(np.sum(w < 0)))
    edge = _noise_edge(op, n)
    above = _check_signal(w, edge, info, rate)
    X = LatentPositions(V * np.sqrt(np.abs(w)), signature=signature, isolated=isolated)
    return _Embedded(X, w, signature, rate, nodes, residuals, edge, above)


def _tie_rtol(info):
    """Eigenvalue magnitudes this close, relative to the largest, are equal for the elbow:
    each computed eigenvalue is within its residual of an exact one, so two of them closer
    than twice the largest residual may be one repeated eigenvalue (float32 products give
    repeated eigenvalues that differ by about 1e-8). At most 1e-6: the loose scan of a large
    graph stops at residuals near 1e-3, far wider than the gaps between its noise
    eigenvalues, which it orders reliably."""
    residual = float(np.max(info.residuals)) if len(info.residuals) else 0.0
    return float(min(_TIE_RTOL_MAX, max(TIE_RTOL, 2.0 * residual)))


def _widest_scan(op, k, solver, max_components):
    """The most eigenvalues an automatic dimension may scan: the given ``max_components``;
    else every one for the dense solver (it computes them all anyway), and at most
    ``_WIDEN_FACTOR`` times the default scan for the iterative ones (their cost grows with
    it)."""
    n = op.n
    if max_components:
        return k
    if resolve_solver(op, k, solver) == "dense":
        return n - 1
    return min(n - 1, _WIDEN_FACTOR * k)


# Block products of the two Krylov solves of an automatic dimension: the scan of
# ceil(log2 n) eigenpairs, then the refinement of the kept ones (warm-started). Their sum is
# the embedding's cost bound on a release with no gap in its spectrum.
_SCAN_BUDGET = 32
_REFINE_BUDGET = 16
_EDGE_MARGIN = 1.05
# Bounds of the scan of an automatic dimension on a spectrum whose top eigenvalue repeats.
_TIE_RTOL_MAX = 1e-6
_WIDEN_FACTOR = 4


def _noise_edge(op, n):
    """Estimated spectral norm of the embedded matrix's noise, ``2 sqrt(n q (1 - q))`` times
    the adjustment's scale, ``q`` the release's density: the edge of the noise bulk of an
    Erdos-Renyi graph with the release's density (random-matrix theory), which a flip adds
    to whatever noise the graph itself has. Eigenvalues below it are indistinguishable from
    noise."""
    if n < 2:
        return 0.0
    # The mean degree from the entries' sum: the degrees themselves would take a second pass
    # over a packed graph (isolated_nodes takes one).
    q = float(np.clip(op.entry_sum() / (n * (n - 1)), 0.0, 1.0))
    return float(2.0 * np.sqrt(n * q * (1.0 - q)) * op.scale)


def _check_signal(w, edge, info, rate):
    """Warn when no kept eigenvalue stands above the noise edge (the release shows no signal)
    or when the solver's budget left residuals above 1e-3; return how many stand above."""
    # An outlier of a low-rank signal sits above the bulk's edge (the BBP transition); the
    # largest noise eigenvalues fluctuate around it, so 5% above is asked for.
    above = int(np.count_nonzero(np.abs(w) > _EDGE_MARGIN * edge))
    if above == 0 and w.size:
        warnings.warn(
            f"no eigenvalue of the {'adjusted release' if rate else 'graph'} stands above its "
            f"noise edge (about {edge:.4g}, with a 5% margin; largest kept |eigenvalue| "
            f"{np.abs(w).max():.4g}): the embedding is noise, the "
            f"{'release' if rate else 'graph'} shows no low-rank signal at this size"
            + (" and epsilon" if rate else "") + ".", UserWarning, stacklevel=4)
    elif not info.converged and float(info.residuals.max()) > 1e-3:
        warnings.warn(
            f"the eigensolver stopped at its budget of {info.products} block products with "
            f"relative residuals up to {float(info.residuals.max()):.2g} (see residuals_): "
            "the top of the spectrum has no clear gap.", UserWarning, stacklevel=4)
    return above


class _Embedded:
    """One graph's embedding with what the estimator records of it."""

    __slots__ = ("X", "eigenvalues", "signature", "rate", "nodes", "residuals", "noise_edge",
                 "above")

    def __init__(self, X, eigenvalues, signature, rate, nodes, residuals, noise_edge, above):
        self.X, self.eigenvalues, self.signature = X, eigenvalues, signature
        self.rate, self.nodes = rate, nodes
        self.residuals, self.noise_edge, self.above = residuals, noise_edge, above

    def isolated_names(self):
        """The index labels of the isolated nodes in the pandas output (see get_isolated)."""
        rows = np.flatnonzero(self.X.isolated)
        return [self.nodes[i] for i in rows] if self.nodes is not None else rows.tolist()


def adjacency_spectral_embedding(A, n_components=None, epsilon=None, *, adjust=None,
                                 n_elbows=2, solver="auto", diagonal_augmentation=False,
                                 max_components=None, return_eigenvalues=False, verbose=False):
    """Adjacency spectral embedding (ASE), plain or privacy-adjusted.

    ``A ≈ U Λ U^T`` with the ``d`` eigenvalues of largest magnitude; the embedding is
    ``U |Λ|^(1/2)`` and the signs of ``Λ`` estimate the gRDPG signature.

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, n), networkx graph, or a sequence of them
        Symmetric (possibly weighted) adjacency. A graph released by a tdadp mechanism
        carries its flip rate (see :class:`AdjacencySpectralEmbedding`).
    n_components : int, optional
        Embedding dimension ``d``; chosen by the Zhu–Ghodsi elbow when None.
    epsilon : float, optional
        The edgeFlip budget of a release made elsewhere (see ``adjust``).
    adjust : bool or None, default=None
        Embed the privacy-adjusted matrix ``(A - pi (11^T - I)) / (1 - 2 pi)``, whose
        expectation is ``P`` off the diagonal. The rate ``pi`` is read from the release ``A``
        carries, else from ``epsilon``. None: adjust when ``epsilon`` is given.
    n_elbows : int, default=2
        With ``n_components=None``, the dimension is the ``n_elbows``-th elbow (as in
        graspologic: a single dominant eigenvalue often makes the first elbow 1).
    solver : {"auto", "dense", "arpack", "krylov"}, default="auto"
        See :func:`tdadp.embed.top_eigenpairs`.
    diagonal_augmentation : bool, default=False
        Replace the (zero) diagonal with degree / (n - 1) before embedding.
    max_components : int, optional
        Number of eigenvalues scanned for the elbow; default ``max(2, ceil(log2 n))``,
        doubled while every scanned magnitude is the same (a repeated top eigenvalue, whose
        eigenspace is kept whole) up to every eigenvalue on the dense solver and 4 times the
        default on the iterative ones.
    return_eigenvalues : bool, default=False
        Also return the eigenvalues (in the column order of the embedding).
    verbose : bool, default=False
        Show the eigensolver's progress on stderr (see :class:`AdjacencySpectralEmbedding`).

    Returns
    -------
    X_hat : LatentPositions of shape (n, d), or a list of them
        Columns with positive eigenvalues first; ``X_hat.signature`` is ``(p_hat, q_hat)``;
        ``X_hat.isolated`` marks the nodes with no edge to another node.
    eigenvalues : ndarray of shape (d,), or a list of them
        Only with ``return_eigenvalues=True``.

    References
    ----------
    Sussman, Tang, Fishkind, Priebe, "A consistent adjacency spectral embedding for
    stochastic blockmodel graphs", JASA 107 (2012).
    Rubin-Delanchy, Cape, Tang, Priebe, "A statistical interpretation of spectral embedding:
    the generalised random dot product graph", JRSS-B 84 (2022).
    Vishwanath, Hehir, "Signal recovery from random dot-product graphs under local
    differential privacy", AISTATS (2025).

    Examples
    --------
    >>> from tdadp import circle, sample_grdpg, edge_flip, adjacency_spectral_embedding
    >>> A = sample_grdpg(circle(300, random_state=0), random_state=1)
    >>> A_eps = edge_flip(A, 2.0, random_state=2)     # carries its flip rate
    >>> X_hat = adjacency_spectral_embedding(A_eps, n_components=3, adjust=True)
    >>> X_hat.shape, X_hat.signature
    ((300, 3), (3, 0))
    """
    est = AdjacencySpectralEmbedding(
        n_components=n_components, adjust=adjust, epsilon=epsilon, n_elbows=n_elbows,
        solver=solver, diagonal_augmentation=diagonal_augmentation,
        max_components=max_components, verbose=verbose)
    X_hat = est.fit_transform(A)
    return (X_hat, est.eigenvalues_) if return_eigenvalues else X_hat


class AdjacencySpectralEmbedding(TableOutputMixin, ParamsMixin, TransformerMixin, BaseEstimator,
                                 auto_wrap_output_keys=None):
    """Adjacency spectral embedding of a graph, or of each graph of a batch.

    Parameters
    ----------
    n_components : int, optional
        Embedding dimension; the Zhu–Ghodsi elbow when None (see ``n_elbows``).
    adjust : bool or None, default=None
        Embed the privacy-adjusted matrix ``(A - pi (11^T - I)) / (1 - 2 pi)`` (a rank-one
        correction applied through a LinearOperator, ``11^T`` never formed), which estimates
        the non-private latent positions rather than their shrunken image. The flip rate
        ``pi`` is read from the graph itself when a tdadp mechanism released it (so in a
        Pipeline, ``set_params`` on the mechanism is all it takes), else from ``epsilon``.
        True without either raises. None (default): adjust exactly when ``epsilon`` is given.
        False: embed ``A`` as it is (the shrunken embedding of Prop. 1).
    epsilon : float in (0, inf], optional
        The edgeFlip budget of a graph released outside tdadp (it carries no rate). Given
        with a graph that does carry one, the two must agree, else ``ValueError``.
    n_elbows : int, default=2
        Elbow used when ``n_components`` is None.
    solver : {"auto", "dense", "arpack", "krylov"}, default="auto"
        Dense LAPACK for n <= 1000, ARPACK for sparse graphs, block Krylov (BLAS 3 on a
        float32 copy, relative residuals below 1e-6) for large dense graphs.
    diagonal_augmentation : bool, default=False
        Put degree / (n - 1) on the diagonal before embedding.
    max_components : int, optional
        Eigenvalues scanned for the elbow; default ``max(2, ceil(log2 n))``, widened past a
        repeated top eigenvalue (see :func:`adjacency_spectral_embedding`).
    n_jobs : int, optional
        Graphs of a batch embedded in parallel (threads).
    verbose : bool or int, default=False
        Show the eigensolver's progress on stderr: a tqdm bar over its products with the
        graph (block products of the Krylov solver, the solver of large dense and packed
        graphs; matrix-vector products of ARPACK; one step for dense LAPACK). Never changes
        the result.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (d,) (a list for a batch)
        Eigenvalues of the embedded matrix, positive ones first, each group by decreasing
        magnitude, in the column order of the embedding.
    signature_ : tuple of int (a list for a batch)
        ``(p_hat, q_hat)``: numbers of positive and negative eigenvalues kept.
    n_components_ : int (a list for a batch)
        Embedding dimension used.
    flip_probability_ : float or None (a list for a batch)
        The flip rate adjusted for; None for a plain embedding.
    n_isolated_ : int (a list for a batch)
        Nodes with no edge to another node: their rows carry no signal (the plain embedding
        puts them at the origin) and the embedding marks them (see the Notes).
    residuals_ : ndarray of shape (d,) (a list for a batch)
        A-posteriori relative residual ``|M v - w v| / |w_1|`` of each embedded eigenpair
        (column order of the embedding): how accurate the eigensolver's answer is.
    noise_edge_ : float (a list for a batch)
        Estimated spectral norm of the embedded matrix's noise, ``2 sqrt(n q (1 - q))``
        times the adjustment's ``1 / (1 - 2 pi)``, ``q`` the release's density. Eigenvalues
        below it are indistinguishable from noise; a warning says when none stands above it
        (no signal in the release).
    n_above_noise_ : int (a list for a batch)
        Kept eigenvalues more than 5% above ``noise_edge_`` in magnitude: the dimensions
        that carry signal distinguishable from the noise (0: none, with a warning).
    n_features_in_ : int
        Number of nodes, when every fitted graph has the same (a graph is a pairwise
        matrix: its columns are its nodes).

    Notes
    -----
    ``transform`` embeds the graphs it is given (the embedding of a new graph does not depend
    on the fitted one); ``fit_transform`` embeds once and records the fitted attributes.
    With ``set_output(transform="pandas")`` each embedding is a DataFrame whose index holds
    the node names of a graph given as networkx or read from an edge list.

    Each embedding marks the isolated nodes of its graph (no edge to another node; a
    self-loop does not count): ``X_hat.isolated`` is a boolean mask of its rows, and a
    DataFrame holds their index labels in ``attrs["isolated"]`` (labels stay true through
    row selections, where pandas copies ``attrs`` unchanged). The clusterers of
    :mod:`tdadp.cluster` read it and label those rows -1 (noise) with a warning.

    References
    ----------
    Sussman, Tang, Fishkind, Priebe, JASA 107 (2012); Rubin-Delanchy, Cape, Tang, Priebe,
    JRSS-B 84 (2022); Zhu, Ghodsi, CSDA 51 (2006); Vishwanath, Hehir, AISTATS (2025).

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from tdadp import LatentSampler, GRDPG, EdgeFlip, AdjacencySpectralEmbedding
    >>> pipe = make_pipeline(LatentSampler("circle", n_nodes=200, random_state=0),
    ...                      GRDPG(random_state=1), EdgeFlip(1.0, random_state=2),
    ...                      AdjacencySpectralEmbedding(n_components=3, adjust=True))
    >>> embeddings = pipe.fit_transform(4)
    >>> len(embeddings), embeddings[0].shape
    (4, (200, 3))
    >>> round(pipe.named_steps["adjacencyspectralembedding"].flip_probability_[0], 12)  # pi(1)
    0.26894142137
    """

    _parameter_constraints = {
        "n_components": [None, "positive_int"],
        "adjust": [None, "boolean"],
        "epsilon": [None, "epsilon"],
        "n_elbows": ["positive_int"],
        "solver": [Options(*SOLVERS)],
        "diagonal_augmentation": ["boolean"],
        "max_components": [None, "positive_int"],
        "n_jobs": ["n_jobs"],
        "verbose": ["boolean", "nonnegative_int"],
    }

    def __init__(self, n_components=None, adjust=None, epsilon=None, n_elbows=2,
                 solver="auto", diagonal_augmentation=False, max_components=None,
                 n_jobs=None, verbose=False):
        self.n_components = n_components
        self.adjust = adjust
        self.epsilon = epsilon
        self.n_elbows = n_elbows
        self.solver = solver
        self.diagonal_augmentation = diagonal_augmentation
        self.max_components = max_components
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _embed(self, X):
        self._validate_params()
        if self.adjust is False and self.epsilon is not None:
            raise ValueError("epsilon is the budget of the release to adjust for; with "
                             "adjust=False it would be ignored. Drop one of them.")
        epsilon = None if self.epsilon is None else float(self.epsilon)
        # Weighted graphs are welcome here (the input contract's weighted kind).
        items, single = graph_batch(X, kind="weighted")
        results = map_items(
            lambda A: _embed_one(A, self.n_components, self.adjust, epsilon, self.n_elbows,
                                 self.solver, bool(self.diagonal_augmentation),
                                 self.max_components, bool(self.verbose)),
            items, None, self.n_jobs)
        return results, single

    def fit(self, X, y=None):
        """Embed ``X`` and record eigenvalues, signature, dimension and the rate adjusted for.

        Parameters
        ----------
        X : adjacency matrix, networkx graph, or sequence of them
        y : ignored

        Returns
        -------
        self
        """
        self._record(*self._embed(X))
        return self

    def _record(self, results, single):
        self.eigenvalues_ = join_batch([r.eigenvalues for r in results], single)
        self.signature_ = join_batch([r.signature for r in results], single)
        self.n_components_ = join_batch([r.X.shape[1] for r in results], single)
        self.flip_probability_ = join_batch([r.rate for r in results], single)
        self.n_isolated_ = join_batch([int(np.count_nonzero(r.X.isolated)) for r in results],
                                      single)
        self.residuals_ = join_batch([r.residuals for r in results], single)
        self.noise_edge_ = join_batch([r.noise_edge for r in results], single)
        self.n_above_noise_ = join_batch([r.above for r in results], single)
        sizes = {r.X.shape[0] for r in results}
        if len(sizes) == 1:
            # A graph's columns are its nodes: as for scikit-learn's precomputed affinities.
            self.n_features_in_ = sizes.pop()
        elif hasattr(self, "n_features_in_"):
            del self.n_features_in_  # a refit on graphs of different sizes

    def _outputs(self, results, single):
        out = [self._wrap_table(r.X, index=r.nodes, columns=self._names(r.X.shape[1]),
                                attrs={"signature": r.signature,
                                       "isolated": r.isolated_names()})
               for r in results]
        return join_batch(out, single)

    def transform(self, X):
        """Embed each graph.

        Parameters
        ----------
        X : adjacency matrix, networkx graph, or sequence of them

        Returns
        -------
        X_hat : LatentPositions of shape (n, d) (a DataFrame with pandas output), or a list
        """
        return self._outputs(*self._embed(X))

    def fit_transform(self, X, y=None, **fit_params):
        results, single = self._embed(X)
        self._record(results, single)
        return self._outputs(results, single)

    def get_feature_names_out(self, input_features=None):
        """Column names of the embedding: ``adjacencyspectralembedding0``, ...

        Parameters
        ----------
        input_features : ignored
            The input is a graph, whose columns are its nodes, not features.

        Returns
        -------
        ndarray of str of shape (d,)
        """
        check_is_fitted(self, "n_components_")
        dims = self.n_components_ if isinstance(self.n_components_, list) else [
            self.n_components_]
        if len(set(dims)) != 1:
            raise ValueError(f"the fitted graphs were embedded in different dimensions {dims}; "
                             "set n_components to get one set of feature names.")
        return self._names(dims[0])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.input_tags.sparse = True
        tags.input_tags.pairwise = False  # a sample is one whole graph (see GraphRelease)
        return tags
