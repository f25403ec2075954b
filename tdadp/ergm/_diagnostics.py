"""Convergence diagnostics of MCMC draws: effective sample size, R-hat, acceptance, traces.

The exchange algorithm and its private version (:func:`tdadp.ergm.bayes_ergm`) return
autocorrelated draws; how many independent draws they are worth decides every Monte Carlo
error bar. :func:`effective_sample_size` is Geyer's (1992) initial monotone sequence estimator,
in the multi-chain form of Stan (Vehtari, Gelman, Simpson, Carpenter and Buerkner 2021,
without their rank normalization); :func:`split_rhat` is Gelman and Rubin's potential scale
reduction on split chains; :func:`acceptance_summary` reads a posterior's acceptance rates and
:func:`plot_trace` draws the trace and density of each parameter.
"""

from __future__ import annotations

import numpy as np

__all__ = ["effective_sample_size", "split_rhat", "acceptance_summary", "plot_trace"]


def _as_chains(draws, name="draws"):
    """Draws as (n_chains, n_draws, p), and whether the input was a single series (1-D)."""
    x = np.asarray(draws, dtype=np.float64)
    if x.ndim == 1:
        x = x[None, :, None]
    elif x.ndim == 2:
        x = x[None]
    elif x.ndim != 3:
        raise ValueError(f"{name} must be (n_draws,), (n_draws, p) or (n_chains, n_draws, p), "
                         f"got shape {x.shape}.")
    if x.shape[1] < 4:
        raise ValueError(f"{name} need at least 4 draws per chain, got {x.shape[1]}.")
    if not np.isfinite(x).all():
        raise ValueError(f"{name} must be finite.")
    return x


def _autocovariance(x):
    """Biased autocovariances (divided by n) of each row of x (m, n), by FFT."""
    m, n = x.shape
    centred = x - x.mean(axis=1, keepdims=True)
    size = 1 << int(np.ceil(np.log2(2 * n)))
    f = np.fft.rfft(centred, n=size, axis=1)
    return np.fft.irfft(f * np.conj(f), n=size, axis=1)[:, :n] / n


