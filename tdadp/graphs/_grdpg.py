"""Generalized random dot-product graphs: A_ij ~ Bernoulli(rho <X_i, I_pq X_j>), i < j."""

from __future__ import annotations

import sys

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from ..latent._positions import as_latent_matrix, get_signature
from ..utils._batch import join_batch, map_items, split_batch
from ..utils._memory import available_memory, check_memory
from ..utils._output import ContainerOutputMixin
from ..utils._params import Interval, Options, ParamsMixin, check_param
from ..utils._random import block_streams, check_random_state, item_streams, stage_tag
from ._dyads import (
    bernoulli_positions,
    dyad_pairs,
    gap_parameters,
    n_dyads,
    row_blocks,
    symmetric_csr,
    write_upper_block,
)
from ._packed import PackedAdjacency, fill_blocks
from ._packed_kernels import bernoulli_words

__all__ = ["sample_grdpg", "GRDPG", "probability_matrix"]

_TAG = stage_tag("GRDPG")
_TOL = 1e-12
_SPARSITY = [Interval("real", 0, 1, "right")]


def latent_matrix(X, signature):
    """One latent position matrix as ``(float64 array, (p, q))``, or a clear error.

    The signature is read from ``X`` itself (a LatentPositions, or a DataFrame's attrs) before
    it becomes a plain array.
    """
    return as_latent_matrix(X, "latent positions"), get_signature(X, signature)


def _latent_batch(X):
    """(items, single) of latent input; a DataFrame (pandas output upstream) is one item."""
    pd = sys.modules.get("pandas")  # no DataFrame can exist unless pandas was imported
    frames = (pd.DataFrame,) if pd is not None else ()
    return split_batch(X, what="latent position matrix", single_types=frames)


def _out_of_range(lo, hi, signature, sparsity):
    return ValueError(
        f"edge probabilities rho * <X_i, I_pq X_j> (signature {signature}, rho = {sparsity}) "
        f"reach [{lo:.4g}, {hi:.4g}], outside [0, 1]: these latent positions do not define a "
        "gRDPG. Check the signature and the latent positions' scale."
    )


def probability_matrix(X, signature=None, sparsity=1.0):
    """The n x n matrix ``P = rho X I_pq X^T`` with a zero diagonal (for small n).

    Parameters
    ----------
    X : array-like of shape (n, d)
    signature : pair of int, optional
        Taken from ``X.signature`` when ``X`` carries one, else ``(d, 0)``.
    sparsity : float in (0, 1], default=1.0

    Returns
    -------
    P : ndarray of shape (n, n)

    Raises
    ------
    ValueError
        If a probability falls outside [0, 1] (see :func:`sample_grdpg`).
    """
    sparsity = float(check_param(sparsity, _SPARSITY, "sparsity"))
    Xf, (p, q) = latent_matrix(X, signature)
    J = np.r_[np.ones(p), -np.ones(q)]
    P = sparsity * (Xf * J) @ Xf.T
    np.fill_diagonal(P, 0.0)
    lo, hi = P.min(), P.max()
    if lo < -_TOL or hi > 1 + _TOL:
        raise _out_of_range(lo, hi, (p, q), sparsity)
    return P


def _dense(X, J, sparsity, rng, signature):
    n = X.shape[0]
    A = np.empty((n, n), dtype=np.uint8)
    XJ = X * (sparsity * J)
    for i0, i1 in row_blocks(n):
        P = XJ[i0:i1] @ X[i0:].T
        lo, hi = P.min(), P.max()
        if lo < -_TOL or hi > 1 + _TOL:
            # The diagonal block holds <X_i, I X_i>, which is no edge probability.
            P[:, : i1 - i0][np.tril_indices(i1 - i0)] = 0.5
            lo, hi = P.min(), P.max()
            if lo < -_TOL or hi > 1 + _TOL:
                raise _out_of_range(lo, hi, signature, sparsity)
        U = rng.random(P.shape)
        block = np.less(U, P).view(np.uint8)
        write_upper_block(A, i0, block)
    return A


