"""Compiled Metropolis-Hastings steps for ERGMs (numba), with incremental change statistics.

One step proposes to toggle a dyad with the tie/no-tie (TNT) proposal of ergm and Bergm:
with probability 1/2 a uniformly chosen edge, else a uniformly chosen dyad (always a dyad
when the graph has no edge), and accepts with the Metropolis-Hastings ratio

    exp(theta . delta) * q(toggle | x') / q(toggle | x) * obs(x') / obs(x),

``delta = s(x') - s(x)`` the change statistics of the toggle and ``obs`` the likelihood of
released data given the graph (none for plain ERGM sampling). Toggles that would leave the
bounded-degree class H_k are rejected (the target is then the ERGM restricted to H_k).

State kept between steps (``ERGMChain`` owns it): the adjacency matrix, degrees, neighbour
lists with each neighbour's position (O(1) removal), an edge list with each edge's position
(uniform edge proposals), the degree histogram, and, when a term needs it, the matrix of
shared partners L, updated in O(degree) per accepted toggle, so that every change statistic
costs O(degree): the alternating k-triangles read L on the common neighbours of the toggled
dyad, the alternating k-two-paths on the neighbours of either end.

Change statistics of adding the edge ij to a graph without it (d, L of that graph,
r = 1 - 1/decay; see :mod:`tdadp.ergm._terms` for the statistics; the kernels read ``r^t``
and ``1 - r^t`` from tables, ``powers`` and ``omr``, that :func:`tdadp.ergm._terms.rho_tables`
computes without cancellation for any decay):

- altkstars: ``decay (1 - r^d_i) + decay (1 - r^d_j)``;
- altktriangles: ``decay (1 - r^L_ij) + sum_{m in N(i) & N(j)} (r^L_im + r^L_jm)``: the new
  edge's own term, and each edge im, jm gaining the shared partner j, i;
- altktwopaths: ``sum_{m in N(j) - i} r^L_im + sum_{m in N(i) - j} r^L_jm``;
- gwdegree: ``r^d_i + r^d_j`` (each end's ``lambda (1 - r^d)`` grows by ``r^d``);
- labelled terms: the new edge's own count, at the statistic its ends' levels name.

Removing an edge changes s by minus the change of adding it back, computed on the graph
without it (its degrees and shared partners are one lower where the edge ij counted).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["run_chain", "change_statistics", "dyad_design", "obs_loglik", "smooth_factor",
           "shared_partners", "OBS_NONE", "OBS_LAPLACE", "OBS_CAUCHY",
           "OBS_SMOOTH_CAUCHY", "OBS_FLIP"]

OBS_NONE, OBS_LAPLACE, OBS_CAUCHY, OBS_SMOOTH_CAUCHY, OBS_FLIP = 0, 1, 2, 3, 4

_EDGES, _KSTARS, _KTRI, _KTWO, _MATCH, _FACTOR, _MIX, _GWDEG = 0, 1, 2, 3, 4, 5, 6, 7


@njit(cache=True, nogil=True)
def shared_partners(indptr, indices, n_edges):  # pragma: no cover - compiled
    """Shared partners of a graph from its CSR arrays (symmetric, no diagonal, sorted indices).

    Row by row: the two-paths i - m - j (j > i) from i are counted in one array of n counters
    (reset after the row), so memory is O(n + edges) and time O(sum of squared degrees): no
    n x n matrix.

    Returns
    -------
    edge_L : int64 array of shape (n_edges,)
        ``L_ij`` of each edge i < j, edges in row-major order (i, then j increasing).
    hist : int64 array of shape (n,)
        ``hist[t]`` dyads i < j with ``L_ij = t``, for ``t >= 1`` (``hist[0]`` is 0: the
        dyads without a shared partner are not counted).
    """
    n = indptr.shape[0] - 1
    acc = np.zeros(n, np.int64)
    touched = np.empty(n, np.int64)
    edge_L = np.zeros(n_edges, np.int64)
    hist = np.zeros(max(n, 1), np.int64)
    e = 0
    for i in range(n):
        nt = 0
        for a in range(indptr[i], indptr[i + 1]):
            m = indices[a]
            for b in range(indptr[m], indptr[m + 1]):
                j = indices[b]
                if j > i:
                    if acc[j] == 0:
                        touched[nt] = j
                        nt += 1
                    acc[j] += 1
        for a in range(indptr[i], indptr[i + 1]):
            j = indices[a]
            if j > i and e < n_edges:
                edge_L[e] = acc[j]
                e += 1
        for t in range(nt):
            j = touched[t]
            hist[acc[j]] += 1
            acc[j] = 0
    return edge_L, hist


@njit(cache=True, nogil=True)
def change_statistics(i, j, adj, deg, L, nbr, labels, lcol, ptab, etab, codes, offsets,
                      powers, omr, decays, out):  # pragma: no cover - compiled
    """``s(x + ij) - s(x - ij)`` into ``out`` (zeroed first), from the current state.

    ``powers[t, L] = r^L`` and ``omr[t, L] = 1 - r^L`` for the decay of term t. A labelled
    term t reads level codes from column ``lcol[t]`` of ``labels`` and its tables ``ptab``,
    ``etab`` (see :meth:`tdadp.ergm.ERGMTerms.label_arrays`).
    """
    e = adj[i, j]
    out[:] = 0.0
    di = deg[i] - e
    dj = deg[j] - e
    for t in range(codes.shape[0]):
        c = codes[t]
        o = offsets[t]
        if c == _EDGES:
            out[o] = 1.0
        elif c == _KSTARS:
            out[o] = decays[t] * (omr[t, di] + omr[t, dj])
        elif c == _KTRI:
            v = decays[t] * omr[t, L[i, j]]
            for a in range(deg[i]):
                m = nbr[i, a]
                if m != j and adj[j, m]:
                    v += powers[t, L[i, m] - e] + powers[t, L[j, m] - e]
            out[o] = v
        elif c == _KTWO:
            v = 0.0
            for a in range(deg[j]):
                m = nbr[j, a]
                if m != i:
                    v += powers[t, L[i, m] - e]
            for a in range(deg[i]):
                m = nbr[i, a]
                if m != j:
                    v += powers[t, L[j, m] - e]
            out[o] = v
        elif c == _GWDEG:
            out[o] = powers[t, di] + powers[t, dj]
        elif _MATCH <= c <= _MIX:  # the labelled terms
            k = lcol[t]
            a = labels[i, k]
            b = labels[j, k]
            idx = ptab[k, a, b]
            if idx >= 0:
                out[o + idx] += 1.0
            idx = etab[k, a]
            if idx >= 0:
                out[o + idx] += 1.0
            idx = etab[k, b]
            if idx >= 0:
                out[o + idx] += 1.0


@njit(cache=True, nogil=True)
def dyad_design(adj, deg, L, nbr, labels, lcol, ptab, etab, codes, offsets, powers, omr,
                decays, p):  # pragma: no cover - compiled
    """Change statistics ``s(x + ij) - s(x - ij)`` and the value of every dyad i < j."""
    n = adj.shape[0]
    X = np.zeros((n * (n - 1) // 2, p))
    y = np.zeros(n * (n - 1) // 2)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            change_statistics(i, j, adj, deg, L, nbr, labels, lcol, ptab, etab, codes,
                              offsets, powers, omr, decays, X[k])
            y[k] = adj[i, j]
            k += 1
    return X, y


@njit(cache=True, nogil=True)
def _toggle(i, j, adj, deg, L, use_L, nbr, pos, elist, eid, ne, hist):  # pragma: no cover
    """Toggle ij in every structure (L before the lists change: it reads the neighbours)."""
    e = adj[i, j]
    step = -1 if e else 1
    if use_L:
        for a in range(deg[j]):
            m = nbr[j, a]
            if m != i:
                L[i, m] += step
                L[m, i] += step
        for a in range(deg[i]):
            m = nbr[i, a]
            if m != j:
                L[j, m] += step
                L[m, j] += step
    hist[deg[i]] -= 1
    hist[deg[j]] -= 1
    if e:
        for u, w in ((i, j), (j, i)):
            p = pos[u, w]
            last = nbr[u, deg[u] - 1]
            nbr[u, p] = last
            pos[u, last] = p
            deg[u] -= 1
        a, b = (i, j) if i < j else (j, i)
        k = eid[a, b]
        last = ne[0] - 1
        la, lb = elist[last, 0], elist[last, 1]
        elist[k, 0] = la
        elist[k, 1] = lb
        eid[la, lb] = k
        ne[0] = last
        adj[i, j] = 0
        adj[j, i] = 0
    else:
        for u, w in ((i, j), (j, i)):
            nbr[u, deg[u]] = w
            pos[u, w] = deg[u]
            deg[u] += 1
        a, b = (i, j) if i < j else (j, i)
        k = ne[0]
        elist[k, 0] = a
        elist[k, 1] = b
        eid[a, b] = k
        ne[0] = k + 1
        adj[i, j] = 1
        adj[j, i] = 1
    hist[deg[i]] += 1
    hist[deg[j]] += 1


@njit(cache=True, nogil=True)
def smooth_factor(hist, n_nodes, k, beta):  # pragma: no cover - compiled
    """max_s e^(-beta s) (1 + s + #{w : deg(w) in [k - s, k + 1 + s]}) on the histogram.

    Called at every proposed toggle of a smooth-Cauchy chain, so it walks the window only
    until it holds all ``n_nodes`` nodes; past that the terms are ``e^(-beta s) (1 + s + n)``,
    unimodal with its peak at ``s* = 1/beta - 1 - n``, so the integers around ``s*`` finish
    the maximum (no loop to 1/beta, which small betas made long).
    """
    n_bins = hist.shape[0]
    count = 0
    lo = k
    hi = k + 1
    if lo < n_bins:
        count += hist[lo]
    if hi < n_bins:
        count += hist[hi]
    best = 1.0 + count
    s = 0
    gap = lo - n_bins
    if gap > 0:
        # k beyond every degree: for s = 1..gap the window holds no node (count 0), and
        # e^(-beta s) (1 + s) peaks at 1/beta - 1, so that point (clamped) and the ends
        # stand for the whole stretch (no loop of length k).
        c_star = min(max(1.0 / beta - 1.0, 1.0), float(gap))
        for c in (1.0, np.floor(c_star), np.ceil(c_star), float(gap)):
            val = math.exp(-beta * c) * (1.0 + c + count)
            if val > best:
                best = val
        s = gap
        lo -= gap
        hi += gap
    while count < n_nodes:
        s += 1
        lo -= 1
        hi += 1
        if lo >= 0:
            count += hist[lo]
        if hi < n_bins:
            count += hist[hi]
        val = math.exp(-beta * s) * (1.0 + s + count)
        if val > best:
            best = val
    s_star = 1.0 / beta - 1.0 - n_nodes
    if s_star > s:
        # floats: the peak may lie beyond int64 when beta is tiny
        for c in (np.floor(s_star), np.ceil(s_star)):
            if c > s:
                val = math.exp(-beta * c) * (1.0 + c + n_nodes)
                if val > best:
                    best = val
    return best


@njit(cache=True, nogil=True)
def obs_loglik(kind, stats, obs_values, obs_scales, obs_sens, smooth):  # pragma: no cover
    """Log-likelihood of released statistics given the graph's statistics (up to a constant)."""
    v = 0.0
    if kind == OBS_LAPLACE:
        for t in range(stats.shape[0]):
            b = obs_scales[t]
            if b > 0.0:
                v -= abs(obs_values[t] - stats[t]) / b
    elif kind == OBS_CAUCHY:
        for t in range(stats.shape[0]):
            b = obs_scales[t]
            if b > 0.0:
                z = (obs_values[t] - stats[t]) / b
                v -= math.log1p(z * z)
    elif kind == OBS_SMOOTH_CAUCHY:
        for t in range(stats.shape[0]):
            b = obs_sens[t] * smooth
            if b > 0.0:
                z = (obs_values[t] - stats[t]) / b
                v -= math.log(b) + math.log1p(z * z)
    return v


@njit(cache=True, nogil=True)
def run_chain(adj, deg, L, use_L, nbr, pos, elist, eid, ne, hist, stats, labels, lcol, ptab,
              etab, codes, offsets, powers, omr, decays, theta, n_steps, seed, max_degree,
              obs_kind, obs_values, obs_scales, obs_sens, smooth_k, smooth_beta,
              flip_z, flip_logodds, thin, trace):  # pragma: no cover - compiled
    """``n_steps`` MH steps in place; returns the number accepted.

    ``max_degree < 0``: no degree bound. ``obs_kind``: OBS_NONE, OBS_LAPLACE (``obs_values``
    released with Laplace scales ``obs_scales``), OBS_CAUCHY (fixed Cauchy scales),
    OBS_SMOOTH_CAUCHY (Cauchy scales ``obs_sens * S(x)``, ``S`` the smooth factor of the
    degree histogram at ``smooth_k``, ``smooth_beta``, divided by alpha in ``obs_sens``),
    OBS_FLIP (``flip_z`` an edgeFlip release, log-odds ``log((1 - pi) / pi)``).
    Every ``thin`` steps the statistics are written to the next row of ``trace`` (when
    ``thin > 0``). ``seed < 0`` continues the thread's generator where the last call on this
    thread left it: a run cut into chunks (to report progress) draws what one call would.
    """
    # Compiled code cannot take a numpy Generator: numba keeps its own generator per thread,
    # seeded here from the caller's Generator, so a chain is reproducible from its stream.
    if seed >= 0:
        np.random.seed(seed)  # noqa: NPY002
    n = adj.shape[0]
    n_dyads = n * (n - 1) / 2.0
    p = stats.shape[0]
    delta = np.empty(p)
    proposed = np.empty(p)
    accepted = 0
    row = 0
    smooth = 0.0
    if obs_kind == OBS_SMOOTH_CAUCHY:
        smooth = smooth_factor(hist, n, smooth_k, smooth_beta)
    cur_obs = obs_loglik(obs_kind, stats, obs_values, obs_scales, obs_sens, smooth)
    for step in range(n_steps):
        m = ne[0]
        if m == 0 or np.random.random() < 0.5:  # noqa: NPY002
            i = np.random.randint(0, n)  # noqa: NPY002
            j = np.random.randint(0, n - 1)  # noqa: NPY002
            if j >= i:
                j += 1
        else:
            k = np.random.randint(0, m)  # noqa: NPY002
            i = elist[k, 0]
            j = elist[k, 1]
        e = adj[i, j]
        if e == 0 and max_degree >= 0 and (deg[i] >= max_degree or deg[j] >= max_degree):
            pass
        else:
            change_statistics(i, j, adj, deg, L, nbr, labels, lcol, ptab, etab, codes,
                              offsets, powers, omr, decays, delta)
            sign = -1.0 if e else 1.0
            log_ratio = 0.0
            for t in range(p):
                log_ratio += sign * theta[t] * delta[t]
            q_fwd = (0.5 * e / m + 0.5 / n_dyads) if m > 0 else 1.0 / n_dyads
            m_new = m + (1 - 2 * e)
            q_bwd = (0.5 * (1 - e) / m_new + 0.5 / n_dyads) if m_new > 0 else 1.0 / n_dyads
            log_ratio += math.log(q_bwd) - math.log(q_fwd)
            new_obs = 0.0
            new_smooth = smooth
            if obs_kind == OBS_FLIP:
                log_ratio += flip_logodds if (1 - e) == flip_z[i, j] else -flip_logodds
            elif obs_kind != OBS_NONE:
                for t in range(p):
                    proposed[t] = stats[t] + sign * delta[t]
                if obs_kind == OBS_SMOOTH_CAUCHY:
                    # the degree histogram after the toggle, for the data-dependent scale
                    di, dj = deg[i], deg[j]
                    dn = 1 - 2 * e
                    hist[di] -= 1
                    hist[dj] -= 1
                    hist[di + dn] += 1
                    hist[dj + dn] += 1
                    new_smooth = smooth_factor(hist, n, smooth_k, smooth_beta)
                    hist[di + dn] -= 1
                    hist[dj + dn] -= 1
                    hist[di] += 1
                    hist[dj] += 1
                new_obs = obs_loglik(obs_kind, proposed, obs_values, obs_scales, obs_sens,
                                      new_smooth)
                log_ratio += new_obs - cur_obs
            if log_ratio >= 0.0 or np.random.random() < math.exp(log_ratio):  # noqa: NPY002
                _toggle(i, j, adj, deg, L, use_L, nbr, pos, elist, eid, ne, hist)
                for t in range(p):
                    stats[t] += sign * delta[t]
                cur_obs = new_obs
                smooth = new_smooth
                accepted += 1
        if thin > 0 and (step + 1) % thin == 0 and row < trace.shape[0]:
            for t in range(p):
                trace[row, t] = stats[t]
            row += 1
    return accepted