def _ess_one(x):
    """Geyer's initial monotone sequence ESS of the chains x (m, n) of one parameter."""
    m, n = x.shape
    acov = _autocovariance(x)
    mean_var = acov[:, 0].mean() * n / (n - 1)          # W, the within-chain variance
    var_plus = mean_var * (n - 1) / n
    if m > 1:
        var_plus += x.mean(axis=1).var(ddof=1)          # + B / n
    if not var_plus > 0:
        return np.nan                                   # a constant series has no ESS
    rho = 1.0 - (mean_var - acov.mean(axis=0)) / var_plus
    rho[0] = 1.0
    # Initial positive sequence: sum the autocorrelations in pairs (Gamma_k = rho_2k +
    # rho_2k+1, positive for a reversible chain) while the pairs stay positive ...
    pairs = rho[: 2 * ((n - 1) // 2)].reshape(-1, 2).sum(axis=1)
    negative = np.flatnonzero(pairs <= 0)
    k = negative[0] if negative.size else pairs.size
    gam = pairs[:k]
    # ... and make them monotone (Gamma_k is non-increasing for a reversible chain).
    gam = np.minimum.accumulate(gam)
    tau = -1.0 + 2.0 * gam.sum()
    total = m * n
    # Antithetic chains could give tau < 1; cap the ESS at N log10(N) as Stan does.
    tau = max(tau, 1.0 / np.log10(total)) if total > 1 else max(tau, 1.0)
    return total / tau


def effective_sample_size(draws):
    """Effective sample size of each parameter's draws (Geyer's monotone sequence estimator).

    ``ESS = N / tau``, ``tau = 1 + 2 sum_t rho_t`` the integrated autocorrelation time, with
    the autocorrelations summed in consecutive pairs while the pair sums stay positive (the
    initial positive sequence) and forced non-increasing (the initial monotone sequence), which
    for a reversible chain bounds the truncation error (Geyer 1992). With several chains the
    autocorrelations are those of Stan's multi-chain estimator: within-chain autocovariances
    measured against the pooled variance, so that chains that disagree lower the ESS.

    Parameters
    ----------
    draws : array-like of shape (n_draws,), (n_draws, p) or (n_chains, n_draws, p)
        Draws of one chain, or of several chains of equal length.

    Returns
    -------
    ess : float or ndarray of shape (p,)
        A float for a 1-D input; NaN for a constant parameter.

    References
    ----------
    Geyer, "Practical Markov chain Monte Carlo", Statistical Science 7 (1992).
    Vehtari, Gelman, Simpson, Carpenter, Buerkner, "Rank-normalization, folding, and
    localization: an improved R-hat for assessing convergence of MCMC", Bayesian Analysis 16
    (2021).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import effective_sample_size
    >>> rng = np.random.default_rng(0)
    >>> round(effective_sample_size(rng.normal(size=2000)) / 2000, 1)   # independent draws
    1.0
    """
    x = _as_chains(draws)
    out = np.array([_ess_one(x[:, :, k]) for k in range(x.shape[2])])
    return float(out[0]) if np.ndim(draws) == 1 else out


def split_rhat(draws):
    """Potential scale reduction R-hat of each parameter, on chains split in halves.

    Each chain is cut in two, and ``R-hat = sqrt(((n - 1)/n W + B/n) / W)`` compares the
    spread between the half-chains (B) with the spread within them (W): near 1 when the chains
    sample the same distribution, above 1.01 (Vehtari et al. 2021) when they do not yet agree.
    Splitting detects a single chain that drifts.

    Parameters
    ----------
    draws : array-like of shape (n_draws,), (n_draws, p) or (n_chains, n_draws, p)

    Returns
    -------
    rhat : float or ndarray of shape (p,)

    References
    ----------
    Gelman, Rubin, "Inference from iterative simulation using multiple sequences", Statistical
    Science 7 (1992).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import split_rhat
    >>> rng = np.random.default_rng(0)
    >>> bool(abs(split_rhat(rng.normal(size=(4, 500, 1)))[0] - 1) < 0.01)
    True
    """
    x = _as_chains(draws)
    half = x.shape[1] // 2
    halves = np.concatenate([x[:, :half], x[:, x.shape[1] - half:]], axis=0)
    n = halves.shape[1]
    W = halves.var(axis=1, ddof=1).mean(axis=0)
    B = n * halves.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sqrt(((n - 1) / n * W + B / n) / W)
    out = np.where(W > 0, out, np.nan)
    return float(out[0]) if np.ndim(draws) == 1 else out


def acceptance_summary(posterior):
    """The acceptance rates of a posterior's chains, as a dict of arrays (one entry a chain).

    Parameters
    ----------
    posterior : ERGMPosterior

    Returns
    -------
    dict
        ``"parameter"``: the fraction of accepted parameter moves in the kept iterations;
        ``"latent"`` (private inference only): the fraction of accepted toggles of the latent
        graph. An exchange acceptance far below 0.1 means the chain barely moves (a smaller
        proposal, or longer auxiliary runs, help); a latent acceptance near 0 means the latent
        graph is frozen by the release's likelihood and its steps should be more numerous.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import acceptance_summary, bayes_ergm
    >>> A = np.zeros((5, 5), dtype=np.uint8); A[0, 1] = A[1, 0] = A[1, 2] = A[2, 1] = 1
    >>> post = bayes_ergm(["edges"], graph=A, n_iter=50, burn_in=20, aux_steps=50,
    ...                   random_state=0)
    >>> sorted(acceptance_summary(post))
    ['parameter']
    """
    out = {"parameter": np.asarray(posterior.acceptance, dtype=np.float64)}
    latent = getattr(posterior, "latent_acceptance", None)
    if latent is not None:
        out["latent"] = np.asarray(latent, dtype=np.float64)
    return out


def plot_trace(posterior, ax=None, *, names=None, bins=40):
    """Trace and density of each parameter: one row a parameter, chains in their own colours.

    Parameters
    ----------
    posterior : ERGMPosterior or array-like of shape (n_draws, p) or (n_chains, n_draws, p)
        A fitted posterior (its ``chains`` and ``statistic_names`` are used) or raw draws.
    ax : array of matplotlib Axes of shape (p, 2), optional
        Where to draw (column 0 the traces, column 1 the densities); default a new figure.
    names : sequence of str, optional
        Parameter names for raw draws (default ``theta[0]``, ...).
    bins : int, default=40
        Histogram bins of the densities (the chains pooled).

    Returns
    -------
    fig : matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from tdadp.ergm import plot_trace
    >>> fig = plot_trace(np.random.default_rng(0).normal(size=(2, 100, 2)), names=["a", "b"])
    >>> len(fig.axes)
    4
    """
    import matplotlib.pyplot as plt

    if hasattr(posterior, "chains"):
        chains = np.asarray(posterior.chains, dtype=np.float64)
        labels = list(posterior.statistic_names) if names is None else list(names)
        burn_in = int(getattr(posterior, "settings", {}).get("burn_in", 0))
    else:
        chains = _as_chains(posterior)
        labels = [f"theta[{k}]" for k in range(chains.shape[2])] if names is None \
            else list(names)
        burn_in = 0
    H, n, p = chains.shape
    if len(labels) != p:
        raise ValueError(f"{len(labels)} names for {p} parameters.")
    if ax is None:
        fig, axes = plt.subplots(p, 2, figsize=(9, 2.2 * p + 0.6), squeeze=False,
                                 gridspec_kw={"width_ratios": [3, 1]})
    else:
        axes = np.asarray(ax, dtype=object).reshape(-1, 2) if np.size(ax) == 2 * p else None
        if axes is None:
            raise ValueError(f"ax must hold {2 * p} axes ({p} parameters x trace, density), "
                             f"got {np.size(ax)}.")
        fig = axes[0, 0].figure
    iters = burn_in + np.arange(1, n + 1)
    colours = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    for k in range(p):
        tr, de = axes[k, 0], axes[k, 1]
        for h in range(H):
            tr.plot(iters, chains[h, :, k], lw=0.6, alpha=0.8, color=colours[h % len(colours)])
        tr.set_xlabel("iteration (after burn-in)" if burn_in else "iteration")
        tr.set_ylabel(labels[k])
        de.hist(chains[:, :, k].ravel(), bins=bins, density=True, color="0.5",
                orientation="vertical")
        de.axvline(chains[:, :, k].mean(), color="k", lw=1)
        de.set_xlabel(labels[k])
        de.set_ylabel("posterior density")
    axes[0, 0].set_title("trace" + (f" ({H} chains)" if H > 1 else ""))
    axes[0, 1].set_title("density (pooled)")
    if ax is None:
        fig.tight_layout()
    return fig