def _check_probability_range(X, J, sparsity, signature):
    """Raise unless every dyad's probability lies in [0, 1], without an n x n matrix.

    The sparse sampler only evaluates P at its candidate dyads, so an invalid P elsewhere
    would pass unnoticed (or not, depending on the seed). Cheap certificates first: by
    Cauchy-Schwarz P_ij <= rho |x_i| |x_j|, and P_ij >= 0 when q = 0 and X >= 0 (the latent
    positions of SBMs, Dirichlet and most samplers); otherwise an exact scan of all dyads in
    row blocks (O(n^2 d) time, bounded memory).
    """
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    top = np.sort(norms)[-2:] if norms.size > 1 else norms
    upper_ok = sparsity * float(np.prod(top)) <= 1 + _TOL
    lower_ok = bool(np.all(J > 0) and np.all(X >= 0))
    if upper_ok and lower_ok:
        return
    n = X.shape[0]
    XJ = X * (sparsity * J)
    lo, hi = np.inf, -np.inf
    for i0, i1 in row_blocks(n):
        P = XJ[i0:i1] @ X[i0:].T
        P[:, : i1 - i0][np.tril_indices(i1 - i0)] = 0.5  # no dyad: the diagonal and below
        lo, hi = min(lo, float(P.min())), max(hi, float(P.max()))
    if lo < -_TOL or hi > 1 + _TOL:
        raise _out_of_range(lo, hi, signature, sparsity)


def _sparse(X, J, sparsity, rng, signature):
    # Thinning: candidates at the rate bound, each kept with probability P_ij / bound. By
    # Cauchy-Schwarz |<x, I_pq y>| <= |x||y|, so the bound holds for every dyad.
    n = X.shape[0]
    _check_probability_range(X, J, sparsity, signature)
    bound = min(1.0, sparsity * float(np.max(np.einsum("ij,ij->i", X, X))))
    # About 40 bytes a candidate (its index, its pair, its draw), at the candidate rate.
    check_memory(40 * bound * n_dyads(n), f"the candidate edges of a graph on {n} nodes",
                 " Use fewer nodes or a smaller sparsity.")
    # Candidates arrive at `rate` (>= bound, exact geometric gaps): thin at P_ij / rate.
    rate = gap_parameters(bound)[2] if 0 < bound < 1 else bound
    k = bernoulli_positions(rng, bound, n_dyads(n))
    keep_i, keep_j = [], []
    for start in range(0, k.size, 1 << 22):
        i, j = dyad_pairs(k[start:start + (1 << 22)], n)
        P = sparsity * np.einsum("ij,ij->i", X[i] * J, X[j])
        if P.size and (P.min() < -_TOL or P.max() > 1 + _TOL):
            raise _out_of_range(P.min(), P.max(), signature, sparsity)
        accept = rng.random(P.size) * rate < P
        keep_i.append(i[accept])
        keep_j.append(j[accept])
    i = np.concatenate(keep_i) if keep_i else np.empty(0, np.int64)
    j = np.concatenate(keep_j) if keep_j else np.empty(0, np.int64)
    return symmetric_csr(i, j, n)


# Uniforms drawn per kernel call: small enough to stay in cache, large enough that the
# Python overhead of a call (a few microseconds) is negligible.
_CHUNK = 1 << 17


def _kernel_operands(X, J, sparsity, i0, i1):
    """The block's rows ``rho X_i I_pq`` (b, D) and the transposed positions (D, 64 W), padded
    with zeros to ``D`` a multiple of 4 coordinates and to whole words of columns."""
    n, d = X.shape
    D = 4 * max(1, -(-d // 4))
    A = np.zeros((i1 - i0, D))
    A[:, :d] = X[i0:i1] * (sparsity * J)
    BT = np.zeros((D, 64 * -(-n // 64)))
    BT[:d, :n] = X.T
    return A, BT


def sample_packed_block(X, J, sparsity, rng, i0, i1, signature=None):
    """Rows ``i0..i1`` of a gRDPG as packed full-width words, from the block's own stream.

    Each dyad ``(i, j)``, ``j > i``, is an edge when a uniform double of ``rng`` (on the
    grid ``k 2^-53``) is below ``P_ij = sparsity <X_i, I_pq X_j>``: exactly a
    Bernoulli(``P_ij``) draw. The uniforms are drawn row by row over the columns from
    ``64 * ((i0 + 1) // 64)`` on (the words the packed layout stores for the block), so they
    depend on ``rng``, ``X`` and the block alone: a Dask worker sampling this block gets the
    same rows as the process sampling the whole graph. A compiled kernel compares them with
    ``P_ij`` computed on the fly, chunk by chunk: no ``b x n`` array beyond the output.

    Parameters
    ----------
    X : ndarray of float64, shape (n, d)
        Latent positions.
    J : ndarray of shape (d,)
        The diagonal of ``I_pq`` (``+1`` then ``-1``).
    sparsity : float
    rng : numpy.random.Generator or OSRandom
        The block's stream (see :func:`tdadp.utils.block_streams`).
    i0, i1 : int
        The block's rows.
    signature : pair of int, optional
        For the error message only.

    Returns
    -------
    ndarray of uint64, shape (i1 - i0, ceil(n / 64))

    Raises
    ------
    ValueError
        If a probability of the block falls outside [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp import circle
    >>> X = np.asarray(circle(100, random_state=0))
    >>> J = np.ones(X.shape[1])
    >>> words = sample_packed_block(X, J, 1.0, np.random.default_rng(1), 0, 10)
    >>> words.shape, words.dtype
    ((10, 2), dtype('uint64'))
    """
    n = X.shape[0]
    W = -(-n // 64)
    c0 = 64 * ((i0 + 1) // 64)
    b = i1 - i0
    m = n - c0
    A, BT = _kernel_operands(X, J, sparsity, i0, i1)
    full = np.zeros((b, W), dtype=np.uint64)
    lohi = np.array([np.inf, -np.inf])
    fill = isinstance(rng, np.random.Generator)
    # The block's uniforms, row-major over (b, m), in pieces: whole rows when a row fits in a
    # chunk, else word-aligned pieces of a row.
    rows = max(1, _CHUNK // max(m, 1))
    width = min(m, _CHUNK) or 1
    buf = np.empty(min(b * m, _CHUNK))
    for r0 in range(0, b, rows):
        rr = min(rows, b - r0)
        for cstart in range(0, m, width):
            L = min(width, m - cstart)
            if fill:
                U = rng.random(out=buf[:rr * L]).reshape(rr, L)
            else:  # OSRandom draws on the same grid but fills no buffer
                U = np.asarray(rng.random((rr, L)), dtype=np.float64)
            bernoulli_words(A, BT, U, r0, cstart, c0, i0, full, lohi)
    lo, hi = lohi
    if lo < -_TOL or hi > 1 + _TOL:
        raise _out_of_range(lo, hi, signature, sparsity)
    return full


def _packed(X, J, sparsity, rng, signature):
    n = X.shape[0]
    check_memory(n * (n - 1) / 16 + 8 * n, f"a packed graph on {n} nodes")
    out = PackedAdjacency(n)
    streams = block_streams(rng, len(out.block_ranges()))
    return fill_blocks(
        out, lambda i0, i1, g: sample_packed_block(X, J, sparsity, g, i0, i1, signature),
        streams)


_OUTPUTS = ("dense", "sparse", "packed", "auto")

# Share of the memory left that output="auto" lets a dense graph take (as the mechanisms'
# "auto" does) before it samples a packed one.
_AUTO_SHARE = 0.5


def _output(sparse, output):
    if output is None:
        return "sparse" if sparse else "dense"
    check_param(output, [Options(*_OUTPUTS)], "output")
    if sparse and output != "sparse":
        raise ValueError(f"sparse=True and output={output!r} disagree: pass one of them.")
    return output


def _sample_one(X, signature, sparsity, rng, output):
    Xf, (p, q) = latent_matrix(X, signature)
    J = np.r_[np.ones(p), -np.ones(q)]
    Xf = np.ascontiguousarray(Xf)
    n = Xf.shape[0]
    if output == "auto":
        output = "dense" if float(n) * n <= _AUTO_SHARE * available_memory() else "packed"
    if output == "packed":
        return _packed(Xf, J, sparsity, rng, (p, q))
    if output == "sparse":
        return _sparse(Xf, J, sparsity, rng, (p, q))
    check_memory(float(n) * n, f"a dense graph on {n} nodes",
                 ' Pass output="packed" (one bit per dyad), or sparse=True for a sparse graph'
                 " (memory grows with the edges).")
    return _dense(Xf, J, sparsity, rng, (p, q))


def sample_grdpg(X, signature=None, sparsity=1.0, random_state=None, sparse=False,
                 output=None):
    """Sample a generalized random dot-product graph from latent positions.

    Each dyad i < j is an independent Bernoulli(``sparsity * <X_i, I_pq X_j>``) draw; the
    adjacency is symmetric with a zero diagonal.

    Parameters
    ----------
    X : array-like of shape (n, d)
        Latent positions (a :class:`LatentPositions` carries its signature).
    signature : pair of int, optional
        ``(p, q)``; defaults to ``X.signature`` or the RDPG ``(d, 0)``.
    sparsity : float in (0, 1], default=1.0
        Factor rho_n multiplying every probability.
    random_state : None, int, numpy.random.Generator or SeedSequence
    sparse : bool, default=False
        Return a scipy CSR matrix. Sampling then costs time proportional to the number of
        edges (geometric skipping with thinning), which suits large sparse graphs.
    output : {None, "dense", "sparse", "packed", "auto"}, default=None
        The kind of graph; None follows ``sparse``. "packed": a
        :class:`~tdadp.graphs.PackedAdjacency` (one bit per dyad, ``n^2/16`` bytes: 625 MB at
        n = 100,000), sampled block by block, each block from its own stream (see Notes).
        "auto": dense when its ``n^2`` bytes take at most half of the memory left to the
        process, else packed (the rule of the mechanisms' ``output="auto"``).

    Returns
    -------
    A : ndarray of uint8 of shape (n, n), scipy.sparse.csr_matrix or PackedAdjacency

    Raises
    ------
    ValueError
        If a probability falls outside [0, 1], the signature does not match ``d``, or ``X``
        has NaN.

    Notes
    -----
    The dense sampler walks the upper triangle in row blocks: memory beyond the output is
    bounded (about 130 MiB), and no n x n float array is built, so n = 20,000 takes a
    400 MB uint8 output and a few seconds.

    The packed sampler draws each row block from its own stream
    (:func:`tdadp.utils.block_streams`), so any block can be sampled alone, anywhere, with
    the same result (``tdadp.graphs._grdpg.sample_packed_block``, which the Dask recipe runs
    on its workers); a compiled kernel compares the block's uniforms with the probabilities
    computed on the fly (numpy's uniforms are half the cost). Peak memory is the packed graph
    plus the blocks in flight; measured times: the documentation's speed page (``make bench``).

    References
    ----------
    Rubin-Delanchy, Cape, Tang, Priebe, "A statistical interpretation of spectral embedding:
    the generalised random dot product graph", JRSS-B 84 (2022).

    Examples
    --------
    >>> from tdadp import circle, sample_grdpg
    >>> A = sample_grdpg(circle(200, random_state=0), random_state=1)
    >>> A.shape, bool((A == A.T).all()), int(A.diagonal().sum())
    ((200, 200), True, 0)
    """
    sparsity = float(check_param(sparsity, _SPARSITY, "sparsity"))
    check_param(sparse, ["boolean"], "sparse")
    kind = _output(sparse, output)
    rng = check_random_state(random_state, _TAG)
    return _sample_one(X, signature, sparsity, rng, kind)


class GRDPG(ContainerOutputMixin, ParamsMixin, TransformerMixin, BaseEstimator):
    """Generalized random dot-product graph generator, one graph per latent matrix.

    Parameters
    ----------
    signature : pair of int, optional
        ``(p, q)``; by default taken from each input's ``signature`` attribute (as produced
        by :class:`LatentSampler`), else RDPG ``(d, 0)``.
    sparsity : float in (0, 1], default=1.0
        Sparsity factor rho_n multiplying every edge probability.
    sparse : bool, default=False
        Produce scipy CSR matrices instead of dense uint8 arrays.
    output : {None, "dense", "sparse", "packed", "auto"}, default=None
        The kind of graph; None follows ``sparse``. "packed": a
        :class:`~tdadp.graphs.PackedAdjacency` (one bit per dyad), sampled block by block,
        each block from its own stream (the same wherever it is computed). "auto": dense
        when it takes at most half of the memory left, else packed.
    random_state : None, int, numpy.random.Generator or SeedSequence
        Item ``k`` of a batch uses the stream with spawn key ``k``.
    n_jobs : int, optional
        Graphs sampled in parallel (threads); results do not depend on it.

    Attributes
    ----------
    n_features_in_ : int
        Latent dimension of the fitted input (when every fitted matrix has the same).

    See Also
    --------
    sample_grdpg : the function twin.

    References
    ----------
    Rubin-Delanchy, Cape, Tang, Priebe, "A statistical interpretation of spectral embedding:
    the generalised random dot product graph", JRSS-B 84 (2022).

    Examples
    --------
    >>> from tdadp import GRDPG, LatentSampler
    >>> from sklearn.pipeline import make_pipeline
    >>> graphs = make_pipeline(LatentSampler("circle", n_nodes=50, random_state=0),
    ...                        GRDPG(random_state=1)).fit_transform(2)
    >>> len(graphs), graphs[0].shape
    (2, (50, 50))
    """

    _parameter_constraints = {
        "signature": [None, "signature"],
        "sparsity": _SPARSITY,
        "sparse": ["boolean"],
        "output": [None, Options(*_OUTPUTS)],
        "random_state": ["random_state"],
        "n_jobs": ["n_jobs"],
    }

    def __init__(self, signature=None, sparsity=1.0, sparse=False, random_state=None,
                 n_jobs=None, output=None):
        self.signature = signature
        self.sparsity = sparsity
        self.sparse = sparse
        self.output = output
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, X, y=None):
        """Validate the parameters and the latent positions.

        Parameters
        ----------
        X : array-like of shape (n, d) or sequence of them
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        items, _ = _latent_batch(X)
        widths = {latent_matrix(item, self.signature)[0].shape[1] for item in items}
        if len(widths) == 1:
            self.n_features_in_ = widths.pop()
        elif hasattr(self, "n_features_in_"):
            del self.n_features_in_  # a refit on matrices of different dimensions
        return self

    def transform(self, X):
        """Sample one graph per latent matrix.

        Parameters
        ----------
        X : array-like of shape (n, d) or sequence of them

        Returns
        -------
        A : adjacency matrix, or list of them
        """
        self._validate_params()  # transform needs no fit: a sampler has no fitted state
        kind = _output(self.sparse, self.output)
        items, single = _latent_batch(X)
        streams = item_streams(self.random_state, range(len(items)), _TAG)
        out = map_items(
            lambda item, rng: _sample_one(item, self.signature, float(self.sparsity), rng,
                                          kind),
            items, streams, self.n_jobs)
        return join_batch(out, single)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.non_deterministic = self.random_state is None
        # The output is a uint8 graph, whatever the latent positions' dtype.
        tags.transformer_tags.preserves_dtype = []
        return tags
